import { remainingDueDate } from "./pricing";
import { daysBeforeStart } from "./refunds";
import type { AdminApplicationStatus, AdminPaymentStatus } from "./statuses";

/**
 * The one payment-status rule (docs/product/payments.md#payment-status; docs/product/admissions.md#personal-step
 * deposit; docs/product/catalogue-and-pricing.md#deposit-percent; decision 035, which replaces decision 016's "a refund
 * cancels out"). Every screen, list, filter, count, CSV and e-mail that says "paid", "deposit
 * paid", "balance due" or "refunded" asks this function, or its SQL twin in
 * src/server/modules/balances/rule.ts (`paymentStateSql`, `balanceDueSql`, `paidNetSql`); none
 * reads `payment_status` or `amount_paid_cents` alone.
 *
 * - **Paid** is net of refunds: the accepted payments (`amount_paid_cents`, which only grows)
 *   minus the succeeded refunds of those payments (refunds of flagged payments, money that never
 *   paid the application, do not count). Every screen, list and export shows this figure.
 * - **Charged** is net of refunds too: the stored total minus the same refunds. A refund gives
 *   money back for something the school no longer charges (an add-on dropped, the policy's share
 *   of a cancellation), so it never turns into a debt the student is reminded of.
 * - **Balance** = charged − paid, both net of refunds (docs/product/payments.md#refunds), from the stored total,
 *   never priced again from today's catalogue, never below 0. It is owed only by an open
 *   application (not rejected, withdrawn or cancelled) that holds money (deposit paid, paid,
 *   partly refunded); nothing is owed by an application never paid or fully refunded.
 * - The balance falls due 28 days before the start (`remainingDueDate`); from the day after it,
 *   in The Hague, it is overdue. Nothing is cancelled automatically: overdue is shown, not acted on.
 * - A rejected, withdrawn or cancelled application is never "balance due": it reads `paid`,
 *   `deposit_only` (it paid part of the total and nothing more is asked), `partially_refunded` or
 *   `refunded`.
 */

export { BALANCE_REMINDER_DAYS_BEFORE_DUE } from "./policy";

/**
 * How an application's payment stands, by `balanceOf`. The stored statuses `unpaid`, `pending`,
 * `failed` pass through; the others are decided from the amounts:
 * - `deposit_paid`: open, part paid, the balance owed and not yet overdue ("deposit paid, balance due");
 * - `balance_overdue`: the same after the due date;
 * - `deposit_only`: closed (rejected, withdrawn, cancelled) after paying part of the total, no
 *   refund: nothing more is owed;
 * - `paid`: paid in full (a 100 % scholarship, total 0, included), no refund;
 * - `partially_refunded`: some of what was paid came back, some is still held, nothing owed
 *   (a deposit partly refunded with a balance still owed reads `deposit_paid`);
 * - `refunded`: everything paid came back.
 */
export const PAYMENT_STATES = [
  "unpaid",
  "pending",
  "failed",
  "deposit_paid",
  "balance_overdue",
  "deposit_only",
  "paid",
  "partially_refunded",
  "refunded",
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** The states in which money is owed (the "balance due" of lists, counts and reminders). */
export const OWING_STATES: ReadonlyArray<PaymentState> = ["deposit_paid", "balance_overdue"];

/** What the rule needs to know of an application (amounts in euro cents, dates `yyyy-mm-dd`). */
export interface BalanceFacts {
  status: AdminApplicationStatus;
  paymentStatus: AdminPaymentStatus;
  /** The total of the quote that was paid; null before any checkout. */
  totalAmountCents: number | null;
  /** Sum of the accepted payments (deposit and balance), before refunds. */
  amountPaidCents: number;
  /**
   * Sum of the succeeded refunds of the accepted payments (not of flagged payments), cents. The
   * server reads it with `refundedCentsSql` / `refundedCentsOf` (balances/rule.ts).
   */
  refundedCents: number;
  /** The cohort's first day. */
  startDate: string;
}

/** The answer of the rule. */
export interface Balance {
  state: PaymentState;
  /** What was paid net of refunds, cents (never below 0): the "paid" every screen shows. */
  paidNet: number;
  /** What came back in succeeded refunds, cents. */
  refunded: number;
  /** What is still owed, cents (0 when nothing is). */
  balanceDue: number;
  /** When the balance is due, `yyyy-mm-dd` (The Hague); null when nothing is owed. */
  dueDate: string | null;
  /** True once the due date has passed with money still owed. */
  overdue: boolean;
  /**
   * Whether what was paid covers what is charged, both net of refunds, with money still held (the
   * student pass's "paid" condition; a 100 % scholarship, total 0, included).
   */
  paidInFull: boolean;
}

/** Application statuses for which nothing more is owed. */
const CLOSED: ReadonlySet<AdminApplicationStatus> = new Set(["rejected", "withdrawn", "cancelled"]);

/** Payment statuses with at least one accepted payment that is not fully refunded. */
const HAS_PAID: ReadonlySet<AdminPaymentStatus> = new Set(["paid", "deposit_paid", "partially_refunded"]);

/** Stored statuses with no accepted payment: the rule passes them through. */
const NOT_PAID: ReadonlySet<AdminPaymentStatus> = new Set(["unpaid", "pending", "failed"]);

/**
 * Whether an application takes a place in its cohort (capacity, "Full", the waiting list): an
 * accepted payment not fully refunded, the deposit included, of an application still open. A
 * withdrawn, cancelled or rejected application frees its place, paid or not (docs/product/admissions.md#waiting-list-offers);
 * what happens to its money is the refund's business. The server's `takesPlaceSql` is the same rule.
 */
export function takesPlace(facts: Pick<BalanceFacts, "status" | "paymentStatus">): boolean {
  return HAS_PAID.has(facts.paymentStatus) && !CLOSED.has(facts.status);
}

/**
 * What `facts` owes on `today` (`yyyy-mm-dd` in The Hague: `schoolDate(now)`), what it paid net
 * of refunds, and the state every screen shows. Pure. The server's SQL (`paymentStateSql`,
 * `balanceDueSql`, `paidNetSql` in balances/rule.ts) is the same rule, step by step; `rule.test.ts`
 * compares them.
 */
export function balanceOf(facts: BalanceFacts, today: string): Balance {
  const refunded = Math.max(0, facts.refundedCents);
  const paidNet = Math.max(0, facts.amountPaidCents - refunded);
  const total = facts.totalAmountCents;
  // What the school charges once refunds are taken off: a refund gives back money for something
  // it no longer charges (an add-on dropped, the refund policy's share on a cancellation).
  const chargedNet = total === null ? null : Math.max(0, total - refunded);
  const fullyRefunded = facts.paymentStatus === "refunded" || (refunded > 0 && paidNet === 0);
  const holds = HAS_PAID.has(facts.paymentStatus) && !fullyRefunded;
  const owes =
    holds && !CLOSED.has(facts.status) && chargedNet !== null ? Math.max(0, chargedNet - paidNet) : 0;
  const paidInFull = holds && chargedNet !== null && paidNet >= chargedNet;
  if (owes > 0) {
    const dueDate = remainingDueDate(facts.startDate);
    const overdue = daysBeforeStart(dueDate, today) < 0;
    return {
      state: overdue ? "balance_overdue" : "deposit_paid",
      paidNet,
      refunded,
      balanceDue: owes,
      dueDate,
      overdue,
      paidInFull,
    };
  }
  const state: PaymentState = NOT_PAID.has(facts.paymentStatus)
    ? facts.paymentStatus
    : fullyRefunded
      ? "refunded"
      : refunded > 0 || facts.paymentStatus === "partially_refunded"
        ? "partially_refunded"
        : chargedNet === null
          ? facts.paymentStatus === "paid"
            ? "paid"
            : "deposit_only"
          : paidNet >= chargedNet
            ? "paid"
            : "deposit_only";
  return { state, paidNet, refunded, balanceDue: 0, dueDate: null, overdue: false, paidInFull };
}

/** The stored payment status after an accepted payment brought `paidCents` of `totalCents` in. */
export function paymentStatusAfterPayment(totalCents: number, paidCents: number): "paid" | "deposit_paid" {
  return paidCents >= totalCents ? "paid" : "deposit_paid";
}

/**
 * The facts of an application row (or its DTO with the same fields), the succeeded refunds of its
 * accepted payments (cents, `refundedCentsOf`) and its cohort's first day.
 */
export function balanceFactsOf(
  application: Pick<BalanceFacts, "status" | "paymentStatus" | "totalAmountCents" | "amountPaidCents">,
  refundedCents: number,
  startDate: string,
): BalanceFacts {
  return {
    status: application.status,
    paymentStatus: application.paymentStatus,
    totalAmountCents: application.totalAmountCents,
    amountPaidCents: application.amountPaidCents,
    refundedCents,
    startDate,
  };
}
