/**
 * Operations endpoints of one server process (decision 013): liveness, readiness, and the
 * Prometheus metrics, readable only with the metrics token or from the machine itself.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { healthSchema, readinessSchema } from "../../../shared/ops";
import { emailOutbox } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing/harness";
import { parseMetrics, sampleValue } from "../../testing/metrics";
import { signOfflineEvent } from "../payments/providers/offline";
import { isLoopbackAddress } from "./probes";

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
const WEBHOOK_SECRET = "whsec_ops_test_secret";
/** A client on the internet (TEST-NET-3). */
const REMOTE = "203.0.113.7";

describe("health and readiness", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it("health answers 200 with a small, uncached body and never touches the database", async () => {
    const spy = vi.spyOn(t.database.db, "execute");
    const res = await t.app.inject({ url: "/api/health", remoteAddress: REMOTE });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(healthSchema.strict().parse(res.json())).toEqual({
      ok: true,
      database: t.database.kind,
      payments: "offline",
    });
    expect(spy).not.toHaveBeenCalled();
    spy.mockRestore();
  });

  it("ready answers 200 when the database answers, with Redis off when REDIS_URL is not set", async () => {
    const res = await t.app.inject({ url: "/api/ready", remoteAddress: REMOTE });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(readinessSchema.parse(res.json())).toEqual({ ok: true, database: "up", redis: "off" });
  });

  it("ready answers 503 when the database does not answer in time", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const spy = vi.spyOn(t.database.db, "execute").mockReturnValue(new Promise(() => {}) as never);
    try {
      const pending = t.app.inject({ url: "/api/ready" });
      await vi.advanceTimersByTimeAsync(2_100);
      const res = await pending;
      expect(res.statusCode).toBe(503);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.json()).toEqual({ ok: false, database: "down", redis: "off" });
    } finally {
      spy.mockRestore();
      vi.useRealTimers();
    }
  });

  it("ready answers 503 when the database fails", async () => {
    const spy = vi.spyOn(t.database.db, "execute").mockRejectedValue(new Error("connection refused"));
    const res = await t.app.inject({ url: "/api/ready" });
    spy.mockRestore();
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ ok: false, database: "down" });
  });
});

describe("readiness with Redis", () => {
  it("reports Redis degraded, and the process still ready, when Redis does not answer", async () => {
    // Port 9 (discard) on the loopback interface: nothing listens there.
    const t = await createTestApp({ env: { REDIS_URL: "redis://127.0.0.1:9" } });
    try {
      const res = await t.app.inject({ url: "/api/ready" });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ ok: true, database: "up", redis: "degraded" });
    } finally {
      await t.close();
    }
  });

  it.skipIf(!process.env.TEST_REDIS_URL)("reports Redis up when it answers", async () => {
    const t = await createTestApp({ env: { REDIS_URL: process.env.TEST_REDIS_URL! } });
    try {
      const res = await t.app.inject({ url: "/api/ready" });
      expect(res.json()).toEqual({ ok: true, database: "up", redis: "up" });
    } finally {
      await t.close();
    }
  });
});

describe("metrics", () => {
  let t: TestApp;
  const scrape = (options: { remoteAddress?: string; headers?: Record<string, string> } = {}) =>
    t.app.inject({ url: "/metrics", ...options });

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN }, offlineWebhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await t.close();
  });

  it("answers this machine (127.0.0.0/8, ::1) without a token", async () => {
    for (const remoteAddress of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"]) {
      const res = await scrape({ remoteAddress });
      expect(res.statusCode, remoteAddress).toBe(200);
      expect(res.headers["content-type"]).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  it("answers anyone with the token, and nobody else (404, as an unknown path)", async () => {
    const bearer = { authorization: `Bearer ${METRICS_TOKEN}` };
    expect((await scrape({ remoteAddress: REMOTE, headers: bearer })).statusCode).toBe(200);
    expect((await scrape({ remoteAddress: REMOTE })).statusCode).toBe(404);
    const wrong = await scrape({
      remoteAddress: REMOTE,
      headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.body).not.toContain("hss_");
    const basic = { authorization: `Basic ${Buffer.from(`x:${METRICS_TOKEN}`).toString("base64")}` };
    expect((await scrape({ remoteAddress: REMOTE, headers: basic })).statusCode).toBe(404);
  });

  it("does not count a request relayed by a proxy on this machine as local", async () => {
    const relayed: Record<string, string>[] = [
      { "x-forwarded-for": "127.0.0.1" },
      { "x-forwarded-for": REMOTE },
      { forwarded: "for=203.0.113.7" },
      { "x-real-ip": REMOTE },
    ];
    for (const headers of relayed) {
      expect((await scrape({ remoteAddress: "127.0.0.1", headers })).statusCode).toBe(404);
    }
  });

  it("refuses everyone but the token holder when the app trusts a proxy's X-Forwarded-For", async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: "true" } });
    try {
      const res = await proxied.app.inject({
        url: "/metrics",
        remoteAddress: REMOTE,
        headers: { "x-forwarded-for": "127.0.0.1" },
      });
      expect(res.statusCode).toBe(404);
    } finally {
      await proxied.close();
    }
  });

  it("counts requests by route pattern and status class, never by the URL with its ids", async () => {
    const schools = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{ id: string }>;
    for (const school of schools.slice(0, 3)) {
      const res = await t.app.inject({ url: `/api/summer-schools/${school.id}/packages` });
      expect(res.statusCode).toBe(200);
    }
    await t.app.inject({ url: "/api/no-such-thing" });
    const samples = parseMetrics((await scrape()).body);
    const requests = samples.filter((s) => s.name === "hss_http_requests_total");
    expect(
      sampleValue(requests, "hss_http_requests_total", { route: "/api/summer-schools/:id/packages" }),
    ).toBe(Math.min(3, schools.length));
    expect(
      sampleValue(requests, "hss_http_requests_total", {
        method: "GET",
        route: "/api/summer-schools/:id/packages",
        status_class: "2xx",
      }),
    ).toBe(Math.min(3, schools.length));
    expect(sampleValue(requests, "hss_http_requests_total", { route: "/*", status_class: "4xx" })).toBe(1);
    for (const school of schools) {
      expect(requests.some((s) => s.labels.route?.includes(school.id))).toBe(false);
    }
  });

  it("reports the e-mails not sent yet, read from the outbox at scrape time", async () => {
    const before = parseMetrics((await scrape()).body);
    const queued = sampleValue(before, "hss_email_outbox_backlog", { status: "queued" })!;
    const failed = sampleValue(before, "hss_email_outbox_backlog", { status: "failed" })!;
    const email = (key: string, status: "queued" | "sent" | "failed") => ({
      dedupeKey: `ops-test:${key}`,
      toAddress: "someone@example.com",
      subject: "s",
      textBody: "t",
      htmlBody: "h",
      status,
    });
    await t.database.db
      .insert(emailOutbox)
      .values([email("1", "queued"), email("2", "queued"), email("3", "failed"), email("4", "sent")]);
    const after = parseMetrics((await scrape()).body);
    expect(sampleValue(after, "hss_email_outbox_backlog", { status: "queued" })).toBe(queued + 2);
    expect(sampleValue(after, "hss_email_outbox_backlog", { status: "failed" })).toBe(failed + 1);
  });

  it("counts webhook events refused for their signature and events that failed while processed", async () => {
    const value = async (reason: string) =>
      sampleValue(parseMetrics((await scrape()).body), "hss_webhook_failures_total", { reason });
    expect(await value("signature")).toBe(0);
    expect(await value("processing")).toBe(0);

    const body = JSON.stringify({
      id: "evt_ops_1",
      type: "checkout.session.completed",
      data: { object: {} },
    });
    const unsigned = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": "t=1,v1=00" },
      payload: body,
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await value("signature")).toBe(1);

    const spy = vi
      .spyOn(t.app.services.payments, "handleEvent")
      .mockRejectedValueOnce(new Error("database went away"));
    const failed = await t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: {
        "content-type": "application/json",
        "stripe-signature": signOfflineEvent(body, WEBHOOK_SECRET),
      },
      payload: body,
    });
    spy.mockRestore();
    expect(failed.statusCode).toBe(500);
    expect(await value("processing")).toBe(1);
  });

  it("holds the named payment counters, the process's own metrics, and no personal data", async () => {
    t.app.services.metrics.paymentsFulfilled.inc();
    t.app.services.metrics.paymentsFlagged.inc();
    const text = (await scrape()).body;
    const samples = parseMetrics(text);
    expect(sampleValue(samples, "hss_payments_fulfilled_total")).toBe(1);
    expect(sampleValue(samples, "hss_payments_flagged_total")).toBe(1);
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(text).not.toMatch(/@example\.com|someone/);
  });
});

describe("isLoopbackAddress", () => {
  it("accepts 127.0.0.0/8 and ::1 only", () => {
    for (const a of ["127.0.0.1", "127.255.255.254", "::1", "::ffff:127.0.0.1"]) {
      expect(isLoopbackAddress(a), a).toBe(true);
    }
    for (const a of [
      "10.0.0.1",
      "128.0.0.1",
      "::2",
      "::ffff:10.0.0.1",
      "127.0.0.1.example.com",
      "",
      undefined,
    ]) {
      expect(isLoopbackAddress(a), String(a)).toBe(false);
    }
  });
});
