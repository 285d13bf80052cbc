import { remainingDueDate } from "./pricing";
import { daysBeforeStart } from "./refunds";
import type { AdminApplicationStatus, AdminPaymentStatus } from "./schemas/admin";

/**
 * The one rule of what an application owes and how its payment stands (issue "Student portal in
 * full", Balances; spec §5 deposit; decisions.md §1 deposit row; decision 016). Every screen, list,
 * filter, CSV and e-mail that says "paid", "deposit paid" or "balance due" asks this function;
 * none reads `payment_status` alone.
 *
 * - The amounts are those stored with the application when its quote was paid (total, and the sum
 *   of its accepted payments, `amount_paid_cents`, which only grows): the balance is never priced
 *   again from today's catalogue.
 * - A refund gives money back and lowers what the school charges by as much (decision 016), so the
 *   balance is `total − paid`, both net of refunds: a refund never creates a debt.
 * - Nothing is owed by an application that was never paid (no payment yet: the applicant has not
 *   bought anything), was fully refunded, or was rejected, withdrawn or cancelled.
 * - The balance falls due 28 days before the start (`remainingDueDate`); from the day after it,
 *   in The Hague, it is overdue. Nothing is cancelled automatically: overdue is shown, not acted on.
 */

export { BALANCE_REMINDER_DAYS_BEFORE_DUE } from "./policy";

/** How an application's payment stands: the stored statuses plus the two balance states. */
export const PAYMENT_STATES = [
  "unpaid",
  "pending",
  "failed",
  "deposit_paid",
  "balance_overdue",
  "paid",
  "partially_refunded",
  "refunded",
] as const;
export type PaymentState = (typeof PAYMENT_STATES)[number];

/** What the rule needs to know of an application (amounts in euro cents, dates `yyyy-mm-dd`). */
export interface BalanceFacts {
  status: AdminApplicationStatus;
  paymentStatus: AdminPaymentStatus;
  /** The total of the quote that was paid; null before any checkout. */
  totalAmountCents: number | null;
  /** Sum of the accepted payments (deposit and balance), before refunds. */
  amountPaidCents: number;
  /** The cohort's first day. */
  startDate: string;
}

/** The answer of the rule. */
export interface Balance {
  state: PaymentState;
  /** What is still owed, cents (0 when nothing is). */
  balanceDue: number;
  /** When the balance is due, `yyyy-mm-dd` (The Hague); null when nothing is owed. */
  dueDate: string | null;
  /** True once the due date has passed with money still owed. */
  overdue: boolean;
  /** Whether the application is paid in full (the student pass's "paid" condition). */
  paidInFull: boolean;
}

/** Application statuses for which nothing more is owed. */
const CLOSED: ReadonlySet<AdminApplicationStatus> = new Set(["rejected", "withdrawn", "cancelled"]);

/** Payment statuses with at least one accepted payment that is not fully refunded. */
const HAS_PAID: ReadonlySet<AdminPaymentStatus> = new Set(["paid", "deposit_paid", "partially_refunded"]);

/**
 * Whether an application takes a place in its cohort (capacity, "Full", the waiting list): an
 * accepted payment not fully refunded, the deposit included, of an application still open. A
 * withdrawn, cancelled or rejected application frees its place, paid or not (issue 22 item 12);
 * what happens to its money is the refund's business. The server's `takesPlaceSql` is the same rule.
 */
export function takesPlace(facts: Pick<BalanceFacts, "status" | "paymentStatus">): boolean {
  return HAS_PAID.has(facts.paymentStatus) && !CLOSED.has(facts.status);
}

/**
 * What `facts` owes on `today` (`yyyy-mm-dd` in The Hague: `schoolDate(now)`), and the state every
 * screen shows. Pure; the server's SQL filters (`balanceStateSql`) follow the same rule.
 */
export function balanceOf(facts: BalanceFacts, today: string): Balance {
  const owes =
    HAS_PAID.has(facts.paymentStatus) && !CLOSED.has(facts.status) && facts.totalAmountCents !== null
      ? Math.max(0, facts.totalAmountCents - facts.amountPaidCents)
      : 0;
  if (owes > 0) {
    const dueDate = remainingDueDate(facts.startDate);
    const overdue = daysBeforeStart(dueDate, today) < 0;
    return {
      state: overdue ? "balance_overdue" : "deposit_paid",
      balanceDue: owes,
      dueDate,
      overdue,
      paidInFull: false,
    };
  }
  const state: PaymentState =
    facts.paymentStatus === "deposit_paid"
      ? // A closed application that paid only its deposit owes nothing more, and is not paid in full.
        "deposit_paid"
      : facts.paymentStatus;
  const paidInFull =
    (facts.paymentStatus === "paid" || facts.paymentStatus === "partially_refunded") &&
    facts.totalAmountCents !== null &&
    facts.amountPaidCents >= facts.totalAmountCents;
  return { state, balanceDue: 0, dueDate: null, overdue: false, paidInFull };
}

/** The stored payment status after an accepted payment brought `paidCents` of `totalCents` in. */
export function paymentStatusAfterPayment(totalCents: number, paidCents: number): "paid" | "deposit_paid" {
  return paidCents >= totalCents ? "paid" : "deposit_paid";
}

/** The facts of an application row (or its DTO with the same fields) and its cohort's first day. */
export function balanceFactsOf(
  application: Pick<BalanceFacts, "status" | "paymentStatus" | "totalAmountCents" | "amountPaidCents">,
  startDate: string,
): BalanceFacts {
  return {
    status: application.status,
    paymentStatus: application.paymentStatus,
    totalAmountCents: application.totalAmountCents,
    amountPaidCents: application.amountPaidCents,
    startDate,
  };
}
