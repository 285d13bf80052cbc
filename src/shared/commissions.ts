/**
 * The commission ledger's vocabulary and its rules that both the server and the pages use (docs/product/codes-and-partners.md#commissions
 * "Commissions: one ledger", decision 022). Amounts are integer euro cents.
 *
 * Every euro an affiliate earns or gives back is one row of `commission_entries`:
 * - `payment`: a payment (deposit or balance) of a referred application earned this much;
 * - `refund`: a refund of such a payment takes back its share (a negative amount, "clawback");
 * - `adjustment`: a finance admin's correction, positive or negative, with a reason.
 *
 * An entry's state follows from its dates and its payout (never stored twice):
 * - `pending` while its hold runs (`availableAt` in the future);
 * - `approved` once the hold is over and no payout has taken it;
 * - `in_payout` while a payout that took it is not yet paid;
 * - `paid` once that payout is marked paid.
 */

export const COMMISSION_TYPES = ["percentage", "fixed"] as const;
/** `percentage` of the amount paid excluding VAT, or a `fixed` amount per enrolled student. */
export type CommissionType = (typeof COMMISSION_TYPES)[number];

export const COMMISSION_ENTRY_KINDS = ["payment", "refund", "adjustment"] as const;
export type CommissionEntryKind = (typeof COMMISSION_ENTRY_KINDS)[number];

export const COMMISSION_STATES = ["pending", "approved", "in_payout", "paid"] as const;
export type CommissionState = (typeof COMMISSION_STATES)[number];

export const PAYOUT_METHODS = ["sepa", "swift", "wise", "paypal"] as const;
/** SEPA bank transfer (IBAN, BIC), other bank transfer (SWIFT), Wise or PayPal. */
export type PayoutMethod = (typeof PAYOUT_METHODS)[number];

export const PAYOUT_STATUSES = ["pending", "paid", "cancelled"] as const;
export type PayoutStatus = (typeof PAYOUT_STATUSES)[number];

/** An affiliate's rate as it was applied to an entry (stored on the entry, so a later change of rate leaves it). */
export type CommissionRate = { type: "percentage"; percent: number } | { type: "fixed"; fixedCents: number };

export { REFERRAL_COOKIE_DAYS } from "./policy";

/** Default minimum payout: 50 EUR (docs/product/codes-and-partners.md#payout-runs). */
export const DEFAULT_MINIMUM_PAYOUT_CENTS = 5000;

/**
 * The default hold: a commission is held until the refund policy no longer gives money back, i.e.
 * until the day fewer than 30 days remain before the cohort's start (docs/product/payments.md#refund-policy refund policy; docs/product/payments.md#refund-policy).
 * Entries are released on the day that is this many days before the start (The Hague).
 */
export const DEFAULT_RELEASE_DAYS_BEFORE_START = 29;

/** The state of an entry at `now` (see the module comment). `payoutStatus` is its payout's status, if any. */
export function commissionStateOf(
  entry: { availableAt: Date | string; payoutId: string | null },
  payoutStatus: PayoutStatus | null,
  now: Date,
): CommissionState {
  if (entry.payoutId && payoutStatus === "paid") return "paid";
  if (entry.payoutId && payoutStatus === "pending") return "in_payout";
  return new Date(entry.availableAt).getTime() > now.getTime() ? "pending" : "approved";
}

/**
 * Commission earned by one payment, cents, rounded half up.
 * - percentage: `percent` % of `netPaid` (the payment excluding VAT);
 * - fixed: the fixed amount spread over the application's total in proportion to what was paid, so
 *   that deposit plus balance earn exactly `fixedCents`: round(F × paidAfter / total) −
 *   round(F × paidBefore / total), with both capped at the total.
 */
export function commissionForPayment(
  rate: CommissionRate,
  p: { netPaid: number; paidBefore: number; paidAfter: number; total: number },
): number {
  if (rate.type === "percentage") return Math.round((p.netPaid * rate.percent) / 100);
  if (p.total <= 0) return p.paidBefore === 0 ? rate.fixedCents : 0;
  const share = (paid: number) => Math.round((rate.fixedCents * Math.min(paid, p.total)) / p.total);
  return share(p.paidAfter) - share(p.paidBefore);
}

/**
 * The clawback of a refund of one payment, cents, as a negative number (or 0): the payment's
 * commission × refunded / paid, computed on the cumulative refunds of that payment so that refunding
 * the whole payment, in one go or in parts, takes back exactly what it earned.
 */
export function clawbackForRefund(
  earned: number,
  p: { paymentAmount: number; refundedBefore: number; refundedAfter: number },
): number {
  if (p.paymentAmount <= 0 || earned === 0) return 0;
  const share = (refunded: number) =>
    Math.round((earned * Math.min(refunded, p.paymentAmount)) / p.paymentAmount);
  return -(share(p.refundedAfter) - share(p.refundedBefore));
}
