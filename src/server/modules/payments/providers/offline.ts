import { createHash, createHmac, randomBytes } from "node:crypto";
import { and, eq, gt } from "drizzle-orm";
import Stripe from "stripe";
import type { Language } from "../../../../shared/i18n/languages";
import type { Db } from "../../../db/client";
import { offlineCheckoutSessions } from "../../../db/schema";
import {
  assertCheckoutInput,
  assertRefundInput,
  normaliseCheckoutSession,
  verifyStripeWebhook,
} from "./stripe";
import {
  type CheckoutLineItem,
  type CreateCheckoutInput,
  type CreateRefundInput,
  type PaymentProvider,
  PaymentProviderError,
} from "./types";

/** A row of `offline_checkout_sessions`. */
export type OfflineSessionRow = typeof offlineCheckoutSessions.$inferSelect;

/** What an offline session row keeps in `payload` (jsonb): the checkout input, minus the key. */
export interface OfflineSessionPayload {
  applicationId: string;
  /** SHA-256 over the input that created the session: a repeated key must bring the same input. */
  fingerprint: string;
  lineItems: CheckoutLineItem[];
  discountCents: number;
  discountLabel: string | null;
  /** What is charged: sum(lineItems) − discountCents, cents. */
  amountCents: number;
  currency: "EUR";
  customerEmail: string;
  /** Contains the literal `{CHECKOUT_SESSION_ID}`. */
  successUrl: string;
  cancelUrl: string;
  language: Language;
  schoolName: string;
  /** The simulated hosted checkout page, `${appOrigin}/test-payment?session_id=<id>`. */
  url: string;
}

/** The id format of offline sessions: `cs_offline_` + 32 base64url characters. */
export const OFFLINE_SESSION_ID = /^cs_offline_[A-Za-z0-9_-]{32}$/;

/** A Stripe-shaped `checkout.session` object (the fields the server reads). */
export interface OfflineStripeSession {
  id: string;
  object: "checkout.session";
  mode: "payment";
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid";
  amount_subtotal: number;
  amount_total: number;
  total_details: { amount_discount: number };
  currency: "eur";
  customer_email: string;
  client_reference_id: string;
  metadata: { applicationId: string };
  payment_intent: string | null;
  locale: Language;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  created: number;
  livemode: false;
  /** Only while the session is open, as with Stripe. */
  url: string | null;
}

/** A Stripe-shaped event around an offline session. */
export interface OfflineEvent {
  id: string;
  object: "event";
  api_version: string;
  type: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  data: { object: OfflineStripeSession };
}

/** Reads the row's payload (written only by this module). */
export function offlinePayload(row: OfflineSessionRow): OfflineSessionPayload {
  return row.payload as OfflineSessionPayload;
}

/** The status a reader sees: an open row whose `expiresAt` has passed reads as expired (lazy expiry). */
export function effectiveStatus(row: OfflineSessionRow, now: Date = new Date()): OfflineSessionRow["status"] {
  return row.status === "open" && row.expiresAt.getTime() <= now.getTime() ? "expired" : row.status;
}

/** The row as a Stripe-shaped `checkout.session` object (status with lazy expiry applied). */
export function toStripeSession(row: OfflineSessionRow, now: Date = new Date()): OfflineStripeSession {
  const payload = offlinePayload(row);
  const status = effectiveStatus(row, now);
  return {
    id: row.id,
    object: "checkout.session",
    mode: "payment",
    status,
    payment_status: row.paymentStatus,
    amount_subtotal: payload.amountCents + payload.discountCents,
    amount_total: payload.amountCents,
    total_details: { amount_discount: payload.discountCents },
    currency: "eur",
    customer_email: payload.customerEmail,
    client_reference_id: payload.applicationId,
    metadata: { applicationId: payload.applicationId },
    payment_intent: row.paymentIntentId,
    locale: payload.language,
    success_url: payload.successUrl,
    cancel_url: payload.cancelUrl,
    expires_at: Math.floor(row.expiresAt.getTime() / 1000),
    created: Math.floor(row.createdAt.getTime() / 1000),
    livemode: false,
    url: status === "open" ? payload.url : null,
  };
}

/**
 * Builds a Stripe-shaped event (`{ id: "evt_offline_…", object: "event", type, created, data: {
 * object: <checkout.session> } }`) for an offline session, e.g. `checkout.session.completed`.
 * Serialise it with JSON.stringify and sign the exact string with `signOfflineEvent`.
 */
export function buildOfflineEvent(type: string, sessionRow: OfflineSessionRow): OfflineEvent {
  return {
    id: `evt_offline_${randomBytes(18).toString("base64url")}`,
    object: "event",
    api_version: Stripe.API_VERSION,
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: toStripeSession(sessionRow) },
  };
}

/**
 * The `Stripe-Signature` header for `payload` (the exact body string that will be sent), signed
 * now with `secret` by the SDK's `generateTestHeaderString`: `t=<unix seconds>,v1=<hex HMAC>`.
 */
export function signOfflineEvent(payload: string, secret: string): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret });
}

/** The offline session with that id, or null when the id is unknown or malformed. */
export async function getOfflineSession(db: Db, id: string): Promise<OfflineSessionRow | null> {
  if (!OFFLINE_SESSION_ID.test(id)) return null;
  const [row] = await db.select().from(offlineCheckoutSessions).where(eq(offlineCheckoutSessions.id, id));
  return row ?? null;
}

/**
 * Marks an open, unexpired offline session complete and paid with a new `pi_offline_…` payment
 * intent id, atomically (of two concurrent calls one wins). Returns the updated row, or null when
 * the session is unknown, already complete, or expired (explicitly or by its `expiresAt`).
 */
export async function completeOfflineSession(db: Db, id: string): Promise<OfflineSessionRow | null> {
  if (!OFFLINE_SESSION_ID.test(id)) return null;
  const [row] = await db
    .update(offlineCheckoutSessions)
    .set({
      status: "complete",
      paymentStatus: "paid",
      paymentIntentId: `pi_offline_${randomBytes(18).toString("base64url")}`,
    })
    .where(
      and(
        eq(offlineCheckoutSessions.id, id),
        eq(offlineCheckoutSessions.status, "open"),
        gt(offlineCheckoutSessions.expiresAt, new Date()),
      ),
    )
    .returning();
  return row ?? null;
}

function fingerprintOf(input: CreateCheckoutInput): string {
  const canonical = JSON.stringify([
    input.applicationId,
    input.lineItems.map((item) => [item.name, item.amountCents]),
    input.discountCents,
    input.discountLabel,
    input.amountCents,
    input.currency,
    input.customerEmail,
    input.successUrl,
    input.cancelUrl,
    Math.floor(input.expiresAt.getTime() / 1000),
    input.language,
    input.schoolName,
  ]);
  return createHash("sha256").update(canonical).digest("hex");
}

async function guard<T>(action: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PaymentProviderError) throw error;
    throw new PaymentProviderError(`Offline ${action} failed`, { cause: error });
  }
}

export interface OfflineProviderOptions {
  db: Db;
  /** Origin of the site, e.g. `http://localhost:3000`; the checkout page lives at `/test-payment`. */
  appOrigin: string;
  /** Secret that signs and verifies the offline webhook events (same format as Stripe's). */
  webhookSecret: string;
  /**
   * Hands a signed event to the real webhook endpoint (wired through `app.inject` to
   * POST /api/payments/webhook), as the checkout page does: refunds deliver `refund.created`.
   * Without it no refund event is sent (the API answer alone settles the refund).
   */
  deliver?: (rawBody: string, signature: string) => Promise<{ statusCode: number }>;
}

/** A Stripe-shaped `refund` object of the offline provider (the fields the server reads). */
export interface OfflineStripeRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: "eur";
  payment_intent: string;
  status: "succeeded";
  reason: null;
  metadata: { applicationId: string; refundId: string };
  created: number;
}

/**
 * A Stripe-shaped event around an offline refund: `refund.created` (Stripe's event for a new
 * refund; its object carries the status, `succeeded` for a card refund). Sign the JSON string of
 * it with `signOfflineEvent`.
 */
export function buildOfflineRefundEvent(type: string, refund: OfflineStripeRefund) {
  return {
    id: `evt_offline_${randomBytes(18).toString("base64url")}`,
    object: "event" as const,
    api_version: Stripe.API_VERSION,
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false as const,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    data: { object: refund },
  };
}

/** Payment intent id of an offline payment: `pi_offline_` + base64url. */
const OFFLINE_PAYMENT_INTENT = /^pi_offline_[A-Za-z0-9_-]{1,64}$/;

/**
 * The built-in provider used when no Stripe keys are configured. Sessions are rows of
 * `offline_checkout_sessions`; the id is `cs_offline_` + an HMAC of the idempotency key (keyed by
 * `webhookSecret`), so the same key returns the same session even for concurrent calls, and the
 * same key with a different input fails as with Stripe. The hosted page is
 * `${appOrigin}/test-payment?session_id=<id>` (see offline-routes.ts); its events are Stripe-shaped,
 * signed with `webhookSecret` and verified here with the same SDK helper as the Stripe provider.
 * Input checks as Stripe's (`assertCheckoutInput`).
 * @throws PaymentProviderError for an invalid input, a reused key, an unknown session to expire,
 * or a database failure.
 */
export function createOfflineProvider(options: OfflineProviderOptions): PaymentProvider {
  const { db, webhookSecret } = options;
  const origin = options.appOrigin.replace(/\/+$/, "");
  /**
   * Refunds made by this process, by refund id (derived from the idempotency key, so a repeated key
   * finds its refund). In memory: the offline provider only simulates Stripe; the school's own
   * record is the `refunds` table, which also refuses amounts above what is refundable.
   */
  const refunds = new Map<string, Promise<{ fingerprint: string; refund: OfflineStripeRefund }>>();
  const refundIdFor = (key: string) =>
    `re_offline_${createHmac("sha256", webhookSecret).update(`offline-refund:${key}`).digest("base64url").slice(0, 32)}`;
  const refundFingerprint = (input: CreateRefundInput) =>
    createHash("sha256")
      .update(
        JSON.stringify([
          input.paymentIntentId,
          input.amountCents,
          input.metadata.applicationId,
          input.metadata.refundId,
        ]),
      )
      .digest("hex");
  const idFor = (key: string) =>
    `cs_offline_${createHmac("sha256", webhookSecret).update(`offline-checkout:${key}`).digest("base64url").slice(0, 32)}`;

  return {
    name: "offline",

    async createCheckoutSession(input) {
      assertCheckoutInput(input);
      const id = idFor(input.idempotencyKey);
      const fingerprint = fingerprintOf(input);
      const url = `${origin}/test-payment?session_id=${encodeURIComponent(id)}`;
      const payload: OfflineSessionPayload = {
        applicationId: input.applicationId,
        fingerprint,
        lineItems: input.lineItems.map((item) => ({ name: item.name, amountCents: item.amountCents })),
        discountCents: input.discountCents,
        discountLabel: input.discountLabel,
        amountCents: input.amountCents,
        currency: "EUR",
        customerEmail: input.customerEmail,
        successUrl: input.successUrl,
        cancelUrl: input.cancelUrl,
        language: input.language,
        schoolName: input.schoolName,
        url,
      };
      return guard("checkout creation", async () => {
        const inserted = await db
          .insert(offlineCheckoutSessions)
          .values({ id, payload, expiresAt: input.expiresAt })
          .onConflictDoNothing({ target: offlineCheckoutSessions.id })
          .returning({ id: offlineCheckoutSessions.id });
        if (inserted.length === 0) {
          const existing = await getOfflineSession(db, id);
          if (!existing || offlinePayload(existing).fingerprint !== fingerprint) {
            throw new PaymentProviderError(
              "Idempotency key reused with different parameters (Stripe would refuse it too)",
            );
          }
        }
        return { id, url };
      });
    },

    async retrieveCheckoutSession(id) {
      const row = await guard("retrieve", () => getOfflineSession(db, id));
      return row ? normaliseCheckoutSession(toStripeSession(row)) : null;
    },

    async expireCheckoutSession(id) {
      const row = await guard("expire", async () => {
        if (!OFFLINE_SESSION_ID.test(id)) throw new PaymentProviderError(`Not an offline session id: ${id}`);
        await db
          .update(offlineCheckoutSessions)
          .set({ status: "expired" })
          .where(and(eq(offlineCheckoutSessions.id, id), eq(offlineCheckoutSessions.status, "open")));
        const current = await getOfflineSession(db, id);
        if (!current) throw new PaymentProviderError(`No such offline checkout session: ${id}`);
        return current;
      });
      return normaliseCheckoutSession(toStripeSession(row));
    },

    parseWebhook(rawBody, signature) {
      return verifyStripeWebhook(Stripe.webhooks, rawBody, signature, webhookSecret);
    },

    /**
     * Refunds an offline payment at once (status `succeeded`, as Stripe does for most card
     * refunds) and delivers a signed `refund.created` event through `options.deliver`. The same
     * idempotency key returns the same refund without a second event; the same key with another
     * amount fails as with Stripe. Refuses an unknown or unpaid payment intent and an amount above
     * what the payment still holds.
     */
    async createRefund(input) {
      assertRefundInput(input);
      const id = refundIdFor(input.idempotencyKey);
      const fingerprint = refundFingerprint(input);
      const previous = refunds.get(id);
      if (previous) {
        const { fingerprint: stored, refund } = await previous;
        if (stored !== fingerprint)
          throw new PaymentProviderError(
            "Idempotency key reused with different parameters (Stripe would refuse it too)",
          );
        return { id, status: refund.status };
      }
      const created = guard("refund", async () => {
        if (!OFFLINE_PAYMENT_INTENT.test(input.paymentIntentId))
          throw new PaymentProviderError(`No such payment intent: ${input.paymentIntentId}`);
        const [session] = await db
          .select()
          .from(offlineCheckoutSessions)
          .where(eq(offlineCheckoutSessions.paymentIntentId, input.paymentIntentId));
        if (session?.paymentStatus !== "paid")
          throw new PaymentProviderError(`No such payment intent: ${input.paymentIntentId}`);
        let refunded = 0;
        for (const [otherId, other] of refunds) {
          if (otherId === id) continue;
          const settled = await other.catch(() => null);
          if (settled?.refund.payment_intent === input.paymentIntentId) refunded += settled.refund.amount;
        }
        if (refunded + input.amountCents > offlinePayload(session).amountCents)
          throw new PaymentProviderError("Refund amount is greater than the unrefunded amount of the charge");
        const refund: OfflineStripeRefund = {
          id,
          object: "refund",
          amount: input.amountCents,
          currency: "eur",
          payment_intent: input.paymentIntentId,
          status: "succeeded",
          reason: null,
          metadata: { applicationId: input.metadata.applicationId, refundId: input.metadata.refundId },
          created: Math.floor(Date.now() / 1000),
        };
        return { fingerprint, refund };
      });
      refunds.set(id, created);
      let result: { fingerprint: string; refund: OfflineStripeRefund };
      try {
        result = await created;
      } catch (error) {
        refunds.delete(id);
        throw error;
      }
      if (options.deliver) {
        const rawBody = JSON.stringify(buildOfflineRefundEvent("refund.created", result.refund));
        // The answer below settles the refund too; a failed delivery only loses the log entry.
        await options.deliver(rawBody, signOfflineEvent(rawBody, webhookSecret)).catch(() => undefined);
      }
      return { id, status: result.refund.status };
    },
  };
}
