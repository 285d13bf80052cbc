import { randomBytes } from "node:crypto";
import { and, eq, gt, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applications,
  checkoutSessions,
  codeRedemptions,
  codes,
  offlineCheckoutSessions,
  payments,
  refunds,
} from "../../db/schema";
import { loginAsAdmin } from "../../testing/accounts";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { type FakeStripe, startFakeStripe, stripeSessionEvent } from "../../testing/fake-stripe";
import { createTestApp, json, type TestApp } from "../../testing/harness";
import { completeOfflineSession, getOfflineSession } from "./providers/offline";
import { createStripeProvider } from "./providers/stripe";
import { PaymentProviderError } from "./providers/types";

/**
 * Checklist P1 and P4, as found under attack: a checkout session opened for earlier choices (a
 * cheaper package, a one-use code) must not pay the application once the choices changed. Each
 * change ends the open session at the provider first; money that still arrives for a superseded
 * quote is on the ledger, flagged, and an admin accepts or refunds it.
 */

const WEBHOOK_SECRET = "whsec_stale_checkout_test";
/** Standard 2,950.00 + required insurance 95.00, shared room. */
const STANDARD = 304_500;
/** Premium 3,450.00 + private room 800.00 + insurance 95.00 (the transport card is included). */
const PREMIUM_PRIVATE = 434_500;

function scenario(get: () => TestApp) {
  const flow = paymentFlow(get, { addressPrefix: "10.77", webhookSecret: WEBHOOK_SECRET });
  const db = () => get().database.db;
  const app = () => get().app;

  /** Step 1 again with Premium and a private room, as the applicant. */
  async function switchToPremium(a: Applied) {
    const pkgs = (await app().inject({ url: `/api/summer-schools/${a.schoolId}/packages` })).json() as Array<{
      id: string;
      price: number;
    }>;
    const housing = (
      await app().inject({ url: `/api/summer-schools/${a.schoolId}/housing-options` })
    ).json() as Array<{ id: string; priceAdjustment: number }>;
    return app().inject({
      method: "POST",
      url: "/api/create-application-from-info",
      headers: { cookie: a.cookie },
      remoteAddress: a.address,
      payload: {
        applicantId: a.applicantId,
        summerSchoolId: a.schoolId,
        packageId: pkgs.find((p) => p.price === 345_000)!.id,
        housingOptionId: housing.find((h) => h.priceAdjustment === 80_000)!.id,
        selectedAddOns: [],
      },
    });
  }

  function removeCode(a: Applied) {
    return app().inject({
      method: "DELETE",
      url: `/api/applications/${a.applicationId}/code`,
      headers: { cookie: a.cookie },
      remoteAddress: a.address,
    });
  }

  /** The payment step's cancel call; `cookie` "" sends none. */
  function cancel(a: Applied, cookie: string = a.cookie) {
    return app().inject({
      method: "POST",
      url: `/api/applications/${a.applicationId}/checkout/cancel`,
      headers: cookie ? { cookie } : {},
      remoteAddress: a.address,
    });
  }

  async function oneUseCode(percent = 50) {
    const [code] = await db()
      .insert(codes)
      .values({
        code: `ONE${randomBytes(4).toString("hex").toUpperCase()}`,
        codeType: "discount",
        discountType: "percentage",
        discountValue: percent,
        maxRedemptions: 1,
      })
      .returning();
    return code!;
  }

  /** Uses of the code that count against its limit now: redeemed, or held and not expired. */
  async function liveUses(codeId: string) {
    const rows = await db()
      .select()
      .from(codeRedemptions)
      .where(
        and(
          eq(codeRedemptions.codeId, codeId),
          or(
            eq(codeRedemptions.status, "redeemed"),
            and(eq(codeRedemptions.status, "held"), gt(codeRedemptions.holdExpiresAt, new Date())),
          ),
        ),
      );
    return rows.length;
  }

  async function stateOf(applicationId: string) {
    const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
    const paid = await db().select().from(payments).where(eq(payments.applicationId, applicationId));
    const redemptions = await db()
      .select()
      .from(codeRedemptions)
      .where(eq(codeRedemptions.applicationId, applicationId));
    return { application: application!, payments: paid, redemptions };
  }

  return { ...flow, switchToPremium, removeCode, cancel, oneUseCode, liveUses, stateOf };
}

describe("stale checkouts with the offline provider", () => {
  let t: TestApp;
  const s = scenario(() => t);

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await t?.close();
  });

  /** Presses "Pay" on the offline test page; returns the status (303 paid, 410 expired). */
  async function payOnPage(sessionId: string) {
    const res = await t.app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" },
      payload: `session_id=${sessionId}`,
    });
    return res.statusCode;
  }

  /**
   * The provider took the payment of an ended session anyway (a race at its end): the session is
   * reopened, paid, and its signed `checkout.session.completed` delivered (asserts 200).
   */
  async function paidAnyway(sessionId: string) {
    await t.database.db
      .update(offlineCheckoutSessions)
      .set({ status: "open" })
      .where(eq(offlineCheckoutSessions.id, sessionId));
    await completeOfflineSession(t.database.db, sessionId);
    expect((await s.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
  }

  it("P1: a checkout opened for Standard cannot pay the application after a switch to Premium with a private room", async () => {
    const a = await s.newApplication();
    const standard = await s.sessionOf(a);
    expect((await getOfflineSession(t.database.db, standard))?.payload).toMatchObject({
      amountCents: STANDARD,
    });

    const switched = await s.switchToPremium(a);
    expect(switched.statusCode, switched.body).toBe(201);
    // The provider was told first: the old session is expired and its page takes no payment.
    expect((await getOfflineSession(t.database.db, standard))?.status).toBe("expired");
    expect(await payOnPage(standard)).toBe(410);
    expect((await s.stateOf(a.applicationId)).application.paymentStatus).toBe("unpaid");

    // The new checkout charges the new quote, and paying it pays the application at that quote.
    const premium = await s.sessionOf(a);
    expect(premium).not.toBe(standard);
    expect(await payOnPage(premium)).toBe(303);
    const { application, payments: paid } = await s.stateOf(a.applicationId);
    expect(application).toMatchObject({ paymentStatus: "paid", totalAmountCents: PREMIUM_PRIVATE });
    expect(paid).toEqual([expect.objectContaining({ amountCents: PREMIUM_PRIVATE, flag: null })]);
  });

  it("P1: money that still arrives for a superseded quote is recorded and flagged; the application is not paid until an admin accepts it", async () => {
    const a = await s.newApplication();
    const standard = await s.sessionOf(a);
    expect((await s.switchToPremium(a)).statusCode).toBe(201);
    await paidAnyway(standard);
    // A replay of the same event records nothing more.
    expect((await s.deliverSessionEvent("checkout.session.completed", standard)).statusCode).toBe(200);

    let state = await s.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("unpaid");
    expect(state.application.flag).toMatch(/superseded quote/);
    expect(state.payments).toEqual([
      expect.objectContaining({ amountCents: STANDARD, flag: "superseded_quote" }),
    ]);
    // Operations see it too (a counter of the metrics).
    expect(
      await t.app.services.metrics.registry.getSingleMetricAsString("hss_payments_flagged_total"),
    ).toMatch(/hss_payments_flagged_total [1-9]/);
    // The admin decides.
    const { cookie: finance } = await loginAsAdmin(t.app, "finance");
    const { cookie: admissions } = await loginAsAdmin(t.app, "admissions");
    const url = `/api/admin/applications/${a.applicationId}/payments/${state.payments[0]!.id}/accept`;
    const headers = (cookie: string) => ({ cookie, origin: "http://localhost:3000" });
    expect((await t.app.inject({ method: "POST", url, headers: headers(admissions) })).statusCode).toBe(403);
    const accepted = await t.app.inject({ method: "POST", url, headers: headers(finance) });
    expect(accepted.statusCode, accepted.body).toBe(200);

    // Accepted at the price paid: the application takes the choices that session was opened for.
    state = await s.stateOf(a.applicationId);
    expect(state.application).toMatchObject({
      paymentStatus: "paid",
      status: "submitted",
      totalAmountCents: STANDARD,
      amountPaidCents: STANDARD,
      flag: null,
    });
    expect(state.payments).toEqual([expect.objectContaining({ amountCents: STANDARD, flag: null })]);
    const again = await t.app.inject({ method: "POST", url, headers: headers(finance) });
    expect(again.statusCode).toBe(409);
  });

  it("P1: a flagged payment refunded in full leaves the application unpaid and payable at its current quote", async () => {
    const a = await s.newApplication();
    const standard = await s.sessionOf(a);
    expect((await s.switchToPremium(a)).statusCode).toBe(201);
    await paidAnyway(standard);
    const [flagged] = (await s.stateOf(a.applicationId)).payments;

    const { cookie: finance } = await loginAsAdmin(t.app, "finance");
    const refund = await t.app.inject({
      method: "POST",
      url: `/api/admin/applications/${a.applicationId}/refunds`,
      headers: { cookie: finance, origin: "http://localhost:3000" },
      payload: {
        paymentId: flagged!.id,
        amountCents: STANDARD,
        reason: "Paid for choices changed since",
        idempotencyKey: "flagged-refund-1",
      },
    });
    expect(refund.statusCode, refund.body).toBe(201);
    const state = await s.stateOf(a.applicationId);
    expect(state.application).toMatchObject({ paymentStatus: "unpaid", flag: null, amountPaidCents: 0 });
    const succeeded = await t.database.db
      .select()
      .from(refunds)
      .where(and(eq(refunds.paymentId, flagged!.id), eq(refunds.status, "succeeded")));
    expect(succeeded.map((r) => r.amountCents)).toEqual([STANDARD]);

    // The applicant pays the current quote normally.
    expect(await payOnPage(await s.sessionOf(a))).toBe(303);
    expect((await s.stateOf(a.applicationId)).application).toMatchObject({
      paymentStatus: "paid",
      totalAmountCents: PREMIUM_PRIVATE,
    });
  });

  it("P1: a session paid just before the switch reached the provider is a valid sale at its quote; the switch is refused", async () => {
    const a = await s.newApplication();
    const standard = await s.sessionOf(a);
    await completeOfflineSession(t.database.db, standard);
    const switched = await s.switchToPremium(a);
    expect(switched.statusCode).toBe(409);
    expect(json(switched).message).toBe("This application has already been paid.");
    expect((await s.stateOf(a.applicationId)).application).toMatchObject({
      paymentStatus: "paid",
      totalAmountCents: STANDARD,
    });
  });

  it("P1: when the provider cannot be reached, the change is refused with a plain message and nothing changes", async () => {
    const a = await s.newApplication();
    const code = await s.oneUseCode();
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const held = await s.sessionOf(a);
    const before = await s.stateOf(a.applicationId);
    const provider = t.app.services.provider;
    const original = provider.expireCheckoutSession;
    provider.expireCheckoutSession = async () => {
      throw new PaymentProviderError("unreachable (simulated)");
    };
    try {
      for (const res of [await s.switchToPremium(a), await s.removeCode(a), await s.cancel(a)]) {
        expect(res.statusCode).toBe(503);
        expect(json(res).message).toMatch(/could not close your open payment page/);
      }
    } finally {
      provider.expireCheckoutSession = original;
    }
    const after = await s.stateOf(a.applicationId);
    expect(after.application).toMatchObject({
      packageId: before.application.packageId,
      housingOptionId: before.application.housingOptionId,
      appliedCodeId: code.id,
    });
    // The hold stays with the open session.
    expect(await s.liveUses(code.id)).toBe(1);
    expect((await getOfflineSession(t.database.db, held))?.status).toBe("open");
  });

  it("P4: a one-use code switched away from cannot be paid through its old session, and its use is free again", async () => {
    const a = await s.newApplication();
    const b = await s.newApplication();
    const code = await s.oneUseCode(50);
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const discounted = await s.sessionOf(a);
    expect((await getOfflineSession(t.database.db, discounted))?.payload).toMatchObject({
      amountCents: STANDARD / 2,
    });
    expect(json(await s.validate(code.code, b)).isValid).toBe(false);

    expect((await s.validate("WELCOME10", a)).statusCode).toBe(200);
    expect((await getOfflineSession(t.database.db, discounted))?.status).toBe("expired");
    expect(await payOnPage(discounted)).toBe(410);
    expect(await s.liveUses(code.id)).toBe(0);

    // B takes and pays the one use; the code's count, B's discount and what was charged agree.
    expect(json(await s.validate(code.code, b)).isValid).toBe(true);
    expect(await payOnPage(await s.sessionOf(b))).toBe(303);
    const paidB = await s.stateOf(b.applicationId);
    expect(paidB.application).toMatchObject({
      paymentStatus: "paid",
      appliedCodeId: code.id,
      discountAmountCents: STANDARD / 2,
      totalAmountCents: STANDARD / 2,
    });
    expect(paidB.payments[0]?.amountCents).toBe(STANDARD / 2);
    expect(await s.liveUses(code.id)).toBe(1);
    // A pays with WELCOME10 at that price.
    expect(await payOnPage(await s.sessionOf(a))).toBe(303);
    expect((await s.stateOf(a.applicationId)).application).toMatchObject({
      totalAmountCents: STANDARD - STANDARD / 10,
    });
  });

  it("P4: removing a one-use code ends its checkout: the old discounted session cannot be paid", async () => {
    const a = await s.newApplication();
    const code = await s.oneUseCode(50);
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const discounted = await s.sessionOf(a);
    const removed = await s.removeCode(a);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(removed).quote.totalAmount).toBe(STANDARD);
    expect(await payOnPage(discounted)).toBe(410);
    expect(await s.liveUses(code.id)).toBe(0);
    expect((await s.stateOf(a.applicationId)).application).toMatchObject({
      paymentStatus: "unpaid",
      appliedCodeId: null,
    });
  });

  it("P4: cancelling the checkout releases the code's hold, through a POST that needs the applicant's capability", async () => {
    const a = await s.newApplication();
    const b = await s.newApplication();
    const code = await s.oneUseCode();
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const held = await s.sessionOf(a);
    expect(await s.liveUses(code.id)).toBe(1);

    // Without the capability: 404, nothing ends (a stranger cannot free someone's code).
    expect((await s.cancel(a, "")).statusCode).toBe(404);
    expect((await s.cancel(a, b.cookie)).statusCode).toBe(404);
    expect(await s.liveUses(code.id)).toBe(1);
    // GET of the payment page changes nothing (S3).
    await t.app.inject({ url: "/apply/payment?checkout=cancelled", headers: { cookie: a.cookie } });
    expect(await s.liveUses(code.id)).toBe(1);

    const cancelled = await s.cancel(a);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(json(cancelled)).toEqual({ ended: 1 });
    expect(await s.liveUses(code.id)).toBe(0);
    expect((await getOfflineSession(t.database.db, held))?.status).toBe("expired");
    const [row] = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.providerSessionId, held));
    expect(row?.status).toBe("expired");
    expect(json(await s.validate(code.code, b)).isValid).toBe(true);
    // Nothing left open: a second cancel ends nothing.
    expect(json(await s.cancel(a))).toEqual({ ended: 0 });
  });

  it("P4: a session completed with a delayed method keeps its code's hold and refuses changes until it settles", async () => {
    const a = await s.newApplication();
    const code = await s.oneUseCode();
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const delayed = await s.sessionOf(a);
    await t.database.db
      .update(offlineCheckoutSessions)
      .set({ status: "complete", paymentStatus: "unpaid" })
      .where(eq(offlineCheckoutSessions.id, delayed));
    const res = await s.removeCode(a);
    expect(res.statusCode).toBe(409);
    expect(json(res).message).toMatch(/being processed by your bank/);
    const state = await s.stateOf(a.applicationId);
    expect(state.application).toMatchObject({ paymentStatus: "pending", appliedCodeId: code.id });
    expect(await s.liveUses(code.id)).toBe(1);
  });
});

describe("stale checkouts with the Stripe provider (fake Stripe API)", () => {
  const SECRET = "whsec_stale_stripe";
  let fake: FakeStripe;
  let t: TestApp;
  const s = scenario(() => t);

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      provider: createStripeProvider({ secretKey: "sk_test_x", webhookSecret: SECRET, apiBase: fake.url }),
    });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  function deliverCompleted(sessionId: string) {
    const { body, signature } = stripeSessionEvent(fake, SECRET, "checkout.session.completed", sessionId);
    return s.deliver(body, signature);
  }

  it("P1: switching to Premium expires the Standard session at Stripe; a payment that still comes for it is flagged, not taken", async () => {
    const a = await s.newApplication();
    const standard = await s.sessionOf(a);
    expect(fake.sessions.get(standard)).toMatchObject({ status: "open", amount_total: STANDARD });
    expect((await s.switchToPremium(a)).statusCode).toBe(201);
    expect(fake.sessions.get(standard)?.status).toBe("expired");

    fake.completeSession(standard);
    expect((await deliverCompleted(standard)).statusCode).toBe(200);
    const state = await s.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("unpaid");
    expect(state.application.flag).toMatch(/superseded quote/);
    expect(state.payments).toEqual([
      expect.objectContaining({ amountCents: STANDARD, flag: "superseded_quote" }),
    ]);

    const premium = await s.sessionOf(a);
    expect(fake.sessions.get(premium)).toMatchObject({ amount_total: PREMIUM_PRIVATE });
    fake.completeSession(premium);
    expect((await deliverCompleted(premium)).statusCode).toBe(200);
    expect((await s.stateOf(a.applicationId)).application).toMatchObject({
      paymentStatus: "paid",
      totalAmountCents: PREMIUM_PRIVATE,
      amountPaidCents: PREMIUM_PRIVATE,
    });
  });

  it("P4: switching a one-use code expires its session at Stripe and frees the use; paying the old session redeems nothing", async () => {
    const a = await s.newApplication();
    const code = await s.oneUseCode(50);
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const discounted = await s.sessionOf(a);
    expect(fake.sessions.get(discounted)?.amount_total).toBe(STANDARD / 2);
    expect((await s.validate("SAVE200", a)).statusCode).toBe(200);
    expect(fake.sessions.get(discounted)?.status).toBe("expired");
    expect(await s.liveUses(code.id)).toBe(0);

    fake.completeSession(discounted);
    expect((await deliverCompleted(discounted)).statusCode).toBe(200);
    const state = await s.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("unpaid");
    expect(state.redemptions.filter((r) => r.codeId === code.id && r.status === "redeemed")).toHaveLength(0);
    expect(await s.liveUses(code.id)).toBe(0);
  });

  it("P4: cancelling expires the session at Stripe and releases the hold", async () => {
    const a = await s.newApplication();
    const code = await s.oneUseCode();
    expect(json(await s.validate(code.code, a)).isValid).toBe(true);
    const held = await s.sessionOf(a);
    expect(await s.liveUses(code.id)).toBe(1);
    expect(json(await s.cancel(a))).toEqual({ ended: 1 });
    expect(fake.sessions.get(held)?.status).toBe("expired");
    expect(await s.liveUses(code.id)).toBe(0);
  });
});
