import { lines } from "./text";
import { z } from "./zod";

/**
 * Response shapes of the balances of the back office (docs/product/payments.md#deposit-and-balance: outstanding and
 * overdue balances, "send reminder now"). Amounts are integer euro cents; dates `yyyy-mm-dd`
 * (The Hague). Parsed by the admin pages with `call` with the contract.
 */

/** A count of applications and the sum they owe, cents. */
export const balanceBucketSchema = z.object({
  count: z.number().int().min(0),
  amount: z.number().int().min(0),
});
export type BalanceBucket = z.output<typeof balanceBucketSchema>;

/**
 * `GET /api/admin/balances/summary`: `outstanding` every application owing a balance (the overdue
 * ones included), `overdue` those whose due date has passed; `today` is the day the rule was
 * applied for (The Hague).
 */
export const balanceSummarySchema = z.object({
  today: lines(),
  outstanding: balanceBucketSchema,
  overdue: balanceBucketSchema,
});
export type BalanceSummary = z.output<typeof balanceSummarySchema>;

/** `POST /api/admin/applications/:id/balance-reminder` → 202: what the queued reminder says. */
export const balanceReminderResultSchema = z.object({
  balanceDue: z.number().int().min(0),
  dueDate: lines(),
  overdue: z.boolean(),
});
export type BalanceReminderResult = z.output<typeof balanceReminderResultSchema>;
