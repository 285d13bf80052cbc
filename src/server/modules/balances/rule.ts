import { and, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import type { PaymentState } from "../../../shared/balance";
import { BALANCE_DUE_DAYS_BEFORE_START } from "../../../shared/pricing";
import type { Db, Tx } from "../../db/client";
import { applications, payments, refunds, summerSchools } from "../../db/schema";

/**
 * The SQL side of the one payment-status rule (src/shared/balance.ts `balanceOf`; docs/product/payments.md#payment-status;
 * docs/product/payments.md#payment-status; decision 035). The admin lists, their filter, the dashboard's
 * counts and the CSV read these expressions, so a filter, a count and the state shown on a row
 * always agree; `rule.test.ts` compares them with `balanceOf` over a grid of rows and over the
 * fixtures of `payment-status.test.ts`. Every expression reads `applications` (by its table name,
 * not an alias) and its cohort `summer_schools`: a query using them must join the school
 * (`summer_schools.id = applications.summer_school_id`). Each step mirrors a line of `balanceOf`.
 */

/**
 * Succeeded refunds of the application's accepted payments, cents (balanceOf's `refundedCents`).
 * Refunds of flagged payments (money that never paid the application, docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch) do not
 * count, as in `succeededRefundsOf` (finance/settle.ts).
 */
export const refundedCentsSql: SQL<number> =
  sql<number>`(select coalesce(sum(r.amount_cents), 0)::int from refunds r join payments p on p.id = r.payment_id where r.application_id = ${applications.id} and r.status = 'succeeded' and p.flag is null)`.mapWith(
    Number,
  );

/** What was paid net of refunds, cents, never below 0 (balanceOf's `paidNet`). */
export const paidNetSql: SQL<number> = sql<number>`greatest(0, ${applications.amountPaidCents} - ${refundedCentsSql})`;

/** What is charged net of refunds, cents, never below 0 (balanceOf's `chargedNet`); null before any checkout. */
const CHARGED_NET_SQL = sql`greatest(0, ${applications.totalAmountCents} - ${refundedCentsSql})`;

/** Everything paid came back (balanceOf's `fullyRefunded`). */
const FULLY_REFUNDED_SQL = sql`(${applications.paymentStatus} = 'refunded' or (${refundedCentsSql} > 0 and ${paidNetSql} = 0))`;

/** Payment statuses with at least one accepted payment not fully refunded (balanceOf's HAS_PAID). */
const HAS_PAID_SQL = sql`${applications.paymentStatus} in ('paid', 'deposit_paid', 'partially_refunded')`;

/** Application statuses that owe nothing more (balanceOf's CLOSED). */
const OPEN_SQL = sql`${applications.status} not in ('rejected', 'withdrawn', 'cancelled')`;

/** Money is held: an accepted payment not fully refunded (balanceOf's `holds`). */
const HOLDS_SQL = sql`(${HAS_PAID_SQL} and not ${FULLY_REFUNDED_SQL})`;

/** What is still owed, integer cents, never below 0: charged − paid, both net of refunds (balanceOf's `balanceDue`). */
export const balanceDueSql: SQL<number> = sql<number>`(case when ${HOLDS_SQL} and ${OPEN_SQL} and ${applications.totalAmountCents} is not null then greatest(0, ${CHARGED_NET_SQL} - ${paidNetSql}) else 0 end)`;

/** The day the balance falls due: BALANCE_DUE_DAYS_BEFORE_START (28) days before the start (`remainingDueDate`). */
export const dueDateSql: SQL<string> = sql<string>`(${summerSchools.startDate} - ${sql.raw(String(BALANCE_DUE_DAYS_BEFORE_START))})`;

/** True when the balance is owed and its due date has passed on `today` (`yyyy-mm-dd`, The Hague). */
export const overdueSql = (today: string): SQL<boolean> =>
  sql<boolean>`(${balanceDueSql} > 0 and ${dueDateSql} < ${today}::date)`;

/** The payment state balanceOf gives on `today` (`yyyy-mm-dd` in The Hague: `schoolDate(now)`). */
export const paymentStateSql = (today: string): SQL<PaymentState> =>
  sql<PaymentState>`(case
    when ${balanceDueSql} > 0 then (case when ${dueDateSql} < ${today}::date then 'balance_overdue' else 'deposit_paid' end)
    when ${applications.paymentStatus} in ('unpaid', 'pending', 'failed') then ${applications.paymentStatus}
    when ${FULLY_REFUNDED_SQL} then 'refunded'
    when ${refundedCentsSql} > 0 or ${applications.paymentStatus} = 'partially_refunded' then 'partially_refunded'
    when ${applications.totalAmountCents} is null then (case when ${applications.paymentStatus} = 'paid' then 'paid' else 'deposit_only' end)
    when ${paidNetSql} >= ${CHARGED_NET_SQL} then 'paid'
    else 'deposit_only' end)`;

/** The condition "balanceOf(...).state = state" on `today`, for the lists' payment filter. */
export const paymentStateIs = (state: PaymentState, today: string): SQL =>
  sql`${paymentStateSql(today)} = ${state}`;

/**
 * Whether an application takes a place in its cohort (capacity, "Full", "Few spots left", the
 * waiting list): any accepted payment not fully refunded, the deposit included (docs/product/payments.md#refunds), of an
 * application that is not withdrawn, cancelled or rejected (docs/product/admissions.md#waiting-list-offers). The shared
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
 * list): money held, and what was paid covers what is charged, both net of refunds.
 */
export const paidInFullSql: SQL<boolean> = sql<boolean>`(${HOLDS_SQL} and ${applications.totalAmountCents} is not null and ${paidNetSql} >= ${CHARGED_NET_SQL})`;

/**
 * The succeeded refunds of each application's accepted payments, cents (balanceOf's
 * `refundedCents`), for rules computed in TypeScript. Ids without refunds map to 0.
 */
export async function refundedCentsOf(
  db: Db | Tx,
  applicationIds: readonly string[],
): Promise<Map<string, number>> {
  const out = new Map<string, number>(applicationIds.map((id) => [id, 0]));
  if (applicationIds.length === 0) return out;
  const rows = await db
    .select({ id: refunds.applicationId, total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(
        inArray(refunds.applicationId, [...applicationIds]),
        eq(refunds.status, "succeeded"),
        isNull(payments.flag),
      ),
    )
    .groupBy(refunds.applicationId);
  for (const row of rows) out.set(row.id, Number(row.total));
  return out;
}

/** `refundedCentsOf` for one application, cents. */
export async function refundedCentsOfOne(db: Db | Tx, applicationId: string): Promise<number> {
  return (await refundedCentsOf(db, [applicationId])).get(applicationId) ?? 0;
}
