/**
 * API tests of the admin webhook log (docs/product/back-office.md#webhooks-admin): list with results, detail with payload,
 * replay through the webhook's processing (idempotent for a processed payment, processes an
 * unprocessed event), owner-only access, unknown id.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminWebhookDetailSchema,
  adminWebhookListSchema,
  adminWebhookReplayResultSchema,
} from "../../../shared/schemas/webhooks";
import type { AdminWebhookDetail, AdminWebhookList } from "../../../shared/webhooks";
import { applications, emailOutbox, payments, webhookEvents } from "../../db/schema";
import {
  adminRoles,
  apiOf,
  auditEntries,
  csvLines,
  expectCsvDownload,
  expectRouteStatuses,
  latestAuditEntry,
  type RoleCookies,
  SAME_ORIGIN,
} from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";
import { buildOfflineEvent, completeOfflineSession } from "../payments/providers/offline";

let t: TestApp;
let cookies: RoleCookies;
let owner: string;
const db = () => t.database.db;
const api = apiOf(() => t.app, SAME_ORIGIN);
const flow = paymentFlow(() => t, { addressPrefix: "10.77" });

/** `GET /api/admin/webhooks?<query>` as the owner, checked against the list's shared schema. */
async function webhookList(query = ""): Promise<AdminWebhookList> {
  const res = await api("GET", `/api/admin/webhooks${query ? `?${query}` : ""}`, owner);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expectParses(adminWebhookListSchema, body);
  return body as AdminWebhookList;
}

/** An application with an open offline checkout session. */
async function withCheckout(email: string) {
  const a = await flow.newApplication(undefined, { email });
  return { ...a, sessionId: await flow.sessionOf(a) };
}

async function countsOf(applicationId: string) {
  const paid = await db().select().from(payments).where(eq(payments.applicationId, applicationId));
  const emails = await db()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.dedupeKey, `confirmation:${applicationId}`));
  return { payments: paid.length, emails: emails.length };
}

let paidApp: { applicationId: string; sessionId: string };
let completedEventId: string;

beforeAll(async () => {
  t = await createTestApp();
  cookies = await adminRoles(t.app);
  owner = cookies.owner;
  paidApp = await withCheckout("webhook.paid@example.com");
  await flow.payOnTestPage(paidApp.sessionId);
});
afterAll(async () => {
  await t?.close();
});

describe("admin webhook log", () => {
  it("lists the completed event of a paid offline checkout with its result, newest first", async () => {
    const res = await api("GET", "/api/admin/webhooks", owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const list = res.json() as AdminWebhookList;
    expectParses(adminWebhookListSchema, list);
    const event = list.items.find(
      (e) => e.type === "checkout.session.completed" && e.applicationId === paidApp.applicationId,
    );
    expect(event).toMatchObject({ provider: "offline", result: "paid" });
    expect(event!.processedAt).toEqual(expect.any(String));
    expect(list.total).toBeGreaterThanOrEqual(1);
    completedEventId = event!.id;

    const filtered = await webhookList("type=checkout.session.completed&result=paid");
    expect(filtered.items.map((e) => e.id)).toContain(completedEventId);
    const none = await webhookList("result=expired");
    expect(none.items.map((e) => e.id)).not.toContain(completedEventId);
    expect((await api("GET", "/api/admin/webhooks?pageSize=1000", owner)).statusCode).toBe(400);

    const detail = await api("GET", `/api/admin/webhooks/${completedEventId}`, owner);
    expect(detail.statusCode).toBe(200);
    const d = detail.json() as AdminWebhookDetail;
    expectParses(adminWebhookDetailSchema, d);
    expect(d).toMatchObject({ id: completedEventId, result: "paid" });
    expect(d.payload).toMatchObject({ type: "checkout.session.completed" });
  });

  it("replays a processed completed event without a second payment or e-mail", async () => {
    expect(await countsOf(paidApp.applicationId)).toEqual({ payments: 1, emails: 1 });
    const res = await api("POST", `/api/admin/webhooks/${completedEventId}/replay`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expectParses(adminWebhookReplayResultSchema, res.json());
    expect(res.json()).toEqual({ result: "already_paid" });
    expect(await countsOf(paidApp.applicationId)).toEqual({ payments: 1, emails: 1 });
    const [application] = await db()
      .select()
      .from(applications)
      .where(eq(applications.id, paidApp.applicationId));
    expect(application).toMatchObject({ paymentStatus: "paid", flag: null });
    const audit = await auditEntries(db(), { entityId: completedEventId });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "webhook.replay", entityType: "webhook_event" });
  });

  it("replays an unprocessed event: it is processed through the webhook's code", async () => {
    const a = await withCheckout("webhook.unprocessed@example.com");
    const row = await completeOfflineSession(db(), a.sessionId);
    if (!row) throw new Error("not completed");
    const event = buildOfflineEvent("checkout.session.completed", row);
    await db()
      .insert(webhookEvents)
      .values({ id: event.id, provider: "offline", type: event.type, payload: event });
    const listed = await webhookList("result=unprocessed");
    expect(listed.items.find((e) => e.id === event.id)).toMatchObject({
      processedAt: null,
      result: null,
      applicationId: a.applicationId,
    });
    expect(await countsOf(a.applicationId)).toEqual({ payments: 0, emails: 0 });

    const res = await api("POST", `/api/admin/webhooks/${event.id}/replay`, owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ result: "paid" });
    expect(await countsOf(a.applicationId)).toEqual({ payments: 1, emails: 1 });
    const [stored] = await db().select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(stored).toMatchObject({ result: "paid" });
    expect(stored!.processedAt).toBeInstanceOf(Date);
    const [application] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    expect(application).toMatchObject({ status: "submitted", paymentStatus: "paid" });
  });

  it("exports the filtered log as CSV for owners, with an audit entry; the team CSV too", async () => {
    const res = await api("GET", "/api/admin/webhooks.csv?type=checkout.session.completed", owner);
    expect(res.statusCode, res.body).toBe(200);
    const lines = expectCsvDownload(res, "webhook-events");
    expect(lines[0]).toBe("Event ID,Provider,Type,Received,Processed,Result,Application ID");
    // The paid checkout's event (replayed by the tests above, so its result says so).
    expect(lines.some((l) => l.includes(paidApp.applicationId) && l.includes(",offline,"))).toBe(true);
    expect(lines.slice(1).every((l) => l.includes("checkout.session.completed"))).toBe(true);
    const expired = await api("GET", "/api/admin/webhooks.csv?result=expired", owner);
    expect(expired.body.includes(paidApp.applicationId)).toBe(false);
    const entry = await latestAuditEntry(db(), { action: "webhooks.export" });
    expect(entry).toMatchObject({ actorRole: "admin", entityType: "webhook_event" });

    const team = await api("GET", "/api/admin/admins.csv", owner);
    expect(team.statusCode).toBe(200);
    const teamLines = csvLines(team);
    expect(teamLines[0]).toBe("E-mail,Name,Role,Status,Created");
    expect(teamLines.filter((l) => /,(admissions|finance),active,/.test(l))).toHaveLength(2);
    await expectRouteStatuses(
      api,
      cookies,
      [
        ["GET", "/api/admin/webhooks.csv"],
        ["GET", "/api/admin/admins.csv"],
      ],
      { admissions: 403, finance: 403 },
    );
  });

  it("is owner only: other admins 403, anonymous 401", async () => {
    const routes = [
      ["GET", "/api/admin/webhooks"],
      ["GET", `/api/admin/webhooks/${completedEventId}`],
      ["POST", `/api/admin/webhooks/${completedEventId}/replay`],
    ] as const;
    await expectRouteStatuses(api, cookies, routes, { admissions: 403, finance: 403 });
    await expectRouteStatuses(api, cookies, routes, { anonymous: 401 });
  });

  it("answers 404 for an unknown id", async () => {
    const detail = await api("GET", "/api/admin/webhooks/evt_unknown", owner);
    expect(detail.statusCode).toBe(404);
    expect(detail.json()).toMatchObject({ error: "not_found" });
    expect((await api("POST", "/api/admin/webhooks/evt_unknown/replay", owner)).statusCode).toBe(404);
  });
});
