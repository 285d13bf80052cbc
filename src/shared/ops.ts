import { z } from "./schemas/zod";

/**
 * Shapes of the operations endpoints and of a backup archive (decision 013). Nothing here is
 * personal or secret: probes and monitoring read these without signing in.
 */

/** `GET /api/health` → 200 whenever the process answers (liveness; no database involved). */
export const healthSchema = z.object({
  ok: z.literal(true),
  /** Which database this process uses. */
  database: z.enum(["pglite", "postgres"]),
  /** Which payment provider this process uses. */
  payments: z.enum(["offline", "stripe"]),
});
export type Health = z.infer<typeof healthSchema>;

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
export type Readiness = z.infer<typeof readinessSchema>;

/** Name of a file kept in one folder of a backup: no path, no leading dot. */
const plainFileName = z.string().regex(/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/);

/**
 * `manifest.json`, the first entry of a backup archive of the embedded database (a gzipped tar):
 * `pglite.tar` is PGlite's own dump of its data folder, `files/<name>` the encrypted uploads and
 * `secrets/<name>` the generated keys, each listed here with its size in bytes.
 */
export const backupManifestSchema = z.object({
  format: z.literal("hague-summer-school-backup"),
  version: z.literal(1),
  /** ISO timestamp of the dump. */
  createdAt: z.iso.datetime(),
  database: z.literal("pglite"),
  /** Bytes of `pglite.tar`. */
  databaseBytes: z.number().int().nonnegative(),
  files: z.array(z.object({ name: plainFileName, bytes: z.number().int().nonnegative() })),
  secrets: z.array(z.object({ name: plainFileName, bytes: z.number().int().nonnegative() })),
  /**
   * Where the key of the encrypted uploads is: `included` (secrets/file-key is in the archive) or
   * `configured` (FILE_ENCRYPTION_KEY was set: the archive does not hold it; keep it elsewhere).
   */
  fileKey: z.enum(["included", "configured"]),
});
export type BackupManifest = z.infer<typeof backupManifestSchema>;

/**
 * How a background job's last run ended: `ok`; `failed` (it threw: logged and counted);
 * `skipped` (on PostgreSQL, another server process was running the job).
 */
export const jobOutcomeSchema = z.enum(["ok", "failed", "skipped"]);
export type JobOutcome = z.infer<typeof jobOutcomeSchema>;

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
export type JobStatus = z.infer<typeof jobStatusSchema>;

/**
 * `GET /api/admin/ops/jobs` (owners: permission `ops:read`) → the job table. `runsHere`: whether
 * the answering server process runs the jobs; with several processes only one does, and the
 * others know the table but not the runs (the metrics hold them: `hss_job_*`).
 */
export const adminJobsSchema = z.object({
  runsHere: z.boolean(),
  jobs: z.array(jobStatusSchema),
});
export type AdminJobs = z.infer<typeof adminJobsSchema>;
