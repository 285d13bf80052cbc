import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import {
  buildOfflineEvent,
  completeOfflineSession,
  getOfflineSession,
  signOfflineEvent,
} from "../modules/payments/providers/offline";
import { createPaidReadyApplication, type TestApp } from "./harness";

/**
 * A sequence of client addresses `<prefix>.<n / 250>.<n % 250 + 1>` (n = 1, 2, …): one per
 * applicant, so the per-address rate limits of the public routes do not carry over between tests.
 */
export function addressSequence(prefix: string): () => string {
  let counter = 0;
  return () => {
    counter += 1;
    return `${prefix}.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
  };
}

/** An application ready for payment and the client address its applicant's requests come from. */
export interface Applied {
  applicantId: string;
  applicationId: string;
  /** The applicant's capability cookie. */
  cookie: string;
  schoolId: string;
  address: string;
}

/** What paying needs of an application: its id, the applicant's cookie and client address. */
export type Payer = Pick<Applied, "applicationId" | "cookie" | "address">;

/**
 * The applicant's side of paying, and the offline provider's side of the webhook, for the test app
 * that `get()` returns at call time. `addressPrefix` names the file's own client addresses
 * (`addressSequence`); `webhookSecret` is the app's `offlineWebhookSecret`, which the signed
 * deliveries need.
 */
export function paymentFlow(get: () => TestApp, options: { addressPrefix: string; webhookSecret?: string }) {
  const nextAddress = addressSequence(options.addressPrefix);
  const app = () => get().app;
  const secret = () => {
    if (!options.webhookSecret) throw new Error("paymentFlow: no webhookSecret to sign with");
    return options.webhookSecret;
  };

  /**
   * Steps 1-2 of the wizard (`createPaidReadyApplication`) from the next client address: the
   * first open school or `schoolId`, Standard package, shared room (3,045.00 EUR), `applicant`
   * overriding the applicant's fields, `options.referralCookie` sent as the consented
   * `affiliate_code` cookie when the application is created.
   */
  async function newApplication(
    schoolId?: string,
    applicant: Record<string, unknown> = {},
    options: { referralCookie?: string } = {},
  ): Promise<Applied> {
    const address = nextAddress();
    const created = await createPaidReadyApplication(app(), applicant, {
      remoteAddress: address,
      schoolId,
      referralCookie: options.referralCookie,
    });
    return { ...created, address };
  }

  /** `POST /api/create-checkout-session` as the applicant, terms accepted; `body` adds or overrides fields. */
  function checkout(a: Payer, body: Record<string, unknown> = {}): Promise<LightMyRequestResponse> {
    return app().inject({
      method: "POST",
      url: "/api/create-checkout-session",
      headers: { cookie: a.cookie },
      payload: { applicationId: a.applicationId, termsAccepted: true, ...body },
      remoteAddress: a.address,
    });
  }

  /** Starts the checkout, asserts 200 and returns the checkout session's id. */
  async function sessionOf(a: Payer): Promise<string> {
    const res = await checkout(a);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().sessionId as string;
  }

  /**
   * `POST /api/validate-code`: for `applied`'s application as its applicant, or (without it) as a
   * visitor from a fresh address, with extra `headers`.
   */
  function validate(
    code: unknown,
    applied?: Payer,
    headers: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    return app().inject({
      method: "POST",
      url: "/api/validate-code",
      headers: { ...headers, ...(applied ? { cookie: applied.cookie } : {}) },
      payload: { code, ...(applied ? { applicationId: applied.applicationId } : {}) } as Record<
        string,
        unknown
      >,
      remoteAddress: applied?.address ?? nextAddress(),
    });
  }

  /** `POST /api/payments/webhook` with this raw JSON body and, when given, this `stripe-signature`. */
  function deliver(body: string, signature?: string): Promise<LightMyRequestResponse> {
    return app().inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: {
        "content-type": "application/json",
        ...(signature ? { "stripe-signature": signature } : {}),
      },
      payload: body,
    });
  }

  /** Delivers `event` (an object, or its JSON) to the webhook, signed with the webhook secret. */
  function deliverSigned(event: object | string): Promise<LightMyRequestResponse> {
    const body = typeof event === "string" ? event : JSON.stringify(event);
    return deliver(body, signOfflineEvent(body, secret()));
  }

  /** Delivers a signed offline event of `type` built from the stored offline checkout session. */
  async function deliverSessionEvent(type: string, sessionId: string): Promise<LightMyRequestResponse> {
    const row = await getOfflineSession(get().database.db, sessionId);
    return deliverSigned(buildOfflineEvent(type, row!));
  }

  /**
   * Pays the application through the offline provider's webhook: starts the checkout (asserts 200),
   * completes the offline session and delivers its signed `checkout.session.completed` (asserts 200).
   */
  async function payByWebhook(a: Payer): Promise<void> {
    const sessionId = await sessionOf(a);
    await completeOfflineSession(get().database.db, sessionId);
    const delivered = await deliverSessionEvent("checkout.session.completed", sessionId);
    expect(delivered.statusCode, delivered.body).toBe(200);
  }

  /** Presses "Pay" on the offline provider's test checkout page (same origin) and asserts its 303. */
  async function payOnTestPage(sessionId: string): Promise<LightMyRequestResponse> {
    const pay = await app().inject({
      method: "POST",
      url: "/test-payment/pay",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost:3000" },
      payload: `session_id=${sessionId}`,
    });
    expect(pay.statusCode).toBe(303);
    return pay;
  }

  return {
    nextAddress,
    newApplication,
    checkout,
    sessionOf,
    validate,
    deliver,
    deliverSigned,
    deliverSessionEvent,
    payByWebhook,
    payOnTestPage,
  };
}
