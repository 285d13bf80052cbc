import { and, asc, desc, eq, gte, lt, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { AuditEntryDto, AuditPage } from "../../../shared/admin";
import { exportAuditContract, getAuditFacetsContract, listAuditContract } from "../../../shared/api/audit";
import type { AuditFilters } from "../../../shared/schemas/admin";
import type { AuditFacets } from "../../../shared/students-admin";
import type { Db, Tx } from "../../db/client";
import { admins, auditLog } from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv, toCsv } from "../../lib/csv";
import { pageOf, pageOffset } from "../../lib/lists";

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

/** The WHERE clause of the audit filters (entity type and id, acting admin, action, from/to days in UTC). */
export function auditConditions(filters: AuditFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.entityType) conditions.push(eq(auditLog.entityType, filters.entityType));
  if (filters.entityId) conditions.push(eq(auditLog.entityId, filters.entityId));
  if (filters.actorId) conditions.push(eq(auditLog.actorId, filters.actorId));
  if (filters.action) conditions.push(eq(auditLog.action, filters.action));
  if (filters.from) conditions.push(gte(auditLog.createdAt, new Date(`${filters.from}T00:00:00Z`)));
  if (filters.to) {
    const end = new Date(`${filters.to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    conditions.push(lt(auditLog.createdAt, end));
  }
  return conditions.length ? and(...conditions) : undefined;
}

/** Most rows of one audit CSV export (newest first); a larger log is exported in narrower date ranges. */
export const AUDIT_CSV_MAX_ROWS = 50_000;

/**
 * The audit log routes (owner only: permission audit:read). Read-only by design: the log has no
 * update or delete route.
 */
export async function auditRoutes(app: FastifyInstance, opts: { db: Db; now?: () => Date }) {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const guard = { preHandler: app.services.requireAdmin("audit:read") };

  /**
   * GET /api/admin/audit?entityType=&entityId=&actorId=&action=&from=&to=&page= → AuditPage
   * `{ items, total, page, pageSize }`, newest first, 50 a page. 401 without an admin session, 403
   * without audit:read, 400 for a malformed query (e.g. an actorId that is not a UUID, a date that
   * does not exist).
   */
  route(app, listAuditContract, guard, async ({ query }) => {
    const where = auditConditions(query);
    const [{ total } = { total: 0 }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(auditLog)
      .where(where);
    const items = await readAudit(db, {
      where,
      limit: AUDIT_PAGE_SIZE,
      offset: pageOffset({ page: query.page, pageSize: AUDIT_PAGE_SIZE }),
    });
    const page: AuditPage = pageOf(items, total, { page: query.page, pageSize: AUDIT_PAGE_SIZE });
    return page;
  });

  /**
   * GET /api/admin/audit.csv?<same filters> → text/csv attachment (newest first, at most
   * AUDIT_CSV_MAX_ROWS rows; before and after as JSON text). The export itself is recorded
   * ("audit.export", with the filters and the number of rows).
   */
  route(app, exportAuditContract, guard, async ({ query: filters, request, reply }) => {
    const items = await readAudit(db, { where: auditConditions(filters), limit: AUDIT_CSV_MAX_ROWS });
    const csv = toCsv(
      [
        "Time",
        "Actor role",
        "Actor ID",
        "Actor e-mail",
        "Action",
        "Entity type",
        "Entity ID",
        "Before",
        "After",
      ],
      items.map((e) => [
        e.createdAt,
        e.actorRole,
        e.actorId,
        e.actorEmail,
        e.action,
        e.entityType,
        e.entityId,
        e.before === null ? "" : JSON.stringify(e.before),
        e.after === null ? "" : JSON.stringify(e.after),
      ]),
    );
    await recordAudit(db, {
      actor: request.admin!,
      action: "audit.export",
      entityType: "audit",
      entityId: "*",
      after: { filters, rows: items.length },
    });
    return sendCsv(reply, "audit-log", csv, now());
  });

  /**
   * GET /api/admin/audit/facets → AuditFacets: the entity types and actions that occur in the log
   * (alphabetical) and every admin (by e-mail), for the viewer's filter lists.
   */
  route(app, getAuditFacetsContract, guard, async () => {
    const entityTypes = await db
      .selectDistinct({ value: auditLog.entityType })
      .from(auditLog)
      .orderBy(asc(auditLog.entityType));
    const actions = await db
      .selectDistinct({ value: auditLog.action })
      .from(auditLog)
      .orderBy(asc(auditLog.action));
    const actors = await db
      .select({ id: admins.id, email: admins.email, name: admins.name })
      .from(admins)
      .orderBy(asc(admins.email));
    const facets: AuditFacets = {
      entityTypes: entityTypes.map((r) => r.value),
      actions: actions.map((r) => r.value),
      actors,
    };
    return facets;
  });
}
