import { LANGUAGES } from "../i18n/languages";
import {
  WAITING_LIST_STATUSES,
  waitingListJoinSchema,
  waitingListMoveSchema,
  waitingListTokenSchema,
} from "../schemas/waiting-list";
import { z } from "../schemas/zod";
import { idParams, noContent } from "./common";
import { contract } from "./contract";

/**
 * The waiting list of a full cohort (docs/product/admissions.md#waiting-list; decision 027): joining, leaving and
 * opening an offer through an e-mailed link, and the back office's list of a cohort. Dates are
 * ISO 8601 timestamps (UTC); ids UUIDs.
 */

/** The answer to joining, whether or not the address was already on the list (no account probing). */
export const waitingListJoinedSchema = z.object({ status: z.literal("received") });
export type WaitingListJoined = z.output<typeof waitingListJoinedSchema>;

/** The answer to leaving: the same for a valid, used or unknown link. */
export const waitingListLeftSchema = z.object({ status: z.literal("left") });

/**
 * The offer an e-mailed link holds: the cohort it is for and until when the place is held. `open`
 * false when it lapsed, was withdrawn or was used up (the page then says so).
 */
export const waitingListOfferSchema = z.object({
  summerSchoolId: z.uuid(),
  programName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  expiresAt: z.string(),
  open: z.boolean(),
});
export type WaitingListOffer = z.output<typeof waitingListOfferSchema>;

/** One person on a cohort's waiting list as the back office sees it. */
export const adminWaitingListEntrySchema = z.object({
  id: z.uuid(),
  /** 1-based place in line among the people still waiting; null once offered, enrolled or gone. */
  place: z.number().int().min(1).nullable(),
  name: z.string(),
  email: z.string(),
  language: z.enum(LANGUAGES),
  status: z.enum(WAITING_LIST_STATUSES),
  joinedAt: z.string(),
  offeredAt: z.string().nullable(),
  offerExpiresAt: z.string().nullable(),
  /** Whether an admin sent the offer by hand. */
  offeredByHand: z.boolean(),
  applicationId: z.uuid().nullable(),
});
export type AdminWaitingListEntry = z.output<typeof adminWaitingListEntrySchema>;

/**
 * A cohort's waiting list: the entries in line order (waiting people by place, then open offers,
 * then the others newest first) and the cohort's places: capacity, paid, held by open offers and
 * by open checkouts, and free.
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

/**
 * `POST /api/waiting-list/:cohortId`: join a full cohort's list → 202 `{ status: "received" }`
 * whatever happened. 400 with field messages; 404 for an unknown, archived or started cohort; 429.
 */
export const joinWaitingListContract = contract({
  method: "POST",
  path: "/api/waiting-list/:cohortId",
  access: "public",
  summary: "Join the waiting list of a full cohort",
  params: z.object({ cohortId: z.uuid() }),
  body: waitingListJoinSchema,
  status: 202,
  response: waitingListJoinedSchema,
});

/** `POST /api/waiting-list/leave` `{ token }` → `{ status: "left" }` for any token; 429. */
export const leaveWaitingListContract = contract({
  method: "POST",
  path: "/api/waiting-list/leave",
  access: "public",
  summary: "Leave a waiting list through the e-mailed link",
  body: waitingListTokenSchema,
  response: waitingListLeftSchema,
});

/**
 * `POST /api/waiting-list/offers/accept` `{ token }` → the offer; sets the offer cookie while it is
 * open. 404 `errors.waitingList.offerUnknown` for an unknown token; 429.
 */
export const acceptWaitingListOfferContract = contract({
  method: "POST",
  path: "/api/waiting-list/offers/accept",
  access: "public",
  summary: "Open a waiting-list offer through the e-mailed link",
  body: waitingListTokenSchema,
  response: waitingListOfferSchema,
});

/** `GET /api/admin/summer-schools/:id/waiting-list`: the cohort's list and places (applications:read); 404 unknown. */
export const getAdminWaitingListContract = contract({
  method: "GET",
  path: "/api/admin/summer-schools/:id/waiting-list",
  access: "admin",
  summary: "A cohort's waiting list and places",
  params: idParams,
  response: adminWaitingListSchema,
});

/** `POST /api/admin/waiting-list/:id/move` `{ place }` → 204 (applications:write); 404 unknown, 409 not waiting. */
export const moveWaitingListEntryContract = contract({
  method: "POST",
  path: "/api/admin/waiting-list/:id/move",
  access: "admin",
  summary: "Move a waiting person to another place in line",
  params: idParams,
  body: waitingListMoveSchema,
  status: 204,
  response: noContent,
});

/** `POST /api/admin/waiting-list/:id/offer` → 204 (applications:write); 404 unknown, 409 no free place / not waiting. */
export const offerWaitingListPlaceContract = contract({
  method: "POST",
  path: "/api/admin/waiting-list/:id/offer",
  access: "admin",
  summary: "Offer a free place to a waiting person by hand",
  params: idParams,
  status: 204,
  response: noContent,
});

/** `DELETE /api/admin/waiting-list/:id` → 204 (applications:write); 404 unknown, 409 already gone. */
export const removeWaitingListEntryContract = contract({
  method: "DELETE",
  path: "/api/admin/waiting-list/:id",
  access: "admin",
  summary: "Take a person off the waiting list",
  params: idParams,
  status: 204,
  response: noContent,
});

/** Every contract of this area (the route test checks each is served). */
export const WAITING_LIST_CONTRACTS = [
  joinWaitingListContract,
  leaveWaitingListContract,
  acceptWaitingListOfferContract,
  getAdminWaitingListContract,
  moveWaitingListEntryContract,
  offerWaitingListPlaceContract,
  removeWaitingListEntryContract,
];
