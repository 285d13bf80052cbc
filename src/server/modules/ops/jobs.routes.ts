import type { FastifyInstance } from "fastify";
import { listJobsContract } from "../../../shared/api/ops";
import { route } from "../../lib/contract";
import type { JobScheduler } from "../../lib/jobs";

/**
 * The background jobs on the back office's operations page (decision 039).
 */
export async function jobRoutes(app: FastifyInstance, opts: { jobs: JobScheduler }) {
  const { jobs } = opts;
  const { requireAdmin } = app.services;

  /**
   * GET /api/admin/ops/jobs → 200 `AdminJobs` (src/shared/ops.ts), no-store: each job of the table
   * with its interval and last run in this process, and whether this process runs the jobs.
   * Permission `ops:read` (owners; others 403, no session 401).
   */
  route(app, listJobsContract, { preHandler: requireAdmin("ops:read") }, async () => ({
    runsHere: jobs.runsHere,
    jobs: jobs.status(),
  }));
}
