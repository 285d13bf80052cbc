import Stripe from "stripe";
import {
  type CheckoutSessionState,
  type CreateCheckoutInput,
  type CreateRefundInput,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderEvent,
  type RefundState,
  WebhookSignatureError,
} from "./types";

/** Stripe's tolerance for webhook timestamps, seconds (docs/product/security.md#p5-webhooks-are-verified-on-the-raw-body: older than 5 minutes is refused). */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** Stripe's bounds for `expires_at`: 30 minutes to 24 hours after creation (a minute of slack each side). */
const MIN_EXPIRY_MS = 30 * 60_000 - 60_000;
const MAX_EXPIRY_MS = 24 * 3_600_000 + 60_000;

/** Stripe checkout session ids: `cs_test_…` / `cs_live_…` (letters, digits, underscores). */
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;

/** Stripe's limit for a coupon's display name. */
const COUPON_NAME_MAX = 40;

export interface StripeProviderOptions {
  /** `sk_test_…` or `sk_live_…`. */
  secretKey: string;
  /** `whsec_…` of the webhook endpoint. */
  webhookSecret: string;
  /** Only for tests: base URL of a fake Stripe API, e.g. `http://127.0.0.1:12111`. */
  apiBase?: string;
  /** Per-request timeout, ms (default 10 s). */
  timeoutMs?: number;
}

/**
 * Checks what both providers require of a checkout before anything is sent: integer cents, every
 * line item > 0, 0 ≤ discount < sum of lines, `amountCents` = sum(lineItems) − discountCents > 0,
 * currency EUR, and `expiresAt` within Stripe's bounds (30 minutes to 24 hours from `now`).
 * @throws PaymentProviderError when the input is inconsistent (nothing is created or charged).
 */
export function assertCheckoutInput(input: CreateCheckoutInput, now: Date = new Date()): void {
  const fail = (what: string) => {
    throw new PaymentProviderError(`Invalid checkout input: ${what}`);
  };
  if (input.currency !== "EUR") fail("currency must be EUR");
  if (!input.idempotencyKey) fail("idempotencyKey is required");
  if (input.lineItems.length === 0) fail("no line items");
  for (const item of input.lineItems) {
    if (!Number.isSafeInteger(item.amountCents) || item.amountCents <= 0)
      fail("line item amounts must be positive cents");
    if (!item.name.trim()) fail("line item without a name");
  }
  if (!Number.isSafeInteger(input.discountCents) || input.discountCents < 0)
    fail("discount must be ≥ 0 cents");
  const sum = input.lineItems.reduce((total, item) => total + item.amountCents, 0);
  if (input.amountCents !== sum - input.discountCents) fail("amountCents ≠ sum(lineItems) − discountCents");
  if (!(input.amountCents > 0)) fail("amountCents must be > 0");
  if (!input.successUrl.includes("{CHECKOUT_SESSION_ID}")) fail("successUrl lacks {CHECKOUT_SESSION_ID}");
  const ahead = input.expiresAt.getTime() - now.getTime();
  if (!(ahead >= MIN_EXPIRY_MS && ahead <= MAX_EXPIRY_MS))
    fail("expiresAt must be 30 minutes to 24 hours ahead");
}

/** The fields of a Stripe `checkout.session` object that `normaliseCheckoutSession` reads. */
export interface CheckoutSessionLike {
  id?: string | null;
  status?: string | null;
  payment_status?: string | null;
  amount_total?: number | null;
  currency?: string | null;
  metadata?: Record<string, string> | null;
  client_reference_id?: string | null;
  payment_intent?: string | { id: string } | null;
  url?: string | null;
}

/**
 * Normalises a Stripe-shaped `checkout.session` object (from the API or from an event's
 * `data.object`) into a `CheckoutSessionState`: currency upper-cased, `payment_intent` as a string
 * id or expanded object, `metadata.applicationId` (falling back to `client_reference_id`).
 * An unknown status reads as "open" and an unknown payment status as "unpaid" (never paid by accident).
 */
export function normaliseCheckoutSession(session: CheckoutSessionLike): CheckoutSessionState {
  const pi = session.payment_intent;
  const status =
    session.status === "complete" ? "complete" : session.status === "expired" ? "expired" : "open";
  const paymentStatus =
    session.payment_status === "paid"
      ? "paid"
      : session.payment_status === "no_payment_required"
        ? "no_payment_required"
        : "unpaid";
  return {
    id: String(session.id ?? ""),
    status,
    paymentStatus,
    amountTotal: typeof session.amount_total === "number" ? session.amount_total : null,
    currency: typeof session.currency === "string" ? session.currency.toUpperCase() : null,
    applicationId: session.metadata?.applicationId ?? session.client_reference_id ?? null,
    paymentIntentId: typeof pi === "string" ? pi : pi && typeof pi === "object" ? pi.id : null,
    url: session.url ?? null,
  };
}

/** The fields of a Stripe `refund` object that `normaliseRefund` reads. */
export interface RefundLike {
  id?: string | null;
  object?: string | null;
  status?: string | null;
  amount?: number | null;
  currency?: string | null;
  payment_intent?: string | { id: string } | null;
  metadata?: Record<string, string> | null;
}

/** Stripe refund event types whose `data.object` is a refund (handled by the refund service). */
export const REFUND_EVENT_TYPES = ["refund.created", "refund.updated", "refund.failed"] as const;

/**
 * Normalises a Stripe-shaped `refund` object (API answer or an event's `data.object`) into a
 * `RefundState`: `requires_action` and unknown statuses read as pending (never succeeded by accident),
 * currency upper-cased, our ids from `metadata.applicationId` / `metadata.refundId`.
 */
export function normaliseRefund(refund: RefundLike): RefundState {
  const pi = refund.payment_intent;
  const status =
    refund.status === "succeeded"
      ? "succeeded"
      : refund.status === "failed"
        ? "failed"
        : refund.status === "canceled"
          ? "canceled"
          : "pending";
  return {
    id: String(refund.id ?? ""),
    status,
    amountCents: typeof refund.amount === "number" ? refund.amount : 0,
    currency: typeof refund.currency === "string" ? refund.currency.toUpperCase() : null,
    paymentIntentId: typeof pi === "string" ? pi : pi && typeof pi === "object" ? pi.id : null,
    applicationId: refund.metadata?.applicationId ?? null,
    refundId: refund.metadata?.refundId ?? null,
  };
}

/** The refund of a `refund.*` event's object, or null when the event is about something else. */
export function refundOfEvent(type: string, object: unknown): RefundState | null {
  const isRefund =
    type.startsWith("refund.") &&
    !!object &&
    typeof object === "object" &&
    (object as { object?: unknown }).object === "refund";
  return isRefund ? normaliseRefund(object as RefundLike) : null;
}

/**
 * Verifies a Stripe-Signature header over the raw body with the SDK (`constructEvent`, 300 s
 * tolerance) and turns the event into a `ProviderEvent` (`session` set for `checkout.session.*`).
 * Shared by the Stripe and the offline provider so both go through the same verification.
 * @throws WebhookSignatureError for a missing or bad signature, a stale timestamp or a malformed body.
 */
export function verifyStripeWebhook(
  webhooks: Stripe["webhooks"],
  rawBody: Buffer,
  signature: string | undefined,
  webhookSecret: string,
): ProviderEvent {
  if (!signature) throw new WebhookSignatureError("Missing Stripe-Signature header");
  let event: Stripe.Event;
  try {
    event = webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : "Webhook verification failed", {
      cause: error,
    });
  }
  const shaped = event as unknown as { id?: unknown; type?: unknown; data?: { object?: unknown } };
  if (typeof shaped.id !== "string" || typeof shaped.type !== "string") {
    throw new WebhookSignatureError("Malformed event body");
  }
  const object = shaped.data?.object;
  const isSession =
    shaped.type.startsWith("checkout.session.") &&
    !!object &&
    typeof object === "object" &&
    (object as { object?: unknown }).object === "checkout.session";
  return {
    id: shaped.id,
    type: shaped.type,
    session: isSession ? normaliseCheckoutSession(object as CheckoutSessionLike) : null,
    refund: refundOfEvent(shaped.type, object),
    raw: event,
  };
}

/** Checks a refund request before anything is sent: positive integer cents, a key, both metadata ids. */
export function assertRefundInput(input: CreateRefundInput): void {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0)
    throw new PaymentProviderError("Invalid refund input: amountCents must be positive cents");
  if (!input.idempotencyKey)
    throw new PaymentProviderError("Invalid refund input: idempotencyKey is required");
  if (!input.paymentIntentId)
    throw new PaymentProviderError("Invalid refund input: paymentIntentId is required");
  if (!input.metadata.applicationId || !input.metadata.refundId)
    throw new PaymentProviderError("Invalid refund input: metadata ids are required");
}

function toProviderError(error: unknown, action: string): PaymentProviderError {
  if (error instanceof PaymentProviderError) return error;
  if (error instanceof Stripe.errors.StripeError) {
    const detail = [error.type, error.statusCode, error.code].filter(Boolean).join(" ");
    return new PaymentProviderError(`Stripe ${action} failed (${detail}): ${error.message}`, {
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PaymentProviderError(`Stripe ${action} failed: ${message}`, { cause: error });
}

function isNotFound(error: unknown): boolean {
  return error instanceof Stripe.errors.StripeError && error.statusCode === 404;
}

/**
 * The Stripe provider (official SDK). Sessions are hosted Checkout sessions in EUR, one line item
 * per `input.lineItems` entry, the discount as a one-off coupon (amount_off, max 1 redemption),
 * `metadata.applicationId` on the session and on its payment intent, and the caller's idempotency
 * key (P13; the coupon uses `<key>:coupon`). Stripe compares the parameters of a repeated key:
 * a retry must send the same input (including `expiresAt`) or it fails.
 * @throws PaymentProviderError from every API method when Stripe refuses or cannot be reached.
 */
export function createStripeProvider(options: StripeProviderOptions): PaymentProvider {
  const config: ConstructorParameters<typeof Stripe>[1] = {
    maxNetworkRetries: 1,
    timeout: options.timeoutMs ?? 10_000,
    telemetry: false,
  };
  if (options.apiBase) {
    const base = new URL(options.apiBase);
    const protocol = base.protocol === "http:" ? "http" : "https";
    config.host = base.hostname;
    config.port = base.port || (protocol === "http" ? 80 : 443);
    config.protocol = protocol;
  }
  const stripe = new Stripe(options.secretKey, config);

  async function retrieveRaw(id: string): Promise<Stripe.Checkout.Session | null> {
    if (!SESSION_ID.test(id)) return null;
    try {
      return await stripe.checkout.sessions.retrieve(id);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw toProviderError(error, "retrieve");
    }
  }

  return {
    name: "stripe",

    async createCheckoutSession(input) {
      assertCheckoutInput(input);
      try {
        let discounts: Stripe.Checkout.SessionCreateParams.Discount[] | undefined;
        if (input.discountCents > 0) {
          const coupon = await stripe.coupons.create(
            {
              amount_off: input.discountCents,
              currency: "eur",
              duration: "once",
              max_redemptions: 1,
              name: (input.discountLabel?.trim() || "Discount").slice(0, COUPON_NAME_MAX),
            },
            { idempotencyKey: `${input.idempotencyKey}:coupon` },
          );
          discounts = [{ coupon: coupon.id }];
        }
        const session = await stripe.checkout.sessions.create(
          {
            mode: "payment",
            currency: "eur",
            line_items: input.lineItems.map((item) => ({
              price_data: {
                currency: "eur",
                product_data: { name: item.name },
                unit_amount: item.amountCents,
              },
              quantity: 1,
            })),
            ...(discounts ? { discounts } : {}),
            customer_email: input.customerEmail,
            success_url: input.successUrl,
            cancel_url: input.cancelUrl,
            expires_at: Math.floor(input.expiresAt.getTime() / 1000),
            locale: input.language,
            client_reference_id: input.applicationId,
            metadata: { applicationId: input.applicationId },
            payment_intent_data: { metadata: { applicationId: input.applicationId } },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        if (!session.url)
          throw new PaymentProviderError(`Stripe returned session ${session.id} without a URL`);
        return { id: session.id, url: session.url };
      } catch (error) {
        throw toProviderError(error, "checkout creation");
      }
    },

    async retrieveCheckoutSession(id) {
      const session = await retrieveRaw(id);
      return session ? normaliseCheckoutSession(session) : null;
    },

    async expireCheckoutSession(id) {
      if (!SESSION_ID.test(id)) throw new PaymentProviderError(`Not a checkout session id: ${id}`);
      try {
        return normaliseCheckoutSession(await stripe.checkout.sessions.expire(id));
      } catch (error) {
        // Stripe answers 400 "Only Checkout Sessions with a status in ["open"] can be expired" for a
        // closed session: its state is then read rather than guessed from the message.
        if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 400) {
          const current = await retrieveRaw(id);
          if (current && current.status !== "open") return normaliseCheckoutSession(current);
        }
        throw toProviderError(error, "expire");
      }
    },

    parseWebhook(rawBody, signature) {
      return verifyStripeWebhook(stripe.webhooks, rawBody, signature, options.webhookSecret);
    },

    async createRefund(input) {
      assertRefundInput(input);
      try {
        const refund = await stripe.refunds.create(
          {
            payment_intent: input.paymentIntentId,
            amount: input.amountCents,
            metadata: { applicationId: input.metadata.applicationId, refundId: input.metadata.refundId },
          },
          { idempotencyKey: input.idempotencyKey },
        );
        const state = normaliseRefund(refund as RefundLike);
        return { id: state.id, status: state.status };
      } catch (error) {
        throw toProviderError(error, "refund");
      }
    },
  };
}
