import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { createBackupContract } from "../../../shared/api/ops";
import type { DbHandle } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { hashToken, tokenMatches } from "../../lib/tokens";
import { backupFileName, backupStream, pgliteOf } from "./backup";
import { bearerToken } from "./routes";

/**
 * The backup of a running server on the embedded database (decision 013): the server holds the
 * PGlite data folder, so a backup while it runs goes through it.
 */
export async function backupRoutes(app: FastifyInstance, opts: { env: Env; database: DbHandle }) {
  const { env, database } = opts;
  const { requireAdmin } = app.services;
  const backupTokenHash = env.BACKUP_TOKEN ? hashToken(env.BACKUP_TOKEN) : null;
  const ownerSession = requireAdmin();

  /**
   * Lets in a request with `Authorization: Bearer <BACKUP_TOKEN>`, or a signed-in owner (other
   * admins 403, no session 401). A bearer token that is not the backup token is refused (401)
   * without looking at the session.
   */
  async function ownerOrBackupToken(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    reply.header("cache-control", "no-store");
    const presented = bearerToken(request);
    if (presented !== undefined) {
      if (backupTokenHash && tokenMatches(presented, backupTokenHash)) return;
      request.log.warn("backup refused: wrong bearer token");
      throw new HttpError(401, "errors.unauthorized");
    }
    await ownerSession.call(this, request, reply);
    if (request.admin?.role !== "owner") {
      request.log.warn({ adminId: request.admin?.id }, "backup refused: not an owner");
      throw new HttpError(403, "errors.forbiddenRole");
    }
  }

  /**
   * POST /api/admin/backup → 200 `application/gzip` attachment `hss-backup-<time>.tar.gz`,
   * no-store: the archive of `backupStream` (database dump, encrypted uploads, generated keys:
   * as sensitive as the data folder itself). For an owner's session or the BACKUP_TOKEN; at most
   * 10 an hour per address. 404 on PostgreSQL (back it up with pg_dump). Writes the audit entry
   * "backup.create" (the admin, or the system for the token) before the archive leaves.
   */
  route(
    app,
    createBackupContract,
    { preHandler: ownerOrBackupToken, config: { rateLimit: { max: 10, timeWindow: "1 hour" } } },
    async ({ request, reply }) => {
      if (database.kind !== "pglite") throw new HttpError(404, "errors.notFound");
      const { manifest, stream } = await backupStream({
        client: pgliteOf(database),
        dataDir: env.DATA_DIR,
        fileKeyConfigured: Boolean(env.FILE_ENCRYPTION_KEY),
      });
      await recordAudit(database.db, {
        actor: request.admin ?? { actorRole: "system", actorId: null },
        action: "backup.create",
        entityType: "backup",
        entityId: manifest.createdAt,
        after: {
          files: manifest.files.length,
          databaseBytes: manifest.databaseBytes,
          fileKey: manifest.fileKey,
        },
      });
      request.log.info(
        { files: manifest.files.length, databaseBytes: manifest.databaseBytes },
        "backup taken",
      );
      return reply
        .header("content-type", "application/gzip")
        .header(
          "content-disposition",
          `attachment; filename="${backupFileName(new Date(manifest.createdAt))}"`,
        )
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .send(stream);
    },
  );
}
