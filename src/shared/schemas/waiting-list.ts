import { LANGUAGES } from "../i18n/languages";
import { emailField, requiredText } from "./applicant";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Request and response shapes of the waiting list of a full cohort (docs/product/admissions.md#waiting-list;
 * decision 027). Dates are ISO 8601 timestamps (UTC); ids UUIDs. Parsed by the API routes; the
 * answers' schemas are the contracts' (src/shared/api/waiting-list.ts).
 */

/** A token of an e-mailed link (offer or leave): base64url, 43 characters when we made it. */
const linkToken = line({ error: V.required }).min(16, { error: V.required }).max(200, { error: V.tooLong });

/**
 * `POST /api/waiting-list/:cohortId` (the join form): name, e-mail, the language of the e-mails,
 * consent to keep them until the cohort starts (required), and `website`, a honeypot field people
 * never see: anything in it and the answer is the same as for everyone, with nothing stored.
 */
export const waitingListJoinSchema = z.object({
  name: requiredText(200),
  email: emailField,
  language: z.enum(LANGUAGES, { error: V.invalidChoice }),
  consent: z.literal(true, { error: V.waitingListConsent }),
  website: line().max(300, { error: V.tooLong }).optional().default(""),
});
export type WaitingListJoinInput = z.input<typeof waitingListJoinSchema>;

/** `POST /api/waiting-list/leave` and `POST /api/waiting-list/offers/accept`: the token of the e-mailed link. */
export const waitingListTokenSchema = z.object({ token: linkToken });

/** The states of a place on a waiting list. */
export const WAITING_LIST_STATUSES = [
  "waiting",
  "offered",
  "enrolled",
  "expired",
  "left",
  "removed",
] as const;

/** `POST /api/admin/waiting-list/:entryId/move`: the new 1-based place among the people waiting. */
export const waitingListMoveSchema = z.object({
  place: z.number({ error: V.required }).int({ error: V.invalidChoice }).min(1, { error: V.invalidChoice }),
});
