import { APPLICATION_STATUSES, PAYMENT_STATUSES } from "../statuses";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Messages to people from the back office (docs/product/back-office.md#messages): one message in up
 * to three languages to the people a filter picks. A "mailing" is one such message and its
 * recipients.
 */

/** The longest subject, in characters. */
export const MAILING_SUBJECT_MAX = 200;
/** The longest text of one language, in characters. */
export const MAILING_BODY_MAX = 20_000;

/**
 * Who receives it:
 * - `applicants`: the applications of a cohort (or of every cohort), of one application status and
 *   one payment status (`deposit_paid`: the deposit is paid and the balance is due). Without a
 *   status, every application but the rejected, withdrawn and cancelled ones;
 * - `waitingList`: the people waiting for a place in a cohort;
 * - `newsletter`: the confirmed newsletter subscribers (only they; the e-mail carries a one-click
 *   unsubscribe).
 * A person is written to once per message, however many of their applications match.
 */
export const mailingAudienceSchema = z.discriminatedUnion("kind", [
  z.object({
    kind: z.literal("applicants"),
    cohortId: z.uuid({ error: V.invalidChoice }).optional(),
    status: z.enum(APPLICATION_STATUSES, { error: V.invalidChoice }).optional(),
    payment: z.enum(PAYMENT_STATUSES, { error: V.invalidChoice }).optional(),
  }),
  z.object({ kind: z.literal("waitingList"), cohortId: z.uuid({ error: V.invalidChoice }) }),
  z.object({ kind: z.literal("newsletter") }),
]);

export type MailingAudience = z.output<typeof mailingAudienceSchema>;

const subjectField = line().max(MAILING_SUBJECT_MAX, { error: V.tooLong });
const bodyField = lines().max(MAILING_BODY_MAX, { error: V.tooLong });

/**
 * The message: a subject and a text per language. English is required; Chinese and French are
 * optional ("" or absent: those readers get the English). The text is plain text with a few
 * conventions the e-mail layout renders: an empty line between paragraphs, lines starting with
 * "- " (or "1. ") as a list, `[words](https://…)` as a link; web addresses become links. No HTML.
 */
export const mailingContentSchema = z.object({
  subject: z.object({
    en: subjectField.min(1, { error: V.required }),
    zh: subjectField.default(""),
    fr: subjectField.default(""),
  }),
  body: z.object({
    en: bodyField.min(1, { error: V.required }),
    zh: bodyField.default(""),
    fr: bodyField.default(""),
  }),
});

export type MailingContent = z.output<typeof mailingContentSchema>;
export type MailingContentInput = z.input<typeof mailingContentSchema>;

/** `POST /api/admin/mailings/preview` and `/test`: a message and its recipients' filter. */
export const mailingDraftSchema = z.object({
  audience: mailingAudienceSchema,
  content: mailingContentSchema,
});

export type MailingDraft = z.output<typeof mailingDraftSchema>;

/**
 * `POST /api/admin/mailings`: sends a message. `id` is chosen by the browser when the form opens
 * (a UUID): sending twice with one id (a double click, a retry after a lost answer) sends once.
 */
export const sendMailingSchema = mailingDraftSchema.extend({ id: z.uuid({ error: V.invalidChoice }) });
