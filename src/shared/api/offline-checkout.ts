import { z } from "../schemas/zod";
import { contract } from "./contract";

/**
 * The simulated hosted checkout of the offline payment provider (docs/product/payments.md#test-routes):
 * served only while the offline provider is active (never with Stripe), so these contracts are
 * apart from the wizard's. Pages are HTML without scripts; every answer is `no-store`.
 */

/**
 * The checkout session's id as the pages carry it (`cs_offline_…`). Anything else (none, repeated,
 * unknown) is answered by the handler with its 404 page, so the schema refuses nothing.
 */
const sessionIdField = z.object({ session_id: z.union([z.string(), z.array(z.string())]).optional() });

/**
 * `GET /test-payment?session_id=…`: the test checkout page (line items, discount, total, "Pay",
 * "Cancel and return"). 404 page for an unknown id, 410 page when expired, a link to the success
 * page when already paid.
 */
export const showTestCheckoutContract = contract({
  method: "GET",
  path: "/test-payment",
  undocumented: true,
  access: "public",
  summary: "The offline provider's test checkout page (no real payment)",
  query: sessionIdField,
  produces: "text/html",
});

/**
 * `POST /test-payment/pay` (form `session_id`, at most 4 KB): completes the session, delivers the
 * signed `checkout.session.completed` event to the webhook, then 303 to the success URL (also when
 * already paid). 404 page for an unknown id, 410 page when expired.
 */
export const payTestCheckoutContract = contract({
  method: "POST",
  path: "/test-payment/pay",
  undocumented: true,
  access: "public",
  summary: "Pay the offline provider's test checkout session (no real payment)",
  body: sessionIdField.optional(),
  status: 303,
  produces: "text/html",
});

/** `GET /test` → 302 to `/test-payment`, the query string kept. */
export const testCheckoutAliasContract = contract({
  method: "GET",
  path: "/test",
  undocumented: true,
  access: "public",
  summary: "Old address of the test checkout page (redirect)",
  status: 302,
  produces: "text/html",
});

/** `GET /payment-test` → 302 to `/test-payment`, the query string kept. */
export const paymentTestAliasContract = contract({
  method: "GET",
  path: "/payment-test",
  undocumented: true,
  access: "public",
  summary: "Old address of the test checkout page (redirect)",
  status: 302,
  produces: "text/html",
});

/** `GET /test-success` → 302 to `/payment-success`, the query string kept. */
export const testSuccessAliasContract = contract({
  method: "GET",
  path: "/test-success",
  undocumented: true,
  access: "public",
  summary: "Old address of the payment-success page (redirect)",
  status: 302,
  produces: "text/html",
});

/** `GET /payment-test-success` → 302 to `/payment-success`, the query string kept. */
export const paymentTestSuccessAliasContract = contract({
  method: "GET",
  path: "/payment-test-success",
  undocumented: true,
  access: "public",
  summary: "Old address of the payment-success page (redirect)",
  status: 302,
  produces: "text/html",
});

/**
 * Every contract of the offline checkout. Served only with the offline provider (app.ts registers
 * them then), so a check that every registered contract is served must run with that provider.
 */
export const OFFLINE_CHECKOUT_CONTRACTS = [
  showTestCheckoutContract,
  payTestCheckoutContract,
  testCheckoutAliasContract,
  paymentTestAliasContract,
  testSuccessAliasContract,
  paymentTestSuccessAliasContract,
];
