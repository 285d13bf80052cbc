/**
 * The statuses an application has (db columns `applications.status` and
 * `applications.payment_status`): a leaf of its own, so the payment rule (balance.ts) and the
 * schemas that list them (schemas/admin.ts, schemas/finance.ts) read them without importing each
 * other.
 */

/** Application statuses (docs/product/admissions.md#application-statuses; db column `applications.status`). */
export const APPLICATION_STATUSES = [
  "pending_payment",
  "submitted",
  "under_review",
  "accepted",
  "rejected",
  "waitlisted",
  "withdrawn",
  "cancelled",
] as const;
export type AdminApplicationStatus = (typeof APPLICATION_STATUSES)[number];

/** Payment statuses (db column `applications.payment_status`). */
export const PAYMENT_STATUSES = [
  "unpaid",
  "pending",
  "deposit_paid",
  "paid",
  "failed",
  "refunded",
  "partially_refunded",
] as const;
export type AdminPaymentStatus = (typeof PAYMENT_STATUSES)[number];
