import type { Language } from "../../../../shared/i18n/languages";

/**
 * The payment provider seen by the rest of the server (docs/product/payments.md#checkout-session): Stripe when keys are
 * configured, otherwise the built-in offline provider whose simulated hosted checkout goes through
 * the same webhook code path. Amounts are integer euro cents.
 */
export interface CheckoutLineItem {
  /** Shown on the hosted checkout page, e.g. "Standard package — International Business Summer School, July 2027". */
  name: string;
  /** Positive amount in cents. */
  amountCents: number;
}

export interface CreateCheckoutInput {
  applicationId: string;
  /** Identifies the quote; with the application id it forms the idempotency key (docs/product/security.md#p13-double-click-on-proceed). */
  idempotencyKey: string;
  /** Package, housing surcharge and chargeable add-ons; a negative housing adjustment is folded into the package line. */
  lineItems: CheckoutLineItem[];
  /** Discount of the applied code, cents, 0 when none; the provider shows it as a discount line. */
  discountCents: number;
  /** E.g. "Code WELCOME10". */
  discountLabel: string | null;
  /** What is charged now: sum(lineItems) − discountCents. Always > 0 (zero totals never reach a provider). */
  amountCents: number;
  currency: "EUR";
  customerEmail: string;
  /** Absolute URL containing the literal `{CHECKOUT_SESSION_ID}` placeholder. */
  successUrl: string;
  /** Absolute URL. */
  cancelUrl: string;
  /** At least 30 minutes and at most 24 hours from now (Stripe's bounds). */
  expiresAt: Date;
  language: Language;
  /** Shown on the checkout page header. */
  schoolName: string;
}

/** The provider's view of a checkout session, normalised. */
export interface CheckoutSessionState {
  id: string;
  status: "open" | "complete" | "expired";
  /** Stripe's payment_status: `unpaid` for delayed methods until async_payment_succeeded (P9). */
  paymentStatus: "paid" | "unpaid" | "no_payment_required";
  /** Cents actually charged, as the provider reports it. */
  amountTotal: number | null;
  /** Upper-case ISO code, e.g. "EUR". */
  currency: string | null;
  /** From the session's metadata.applicationId. */
  applicationId: string | null;
  /** Payment intent id (the payment reference shown to the applicant), when there is one. */
  paymentIntentId: string | null;
  url: string | null;
}

/** What the refund service asks of a provider (docs/product/back-office.md#finance). Amounts in euro cents. */
export interface CreateRefundInput {
  /** The payment intent (Stripe `pi_…`, offline `pi_offline_…`): `payments.providerReference`. */
  paymentIntentId: string;
  /** > 0 and at most what the payment still holds. */
  amountCents: number;
  /** A repeated key returns the same refund and never refunds twice (Stripe `Idempotency-Key`). */
  idempotencyKey: string;
  /** Copied onto the provider's refund so its events find our row. */
  metadata: { applicationId: string; refundId: string };
}

/** The provider's view of a refund, normalised (from the API or from a `refund.*` event). */
export interface RefundState {
  /** Stripe `re_…` / offline `re_offline_…`. */
  id: string;
  /** Stripe's refund statuses; `requires_action` reads as pending. */
  status: "pending" | "succeeded" | "failed" | "canceled";
  amountCents: number;
  /** Upper-case ISO code. */
  currency: string | null;
  paymentIntentId: string | null;
  /** From metadata. */
  applicationId: string | null;
  /** Our `refunds.id`, from metadata. */
  refundId: string | null;
}

/**
 * A verified provider event. `session` is set for checkout.session.* events and `refund` for
 * refund.* events (`refund.created`, `refund.updated`, `refund.failed`, whose object is a refund);
 * both null for others.
 */
export interface ProviderEvent {
  id: string;
  type: string;
  session: CheckoutSessionState | null;
  refund?: RefundState | null;
  /** The parsed event as received, for the webhook log. */
  raw: unknown;
}

/** Thrown by `parseWebhook` for a missing or bad signature, a stale timestamp or a malformed body (P5). */
export class WebhookSignatureError extends Error {}

/** Thrown when the provider cannot be reached or refuses a request; nothing was charged. */
export class PaymentProviderError extends Error {}

export interface PaymentProvider {
  readonly name: "stripe" | "offline";
  /** Creates a hosted checkout session; the same idempotencyKey returns the same session. */
  createCheckoutSession(input: CreateCheckoutInput): Promise<{ id: string; url: string }>;
  /** Reads a session from the provider; null when it does not exist. */
  retrieveCheckoutSession(id: string): Promise<CheckoutSessionState | null>;
  /**
   * Expires an open session (the quote changed, or the applicant cancelled) and returns the state
   * the provider reports afterwards: `expired`, or `complete` when it was paid (or completed with
   * a delayed method) before the expiry reached it. No error when it is already closed; throws
   * PaymentProviderError when the provider cannot be reached or does not know the session.
   */
  expireCheckoutSession(id: string): Promise<CheckoutSessionState>;
  /**
   * Verifies the signature over the raw request body (Stripe-Signature header format, 5-minute
   * tolerance) and parses the event. Throws WebhookSignatureError when verification fails.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): ProviderEvent;
  /**
   * Refunds part or all of a payment (docs/product/back-office.md#finance). The same idempotencyKey returns the same
   * refund (no second refund). Throws PaymentProviderError when refused or unreachable.
   */
  createRefund(input: CreateRefundInput): Promise<{ id: string; status: RefundState["status"] }>;
}
