import { PAYMENT_STATES } from "../balance";
import { APPLICATION_STATUSES } from "../statuses";
import { isoDateParam, optionalParam, pageParams, sortParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the admin back office (docs/product/back-office.md#applications-admin):
 * the list's query string and the bodies of the status change and notes. Shared by the server
 * (parseOrThrow → 400 with a plain message) and the browser forms.
 */

export {
  type AdminApplicationStatus,
  type AdminPaymentStatus,
  APPLICATION_STATUSES,
  PAYMENT_STATUSES,
} from "../statuses";

/** Sort keys of the application list (contract); a sort is `<key>:<asc|desc>`. */
export const APPLICATION_SORT_KEYS = [
  "createdAt",
  "submittedAt",
  "lastName",
  "totalAmount",
  "status",
] as const;
export type ApplicationSortKey = (typeof APPLICATION_SORT_KEYS)[number];

export { MAX_PAGE_SIZE } from "./list";

const optional = optionalParam;
const isoDate = isoDateParam;

/**
 * Filters of `GET /api/admin/applications` and `.csv`: status, paymentStatus (a state of
 * `balanceOf`, src/shared/balance.ts, "deposit_paid" and "balance_overdue" included), schoolId, code
 * (its text, any case), affiliateId, from/to (yyyy-mm-dd, creation date, inclusive, UTC), q (part
 * of first name, last name, full name or e-mail).
 */
export const applicationFiltersSchema = z.object({
  status: optional(z.enum(APPLICATION_STATUSES)),
  paymentStatus: optional(z.enum(PAYMENT_STATES)),
  schoolId: optional(z.uuid()),
  code: optional(line().min(1).max(64)),
  affiliateId: optional(z.uuid()),
  from: optional(isoDate),
  to: optional(isoDate),
  q: optional(line().max(200)),
});
export type ApplicationFilters = z.output<typeof applicationFiltersSchema>;

/** Query of `GET /api/admin/applications`: the filters plus page (from 1), pageSize (1-100) and sort. */
export const applicationListQuerySchema = applicationFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(APPLICATION_SORT_KEYS, { key: "createdAt", direction: "desc" }),
});
export type ApplicationListQuery = z.output<typeof applicationListQuerySchema>;

/** `PATCH /api/admin/applications/:id/status` — the new status and the version the admin saw. */
export const statusChangeSchema = z.object({
  status: z.enum(APPLICATION_STATUSES, { error: V.invalidChoice }),
  version: z.number().int().min(1),
});
export type StatusChangeInput = z.output<typeof statusChangeSchema>;

/** Longest note (contract: 1-5000 characters). */
export const NOTE_MAX_LENGTH = 5000;

/** `POST /api/admin/applicants/:id/notes` and `PATCH /api/admin/notes/:id` — `{ body }`, 1-5000 characters. */
export const noteBodySchema = z.object({
  body: lines({ error: V.required }).min(1, { error: V.required }).max(NOTE_MAX_LENGTH, { error: V.tooLong }),
});
export type NoteBodyInput = z.output<typeof noteBodySchema>;

/**
 * Query of `GET /api/admin/audit` and `.csv` (owner): entityType, entityId, actorId (an admin's
 * id), action (exact, e.g. `student.update`), from/to (yyyy-mm-dd, inclusive, UTC), page (50 a page).
 */
export const auditFiltersSchema = z.object({
  entityType: optionalParam(line().min(1).max(50)),
  entityId: optionalParam(line().min(1).max(100)),
  actorId: optionalParam(z.uuid()),
  action: optionalParam(line().min(1).max(80)),
  from: optionalParam(isoDateParam),
  to: optionalParam(isoDateParam),
});
export type AuditFilters = z.output<typeof auditFiltersSchema>;

/** `GET /api/admin/audit`: the filters and the page. */
export const auditListQuerySchema = auditFiltersSchema.extend({ page: pageParams.page });
export type AuditListQuery = z.output<typeof auditListQuerySchema>;

/** `POST /api/admin/applicants/:id/erase` body: the typed confirmation. */
export const eraseApplicantSchema = z.object({ confirm: z.literal("ERASE") });
