import { balanceReminderResultSchema, balanceSummarySchema } from "../schemas/balances";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The back office's balances: outstanding and overdue sums, and "send reminder now". Admins only
 * (401 without an admin session, 403 without the permission); answers are `no-store`. Amounts are
 * integer euro cents; dates `yyyy-mm-dd` (The Hague).
 */

/** `GET /api/admin/balances/summary` → `{ today, outstanding, overdue }` counts and cents (applications:read). */
export const getBalanceSummaryContract = contract({
  method: "GET",
  path: "/api/admin/balances/summary",
  access: "admin",
  summary: "Outstanding and overdue balances today: counts and sums",
  response: balanceSummarySchema,
});

/**
 * `POST /api/admin/applications/:id/balance-reminder` (no body) → 202 `{ balanceDue, dueDate,
 * overdue }`: a reminder e-mail of the balance is queued now (finance:write, audited). 404
 * unknown id; 409 `errors.nothingOwedReminder` when nothing is owed.
 */
export const sendBalanceReminderContract = contract({
  method: "POST",
  path: "/api/admin/applications/:id/balance-reminder",
  access: "admin",
  summary: "Send the balance reminder e-mail of an application now",
  params: idParams,
  status: 202,
  response: balanceReminderResultSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const BALANCES_CONTRACTS = [getBalanceSummaryContract, sendBalanceReminderContract];
