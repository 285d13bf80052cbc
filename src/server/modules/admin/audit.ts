import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AuditEntryDto, AuditPage } from "../../../shared/admin";
import { auditQuerySchema } from "../../../shared/schemas/admin";
import type { Db, Tx } from "../../db/client";
import { admins, auditLog } from "../../db/schema";
import { parseOrThrow } from "../../lib/errors";
import type { AdminUser } from "../auth/guard";

/** Who made a change: a signed-in admin, or another actor (student, affiliate, the system itself). */
export type AuditActor =
  | AdminUser
  | { actorRole: "admin" | "student" | "affiliate" | "system"; actorId: string | null };

export interface AuditEntryInput {
  actor: AuditActor;
  /** What happened, `<entity>.<verb>`: "application.status", "note.create", "passport.download". */
  action: string;
  entityType: string;
  entityId: string;
  /** State before the change (null for a creation or a read). */
  before?: unknown;
  /** State after the change (null for a deletion). */
  after?: unknown;
}

/**
 * Appends one audit entry in the caller's transaction, so the entry exists exactly when the change
 * does (contract: "Every admin change writes an audit_log row"). The log is append-only: this
 * module only inserts, and no route updates or deletes audit rows.
 */
export async function recordAudit(tx: Tx, entry: AuditEntryInput): Promise<void> {
  const { actor } = entry;
  const [actorRole, actorId] =
    "actorRole" in actor ? [actor.actorRole, actor.actorId] : (["admin", actor.id] as const);
  await tx.insert(auditLog).values({
    actorRole,
    actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}

/** Page size of the audit log. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * Reads audit entries, newest first, with the acting admin's e-mail. `where` narrows them
 * (e.g. by entity); `limit`/`offset` page them.
 */
export async function readAudit(
  tx: Tx,
  options: { where?: SQL; limit: number; offset?: number },
): Promise<AuditEntryDto[]> {
  const rows = await tx
    .select({ entry: auditLog, actorEmail: admins.email })
    .from(auditLog)
    .leftJoin(admins, and(eq(auditLog.actorRole, "admin"), eq(admins.id, auditLog.actorId)))
    .where(options.where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.limit)
    .offset(options.offset ?? 0);
  return rows.map(({ entry, actorEmail }) => ({
    id: entry.id,
    actorRole: entry.actorRole,
    actorId: entry.actorId,
    actorEmail: actorEmail ?? null,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    before: entry.before,
    after: entry.after,
    createdAt: entry.createdAt.toISOString(),
  }));
}

/**
 * The audit log route (owner only: permission audit:read). Read-only by design: the log has no
 * update or delete route.
 */
export async function auditRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;

  /**
   * GET /api/admin/audit?entityType=&entityId=&page= → AuditPage `{ items, total, page, pageSize }`,
   * newest first, 50 a page. 401 without an admin session, 403 without audit:read, 400 for a
   * malformed query.
   */
  app.get("/api/admin/audit", { preHandler: app.services.requireAdmin("audit:read") }, async (request) => {
    const query = parseOrThrow(auditQuerySchema, request.query);
    const conditions: SQL[] = [];
    if (query.entityType) conditions.push(eq(auditLog.entityType, query.entityType));
    if (query.entityId) conditions.push(eq(auditLog.entityId, query.entityId));
    const where = conditions.length ? and(...conditions) : undefined;
    const [{ total } = { total: 0 }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where);
    const items = await readAudit(db, {
      where,
      limit: AUDIT_PAGE_SIZE,
      offset: (query.page - 1) * AUDIT_PAGE_SIZE,
    });
    const page: AuditPage = { items, total: Number(total), page: query.page, pageSize: AUDIT_PAGE_SIZE };
    return page;
  });
}
