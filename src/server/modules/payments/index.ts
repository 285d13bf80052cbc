/**
 * The payments module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Checkout, webhooks and fulfilment (docs/product/payments.md#fulfilment), and the payment providers
 * (Stripe, offline).
 */
export { type PaymentProvider, PaymentProviderError, type RefundState } from "./providers/types";
