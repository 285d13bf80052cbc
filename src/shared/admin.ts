import type { ApplicationQuoteDto } from "./application";
import type { PaymentState } from "./balance";
import type { AdminApplicationStatus } from "./schemas/admin";
import type { auditEntrySchema, auditPageSchema } from "./schemas/audit";
import type { adminDashboardSchema, dashboardCohortSchema } from "./schemas/dashboard";
import type { ListPage } from "./schemas/list";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the admin back office API (issue 3 contract, "Admin back office,
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
export interface AdminApplicationListItem {
  id: string;
  createdAt: string;
  submittedAt: string | null;
  status: AdminApplicationStatus;
  /** The state `balanceOf` gives today (src/shared/balance.ts): never "paid" while money is owed. */
  paymentStatus: PaymentState;
  /** What is still owed, cents (0 when nothing is; `balanceOf`). */
  balanceDue: number;
  /** When the balance is due, yyyy-mm-dd (The Hague); null when nothing is owed. */
  dueDate: string | null;
  applicant: { id: string; firstName: string; lastName: string; email: string };
  summerSchool: { id: string; name: string };
  /** Stored total (set once a checkout was started or the application was paid); null before. */
  totalAmount: number | null;
  /** Paid net of refunds, cents (`balanceOf`'s paidNet; decisions.md §6). */
  amountPaid: number;
  /** Succeeded refunds of the accepted payments, cents. */
  refunded: number;
  /** Applied code, as typed by the school (upper-case). */
  code: string | null;
  flag: string | null;
  /** Spec §3: an empty first or last name is missing critical data. */
  missingCriticalData: boolean;
}

/** `GET /api/admin/applications` answer. */
export type AdminApplicationList = ListPage<AdminApplicationListItem>;

/** Every field of an applicant, as the back office sees it (never the capability hash or the file id). */
export interface AdminApplicantDto {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  address: string;
  city: string;
  postalCode: string;
  countryOfResidence: string;
  nationality: string;
  dateOfBirth: string;
  passportNumber: string;
  university: string;
  fieldOfStudy: string;
  studentStatus: string;
  expectations: string;
  referralSource: string;
  otherReferralDetail: string;
  language: string;
  hasPassport: boolean;
  /** `GET /api/admin/applicants/:id/passport` when a passport was uploaded, else null. */
  passportUrl: string | null;
  missingCriticalData: boolean;
  createdAt: string;
  updatedAt: string;
}

/**
 * Why money the provider took is not (yet) an application's payment (checklist P1, P10): it paid a
 * quote the applicant changed since, another amount or currency than asked, or an application
 * already paid.
 */
export type FlaggedPaymentReason = "superseded_quote" | "amount_mismatch" | "second_payment";

/** A payment of an application. */
export interface AdminPaymentDto {
  id: string;
  /**
   * Why this money is not (yet) the application's payment (a superseded quote, another amount, a
   * second payment; checklist P1, P10); null for an accepted payment.
   */
  flag: FlaggedPaymentReason | null;
  amount: number;
  currency: string;
  provider: string;
  reference: string;
  paidAt: string;
}

/** `GET /api/admin/applications/:id` (also the 200 of a status change and `current` of a 409). */
export interface AdminApplicationDetail {
  id: string;
  /** Send it back with a change; a stale version is refused with 409. */
  version: number;
  status: AdminApplicationStatus;
  /** The state `balanceOf` gives today: never "paid" while money is owed. */
  paymentStatus: PaymentState;
  /** What is still owed, cents (0 when nothing is; `balanceOf`). */
  balanceDue: number;
  /** When the balance is due, yyyy-mm-dd (The Hague); null when nothing is owed. */
  dueDate: string | null;
  /** Statuses the workflow allows from here. */
  allowedTransitions: AdminApplicationStatus[];
  flag: string | null;
  createdAt: string;
  submittedAt: string | null;
  paidAt: string | null;
  missingCriticalData: boolean;
  applicant: AdminApplicantDto;
  summerSchool: { id: string; name: string; startDate: string; endDate: string };
  package: { id: string; name: string };
  housing: { id: string; name: string; priceAdjustment: number };
  addOns: Array<{ id: string; name: string; price: number; included: boolean }>;
  /** As ApplicationDto.quote; null when the programme's catalogue rows were archived since. */
  quote: ApplicationQuoteDto | null;
  totalAmount: number | null;
  /** Paid net of refunds, cents (`balanceOf`'s paidNet; decisions.md §6). */
  amountPaid: number;
  /** Succeeded refunds of the accepted payments, cents. */
  refunded: number;
  code: string | null;
  payments: AdminPaymentDto[];
  otherApplications: Array<{
    id: string;
    programName: string;
    status: AdminApplicationStatus;
    paymentStatus: PaymentState;
  }>;
}

/** One row of `GET /api/admin/applicants/:id/applications`. */
export interface AdminApplicantApplication {
  id: string;
  programName: string;
  startDate: string;
  endDate: string;
  status: AdminApplicationStatus;
  paymentStatus: PaymentState;
  totalAmount: number | null;
  /** Paid net of refunds, cents (`balanceOf`'s paidNet; decisions.md §6). */
  amountPaid: number;
  createdAt: string;
}

/** A note of the admissions team on an applicant. */
export interface AdminNoteDto {
  id: string;
  applicantId: string;
  body: string;
  author: { id: string; name: string; email: string };
  createdAt: string;
  updatedAt: string;
}

/** One audit entry (append-only); fields documented in src/shared/schemas/audit.ts. */
export type AuditEntryDto = z.output<typeof auditEntrySchema>;

/** `GET /api/admin/audit` answer (50 entries a page, newest first). */
export type AuditPage = z.output<typeof auditPageSchema>;

/** A cohort on the dashboard: paid places against capacity (src/shared/schemas/dashboard.ts). */
export type DashboardCohort = z.output<typeof dashboardCohortSchema>;

/** `GET /api/admin/dashboard` (src/shared/schemas/dashboard.ts). */
export type AdminDashboard = z.output<typeof adminDashboardSchema>;
