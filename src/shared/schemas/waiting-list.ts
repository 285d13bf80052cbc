import { LANGUAGES } from "../i18n/languages";
import { emailField, requiredText } from "./applicant";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Request and response shapes of the waiting list of a full cohort (issue 13 "Waiting list";
 * decision 027). Dates are ISO 8601 timestamps (UTC); ids UUIDs. Parsed by the API routes and, for
 * the answers, by the browser with `apiParsed`.
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

/** The answer to joining, whether or not the address was already on the list (no account probing). */
export const waitingListJoinedSchema = z.object({ status: z.literal("received") });
export type WaitingListJoined = z.output<typeof waitingListJoinedSchema>;

/** `POST /api/waiting-list/leave` and `POST /api/waiting-list/offers/accept`: the token of the e-mailed link. */
export const waitingListTokenSchema = z.object({ token: linkToken });

/** `POST /api/waiting-list/leave` → the same answer for a valid, used or unknown link. */
export const waitingListLeftSchema = z.object({ status: z.literal("left") });

/**
 * `POST /api/waiting-list/offers/accept` → the offer the link holds: the cohort it is for and
 * until when the place is held. `open` false when it lapsed, was withdrawn or was used up (the page
 * then says so, and that the person is no longer holding a place).
 */
export const waitingListOfferSchema = z.object({
  summerSchoolId: z.uuid(),
  programName: lines(),
  startDate: lines(),
  endDate: lines(),
  expiresAt: lines(),
  open: z.boolean(),
});
export type WaitingListOffer = z.output<typeof waitingListOfferSchema>;

export const WAITING_LIST_STATUSES = [
  "waiting",
  "offered",
  "enrolled",
  "expired",
  "left",
  "removed",
] as const;

/** One person on a cohort's waiting list as the back office sees it. */
export const adminWaitingListEntrySchema = z.object({
  id: z.uuid(),
  /** 1-based place in line among the people still waiting; null once offered, enrolled or gone. */
  place: z.number().int().min(1).nullable(),
  name: lines(),
  email: lines(),
  language: z.enum(LANGUAGES),
  status: z.enum(WAITING_LIST_STATUSES),
  joinedAt: lines(),
  offeredAt: lines().nullable(),
  offerExpiresAt: lines().nullable(),
  /** Whether an admin sent the offer by hand. */
  offeredByHand: z.boolean(),
  applicationId: z.uuid().nullable(),
});
export type AdminWaitingListEntry = z.output<typeof adminWaitingListEntrySchema>;

/**
 * `GET /api/admin/summer-schools/:id/waiting-list`: the entries in line order (waiting people by
 * place, then open offers, then the others newest first) and the cohort's places: capacity, paid,
 * held by open offers and by open checkouts, and free.
 */
export const adminWaitingListSchema = z.object({
  entries: z.array(adminWaitingListEntrySchema),
  places: z.object({
    capacity: z.number().int().min(0),
    paid: z.number().int().min(0),
    offers: z.number().int().min(0),
    checkouts: z.number().int().min(0),
    free: z.number().int(),
  }),
  offerHours: z.number().int().min(1),
});
export type AdminWaitingList = z.output<typeof adminWaitingListSchema>;

/** `POST /api/admin/waiting-list/:entryId/move`: the new 1-based place among the people waiting. */
export const waitingListMoveSchema = z.object({
  place: z.number({ error: V.required }).int({ error: V.invalidChoice }).min(1, { error: V.invalidChoice }),
});
