/**
 * The mail module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The e-mail outbox: queueing, sending, recipients, the shared templates.
 */

export { confirmationEmailStep, type DescribePaidApplication } from "./fulfilment";
export { type EmailBlock, type Inline, paragraphs, type RenderedEmail, renderEmail } from "./layout";
export { addressedTo, recipientFor } from "./recipient";
export type { MailService } from "./service";
export { balancePaidEmail, confirmationEmail, withDocumentHead } from "./templates";
