import type {
  adminJobsSchema,
  healthSchema,
  jobOutcomeSchema,
  jobStatusSchema,
  readinessSchema,
} from "./api/ops";
import { z } from "./schemas/zod";

export { adminJobsSchema, healthSchema, jobOutcomeSchema, jobStatusSchema, readinessSchema } from "./api/ops";

/**
 * Shapes of the operations endpoints and of a backup archive (decision 013). Nothing here is
 * personal or secret: probes and monitoring read these without signing in.
 */

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

export type Health = z.infer<typeof healthSchema>;
export type Readiness = z.infer<typeof readinessSchema>;
export type JobOutcome = z.infer<typeof jobOutcomeSchema>;
export type JobStatus = z.infer<typeof jobStatusSchema>;
export type AdminJobs = z.infer<typeof adminJobsSchema>;
