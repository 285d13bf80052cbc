import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import {
  type AdminWebhookDetail,
  type AdminWebhookEventDto,
  type AdminWebhookList,
  type AdminWebhookReplayResult,
  UNPROCESSED_RESULT,
} from "../../../shared/webhooks";
import type { Db } from "../../db/client";
import { webhookEvents } from "../../db/schema";
import { parseOrThrow } from "../../lib/errors";
import { adminNotFound } from "./applications.service";
import { recordAudit } from "./audit";

const emptyToUndefined = (v: unknown) => (v === "" || v === undefined ? undefined : v);
const positiveInt = (max: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{1,7}$/)
      .transform(Number)
      .pipe(z.number().int().min(1).max(max))
      .optional(),
  );

/** Query of `GET /api/admin/webhooks`: page, pageSize (≤ 100), type (exact), result (exact, prefix before ":", or "unprocessed"). */
const webhookQuerySchema = z.object({
  page: positiveInt(100_000).transform((v) => v ?? 1),
  pageSize: positiveInt(100).transform((v) => v ?? 25),
  type: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(100).optional()),
  result: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(100).optional()),
});

const idParams = z.object({ id: z.string().min(1).max(255) });

/** The application an event concerns, from the stored payload's checkout session. */
const applicationIdSql = sql<
  string | null
>`coalesce(${webhookEvents.payload}->'data'->'object'->'metadata'->>'applicationId', ${webhookEvents.payload}->'data'->'object'->>'client_reference_id')`;

const listColumns = {
  id: webhookEvents.id,
  provider: webhookEvents.provider,
  type: webhookEvents.type,
  receivedAt: webhookEvents.receivedAt,
  processedAt: webhookEvents.processedAt,
  result: webhookEvents.result,
  applicationId: applicationIdSql,
};

function dtoOf(row: {
  id: string;
  provider: string;
  type: string;
  receivedAt: Date;
  processedAt: Date | null;
  result: string | null;
  applicationId: string | null;
}): AdminWebhookEventDto {
  return {
    id: row.id,
    provider: row.provider,
    type: row.type,
    receivedAt: row.receivedAt.toISOString(),
    processedAt: row.processedAt ? row.processedAt.toISOString() : null,
    result: row.result,
    applicationId: row.applicationId ?? null,
  };
}

/**
 * Back-office webhook log (issue "Webhooks"): every provider event received, its processing
 * result, and a replay through the same processing code as the webhook. Owner only (permission
 * `webhooks:read`, for reading and replaying); answers are `no-store`. Unknown id → 404.
 */
export async function adminWebhookRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const { requireAdmin, payments } = app.services;

  /** GET /api/admin/webhooks?page&pageSize&type&result → AdminWebhookList, newest first. */
  app.get("/api/admin/webhooks", { preHandler: requireAdmin("webhooks:read") }, async (request) => {
    const query = parseOrThrow(webhookQuerySchema, request.query);
    const conditions: SQL[] = [];
    if (query.type) conditions.push(eq(webhookEvents.type, query.type));
    if (query.result === UNPROCESSED_RESULT) conditions.push(sql`${webhookEvents.processedAt} is null`);
    else if (query.result)
      conditions.push(
        sql`(${webhookEvents.result} = ${query.result} or ${webhookEvents.result} like ${`${query.result.replace(/[\\%_]/g, "\\$&")}:%`})`,
      );
    const where = conditions.length ? and(...conditions) : undefined;
    const [{ total } = { total: 0 }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(webhookEvents)
      .where(where);
    const rows = await db
      .select(listColumns)
      .from(webhookEvents)
      .where(where)
      .orderBy(desc(webhookEvents.receivedAt), desc(webhookEvents.id))
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize);
    const list: AdminWebhookList = {
      items: rows.map(dtoOf),
      total: Number(total),
      page: query.page,
      pageSize: query.pageSize,
    };
    return list;
  });

  /** GET /api/admin/webhooks/:id → AdminWebhookDetail (with the stored payload); 404 when unknown. */
  app.get("/api/admin/webhooks/:id", { preHandler: requireAdmin("webhooks:read") }, async (request) => {
    const { id } = parseOrThrow(idParams, request.params);
    const [row] = await db
      .select({ ...listColumns, payload: webhookEvents.payload })
      .from(webhookEvents)
      .where(eq(webhookEvents.id, id));
    if (!row) throw adminNotFound();
    const detail: AdminWebhookDetail = { ...dtoOf(row), payload: row.payload };
    return detail;
  });

  /**
   * POST /api/admin/webhooks/:id/replay → `{ result }`: re-runs the stored event through
   * `PaymentsService.replay` (the webhook's processing; fulfilment is idempotent). Audit "webhook.replay".
   */
  app.post(
    "/api/admin/webhooks/:id/replay",
    { preHandler: requireAdmin("webhooks:read") },
    async (request) => {
      const { id } = parseOrThrow(idParams, request.params);
      const [before] = await db
        .select({ processedAt: webhookEvents.processedAt, result: webhookEvents.result })
        .from(webhookEvents)
        .where(eq(webhookEvents.id, id));
      if (!before) throw adminNotFound();
      const result = await payments.replay(id);
      if (result === null) throw adminNotFound();
      await recordAudit(db, {
        actor: request.admin!,
        action: "webhook.replay",
        entityType: "webhook_event",
        entityId: id,
        before: { processedAt: before.processedAt?.toISOString() ?? null, result: before.result },
        after: { result },
      });
      const answer: AdminWebhookReplayResult = { result };
      return answer;
    },
  );
}
