import { randomBytes, randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { and, eq, like, ne } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SummerSchoolDto } from "../../../shared/catalogue";
import {
  applications,
  checkoutSessions,
  codeRedemptions,
  codes,
  emailOutbox,
  offlineCheckoutSessions,
  payments,
  summerSchools,
  webhookEvents,
} from "../../db/schema";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { type FakeStripe, startFakeStripe, stripeSessionEvent } from "../../testing/fake-stripe";
import { createTestApp, json, type TestApp } from "../../testing/harness";
import {
  buildOfflineEvent,
  completeOfflineSession,
  getOfflineSession,
  type OfflineEvent,
  signOfflineEvent,
} from "./providers/offline";
import { createStripeProvider } from "./providers/stripe";

const fr = JSON.parse(
  readFileSync(new URL("../../../shared/i18n/locales/fr/common.json", import.meta.url), "utf8"),
) as { validation: Record<string, string>; errors: Record<string, string> };

const WEBHOOK_SECRET = "whsec_payments_test_secret";
/** Standard package 2,950.00 + required insurance 95.00, shared room. */
const TOTAL = 304500;

/** Helpers bound to one test app: the shared payment flow and what only these tests use. */
function helpers(get: () => TestApp) {
  const db = () => get().database.db;
  const app = () => get().app;
  const flow = paymentFlow(get, { addressPrefix: "10.3" });
  const { nextAddress, newApplication, checkout, sessionOf, deliver } = flow;

  /** `POST /api/validate-code` for `a`'s application, as its applicant. */
  const validate = (a: Applied, code: string) => flow.validate(code, a);

  function zeroPayment(a: Applied, body: Record<string, unknown> = {}) {
    return app().inject({
      method: "POST",
      url: "/api/process-zero-payment",
      headers: { cookie: a.cookie },
      payload: { applicationId: a.applicationId, termsAccepted: true, ...body },
      remoteAddress: a.address,
    });
  }

  function verify(sessionId: string, a?: Applied) {
    return app().inject({
      url: `/api/checkout-sessions/${sessionId}/verify`,
      headers: a ? { cookie: a.cookie } : {},
      remoteAddress: a?.address ?? nextAddress(),
    });
  }

  /** Everything a payment may change for an application. */
  async function stateOf(applicationId: string) {
    const [application] = await db().select().from(applications).where(eq(applications.id, applicationId));
    const paid = await db().select().from(payments).where(eq(payments.applicationId, applicationId));
    const emails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `confirmation:${applicationId}`));
    const redemptions = await db()
      .select()
      .from(codeRedemptions)
      .where(and(eq(codeRedemptions.applicationId, applicationId), ne(codeRedemptions.status, "released")));
    return { application: application!, payments: paid, emails, redemptions };
  }

  return { newApplication, checkout, sessionOf, validate, zeroPayment, verify, deliver, stateOf };
}

/** A signed offline event (Stripe format) for the session, with fields of `data.object` overridden. */
async function offlineEvent(
  t: TestApp,
  type: string,
  sessionId: string,
  patch: Partial<OfflineEvent["data"]["object"]> = {},
  secret = WEBHOOK_SECRET,
) {
  const row = await getOfflineSession(t.database.db, sessionId);
  const event = buildOfflineEvent(type, row!);
  Object.assign(event.data.object, patch);
  const body = JSON.stringify(event);
  return { event, body, signature: signOfflineEvent(body, secret) };
}

describe("payments with the offline provider", () => {
  let t: TestApp;
  let clockOffsetMs = 0;
  const h = helpers(() => t);

  beforeAll(async () => {
    t = await createTestApp({
      now: () => new Date(Date.now() + clockOffsetMs),
      offlineWebhookSecret: WEBHOOK_SECRET,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("pays an application end to end: checkout, test page, pay, verify, one payment, one e-mail", async () => {
    const a = await h.newApplication();
    const placesBefore = (
      (await t.app.inject({ url: "/api/summer-schools" })).json() as SummerSchoolDto[]
    ).find((s) => s.id === a.schoolId)!.placesLeft;

    const res = await h.checkout(a, {
      totalAmount: TOTAL,
      discountAmount: 0,
      originalAmount: TOTAL,
      appliedCodeId: null,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { url, sessionId } = json(res);
    expect(sessionId).toMatch(/^cs_offline_/);
    expect(url).toBe(`http://localhost:3000/test-payment?session_id=${sessionId}`);

    const page = await t.app.inject({ url: `/test-payment?session_id=${sessionId}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("Test checkout — no real payment is taken");
    expect(page.body).toContain("Pay €3,045.00");

    const pay = await t.app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" },
      payload: `session_id=${sessionId}`,
    });
    expect(pay.statusCode).toBe(303);
    expect(pay.headers.location).toBe(`http://localhost:3000/en/payment-success?session_id=${sessionId}`);

    const verified = await h.verify(sessionId, a);
    expect(verified.statusCode).toBe(200);
    expect(verified.headers["cache-control"]).toBe("no-store");
    const v = json(verified);
    expect(v).toMatchObject({ state: "confirmed", applicationId: a.applicationId });
    expect(v.application).toMatchObject({ status: "submitted", paymentStatus: "paid" });
    expect(v.application.payment).toMatchObject({ amount: TOTAL, currency: "EUR" });
    expect(v.application.payment.reference).toMatch(/^pi_offline_/);

    const state = await h.stateOf(a.applicationId);
    expect(state.application).toMatchObject({
      status: "submitted",
      paymentStatus: "paid",
      amountPaidCents: TOTAL,
      flag: null,
    });
    expect(state.application.submittedAt).toBeInstanceOf(Date);
    expect(state.application.paidAt).toBeInstanceOf(Date);
    expect(state.payments).toHaveLength(1);
    expect(state.payments[0]).toMatchObject({
      provider: "offline",
      providerSessionId: sessionId,
      amountCents: TOTAL,
      currency: "EUR",
      providerReference: v.application.payment.reference,
    });
    expect(state.emails).toHaveLength(1);
    expect(state.emails[0]).toMatchObject({ toAddress: "amara.okafor@example.com" });
    expect(state.emails[0]!.subject).toMatch(/^Your application is confirmed/);
    expect(state.emails[0]!.textBody).toContain(a.applicationId);

    await t.app.services.mail.flush();
    const outbox = path.join(t.dataDir, "outbox");
    const files = readdirSync(outbox).filter((f) => f.endsWith(`${state.emails[0]!.id}.eml`));
    expect(files).toHaveLength(1);
    const eml = readFileSync(path.join(outbox, files[0]!), "utf8");
    expect(eml).toMatch(/^To: amara\.okafor@example\.com/m);
    const [sent] = await t.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.id, state.emails[0]!.id));
    expect(sent!.status).toBe("sent");

    // Someone else's browser learns the state, not the applicant's details.
    const anonymous = json(await h.verify(sessionId));
    expect(anonymous).toEqual({ state: "confirmed", applicationId: null, application: null });

    // A second press of "Pay" and a later checkout change nothing.
    const again = await t.app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `session_id=${sessionId}`,
    });
    expect(again.statusCode).toBe(303);
    const late = await h.checkout(a);
    expect(late.statusCode).toBe(409);
    expect(json(late).message).toBe("This application has already been paid.");
    await t.app.services.mail.flush();
    const after = await h.stateOf(a.applicationId);
    expect(after.payments).toHaveLength(1);
    expect(after.emails).toHaveLength(1);
    expect(readdirSync(outbox).filter((f) => f.endsWith(`${state.emails[0]!.id}.eml`))).toHaveLength(1);

    // The paid place counts at once (catalogue invalidated).
    const placesAfter = (
      (await t.app.inject({ url: "/api/summer-schools" })).json() as SummerSchoolDto[]
    ).find((s) => s.id === a.schoolId)!.placesLeft;
    expect(placesAfter).toBe(placesBefore - 1);
  });

  it("requires the terms: 'Please accept the Terms & Conditions…' (docs/product/admissions.md#payment-step-views), in English and French", async () => {
    const a = await h.newApplication();
    const res = await h.checkout(a, { termsAccepted: false });
    expect(res.statusCode).toBe(400);
    expect(json(res).message).toBe("Please accept the Terms & Conditions to proceed with payment.");
    const resFr = await t.app.inject({
      method: "POST",
      url: "/api/create-checkout-session",
      headers: { cookie: `${a.cookie}; language=fr` },
      payload: { applicationId: a.applicationId },
      remoteAddress: a.address,
    });
    expect(resFr.statusCode).toBe(400);
    expect(json(resFr).message).toBe(fr.validation.acceptTerms);
    const zero = await h.zeroPayment(a, { termsAccepted: undefined });
    expect(zero.statusCode).toBe(400);
    expect((await h.stateOf(a.applicationId)).application.paymentStatus).toBe("unpaid");
  });

  it("P1: tampered totalAmount, discountAmount, originalAmount or code → 409 with the quote, no session", async () => {
    const a = await h.newApplication();
    const tampered: Array<Record<string, unknown>> = [
      { totalAmount: 100 },
      { totalAmount: 0, discountAmount: TOTAL, originalAmount: TOTAL },
      { discountAmount: 50000 },
      { originalAmount: 200000 },
      { totalAmount: TOTAL, discountAmount: 0, originalAmount: TOTAL, appliedCodeId: randomUUID() },
    ];
    for (const body of tampered) {
      const res = await h.checkout(a, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(409);
      expect(json(res).message).toBe(
        "The price of your application has changed. Please review the updated amount before paying.",
      );
      expect(json(res).quote).toMatchObject({ originalAmount: TOTAL, discountAmount: 0, totalAmount: TOTAL });
    }
    expect(
      await t.database.db
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.applicationId, a.applicationId)),
    ).toHaveLength(0);
    const offline = await t.database.db.select().from(offlineCheckoutSessions);
    expect(
      offline.filter((r) => (r.payload as { applicationId: string }).applicationId === a.applicationId),
    ).toHaveLength(0);
    expect(await t.database.db.select().from(webhookEvents)).toBeDefined();

    // With a code: the server's discounted quote is what the provider is asked to charge.
    const code = json(await h.validate(a, "WELCOME10"));
    const claimFull = await h.checkout(a, {
      totalAmount: 0,
      discountAmount: TOTAL,
      originalAmount: TOTAL,
      appliedCodeId: code.codeId,
    });
    expect(claimFull.statusCode).toBe(409);
    expect(json(claimFull).quote).toMatchObject({ discountAmount: 30450, totalAmount: 274050 });
    const ok = await h.checkout(a, {
      totalAmount: 274050,
      discountAmount: 30450,
      originalAmount: TOTAL,
      appliedCodeId: code.codeId,
    });
    expect(ok.statusCode).toBe(200);
    const row = await getOfflineSession(t.database.db, json(ok).sessionId);
    expect(row!.payload).toMatchObject({ amountCents: 274050, discountCents: 30450, currency: "EUR" });
    const [stored] = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.applicationId, a.applicationId));
    expect(stored).toMatchObject({ amountCents: 274050, currency: "EUR" });
  });

  it("P2: zero-payment is refused with a 50% code, no code, an expired or a revoked code; no use consumed", async () => {
    const half = (
      await t.database.db
        .insert(codes)
        .values({ code: "HALFOFF50", codeType: "discount", discountType: "percentage", discountValue: 50 })
        .returning()
    )[0]!;
    const a = await h.newApplication();

    const noCode = await h.zeroPayment(a);
    expect(noCode.statusCode).toBe(422);
    expect(json(noCode).message).toBe(
      "This application still has an amount to pay, so it cannot be completed without payment.",
    );

    expect(json(await h.validate(a, half.code)).quote).toMatchObject({ totalAmount: 152250 });
    const halfRes = await h.zeroPayment(a, { codeId: half.id });
    expect(halfRes.statusCode).toBe(422);
    expect(json(halfRes).quote).toMatchObject({ totalAmount: 152250 });
    // Claiming the discount covers everything does not make it so.
    const lying = await h.zeroPayment(a, {
      codeId: half.id,
      discountInfo: { appliedCodeId: half.id, discountAmount: TOTAL, originalAmount: TOTAL },
    });
    expect(lying.statusCode).toBe(409);

    // A 100% code that expired, or was revoked, after it was applied.
    for (const change of [{ validTo: new Date(Date.now() - 60_000) }, { active: false }]) {
      const [full] = await t.database.db
        .insert(codes)
        .values({
          code: `FULL${randomBytes(4).toString("hex").toUpperCase()}`,
          codeType: "discount",
          discountType: "percentage",
          discountValue: 100,
          maxRedemptions: 5,
        })
        .returning();
      const b = await h.newApplication();
      expect(json(await h.validate(b, full!.code)).quote).toMatchObject({ totalAmount: 0 });
      await t.database.db.update(codes).set(change).where(eq(codes.id, full!.id));
      const res = await h.zeroPayment(b, { codeId: full!.id });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).toBeLessThan(500);
      expect(json(res).message).toMatch(/expired|no longer active/);
      const state = await h.stateOf(b.applicationId);
      expect(state.application).toMatchObject({ status: "pending_payment", paymentStatus: "unpaid" });
      expect(state.payments).toHaveLength(0);
      expect(state.emails).toHaveLength(0);
      expect(state.redemptions).toHaveLength(0);
    }

    const state = await h.stateOf(a.applicationId);
    expect(state.application).toMatchObject({
      status: "pending_payment",
      paymentStatus: "unpaid",
      submittedAt: null,
    });
    expect(state.payments).toHaveLength(0);
    expect(state.emails).toHaveLength(0);
    expect(
      await t.database.db.select().from(codeRedemptions).where(eq(codeRedemptions.codeId, half.id)),
    ).toHaveLength(0);
  });

  it("P2: FULLSCHOLAR completes without payment: paymentIntentId, paid, one e-mail, one use", async () => {
    const a = await h.newApplication();
    const code = json(await h.validate(a, "FULLSCHOLAR"));
    expect(code.quote).toMatchObject({ totalAmount: 0, discountAmount: TOTAL });
    // The browser cannot take the hosted checkout for a zero total.
    expect((await h.checkout(a)).statusCode).toBe(409);

    const res = await h.zeroPayment(a, {
      codeId: code.codeId,
      discountInfo: { appliedCodeId: code.codeId, discountAmount: TOTAL, originalAmount: TOTAL },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res).paymentIntentId).toMatch(/^zero_/);
    const state = await h.stateOf(a.applicationId);
    expect(state.application).toMatchObject({
      status: "submitted",
      paymentStatus: "paid",
      amountPaidCents: 0,
    });
    expect(state.payments).toHaveLength(1);
    expect(state.payments[0]).toMatchObject({
      amountCents: 0,
      provider: "none",
      providerReference: json(res).paymentIntentId,
    });
    expect(state.emails).toHaveLength(1);
    // Nothing was paid: the e-mail does not thank for a payment (docs/product/payments.md#checkout-session).
    expect(state.emails[0]!.textBody).toContain("there was nothing to pay");
    expect(state.emails[0]!.textBody).not.toContain("your payment");
    expect(state.redemptions).toEqual([expect.objectContaining({ codeId: code.codeId, status: "redeemed" })]);

    const twice = await h.zeroPayment(a, { codeId: code.codeId });
    expect(twice.statusCode).toBe(409);
    expect((await h.stateOf(a.applicationId)).emails).toHaveLength(1);
  });

  it("P5: a bad or missing signature, a re-serialised body or an old timestamp → 400, nothing changes", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    const { event, body, signature } = await offlineEvent(t, "checkout.session.completed", sessionId);
    const attempts: Array<[string, string, string | undefined]> = [
      ["missing signature", body, undefined],
      ["signed with another secret", body, signOfflineEvent(body, "whsec_someone_else")],
      ["garbage signature", body, "t=1,v1=deadbeef"],
      ["re-serialised body", JSON.stringify(JSON.parse(body), null, 2), signature],
      ["changed amount", body.replace(`"amount_total":${TOTAL}`, '"amount_total":1'), signature],
      [
        "timestamp older than 5 minutes",
        body,
        Stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: WEBHOOK_SECRET,
          timestamp: Math.floor(Date.now() / 1000) - 301,
        }),
      ],
    ];
    for (const [what, payload, sig] of attempts) {
      const res = await h.deliver(payload, sig);
      expect(res.statusCode, what).toBe(400);
      expect(json(res).message, what).toBeTruthy();
    }
    const state = await h.stateOf(a.applicationId);
    expect(state.application).toMatchObject({ status: "pending_payment", paymentStatus: "unpaid" });
    expect(state.payments).toHaveLength(0);
    expect(state.emails).toHaveLength(0);
    expect(
      await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)),
    ).toHaveLength(0);

    const good = await h.deliver(body, signature);
    expect(good.statusCode).toBe(200);
    expect((await h.stateOf(a.applicationId)).application.paymentStatus).toBe("paid");
  });

  it("P6: the same event twice in a row → both 2xx, one payment, one e-mail", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    const { body, signature } = await offlineEvent(t, "checkout.session.completed", sessionId);
    const first = await h.deliver(body, signature);
    const second = await h.deliver(body, signature);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(json(first).outcome).toBe("processed");
    expect(json(second).outcome).toBe("duplicate");
    const state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("paid");
    expect(state.payments).toHaveLength(1);
    expect(state.emails).toHaveLength(1);
  });

  it("P6: the same event twice at the same time → both 2xx, one payment, one e-mail", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    const { body, signature } = await offlineEvent(t, "checkout.session.completed", sessionId);
    const results = await Promise.all([
      h.deliver(body, signature),
      h.deliver(body, signature),
      h.deliver(body, signature),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("paid");
    expect(state.payments).toHaveLength(1);
    expect(state.emails).toHaveLength(1);
  });

  it("P7: webhook and success-page verification of one checkout fulfil it once", async () => {
    for (const concurrent of [false, true]) {
      const a = await h.newApplication();
      const sessionId = await h.sessionOf(a);
      await completeOfflineSession(t.database.db, sessionId);
      const { body, signature } = await offlineEvent(t, "checkout.session.completed", sessionId);
      const results = concurrent
        ? await Promise.all([h.deliver(body, signature), h.verify(sessionId, a)])
        : [await h.verify(sessionId, a), await h.deliver(body, signature)];
      expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
      // A second event id for the same session (e.g. async_payment_succeeded) changes nothing either.
      const other = await offlineEvent(t, "checkout.session.async_payment_succeeded", sessionId);
      expect((await h.deliver(other.body, other.signature)).statusCode).toBe(200);
      const state = await h.stateOf(a.applicationId);
      expect(state.application.paymentStatus).toBe("paid");
      expect(state.payments).toHaveLength(1);
      expect(state.emails).toHaveLength(1);
      expect(state.application.flag).toBeNull();
    }
  });

  it("P8: expired or failed events after the payment leave it paid", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    const paid = await offlineEvent(t, "checkout.session.completed", sessionId);
    expect((await h.deliver(paid.body, paid.signature)).statusCode).toBe(200);

    const expired = await offlineEvent(t, "checkout.session.expired", sessionId, { status: "expired" });
    const failed = await offlineEvent(t, "checkout.session.async_payment_failed", sessionId, {
      payment_status: "unpaid",
    });
    expect((await h.deliver(expired.body, expired.signature)).statusCode).toBe(200);
    expect((await h.deliver(failed.body, failed.signature)).statusCode).toBe(200);

    const state = await h.stateOf(a.applicationId);
    expect(state.application).toMatchObject({ status: "submitted", paymentStatus: "paid" });
    expect(state.payments).toHaveLength(1);
    expect(state.emails).toHaveLength(1);
    const [session] = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.providerSessionId, sessionId));
    expect(session).toMatchObject({ status: "complete", paymentStatus: "paid" });
    expect(json(await h.verify(sessionId, a)).state).toBe("confirmed");
  });

  it("P9: completed but unpaid (delayed method) is pending until async_payment_succeeded", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await t.database.db
      .update(offlineCheckoutSessions)
      .set({ status: "complete", paymentStatus: "unpaid" })
      .where(eq(offlineCheckoutSessions.id, sessionId));
    const completed = await offlineEvent(t, "checkout.session.completed", sessionId);
    expect(completed.event.data.object).toMatchObject({ status: "complete", payment_status: "unpaid" });
    expect((await h.deliver(completed.body, completed.signature)).statusCode).toBe(200);
    let state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("pending");
    expect(state.application.status).toBe("pending_payment");
    expect(state.payments).toHaveLength(0);
    expect(state.emails).toHaveLength(0);
    expect(json(await h.verify(sessionId, a)).state).toBe("pending");

    await t.database.db
      .update(offlineCheckoutSessions)
      .set({ paymentStatus: "paid", paymentIntentId: "pi_offline_delayed" })
      .where(eq(offlineCheckoutSessions.id, sessionId));
    const succeeded = await offlineEvent(t, "checkout.session.async_payment_succeeded", sessionId);
    expect((await h.deliver(succeeded.body, succeeded.signature)).statusCode).toBe(200);
    state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("paid");
    expect(state.payments).toEqual([
      expect.objectContaining({ amountCents: TOTAL, providerReference: "pi_offline_delayed" }),
    ]);
    expect(state.emails).toHaveLength(1);
  });

  it("P9: async_payment_failed marks it failed and releases the code's hold", async () => {
    const [single] = await t.database.db
      .insert(codes)
      .values({
        code: "DELAYED1",
        codeType: "discount",
        discountType: "fixed",
        discountValue: 1000,
        maxRedemptions: 1,
      })
      .returning();
    const a = await h.newApplication();
    expect(json(await h.validate(a, single!.code)).isValid).toBe(true);
    const sessionId = await h.sessionOf(a);
    expect((await h.stateOf(a.applicationId)).redemptions).toHaveLength(1);
    await t.database.db
      .update(offlineCheckoutSessions)
      .set({ status: "complete", paymentStatus: "unpaid" })
      .where(eq(offlineCheckoutSessions.id, sessionId));
    const completed = await offlineEvent(t, "checkout.session.completed", sessionId);
    expect((await h.deliver(completed.body, completed.signature)).statusCode).toBe(200);
    const failed = await offlineEvent(t, "checkout.session.async_payment_failed", sessionId);
    expect((await h.deliver(failed.body, failed.signature)).statusCode).toBe(200);
    const state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("failed");
    expect(state.payments).toHaveLength(0);
    expect(state.emails).toHaveLength(0);
    expect(state.redemptions).toHaveLength(0);
    expect(json(await h.verify(sessionId, a)).state).toBe("failed");
  });

  it("P10: a paid amount or currency that differs from the quote is not paid; the money is on the ledger, flagged", async () => {
    for (const patch of [{ amount_total: 100 }, { currency: "usd" as "eur" }]) {
      const a = await h.newApplication();
      const sessionId = await h.sessionOf(a);
      await completeOfflineSession(t.database.db, sessionId);
      const { body, signature } = await offlineEvent(t, "checkout.session.completed", sessionId, patch);
      expect((await h.deliver(body, signature)).statusCode).toBe(200);
      const state = await h.stateOf(a.applicationId);
      expect(state.application.paymentStatus).not.toBe("paid");
      expect(state.application.status).toBe("pending_payment");
      expect(state.application.flag).toMatch(/amount mismatch/);
      expect(state.payments).toHaveLength(1);
      expect(state.payments[0]).toMatchObject({
        flag: "amount_mismatch",
        amountCents: patch.amount_total ?? TOTAL,
        currency: patch.currency ? "USD" : "EUR",
      });
      expect(state.emails).toHaveLength(0);
    }
  });

  it("P11: a failure inside the handler answers 5xx; the provider's retry applies it exactly once", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    const { event, body, signature } = await offlineEvent(t, "checkout.session.completed", sessionId);
    const service = t.app.services.payments;
    const original = service.fulfil;
    let calls = 0;
    service.fulfil = async function (this: typeof service, ...args: Parameters<typeof original>) {
      calls += 1;
      if (calls === 1) throw new Error('relation "payments" does not exist (simulated database failure)');
      return original.apply(this, args);
    };
    try {
      const failed = await h.deliver(body, signature);
      expect(failed.statusCode).toBe(500);
      expect(json(failed).reference).toMatch(/^[0-9a-f-]{36}$/);
      expect(failed.body).not.toContain("relation");
      let state = await h.stateOf(a.applicationId);
      expect(state.application.paymentStatus).toBe("unpaid");
      expect(state.payments).toHaveLength(0);
      const [logged] = await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
      expect(logged?.processedAt ?? null).toBeNull();

      const retry = await h.deliver(body, signature);
      expect(retry.statusCode).toBe(200);
      const again = await h.deliver(body, signature);
      expect(again.statusCode).toBe(200);
      expect(calls).toBe(2);
      state = await h.stateOf(a.applicationId);
      expect(state.application.paymentStatus).toBe("paid");
      expect(state.payments).toHaveLength(1);
      expect(state.emails).toHaveLength(1);
    } finally {
      service.fulfil = original;
    }
  });

  it("P12: without any webhook, the success page's verification fulfils", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    expect(json(await h.verify(sessionId, a)).state).toBe("open");
    await completeOfflineSession(t.database.db, sessionId);
    const res = await h.verify(sessionId, a);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({ state: "confirmed", applicationId: a.applicationId });
    const state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("paid");
    expect(state.payments).toHaveLength(1);
    expect(state.emails).toHaveLength(1);
    expect((await h.verify("cs_offline_unknown_session_id_000000000", a)).statusCode).toBe(404);
    expect((await h.verify("bad id!", a)).statusCode).toBe(404);
  });

  it("P13: a double click or a retry returns the same checkout session", async () => {
    const a = await h.newApplication();
    const first = await h.checkout(a);
    const second = await h.checkout(a);
    expect(json(second).sessionId).toBe(json(first).sessionId);
    expect(json(second).url).toBe(json(first).url);
    const [c1, c2] = await Promise.all([h.checkout(a), h.checkout(a)]);
    expect([c1.statusCode, c2.statusCode]).toEqual([200, 200]);
    expect(json(c1).sessionId).toBe(json(first).sessionId);
    expect(json(c2).sessionId).toBe(json(first).sessionId);

    const b = await h.newApplication();
    const both = await Promise.all([h.checkout(b), h.checkout(b)]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(json(both[0]!).sessionId).toBe(json(both[1]!).sessionId);
    const live = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.applicationId, b.applicationId), ne(checkoutSessions.url, "")));
    expect(live).toHaveLength(1);

    // A changed quote is a new session; the old one is closed so it cannot be paid.
    await h.validate(a, "WELCOME10");
    const changed = await h.checkout(a);
    expect(json(changed).sessionId).not.toBe(json(first).sessionId);
    expect((await getOfflineSession(t.database.db, json(first).sessionId))!.status).toBe("expired");
    const pay = await t.app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `session_id=${json(first).sessionId}`,
    });
    expect(pay.statusCode).toBe(410);
    expect((await h.stateOf(a.applicationId)).application.paymentStatus).toBe("unpaid");
  });

  it("P14: a payment for a cohort that filled up meanwhile is recorded and flagged, not silent", async () => {
    const schools = (await t.app.inject({ url: "/api/summer-schools" })).json() as SummerSchoolDto[];
    const july = schools.find((s) => s.status === "fewSpotsLeft")!;
    const a = await h.newApplication(july.id);
    const sessionId = await h.sessionOf(a);
    // The last places are taken by others before A pays.
    const [row] = await t.database.db.select().from(summerSchools).where(eq(summerSchools.id, july.id));
    await t.database.db
      .update(summerSchools)
      .set({ capacity: row!.capacity - july.placesLeft })
      .where(eq(summerSchools.id, july.id));
    t.app.services.catalogue.invalidate();
    try {
      const pay = await t.app.inject({
        method: "POST",
        url: "/test-payment/pay",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: `session_id=${sessionId}`,
      });
      expect(pay.statusCode).toBe(303);
      const state = await h.stateOf(a.applicationId);
      expect(state.application.paymentStatus).toBe("paid");
      expect(state.application.flag).toMatch(/over capacity/);
      expect(state.payments).toHaveLength(1);
      const after = (await t.app.inject({ url: "/api/summer-schools" })).json() as SummerSchoolDto[];
      expect(after.find((s) => s.id === july.id)!.status).toBe("full");
    } finally {
      await t.database.db
        .update(summerSchools)
        .set({ capacity: row!.capacity })
        .where(eq(summerSchools.id, july.id));
      t.app.services.catalogue.invalidate();
    }
  });

  it("P12: the periodic reconciliation fulfils a paid session nobody reported", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    await completeOfflineSession(t.database.db, sessionId);
    clockOffsetMs = 3 * 60_000;
    try {
      expect(await t.app.services.payments.reconcile()).toBeGreaterThanOrEqual(1);
    } finally {
      clockOffsetMs = 0;
    }
    const state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("paid");
    expect(state.payments).toHaveLength(1);
    expect(state.emails).toHaveLength(1);
  });
});

describe("payments with the Stripe provider (fake Stripe API)", () => {
  const SECRET = "whsec_test";
  let fake: FakeStripe;
  let t: TestApp;
  const h = helpers(() => t);

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

  const stripeEvent = (type: string, sessionId: string) => stripeSessionEvent(fake, SECRET, type, sessionId);

  it("charges the server's quote through Stripe Checkout; the test checkout routes do not exist", async () => {
    const a = await h.newApplication();
    await h.validate(a, "WELCOME10");
    const res = await h.checkout(a);
    expect(res.statusCode, res.body).toBe(200);
    const { sessionId, url } = json(res);
    expect(sessionId).toMatch(/^cs_test_/);
    expect(url).toBe(`${fake.url}/c/pay/${sessionId}`);
    const session = fake.sessions.get(sessionId)!;
    expect(session).toMatchObject({
      amount_total: 274050,
      currency: "eur",
      metadata: { applicationId: a.applicationId },
    });
    const pay = await t.app.inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: `session_id=${sessionId}`,
    });
    expect(pay.statusCode).toBe(404);
  });

  it("P5: bad or missing signature, re-serialised body, old timestamp → 400, nothing changes", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    fake.completeSession(sessionId);
    const { event, body, signature } = stripeEvent("checkout.session.completed", sessionId);
    const attempts: Array<[string, string, string | undefined]> = [
      ["missing", body, undefined],
      [
        "wrong secret",
        body,
        Stripe.webhooks.generateTestHeaderString({ payload: body, secret: "whsec_other" }),
      ],
      ["re-serialised", JSON.stringify(JSON.parse(body), null, 1), signature],
      [
        "old timestamp",
        body,
        Stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: SECRET,
          timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
        }),
      ],
    ];
    for (const [what, payload, sig] of attempts) {
      expect((await h.deliver(payload, sig)).statusCode, what).toBe(400);
    }
    const state = await h.stateOf(a.applicationId);
    expect(state.application.paymentStatus).toBe("unpaid");
    expect(state.payments).toHaveLength(0);
    expect(
      await t.database.db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id)),
    ).toHaveLength(0);
  });

  it("P6: the same Stripe event twice in a row and twice at once → 2xx, one payment, one e-mail", async () => {
    const a = await h.newApplication();
    const sessionId = await h.sessionOf(a);
    fake.completeSession(sessionId);
    const { body, signature } = stripeEvent("checkout.session.completed", sessionId);
    expect((await h.deliver(body, signature)).statusCode).toBe(200);
    expect((await h.deliver(body, signature)).statusCode).toBe(200);

    const b = await h.newApplication();
    const other = await h.sessionOf(b);
    fake.completeSession(other);
    const concurrent = stripeEvent("checkout.session.completed", other);
    const both = await Promise.all([
      h.deliver(concurrent.body, concurrent.signature),
      h.deliver(concurrent.body, concurrent.signature),
    ]);
    expect(both.map((r) => r.statusCode)).toEqual([200, 200]);

    for (const [applied, session] of [
      [a, sessionId],
      [b, other],
    ] as const) {
      const state = await h.stateOf(applied.applicationId);
      expect(state.application.paymentStatus).toBe("paid");
      expect(state.payments).toEqual([
        expect.objectContaining({
          provider: "stripe",
          providerSessionId: session,
          amountCents: TOTAL,
          currency: "EUR",
        }),
      ]);
      expect(state.payments[0]!.providerReference).toMatch(/^pi_/);
      expect(state.emails).toHaveLength(1);
    }
    // The success page agrees.
    expect(json(await h.verify(sessionId, a)).state).toBe("confirmed");
    const paidRows = await t.database.db
      .select()
      .from(payments)
      .where(like(payments.providerSessionId, "cs_test_%"));
    expect(paidRows).toHaveLength(2);
  });
});
