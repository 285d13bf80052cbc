import type { PaymentState } from "./balance";
import type { AdminApplicationStatus } from "./schemas/admin";
import type { auditFacetsSchema } from "./schemas/audit";
import type { ListPage } from "./schemas/list";
import type { adminTeamListSchema, adminTeamMemberSchema } from "./schemas/students-admin";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the back office's student accounts, admin team and audit filters, imported by
 * the server and the client. Amounts are integer euro cents; timestamps ISO 8601 strings. The team
 * and the audit filters derive from the zod schemas the back office parses the answers with.
 */

/** One row of `GET /api/admin/students`. */
export interface AdminStudentListItem {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  emailVerified: boolean;
  disabled: boolean;
  /** False until the student chose a password (an account added by the school). */
  hasPassword: boolean;
  createdAt: string;
  /** Applications made with the account's e-mail address (any status). */
  applicationCount: number;
  /** Of those, the ones paid in full (`balanceOf`'s paidInFull; a deposit alone does not count). */
  paidApplicationCount: number;
  /** Sum of what was paid on those applications net of refunds, in cents. */
  amountPaid: number;
}

/** `GET /api/admin/students` answer. */
export type AdminStudentList = ListPage<AdminStudentListItem>;

/** An application made with the student's e-mail address (detail page). */
export interface AdminStudentApplication {
  id: string;
  programName: string;
  startDate: string;
  endDate: string;
  status: AdminApplicationStatus;
  /** The state `balanceOf` gives today: never "paid" while money is owed. */
  paymentStatus: PaymentState;
  /** True when paid in full (`balanceOf`'s paidInFull). */
  paid: boolean;
  totalAmount: number | null;
  /** Paid net of refunds, cents (`balanceOf`'s paidNet). */
  amountPaid: number;
  createdAt: string;
}

/** A payment of one of those applications. */
export interface AdminStudentPayment {
  id: string;
  applicationId: string;
  programName: string;
  amount: number;
  currency: string;
  provider: string;
  /** The provider's payment reference (payment intent id). */
  reference: string;
  kind: "deposit" | "balance";
  paidAt: string;
}

/** `GET /api/admin/students/:id`: the account, its applications and their payments. */
export interface AdminStudentDetail {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  language: string;
  emailVerified: boolean;
  emailVerifiedAt: string | null;
  disabled: boolean;
  disabledAt: string | null;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
  /** Start of the newest session still stored (sessions are deleted at logout): null when none. */
  lastLoginAt: string | null;
  /** Send it back with a change; a stale version is refused with 409. */
  version: number;
  applications: AdminStudentApplication[];
  payments: AdminStudentPayment[];
}

/** What `POST /api/admin/students/:id/resend-verification` and `/send-password-reset` e-mailed. */
export interface StudentLinkSent {
  /** `verification`: confirm-your-address link; `setPassword`: choose-a-password link (the account has none yet, 24 hours); `passwordReset`: reset link (1 hour). */
  sent: "verification" | "setPassword" | "passwordReset";
  email: string;
}

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
