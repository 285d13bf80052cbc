import { APPLICATION_STATUSES } from "./admin";
import { auditEntrySchema } from "./audit";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schema of the back office's dashboard (`GET /api/admin/dashboard`), parsed by the browser
 * (`call` with the contract) so its type comes from the same source as the server's (src/shared/admin.ts
 * derives it). Amounts are integer euro cents; dates yyyy-mm-dd. A module of its own: ./admin.ts
 * is loaded by the public student pass page, which must not carry the back office's answers.
 */

/** A cohort on the dashboard: paid places against capacity. */
export const dashboardCohortSchema = z.object({
  id: z.uuid(),
  /** In the admin's language. */
  name: line(),
  /** yyyy-mm-dd. */
  startDate: line(),
  capacity: z.number().int(),
  /** Places taken: applications paid, deposit-paid or partially refunded (docs/product/payments.md#refunds). */
  paid: z.number().int(),
  /** paid / capacity, 0-1 (may exceed 1 when over-booked). */
  fillRate: z.number(),
});

/** `GET /api/admin/dashboard`. */
export const adminDashboardSchema = z.object({
  /** Number of applications in each status (every status listed, 0 included). */
  // Every status, each a count (an object of named keys, so the OpenAPI document names them).
  byStatus: z.object(
    Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, z.number().int()])) as {
      [K in (typeof APPLICATION_STATUSES)[number]]: z.ZodNumber;
    },
  ),
  /**
   * Sum paid on applications that are paid, deposit-paid, partially refunded or refunded, less the
   * refunds that succeeded (net of refunds), cents.
   */
  paidRevenue: z.number().int(),
  /** Live cohorts, by start date. */
  cohorts: z.array(dashboardCohortSchema),
  /** The 10 newest audit entries the admin may see (all for owners, application changes otherwise). */
  recent: z.array(auditEntrySchema),
});
