import { LANGUAGES } from "../i18n/languages";
import {
  mailingAudienceSchema,
  mailingContentSchema,
  mailingDraftSchema,
  sendMailingSchema,
} from "../schemas/mailings";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * Messages to people from the back office (docs/product/back-office.md#messages; permission
 * `messages:write`: owners and admissions). Instants are ISO 8601 UTC.
 */

const count = z.number().int().nonnegative();

/** How many people a filter picks now, in all and per e-mail language. */
export const mailingRecipientCountSchema = z.object({ total: count, en: count, zh: count, fr: count });

/** A message as one language's readers get it (the school's footer is added when it is queued). */
export const mailingRenderingSchema = z.object({
  language: z.enum(LANGUAGES),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  /** True when this language has no text of its own and its readers get the English. */
  fallback: z.boolean(),
});

/** `POST /api/admin/mailings/preview` → the recipients' count and the message in each language. */
export const mailingPreviewSchema = z.object({
  recipients: mailingRecipientCountSchema,
  previews: z.array(mailingRenderingSchema),
});

/** `POST /api/admin/mailings/test` → where the test went: the writer's address, one e-mail per language. */
export const mailingTestSchema = z.object({
  to: z.string(),
  languages: z.array(z.enum(LANGUAGES)),
});

/**
 * One sent message in the list. `counts`: `waiting` not yet handed to the mail server (throttled
 * at MAIL_RATE_PER_MINUTE, or being retried), `sent` accepted by it, `failed` given up after five
 * attempts. `queuedAt`: when every recipient had an e-mail in the outbox (null while queuing).
 */
export const mailingSummarySchema = z.object({
  id: z.uuid(),
  kind: z.enum(["service", "newsletter"]),
  audience: mailingAudienceSchema,
  /** The cohort of the filter, in the reader's language of the back office; null for none. */
  cohortName: z.string().nullable(),
  /** The English subject. */
  subject: z.string(),
  createdAt: z.iso.datetime(),
  /** The admin who sent it (their e-mail address). */
  createdBy: z.string(),
  recipients: count,
  counts: z.object({ waiting: count, sent: count, failed: count }),
  queuedAt: z.iso.datetime().nullable(),
});

/** One sent message with its texts. */
export const mailingDetailSchema = mailingSummarySchema.extend({ content: mailingContentSchema });

/** A cohort a message may name: every cohort, past and archived ones included, newest first. */
export const mailingCohortSchema = z.object({
  id: z.uuid(),
  /** In the language of the request. */
  name: z.string(),
  /** yyyy-mm-dd. */
  startDate: z.iso.date(),
  archived: z.boolean(),
});

export type MailingPreviewDto = z.output<typeof mailingPreviewSchema>;
export type MailingSummaryDto = z.output<typeof mailingSummarySchema>;
export type MailingDetailDto = z.output<typeof mailingDetailSchema>;

/** `POST /api/admin/mailings/preview`: how many people the filter picks and the message per language. Nothing is stored. */
export const previewMailingContract = contract({
  method: "POST",
  path: "/api/admin/mailings/preview",
  access: "admin",
  summary: "Count the recipients of a message and render it in each language",
  body: mailingDraftSchema,
  response: mailingPreviewSchema,
});

/** `POST /api/admin/mailings/test`: the message to the writer's own address, once per language. */
export const testMailingContract = contract({
  method: "POST",
  path: "/api/admin/mailings/test",
  access: "admin",
  summary: "Send a message to yourself in each language",
  body: mailingDraftSchema,
  status: 202,
  response: mailingTestSchema,
});

/** `POST /api/admin/mailings`: sends a message (201; 200 with the same message for an id already sent). */
export const sendMailingContract = contract({
  method: "POST",
  path: "/api/admin/mailings",
  access: "admin",
  summary: "Send a message to the people a filter picks",
  body: sendMailingSchema,
  status: 201,
  response: mailingDetailSchema,
});

/** `GET /api/admin/mailings`: the sent messages, newest first, with their counts. */
export const listMailingsContract = contract({
  method: "GET",
  path: "/api/admin/mailings",
  access: "admin",
  summary: "The messages sent, with their counts",
  response: z.array(mailingSummarySchema),
});

/** `GET /api/admin/mailings/:id`: one sent message with its texts and counts; 404 when unknown. */
export const getMailingContract = contract({
  method: "GET",
  path: "/api/admin/mailings/:id",
  access: "admin",
  summary: "One sent message",
  params: idParams,
  response: mailingDetailSchema,
});

/** `GET /api/admin/mailings/cohorts`: the cohorts a message may name (messages:write; the catalogue's own list needs catalogue:write). */
export const listMailingCohortsContract = contract({
  method: "GET",
  path: "/api/admin/mailings/cohorts",
  access: "admin",
  summary: "The cohorts a message may be written to",
  response: z.array(mailingCohortSchema),
});

/** Every contract of this area. */
export const MAILING_CONTRACTS = [
  previewMailingContract,
  testMailingContract,
  sendMailingContract,
  listMailingsContract,
  getMailingContract,
  listMailingCohortsContract,
];
