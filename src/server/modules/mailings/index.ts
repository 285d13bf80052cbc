/**
 * The mailings module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Messages to people by filter from the back office: cohorts, application and payment
 * statuses, waiting lists, the newsletter. Other modules use nothing of it: app.ts builds the
 * service and registers its routes, main.ts schedules its queuing job.
 */
export { forgetUnqueuedRecipient, MailingService } from "./service";
