import { desc, eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { getRetentionContract } from "../../../shared/api/retention";
import { RETENTION_KINDS } from "../../../shared/retention";
import type { Db } from "../../db/client";
import { auditLog } from "../../db/schema";
import { route } from "../../lib/contract";
import type { RetentionCounts, RetentionService } from "./service";

/** The retention job on the back office's operations page (docs/product/privacy.md#retention-periods). */
export async function retentionRoutes(app: FastifyInstance, opts: { db: Db; retention: RetentionService }) {
  const { db, retention } = opts;
  const { requireAdmin } = app.services;

  /**
   * GET /api/admin/retention → 200 `RetentionOverviewDto` (src/shared/api/retention.ts): the periods
   * in force, what a run now would remove per kind (a dry run, nothing changes) and the last run's
   * time and counts, read from its audit entry (`retention.run`), so every process answers the
   * same. Permission `ops:read` (owners; others 403, no session 401).
   */
  route(app, getRetentionContract, { preHandler: requireAdmin("ops:read") }, async () => {
    const [last] = await db
      .select({ at: auditLog.createdAt, after: auditLog.after })
      .from(auditLog)
      .where(eq(auditLog.action, "retention.run"))
      .orderBy(desc(auditLog.createdAt))
      .limit(1);
    const recorded = (last?.after ?? {}) as Partial<RetentionCounts>;
    return {
      periods: retention.periods,
      next: await retention.preview(),
      lastRun: last
        ? {
            at: last.at.toISOString(),
            counts: Object.fromEntries(RETENTION_KINDS.map((k) => [k, recorded[k] ?? 0])) as RetentionCounts,
          }
        : null,
    };
  });
}
