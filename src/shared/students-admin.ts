import type {
  adminStudentApplicationSchema,
  adminStudentDetailSchema,
  adminStudentListItemSchema,
  adminStudentListSchema,
  adminStudentPaymentSchema,
  studentLinkSentSchema,
} from "./api/students-admin";
import type { auditFacetsSchema } from "./schemas/audit";
import type { adminTeamListSchema, adminTeamMemberSchema } from "./schemas/students-admin";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the back office's student accounts, admin team and audit filters, imported by
 * the server and the client. Amounts are integer euro cents; timestamps ISO 8601 strings. The team
 * and the audit filters derive from the zod schemas the back office parses the answers with.
 */

/** One row of `GET /api/admin/students`. */
export type AdminStudentListItem = z.output<typeof adminStudentListItemSchema>;

/** `GET /api/admin/students` answer. */
export type AdminStudentList = z.output<typeof adminStudentListSchema>;

/** An application made with the student's e-mail address (detail page). */
export type AdminStudentApplication = z.output<typeof adminStudentApplicationSchema>;

/** A payment of one of those applications. */
export type AdminStudentPayment = z.output<typeof adminStudentPaymentSchema>;

/** `GET /api/admin/students/:id`: the account, its applications and their payments. */
export type AdminStudentDetail = z.output<typeof adminStudentDetailSchema>;

/** What `POST /api/admin/students/:id/resend-verification` and `/send-password-reset` e-mailed. */
export type StudentLinkSent = z.output<typeof studentLinkSentSchema>;

/**
 * An admin of the team list (`GET /api/admin/admins`; also the answer of an invitation or a
 * change); fields documented in src/shared/schemas/students-admin.ts ("Responses").
 */
export type AdminTeamMember = z.output<typeof adminTeamMemberSchema>;

/** `GET /api/admin/admins` answer. */
export type AdminTeamList = z.output<typeof adminTeamListSchema>;

/**
 * `GET /api/admin/audit/facets`: values that occur in the log, for the filters of the viewer
 * (src/shared/schemas/audit.ts).
 */
export type AuditFacets = z.output<typeof auditFacetsSchema>;
