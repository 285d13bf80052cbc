import { type SQL, sql } from "drizzle-orm";
import type { PaymentState } from "../../../shared/balance";
import { BALANCE_DUE_DAYS_BEFORE_START } from "../../../shared/pricing";
import { applications, summerSchools } from "../../db/schema";

/**
 * The SQL side of the one balance rule (src/shared/balance.ts `balanceOf`; issue 11 "Balances";
 * decision 016). The admin lists filter and count with these expressions, so a filter, a total
 * and the state shown on a row always agree; `rule.test.ts` compares them with `balanceOf` over a
 * grid of rows. Every expression reads `applications` and its cohort `summer_schools`: a query
 * using them must join the school (`summer_schools.id = applications.summer_school_id`).
 */

/** Payment statuses with at least one accepted payment not fully refunded (balanceOf's HAS_PAID). */
const HAS_PAID_SQL = sql`${applications.paymentStatus} in ('paid', 'deposit_paid', 'partially_refunded')`;

/** Application statuses that owe nothing more (balanceOf's CLOSED). */
const OPEN_SQL = sql`${applications.status} not in ('rejected', 'withdrawn', 'cancelled')`;

/** What is still owed, integer cents, never below 0 (balanceOf's `balanceDue`). */
export const balanceDueSql: SQL<number> = sql<number>`(case when ${HAS_PAID_SQL} and ${OPEN_SQL} and ${applications.totalAmountCents} is not null then greatest(0, ${applications.totalAmountCents} - ${applications.amountPaidCents}) else 0 end)`;

/** The day the balance falls due: BALANCE_DUE_DAYS_BEFORE_START (28) days before the start (`remainingDueDate`). */
export const dueDateSql: SQL<string> = sql<string>`(${summerSchools.startDate} - ${sql.raw(String(BALANCE_DUE_DAYS_BEFORE_START))})`;

/** True when the balance is owed and its due date has passed on `today` (`yyyy-mm-dd`, The Hague). */
export const overdueSql = (today: string): SQL<boolean> =>
  sql<boolean>`(${balanceDueSql} > 0 and ${dueDateSql} < ${today}::date)`;

/** The payment state balanceOf gives on `today` (`yyyy-mm-dd` in The Hague: `schoolDate(now)`). */
export const paymentStateSql = (today: string): SQL<PaymentState> =>
  sql<PaymentState>`(case when ${balanceDueSql} > 0 then (case when ${dueDateSql} < ${today}::date then 'balance_overdue' else 'deposit_paid' end) else ${applications.paymentStatus} end)`;

/** The condition "balanceOf(...).state = state" on `today`, for the lists' payment filter. */
export const paymentStateIs = (state: PaymentState, today: string): SQL =>
  sql`${paymentStateSql(today)} = ${state}`;

/**
 * Whether an application takes a place in its cohort (capacity, "Full", "Few spots left", the
 * waiting list): any accepted payment not fully refunded, the deposit included (issue 11), of an
 * application that is not withdrawn, cancelled or rejected (issue 22 item 12). The shared
 * `takesPlace` is the same rule; `rule.test.ts` compares them.
 */
export const takesPlaceSql: SQL<boolean> = sql<boolean>`(${HAS_PAID_SQL} and ${OPEN_SQL})`;

/**
 * `takesPlaceSql` for the application row of another alias in a subquery (`a.payment_status`, `a.status`).
 */
export const takesPlaceOfAlias = (alias: string): SQL<boolean> =>
  sql<boolean>`(${sql.raw(alias)}.payment_status in ('paid', 'deposit_paid', 'partially_refunded') and ${sql.raw(alias)}.status not in ('rejected', 'withdrawn', 'cancelled'))`;

/**
 * Payment statuses with a payment not fully refunded (codes' uses, a school's paid applications).
 * To count places, use `takesPlaceSql`, which also leaves out closed applications.
 */
export const PLACE_TAKING_STATUSES = ["paid", "deposit_paid", "partially_refunded"] as const;

/**
 * Paid in full (balanceOf's `paidInFull`: the student pass's "paid", the "paid" of the student
 * list): paid or partly refunded, with a stored total that the payments reached. Reads
 * `applications` only.
 */
export const paidInFullSql: SQL<boolean> = sql<boolean>`(${applications.paymentStatus} in ('paid', 'partially_refunded') and ${applications.totalAmountCents} is not null and ${applications.amountPaidCents} >= ${applications.totalAmountCents})`;
