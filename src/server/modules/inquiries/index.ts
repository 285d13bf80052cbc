/**
 * The inquiries module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). The public forms (partnership inquiries, messages, newsletter) and the back office's
 * inbox. The mailings module uses the newsletter's unsubscribe link and headers.
 */
export { listUnsubscribeHeaders, unsubscribeUrl } from "./service";
