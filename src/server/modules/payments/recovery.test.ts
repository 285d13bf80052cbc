import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applications, payments, webhookEvents } from "../../db/schema";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { buildOfflineEvent, completeOfflineSession, getOfflineSession } from "./providers/offline";

/**
 * Checklist D4 and P11: a process killed while it handled a webhook event leaves the event
 * claimed ("processing") and unprocessed. Once the claim's lease has passed, the recovery job
 * applies it, exactly once; a fresh claim is left to the process that holds it.
 */
describe("D4: recovery of webhook events left half-processed by a crash", () => {
  let t: TestApp;
  let clockOffsetMs = 0;
  const flow = paymentFlow(() => t, { addressPrefix: "10.78" });

  beforeAll(async () => {
    t = await createTestApp({ now: () => new Date(Date.now() + clockOffsetMs) });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A paid offline session whose completed event was stored and claimed, then the process died. */
  async function crashedWhileProcessing(claimedAgoMs: number) {
    const a = await flow.newApplication();
    const sessionId = await flow.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    const event = buildOfflineEvent(
      "checkout.session.completed",
      (await getOfflineSession(t.database.db, sessionId))!,
    );
    const at = new Date(Date.now() - claimedAgoMs);
    await t.database.db.insert(webhookEvents).values({
      id: event.id,
      provider: "offline",
      type: event.type,
      payload: event,
      receivedAt: at,
      claimedAt: at,
      result: "processing",
    });
    return { a, event };
  }

  const paymentsOf = (applicationId: string) =>
    t.database.db.select().from(payments).where(eq(payments.applicationId, applicationId));

  it("D4: a stuck 'processing' event is retried once its lease has passed, and applied exactly once", async () => {
    const { a, event } = await crashedWhileProcessing(3 * 60_000);
    expect(await t.app.services.payments.recoverStuckEvents()).toBe(1);
    const [application] = await t.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, a.applicationId));
    expect(application?.paymentStatus).toBe("paid");
    const [row] = await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
    expect(row?.processedAt).not.toBeNull();
    expect(row?.result).toBe("paid");
    // Once: neither the job nor a redelivery applies it again.
    expect(await t.app.services.payments.recoverStuckEvents()).toBe(0);
    expect(await t.app.services.payments.handleEvent({ ...event, session: null, raw: event })).toBe(
      "duplicate",
    );
    expect(await paymentsOf(a.applicationId)).toHaveLength(1);
  });

  it("D4: an event claimed moments ago is left to the process that holds it, until the lease passes", async () => {
    const { a } = await crashedWhileProcessing(10_000);
    expect(await t.app.services.payments.recoverStuckEvents()).toBe(0);
    expect(await paymentsOf(a.applicationId)).toHaveLength(0);
    clockOffsetMs = 3 * 60_000;
    try {
      expect(await t.app.services.payments.recoverStuckEvents()).toBeGreaterThanOrEqual(1);
    } finally {
      clockOffsetMs = 0;
    }
    expect(await paymentsOf(a.applicationId)).toHaveLength(1);
  });
});
