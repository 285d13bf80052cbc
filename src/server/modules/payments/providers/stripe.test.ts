import { createServer } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type FakeStripe,
  type FormObject,
  parseStripeForm,
  startFakeStripe,
} from "../../../testing/fake-stripe";
import { createStripeProvider, normaliseCheckoutSession } from "./stripe";
import { type CreateCheckoutInput, PaymentProviderError, WebhookSignatureError } from "./types";

const SECRET_KEY = "sk_test_fake123";
const WEBHOOK_SECRET = "whsec_test_0123456789abcdef";
const APPLICATION_ID = "6f1d3c2e-8b4a-4f7e-9a51-2c3d4e5f6a7b";

let fake: FakeStripe;
let counter = 0;

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => {
  fake.requests.length = 0;
});

function provider(overrides: { secretKey?: string; apiBase?: string } = {}) {
  return createStripeProvider({
    secretKey: overrides.secretKey ?? SECRET_KEY,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: overrides.apiBase ?? fake.url,
    timeoutMs: 2_000,
  });
}

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
    successUrl: "http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}",
    cancelUrl: "http://localhost:3000/apply?step=payment",
    expiresAt: new Date(Date.now() + 60 * 60_000),
    language: "fr",
    schoolName: "International Business Summer School",
    ...overrides,
  };
}

const posts = (path: string) => fake.requests.filter((r) => r.method === "POST" && r.path === path);

describe("createStripeProvider: createCheckoutSession", () => {
  it("sends EUR line items, a one-off coupon for the discount, metadata, URLs, expiry and the idempotency key", async () => {
    const input = checkoutInput();
    const session = await provider().createCheckoutSession(input);

    expect(session.id).toMatch(/^cs_test_/);
    expect(session.url).toBe(`${fake.url}/c/pay/${session.id}`);

    const [couponRequest] = posts("/v1/coupons");
    expect(couponRequest?.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(couponRequest?.idempotencyKey).toBe(`${input.idempotencyKey}:coupon`);
    expect(couponRequest?.body).toEqual({
      amount_off: "37500",
      currency: "eur",
      duration: "once",
      max_redemptions: "1",
      name: "Code WELCOME10",
    });

    const [sessionRequest] = posts("/v1/checkout/sessions");
    expect(sessionRequest?.idempotencyKey).toBe(input.idempotencyKey);
    const body = sessionRequest?.body as FormObject;
    expect(body).toMatchObject({
      mode: "payment",
      currency: "eur",
      line_items: [
        {
          price_data: {
            currency: "eur",
            product_data: { name: "Standard package — International Business Summer School, July 2027" },
            unit_amount: "295000",
          },
          quantity: "1",
        },
        {
          price_data: { currency: "eur", product_data: { name: "Private room" }, unit_amount: "80000" },
          quantity: "1",
        },
      ],
      discounts: [{ coupon: [...fake.coupons.keys()].at(-1) }],
      customer_email: "ana@example.com",
      success_url: "http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}",
      cancel_url: "http://localhost:3000/apply?step=payment",
      expires_at: String(Math.floor(input.expiresAt.getTime() / 1000)),
      locale: "fr",
      client_reference_id: APPLICATION_ID,
      metadata: { applicationId: APPLICATION_ID },
      payment_intent_data: { metadata: { applicationId: APPLICATION_ID } },
    });
    // Stripe computes the total from the lines and the coupon: it is the server's quote.
    expect(fake.sessions.get(session.id)?.amount_total).toBe(337_500);
    expect(fake.sessions.get(session.id)?.currency).toBe("eur");
  });

  it("returns the same session for the same idempotency key (double click, P13)", async () => {
    const input = checkoutInput();
    const sessionsBefore = fake.sessions.size;
    const couponsBefore = fake.coupons.size;
    const first = await provider().createCheckoutSession(input);
    const second = await provider().createCheckoutSession(input);
    expect(second).toEqual(first);
    expect(fake.sessions.size).toBe(sessionsBefore + 1);
    expect(fake.coupons.size).toBe(couponsBefore + 1);
    expect(posts("/v1/checkout/sessions").map((r) => r.idempotencyKey)).toEqual([
      input.idempotencyKey,
      input.idempotencyKey,
    ]);
  });

  it("fails (as Stripe does) when a key is reused with other parameters", async () => {
    const input = checkoutInput();
    await provider().createCheckoutSession(input);
    const changed = { ...input, expiresAt: new Date(input.expiresAt.getTime() + 60_000) };
    await expect(provider().createCheckoutSession(changed)).rejects.toThrow(PaymentProviderError);
  });

  it("creates no coupon and sends no discounts without a discount", async () => {
    await provider().createCheckoutSession(
      checkoutInput({ discountCents: 0, discountLabel: null, amountCents: 375_000 }),
    );
    expect(posts("/v1/coupons")).toHaveLength(0);
    expect(posts("/v1/checkout/sessions")[0]?.body.discounts).toBeUndefined();
  });

  it("truncates the coupon name to Stripe's 40 characters", async () => {
    await provider().createCheckoutSession(checkoutInput({ discountLabel: `Code ${"X".repeat(60)}` }));
    expect(posts("/v1/coupons")[0]?.body.name).toHaveLength(40);
  });

  it("refuses an inconsistent input before calling Stripe", async () => {
    const p = provider();
    await expect(p.createCheckoutSession(checkoutInput({ amountCents: 100 }))).rejects.toThrow(
      PaymentProviderError,
    );
    await expect(
      p.createCheckoutSession(checkoutInput({ expiresAt: new Date(Date.now() + 10 * 60_000) })),
    ).rejects.toThrow(/30 minutes/);
    await expect(
      p.createCheckoutSession(checkoutInput({ successUrl: "http://localhost:3000/payment-success" })),
    ).rejects.toThrow(/CHECKOUT_SESSION_ID/);
    expect(fake.requests).toHaveLength(0);
  });

  it("maps an authentication failure to PaymentProviderError", async () => {
    const error = await provider({ secretKey: "sk_live_wrong" })
      .createCheckoutSession(checkoutInput({ discountCents: 0, discountLabel: null, amountCents: 375_000 }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaymentProviderError);
    expect(String((error as Error).message)).toMatch(/401/);
  });

  it("maps an unreachable API to PaymentProviderError", async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer();
      server.listen(0, "127.0.0.1", () => {
        const address = server.address();
        server.close(() => resolve(typeof address === "object" && address ? address.port : 1));
      });
    });
    await expect(
      provider({ apiBase: `http://127.0.0.1:${port}` }).createCheckoutSession(checkoutInput()),
    ).rejects.toThrow(PaymentProviderError);
  });
});

describe("createStripeProvider: retrieve and expire", () => {
  it("normalises an open, a paid and a delayed-payment session", async () => {
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());

    expect(await p.retrieveCheckoutSession(id)).toEqual({
      id,
      status: "open",
      paymentStatus: "unpaid",
      amountTotal: 337_500,
      currency: "EUR",
      applicationId: APPLICATION_ID,
      paymentIntentId: null,
      url: `${fake.url}/c/pay/${id}`,
    });

    const completed = fake.completeSession(id);
    expect(await p.retrieveCheckoutSession(id)).toEqual({
      id,
      status: "complete",
      paymentStatus: "paid",
      amountTotal: 337_500,
      currency: "EUR",
      applicationId: APPLICATION_ID,
      paymentIntentId: completed.payment_intent,
      url: null,
    });

    const { id: delayed } = await p.createCheckoutSession(checkoutInput());
    fake.completeSession(delayed, { paymentStatus: "unpaid" });
    expect(await p.retrieveCheckoutSession(delayed)).toMatchObject({
      status: "complete",
      paymentStatus: "unpaid",
    });
  });

  it("returns null for an unknown session and for a malformed id (without asking Stripe)", async () => {
    const p = provider();
    expect(await p.retrieveCheckoutSession("cs_test_doesnotexist")).toBeNull();
    expect(fake.requests).toHaveLength(1);
    expect(await p.retrieveCheckoutSession("../v1/customers")).toBeNull();
    expect(await p.retrieveCheckoutSession("")).toBeNull();
    expect(fake.requests).toHaveLength(1);
  });

  it("accepts an expanded payment_intent object", () => {
    const state = normaliseCheckoutSession({
      id: "cs_test_x",
      status: "complete",
      payment_status: "paid",
      amount_total: 100,
      currency: "eur",
      metadata: { applicationId: APPLICATION_ID },
      payment_intent: { id: "pi_123" },
      url: null,
    });
    expect(state).toMatchObject({
      paymentIntentId: "pi_123",
      currency: "EUR",
      applicationId: APPLICATION_ID,
    });
  });

  it("expires an open session and ignores sessions that are already closed", async () => {
    const p = provider();
    const { id } = await p.createCheckoutSession(checkoutInput());
    expect(await p.expireCheckoutSession(id)).toMatchObject({
      id,
      status: "expired",
      paymentStatus: "unpaid",
    });
    expect(fake.sessions.get(id)?.status).toBe("expired");
    expect(await p.retrieveCheckoutSession(id)).toMatchObject({ status: "expired", paymentStatus: "unpaid" });
    await expect(p.expireCheckoutSession(id)).resolves.toMatchObject({ status: "expired" });

    const { id: paid } = await p.createCheckoutSession(checkoutInput());
    fake.completeSession(paid);
    await expect(p.expireCheckoutSession(paid)).resolves.toMatchObject({
      status: "complete",
      paymentStatus: "paid",
    });
    expect(fake.sessions.get(paid)?.status).toBe("complete");
  });

  it("fails to expire an unknown session", async () => {
    await expect(provider().expireCheckoutSession("cs_test_nope")).rejects.toThrow(PaymentProviderError);
  });
});

describe("createStripeProvider: parseWebhook (docs/product/security.md#p5-webhooks-are-verified-on-the-raw-body)", () => {
  const sdk = new Stripe("sk_test_unused");
  const event = {
    id: "evt_test_1",
    object: "event",
    type: "checkout.session.completed",
    created: 1_800_000_000,
    data: {
      object: {
        id: "cs_test_abc",
        object: "checkout.session",
        status: "complete",
        payment_status: "paid",
        amount_total: 337_500,
        currency: "eur",
        metadata: { applicationId: APPLICATION_ID },
        payment_intent: "pi_test_1",
        url: null,
      },
    },
  };
  const payload = JSON.stringify(event);
  const sign = (body: string, options: { secret?: string; timestamp?: number } = {}) =>
    sdk.webhooks.generateTestHeaderString({
      payload: body,
      secret: options.secret ?? WEBHOOK_SECRET,
      ...(options.timestamp ? { timestamp: options.timestamp } : {}),
    });

  it("accepts an event signed by the SDK and normalises its session", () => {
    const parsed = provider().parseWebhook(Buffer.from(payload), sign(payload));
    expect(parsed.id).toBe("evt_test_1");
    expect(parsed.type).toBe("checkout.session.completed");
    expect(parsed.session).toEqual({
      id: "cs_test_abc",
      status: "complete",
      paymentStatus: "paid",
      amountTotal: 337_500,
      currency: "EUR",
      applicationId: APPLICATION_ID,
      paymentIntentId: "pi_test_1",
      url: null,
    });
    expect(parsed.raw).toMatchObject({ id: "evt_test_1" });
  });

  it("sets session to null for other event types", () => {
    const other = JSON.stringify({
      id: "evt_2",
      object: "event",
      type: "charge.refunded",
      data: { object: { id: "ch_1", object: "charge" } },
    });
    expect(provider().parseWebhook(Buffer.from(other), sign(other)).session).toBeNull();
  });

  it("rejects a bad signature", () => {
    expect(() =>
      provider().parseWebhook(Buffer.from(payload), sign(payload, { secret: "whsec_other" })),
    ).toThrow(WebhookSignatureError);
    expect(() => provider().parseWebhook(Buffer.from(payload), "t=1,v1=deadbeef")).toThrow(
      WebhookSignatureError,
    );
  });

  it("rejects a missing signature", () => {
    expect(() => provider().parseWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
    expect(() => provider().parseWebhook(Buffer.from(payload), "")).toThrow(WebhookSignatureError);
  });

  it("rejects a re-serialised body", () => {
    const signature = sign(payload);
    const reserialised = JSON.stringify(JSON.parse(payload), null, 2);
    expect(reserialised).not.toBe(payload);
    expect(() => provider().parseWebhook(Buffer.from(reserialised), signature)).toThrow(
      WebhookSignatureError,
    );
  });

  it("rejects a timestamp older than 5 minutes and accepts one just inside", () => {
    const now = Math.floor(Date.now() / 1000);
    expect(() =>
      provider().parseWebhook(Buffer.from(payload), sign(payload, { timestamp: now - 301 })),
    ).toThrow(WebhookSignatureError);
    expect(provider().parseWebhook(Buffer.from(payload), sign(payload, { timestamp: now - 240 })).id).toBe(
      "evt_test_1",
    );
  });

  it("rejects a correctly signed body that is not an event", () => {
    expect(() => provider().parseWebhook(Buffer.from("not json"), sign("not json"))).toThrow(
      WebhookSignatureError,
    );
    expect(() => provider().parseWebhook(Buffer.from("{}"), sign("{}"))).toThrow(WebhookSignatureError);
  });
});

describe("parseStripeForm (fake Stripe)", () => {
  it("nests bracket keys into objects and arrays", () => {
    expect(
      parseStripeForm(
        "a=1&b[c]=2&d[0][e]=3&d[1][e]=4&f[]=5&f[]=6&g[h][i][0]=%7BX%7D&expand[0]=payment_intent",
      ),
    ).toEqual({
      a: "1",
      b: { c: "2" },
      d: [{ e: "3" }, { e: "4" }],
      f: ["5", "6"],
      g: { h: { i: ["{X}"] } },
      expand: ["payment_intent"],
    });
  });
});
