import { eq } from "drizzle-orm";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { formatMoney } from "../../../../shared/money";
import { type DbHandle, openDatabase } from "../../../db/client";
import { offlineCheckoutSessions } from "../../../db/schema";
import {
  buildOfflineEvent,
  completeOfflineSession,
  createOfflineProvider,
  getOfflineSession,
  OFFLINE_SESSION_ID,
  signOfflineEvent,
} from "./offline";
import { registerOfflineCheckoutRoutes } from "./offline-routes";
import { type CreateCheckoutInput, PaymentProviderError, WebhookSignatureError } from "./types";

const WEBHOOK_SECRET = "whsec_offline_test_secret";
const APP_ORIGIN = "http://localhost:3000";
const APPLICATION_ID = "0b7f3c55-2d1e-4c8a-9f60-7a1b2c3d4e5f";

let handle: DbHandle;
let counter = 0;

beforeAll(async () => {
  handle = await openDatabase({ dataDir: null });
});
afterAll(async () => {
  await handle.close();
});

const provider = () =>
  createOfflineProvider({ db: handle.db, appOrigin: APP_ORIGIN, webhookSecret: WEBHOOK_SECRET });

function checkoutInput(overrides: Partial<CreateCheckoutInput> = {}): CreateCheckoutInput {
  counter += 1;
  return {
    applicationId: APPLICATION_ID,
    idempotencyKey: `checkout:${APPLICATION_ID}:quote-${counter}`,
    lineItems: [
      { name: "Standard package — International Business Summer School, July 2027", amountCents: 295_000 },
      { name: "Private room", amountCents: 80_000 },
    ],
    discountCents: 37_500,
    discountLabel: "Code WELCOME10",
    amountCents: 337_500,
    currency: "EUR",
    customerEmail: "ana@example.com",
    successUrl: `${APP_ORIGIN}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${APP_ORIGIN}/apply?step=payment`,
    expiresAt: new Date(Date.now() + 60 * 60_000),
    language: "en",
    schoolName: "International Business Summer School",
    ...overrides,
  };
}

async function expireByClock(id: string) {
  await handle.db
    .update(offlineCheckoutSessions)
    .set({ expiresAt: new Date(Date.now() - 1000) })
    .where(eq(offlineCheckoutSessions.id, id));
}

describe("createOfflineProvider", () => {
  it("creates a session whose page is /test-payment, idempotently per key", async () => {
    const p = provider();
    const input = checkoutInput();
    const first = await p.createCheckoutSession(input);
    expect(first.id).toMatch(OFFLINE_SESSION_ID);
    expect(first.url).toBe(`${APP_ORIGIN}/test-payment?session_id=${first.id}`);
    expect(await p.createCheckoutSession(input)).toEqual(first);
    const [again, other] = await Promise.all([
      p.createCheckoutSession(input),
      p.createCheckoutSession(checkoutInput()),
    ]);
    expect(again).toEqual(first);
    expect(other.id).not.toBe(first.id);
    const rows = await handle.db
      .select()
      .from(offlineCheckoutSessions)
      .where(eq(offlineCheckoutSessions.id, first.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.payload).toMatchObject({
      applicationId: APPLICATION_ID,
      lineItems: input.lineItems,
      discountCents: 37_500,
      discountLabel: "Code WELCOME10",
      amountCents: 337_500,
      currency: "EUR",
      customerEmail: "ana@example.com",
      successUrl: input.successUrl,
      cancelUrl: input.cancelUrl,
      language: "en",
      schoolName: "International Business Summer School",
    });
  });

  it("refuses a reused key with other parameters, and an inconsistent input", async () => {
    const p = provider();
    const input = checkoutInput();
    await p.createCheckoutSession(input);
    await expect(
      p.createCheckoutSession({ ...input, amountCents: 337_400, discountCents: 37_600 }),
    ).rejects.toThrow(PaymentProviderError);
    await expect(p.createCheckoutSession(checkoutInput({ amountCents: 1 }))).rejects.toThrow(
      PaymentProviderError,
    );
  });

  it("retrieves the normalised state; unknown or malformed ids read as null", async () => {
    const p = provider();
    const { id, url } = await p.createCheckoutSession(checkoutInput());
    expect(await p.retrieveCheckoutSession(id)).toEqual({
      id,
      status: "open",
      paymentStatus: "unpaid",
      amountTotal: 337_500,
      currency: "EUR",
      applicationId: APPLICATION_ID,
      paymentIntentId: null,
      url,
    });
    expect(await p.retrieveCheckoutSession(`cs_offline_${"A".repeat(32)}`)).toBeNull();
    expect(await p.retrieveCheckoutSession("cs_offline_' OR 1=1 --")).toBeNull();
  });

  it("expires a session and reports its state; expiring a closed one is no error, an unknown one is", async () => {
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());
    expect(await p.expireCheckoutSession(id)).toMatchObject({
      id,
      status: "expired",
      paymentStatus: "unpaid",
    });
    expect(await p.retrieveCheckoutSession(id)).toMatchObject({ status: "expired", url: null });
    await expect(p.expireCheckoutSession(id)).resolves.toMatchObject({ status: "expired" });
    expect(await completeOfflineSession(handle.db, id)).toBeNull();
    await expect(p.expireCheckoutSession(`cs_offline_${"B".repeat(32)}`)).rejects.toThrow(
      PaymentProviderError,
    );
  });

  it("reads an open session past its expiresAt as expired, and refuses to complete it", async () => {
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());
    await expireByClock(id);
    expect(await p.retrieveCheckoutSession(id)).toMatchObject({ status: "expired", paymentStatus: "unpaid" });
    expect(await completeOfflineSession(handle.db, id)).toBeNull();
    expect((await getOfflineSession(handle.db, id))?.paymentStatus).toBe("unpaid");
  });

  it("completes an open session once, with a payment intent id", async () => {
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());
    const results = await Promise.all([
      completeOfflineSession(handle.db, id),
      completeOfflineSession(handle.db, id),
    ]);
    const rows = results.filter((row) => row !== null);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id, status: "complete", paymentStatus: "paid" });
    expect(rows[0]?.paymentIntentId).toMatch(/^pi_offline_/);
    expect(await p.retrieveCheckoutSession(id)).toMatchObject({
      status: "complete",
      paymentStatus: "paid",
      paymentIntentId: rows[0]?.paymentIntentId,
      url: null,
    });
    // Paid before the expiry reached it: the provider reports the payment, which stands.
    await expect(p.expireCheckoutSession(id)).resolves.toMatchObject({
      status: "complete",
      paymentStatus: "paid",
    });
    expect((await getOfflineSession(handle.db, id))?.status).toBe("complete");
  });

  it("signs offline events that parseWebhook verifies, and rejects tampering", async () => {
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());
    const row = await completeOfflineSession(handle.db, id);
    if (!row) throw new Error("not completed");
    const event = buildOfflineEvent("checkout.session.completed", row);
    expect(event).toMatchObject({
      object: "event",
      type: "checkout.session.completed",
      data: {
        object: {
          id,
          object: "checkout.session",
          status: "complete",
          payment_status: "paid",
          amount_total: 337_500,
          currency: "eur",
          metadata: { applicationId: APPLICATION_ID },
          payment_intent: row.paymentIntentId,
        },
      },
    });
    expect(event.id).toMatch(/^evt_offline_/);
    const rawBody = JSON.stringify(event);
    const parsed = p.parseWebhook(Buffer.from(rawBody), signOfflineEvent(rawBody, WEBHOOK_SECRET));
    expect(parsed).toMatchObject({
      id: event.id,
      type: "checkout.session.completed",
      session: {
        id,
        status: "complete",
        paymentStatus: "paid",
        amountTotal: 337_500,
        currency: "EUR",
        applicationId: APPLICATION_ID,
        paymentIntentId: row.paymentIntentId,
      },
    });
    expect(() => p.parseWebhook(Buffer.from(rawBody), signOfflineEvent(rawBody, "whsec_other"))).toThrow(
      WebhookSignatureError,
    );
    expect(() => p.parseWebhook(Buffer.from(rawBody), undefined)).toThrow(WebhookSignatureError);
    const tampered = rawBody.replace('"amount_total":337500', '"amount_total":1');
    expect(() => p.parseWebhook(Buffer.from(tampered), signOfflineEvent(rawBody, WEBHOOK_SECRET))).toThrow(
      WebhookSignatureError,
    );
  });
});

describe("registerOfflineCheckoutRoutes", () => {
  let app: FastifyInstance;
  const deliver = vi.fn(async (_rawBody: string, _signature: string) => ({ statusCode: 200 }));

  beforeAll(async () => {
    app = Fastify({ logger: false });
    await registerOfflineCheckoutRoutes(app, {
      db: handle.db,
      webhookSecret: WEBHOOK_SECRET,
      deliver,
      supportEmail: "office@example.org",
      schoolBrand: "The Hague Summer School",
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
  });

  const pay = (sessionId: string) =>
    app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `session_id=${encodeURIComponent(sessionId)}`,
    });

  it("shows the test checkout page with the items, discount, total and a Pay button", async () => {
    const { id } = await provider().createCheckoutSession(checkoutInput());
    const res = await app.inject({ method: "GET", url: `/test-payment?session_id=${id}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/html/);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.body;
    expect(body).toContain("Test checkout — no real payment is taken");
    expect(body).toContain("International Business Summer School");
    expect(body).toContain("Standard package — International Business Summer School, July 2027");
    expect(body).toContain("Private room");
    expect(body).toContain("€2,950.00");
    expect(body).toContain("€800.00");
    expect(body).toContain("Code WELCOME10");
    expect(body).toContain("-€375.00");
    expect(body).toContain("€3,375.00");
    expect(body).toContain('<form method="post" action="/test-payment/pay"');
    expect(body).toContain(`<input type="hidden" name="session_id" value="${id}">`);
    expect(body).toContain('<button type="submit">Pay €3,375.00</button>');
    expect(body).toContain(`href="${APP_ORIGIN}/apply?step=payment">Cancel and return</a>`);
    expect(body).toContain("office@example.org");
    expect(body).not.toMatch(/<script|<link|src=/i);
  });

  it("writes the page in the session's language and escapes names", async () => {
    const { id } = await provider().createCheckoutSession(
      checkoutInput({
        language: "fr",
        lineItems: [{ name: "Forfait <b>standard</b>", amountCents: 295_000 }],
        discountCents: 0,
        discountLabel: null,
        amountCents: 295_000,
      }),
    );
    const body = (await app.inject({ method: "GET", url: `/test-payment?session_id=${id}` })).body;
    expect(body).toContain('<html lang="fr-FR">');
    expect(body).toContain("Paiement de test — aucun paiement réel n’est effectué");
    expect(body).toContain(`Payer ${formatMoney(295_000, "fr")}`);
    expect(body).toContain("Forfait &lt;b&gt;standard&lt;/b&gt;");
    expect(body).toContain("Annuler et revenir");

    const zh = await provider().createCheckoutSession(checkoutInput({ language: "zh" }));
    const zhBody = (await app.inject({ method: "GET", url: `/test-payment?session_id=${zh.id}` })).body;
    expect(zhBody).toContain(`支付 ${formatMoney(337_500, "zh")}`);
    expect(zhBody).toContain('<html lang="zh-CN">');
  });

  it("answers 404 for an unknown, malformed or missing session id", async () => {
    for (const url of [
      `/test-payment?session_id=cs_offline_${"C".repeat(32)}`,
      "/test-payment?session_id=%3Cscript%3E",
      "/test-payment",
    ]) {
      const res = await app.inject({ method: "GET", url });
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain("Checkout session not found");
      expect(res.body).not.toContain("<script>");
    }
    expect((await pay(`cs_offline_${"C".repeat(32)}`)).statusCode).toBe(404);
  });

  it("pays: completes the session, delivers a verifiable signed event, redirects 303 to the success URL", async () => {
    deliver.mockClear();
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());
    const res = await pay(id);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${APP_ORIGIN}/payment-success?session_id=${id}`);
    expect(deliver).toHaveBeenCalledTimes(1);
    const [rawBody, signature] = deliver.mock.calls[0]!;
    const event = p.parseWebhook(Buffer.from(rawBody), signature);
    expect(event.type).toBe("checkout.session.completed");
    expect(event.session).toMatchObject({
      id,
      status: "complete",
      paymentStatus: "paid",
      amountTotal: 337_500,
      applicationId: APPLICATION_ID,
    });
    expect(await p.retrieveCheckoutSession(id)).toMatchObject({ status: "complete", paymentStatus: "paid" });

    // A second click: straight to the success page, no second event.
    const again = await pay(id);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`${APP_ORIGIN}/payment-success?session_id=${id}`);
    expect(deliver).toHaveBeenCalledTimes(1);

    const page = await app.inject({ method: "GET", url: `/test-payment?session_id=${id}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`href="${APP_ORIGIN}/payment-success?session_id=${id}"`);
    expect(page.body).not.toContain("<form");
  });

  it("still redirects when delivery fails", async () => {
    const { id } = await provider().createCheckoutSession(checkoutInput());
    deliver.mockResolvedValueOnce({ statusCode: 500 });
    expect((await pay(id)).statusCode).toBe(303);
    const { id: other } = await provider().createCheckoutSession(checkoutInput());
    deliver.mockRejectedValueOnce(new Error("boom"));
    const res = await pay(other);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toContain(other);
  });

  it("shows an expired session with a link back, and does not take its payment", async () => {
    deliver.mockClear();
    const { id } = await provider().createCheckoutSession(checkoutInput());
    await expireByClock(id);
    const res = await app.inject({ method: "GET", url: `/test-payment?session_id=${id}` });
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain("This checkout session has expired");
    expect(res.body).toContain(`href="${APP_ORIGIN}/apply?step=payment"`);
    expect((await pay(id)).statusCode).toBe(410);
    expect(deliver).not.toHaveBeenCalled();
  });

  it("limits the form body to 4 KB", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `session_id=${"x".repeat(5000)}`,
    });
    expect(res.statusCode).toBe(413);
  });

  it("redirects the legacy test routes, keeping the query string", async () => {
    const cases: [string, string][] = [
      ["/test?session_id=abc", "/test-payment?session_id=abc"],
      ["/payment-test?session_id=abc", "/test-payment?session_id=abc"],
      ["/payment-test", "/test-payment"],
      ["/payment-test-success?session_id=abc", "/payment-success?session_id=abc"],
      ["/test-success?session_id=abc&x=1", "/payment-success?session_id=abc&x=1"],
    ];
    for (const [from, to] of cases) {
      const res = await app.inject({ method: "GET", url: from });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(to);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });
});
