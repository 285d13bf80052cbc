import { z } from "../schemas/zod";
import { contract } from "./contract";

/**
 * The operations endpoints (decision 013): liveness, readiness, the Prometheus metrics, the backup
 * of the embedded database and the background jobs' table. `src/shared/ops.ts` re-exports the
 * answers' schemas and types.
 */

/** `GET /api/health` → 200 whenever the process answers (liveness; no database involved). */
export const healthSchema = z.object({
  ok: z.literal(true),
  /** Which database this process uses. */
  database: z.enum(["pglite", "postgres"]),
  /** Which payment provider this process uses. */
  payments: z.enum(["offline", "stripe"]),
});

/**
 * `GET /api/ready` → 200 when this process can serve requests (the database answered `select 1`
 * in time), 503 otherwise. Redis is `degraded` (still 200) when REDIS_URL is set and Redis does
 * not answer: rate limits then let requests through (decision 011); `off` without REDIS_URL.
 */
export const readinessSchema = z.object({
  ok: z.boolean(),
  database: z.enum(["up", "down"]),
  redis: z.enum(["up", "degraded", "off"]),
});

/**
 * How a background job's last run ended: `ok`; `failed` (it threw: logged and counted);
 * `skipped` (on PostgreSQL, another server process was running the job).
 */
export const jobOutcomeSchema = z.enum(["ok", "failed", "skipped"]);

/** One background job (src/server/lib/jobs.ts) and its last run in the process that runs the jobs. */
export const jobStatusSchema = z.object({
  /** Its stable name (`mail-flush`), also the metrics' `job` label. */
  name: z.string().regex(/^[a-z][a-z-]*$/),
  /** Time between two runs, in ms. */
  everyMs: z.number().int().positive(),
  /** Whether it also runs when the server starts. */
  runAtStart: z.boolean(),
  /** Whether a run is going on now. */
  running: z.boolean(),
  /** ISO timestamp of the last run's start; null before the first. */
  lastStartedAt: z.iso.datetime().nullable(),
  /** The last run's duration in ms; null before the first. */
  lastDurationMs: z.number().int().nonnegative().nullable(),
  lastOutcome: jobOutcomeSchema.nullable(),
  /** Failed runs since the process started. */
  failures: z.number().int().nonnegative(),
});

/**
 * `GET /api/admin/ops/jobs` (owners: permission `ops:read`) → the job table. `runsHere`: whether
 * the answering server process runs the jobs; with several processes only one does, and the
 * others know the table but not the runs (the metrics hold them: `hss_job_*`).
 */
export const adminJobsSchema = z.object({
  runsHere: z.boolean(),
  jobs: z.array(jobStatusSchema),
});

/** `GET /api/health`: liveness (`{ ok: true, database, payments }`), no-store. */
export const getHealthContract = contract({
  method: "GET",
  path: "/api/health",
  access: "public",
  summary: "Liveness: the process answers",
  response: healthSchema,
});

/**
 * `GET /api/ready`: readiness, no-store: 200 when the database answered in time, else 503 with the
 * same JSON shape (`readinessSchema`); the handler sends it itself since the status varies.
 */
export const getReadinessContract = contract({
  method: "GET",
  path: "/api/ready",
  access: "public",
  summary: "Readiness: 200 when the database answers, else 503",
  produces: "application/json",
});

/** `GET /metrics`: Prometheus text format; for the METRICS_TOKEN or this machine, else 404; 503 when workers did not answer. */
export const getMetricsContract = contract({
  method: "GET",
  path: "/metrics",
  access: "public",
  summary: "Prometheus metrics (with the metrics token or from this machine)",
  produces: "text/plain",
});

/** `POST /api/admin/backup`: the embedded database's backup archive (owner or BACKUP_TOKEN); 404 on PostgreSQL. */
export const createBackupContract = contract({
  method: "POST",
  path: "/api/admin/backup",
  access: "admin",
  summary: "Download a backup archive of the embedded database",
  produces: "application/gzip",
});

/** `GET /api/admin/ops/jobs`: the background jobs with their last runs (ops:read). */
export const listJobsContract = contract({
  method: "GET",
  path: "/api/admin/ops/jobs",
  access: "admin",
  summary: "The background jobs and their last runs in this process",
  response: adminJobsSchema,
});

/** Every contract of this area. */
export const OPS_CONTRACTS = [
  getHealthContract,
  getReadinessContract,
  getMetricsContract,
  createBackupContract,
  listJobsContract,
];
