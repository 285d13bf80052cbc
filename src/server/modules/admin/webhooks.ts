import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { z } from "zod";
import {
  exportWebhooksContract,
  getWebhookContract,
  listWebhooksContract,
  replayWebhookContract,
} from "../../../shared/api/webhooks";
import type { webhookFilterSchema } from "../../../shared/schemas/webhooks";
import {
  type AdminWebhookDetail,
  type AdminWebhookEventDto,
  type AdminWebhookList,
  type AdminWebhookReplayResult,
  UNPROCESSED_RESULT,
} from "../../../shared/webhooks";
import type { Db } from "../../db/client";
import { webhookEvents } from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv, toCsv } from "../../lib/csv";
import { adminNotFound } from "../../lib/errors";
import { pageOf, pageOffset } from "../../lib/lists";

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

/** The SQL condition of the log's filters (undefined: every event). */
function filterConditions(filters: z.output<typeof webhookFilterSchema>): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.type) conditions.push(eq(webhookEvents.type, filters.type));
  if (filters.result === UNPROCESSED_RESULT) conditions.push(sql`${webhookEvents.processedAt} is null`);
  else if (filters.result)
    conditions.push(
      sql`(${webhookEvents.result} = ${filters.result} or ${webhookEvents.result} like ${`${filters.result.replace(/[\\%_]/g, "\\$&")}:%`})`,
    );
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * Back-office webhook log (docs/product/back-office.md#webhooks-admin): every provider event received, its processing
 * result, and a replay through the same processing code as the webhook. Owner only (permission
 * `webhooks:read`, for reading and replaying); answers are `no-store`. Unknown id → 404.
 */
export async function adminWebhookRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const { requireAdmin, payments } = app.services;

  /** GET /api/admin/webhooks?page&pageSize&type&result → AdminWebhookList, newest first. */
  route(app, listWebhooksContract, { preHandler: requireAdmin("webhooks:read") }, async ({ query }) => {
    const where = filterConditions(query);
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
      .offset(pageOffset(query));
    const list: AdminWebhookList = pageOf(rows.map(dtoOf), total, query);
    return list;
  });

  /**
   * GET /api/admin/webhooks.csv?type&result → text/csv of every matching event, newest first
   * (event id, provider, type, received, processed, result, application). webhooks:read; audit
   * "webhooks.export".
   */
  route(
    app,
    exportWebhooksContract,
    { preHandler: requireAdmin("webhooks:read") },
    async ({ query: filters, request, reply }) => {
      const rows = (
        await db
          .select(listColumns)
          .from(webhookEvents)
          .where(filterConditions(filters))
          .orderBy(desc(webhookEvents.receivedAt), desc(webhookEvents.id))
      ).map(dtoOf);
      await recordAudit(db, {
        actor: request.admin!,
        action: "webhooks.export",
        entityType: "webhook_event",
        entityId: "*",
        after: { filters, rows: rows.length },
      });
      const csv = toCsv(
        ["Event ID", "Provider", "Type", "Received", "Processed", "Result", "Application ID"],
        rows.map((e) => [e.id, e.provider, e.type, e.receivedAt, e.processedAt, e.result, e.applicationId]),
      );
      return sendCsv(reply, "webhook-events", csv, new Date());
    },
  );

  /** GET /api/admin/webhooks/:id → AdminWebhookDetail (with the stored payload); 404 when unknown. */
  route(
    app,
    getWebhookContract,
    { preHandler: requireAdmin("webhooks:read") },
    async ({ params: { id } }) => {
      const [row] = await db
        .select({ ...listColumns, payload: webhookEvents.payload })
        .from(webhookEvents)
        .where(eq(webhookEvents.id, id));
      if (!row) throw adminNotFound();
      const detail: AdminWebhookDetail = { ...dtoOf(row), payload: row.payload };
      return detail;
    },
  );

  /**
   * POST /api/admin/webhooks/:id/replay → `{ result }`: re-runs the stored event through
   * `PaymentsService.replay` (the webhook's processing; fulfilment is idempotent). Audit "webhook.replay".
   */
  route(
    app,
    replayWebhookContract,
    { preHandler: requireAdmin("webhooks:read") },
    async ({ params: { id }, request }) => {
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
