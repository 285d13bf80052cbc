import type {
  adminApplicantApplicationSchema,
  adminApplicantDtoSchema,
  adminApplicationDetailSchema,
  adminApplicationListItemSchema,
  adminApplicationListSchema,
  adminNoteDtoSchema,
  adminPaymentDtoSchema,
  flaggedPaymentReasonSchema,
} from "./api/admin-applications";
import type { AdminApplicationStatus } from "./schemas/admin";
import type { auditEntrySchema, auditPageSchema } from "./schemas/audit";
import type { adminDashboardSchema, dashboardCohortSchema } from "./schemas/dashboard";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the admin back office API (docs/product/back-office.md#lists: "Admin back office,
 * applications"), imported by the server and the client. Amounts are integer euro cents, dates
 * ISO 8601 strings (timestamps) or yyyy-mm-dd (calendar dates).
 */

/**
 * The admission workflow (contract): submitted → under_review → accepted | rejected | waitlisted;
 * waitlisted → accepted | rejected; any state not yet final → withdrawn | cancelled;
 * pending_payment → cancelled only. Final: rejected, withdrawn, cancelled.
 */
export const STATUS_TRANSITIONS: Record<AdminApplicationStatus, readonly AdminApplicationStatus[]> = {
  pending_payment: ["cancelled"],
  submitted: ["under_review", "withdrawn", "cancelled"],
  under_review: ["accepted", "rejected", "waitlisted", "withdrawn", "cancelled"],
  waitlisted: ["accepted", "rejected", "withdrawn", "cancelled"],
  accepted: ["withdrawn", "cancelled"],
  rejected: [],
  withdrawn: [],
  cancelled: [],
};

/** True when the workflow allows `from` → `to`. */
export const canTransition = (from: AdminApplicationStatus, to: AdminApplicationStatus): boolean =>
  STATUS_TRANSITIONS[from].includes(to);

/** One row of `GET /api/admin/applications`. */
export type AdminApplicationListItem = z.output<typeof adminApplicationListItemSchema>;

/** `GET /api/admin/applications` answer. */
export type AdminApplicationList = z.output<typeof adminApplicationListSchema>;

/** Every field of an applicant, as the back office sees it (never the capability hash or the file id). */
export type AdminApplicantDto = z.output<typeof adminApplicantDtoSchema>;

/**
 * Why money the provider took is not (yet) an application's payment (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): it paid a
 * quote the applicant changed since, another amount or currency than asked, or an application
 * already paid.
 */
export type FlaggedPaymentReason = z.output<typeof flaggedPaymentReasonSchema>;

/** A payment of an application. */
export type AdminPaymentDto = z.output<typeof adminPaymentDtoSchema>;

/** `GET /api/admin/applications/:id` (also the 200 of a status change and `current` of a 409). */
export type AdminApplicationDetail = z.output<typeof adminApplicationDetailSchema>;

/** One row of `GET /api/admin/applicants/:id/applications`. */
export type AdminApplicantApplication = z.output<typeof adminApplicantApplicationSchema>;

/** A note of the admissions team on an applicant. */
export type AdminNoteDto = z.output<typeof adminNoteDtoSchema>;

/** One audit entry (append-only); fields documented in src/shared/schemas/audit.ts. */
export type AuditEntryDto = z.output<typeof auditEntrySchema>;

/** `GET /api/admin/audit` answer (50 entries a page, newest first). */
export type AuditPage = z.output<typeof auditPageSchema>;

/** A cohort on the dashboard: paid places against capacity (src/shared/schemas/dashboard.ts). */
export type DashboardCohort = z.output<typeof dashboardCohortSchema>;

/** `GET /api/admin/dashboard` (src/shared/schemas/dashboard.ts). */
export type AdminDashboard = z.output<typeof adminDashboardSchema>;
