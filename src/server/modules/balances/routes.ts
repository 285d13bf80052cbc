import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { getBalanceSummaryContract, sendBalanceReminderContract } from "../../../shared/api/balances";
import type { BalanceSummary } from "../../../shared/schemas/balances";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { applications, summerSchools } from "../../db/schema";
import { route } from "../../lib/contract";
import { adminOf } from "../../lib/params";
import { sendReminderNow } from "./reminders";
import { balanceDueSql, paymentStateIs } from "./rule";

/**
 * The outstanding and overdue balances on `today` (`yyyy-mm-dd`, The Hague), by the one rule
 * (rule.ts, `balanceOf`): counts of applications and sums owed in cents. The counts are those of
 * the list's payment filter (`paymentStateIs`: "deposit_paid" + "balance_overdue", and
 * "balance_overdue"), so the dashboard's figure and the list it links to agree (docs/product/payments.md#payment-status).
 */
export async function balanceSummary(db: Db, today: string): Promise<BalanceSummary> {
  const due = balanceDueSql;
  const owing = sql`(${paymentStateIs("deposit_paid", today)} or ${paymentStateIs("balance_overdue", today)})`;
  const overdue = paymentStateIs("balance_overdue", today);
  const [row] = await db
    .select({
      outstandingCount: sql<number>`count(*) filter (where ${owing})::int`,
      outstandingAmount: sql<number>`coalesce(sum(${due}) filter (where ${owing}), 0)::bigint`,
      overdueCount: sql<number>`count(*) filter (where ${overdue})::int`,
      overdueAmount: sql<number>`coalesce(sum(${due}) filter (where ${overdue}), 0)::bigint`,
    })
    .from(applications)
    .innerJoin(summerSchools, sql`${summerSchools.id} = ${applications.summerSchoolId}`);
  return {
    today,
    outstanding: { count: Number(row?.outstandingCount ?? 0), amount: Number(row?.outstandingAmount ?? 0) },
    overdue: { count: Number(row?.overdueCount ?? 0), amount: Number(row?.overdueAmount ?? 0) },
  };
}

/**
 * Back-office routes of balances (docs/product/payments.md#deposit-and-balance). Behind `requireAdmin`: 401
 * without an admin session (student and affiliate sessions do not count, docs/product/security.md#s7-sessions-of-one-kind-do-not-open-another), 403
 * without the permission; answers are `no-store`.
 */
export async function balanceRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; origin: string; supportEmail: string },
) {
  const { db, now } = opts;
  const { requireAdmin, mail } = app.services;

  /**
   * GET /api/admin/balances/summary → BalanceSummary (applications:read, like the dashboard):
   * outstanding and overdue balances, counts and cents, for today in The Hague.
   */
  route(app, getBalanceSummaryContract, { preHandler: requireAdmin("applications:read") }, async () =>
    balanceSummary(db, schoolDate(now())),
  );

  /**
   * POST /api/admin/applications/:id/balance-reminder (no body) → 202 BalanceReminderResult
   * (finance:write): queues a reminder e-mail of the balance now, even if one was sent before
   * (its own dedupe key per press); audited `application.balanceReminder`. 404 for an unknown id,
   * 409 `errors.nothingOwedReminder` when nothing is owed.
   */
  route(
    app,
    sendBalanceReminderContract,
    { preHandler: requireAdmin("finance:write") },
    async ({ params, request }) =>
      sendReminderNow(
        { db, mail, now, origin: opts.origin, supportEmail: opts.supportEmail },
        adminOf(request),
        params.id,
      ),
  );
}
