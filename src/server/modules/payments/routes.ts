import type { FastifyInstance } from "fastify";
import {
  cancelCheckoutContract,
  createCheckoutSessionContract,
  processZeroPaymentContract,
  receivePaymentWebhookContract,
  verifyCheckoutContract,
} from "../../../shared/api/apply";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { applicantToken } from "../applications";
import type { Metrics } from "../ops";
import { type PaymentProvider, type ProviderEvent, WebhookSignatureError } from "./providers/types";
import type { PaymentsService } from "./service";

/**
 * Payment calls: checkout creation and zero-payment completion (docs/product/payments.md#zero-payment, rate-limited), the
 * success page's verification, and the provider webhook on the raw body.
 */
export async function paymentRoutes(
  app: FastifyInstance,
  opts: { payments: PaymentsService; provider: PaymentProvider; metrics: Metrics },
) {
  const { payments, provider, metrics } = opts;

  /**
   * POST /api/create-checkout-session — { applicationId, totalAmount?, discountAmount?,
   * originalAmount?, appliedCodeId?, termsAccepted: true } → { url, sessionId }. 409 with
   * `{ message, quote }` when the amounts differ from the server's quote (P1); 502 when the
   * provider cannot be reached (nothing charged).
   */
  route(
    app,
    createCheckoutSessionContract,
    { config: { rateLimit: { max: 20, timeWindow: "1 minute" } } },
    async ({ body, request, reply }) => {
      const result = await payments.createCheckout(
        body.applicationId,
        applicantToken(request),
        body,
        request.language,
      );
      reply.header("cache-control", "no-store");
      return result;
    },
  );

  /**
   * POST /api/process-zero-payment — { applicationId, codeId?, discountInfo?, termsAccepted: true }
   * → { paymentIntentId }; 422 unless the server's quote is 0 (P2).
   */
  route(
    app,
    processZeroPaymentContract,
    { config: { rateLimit: { max: 20, timeWindow: "1 minute" } } },
    async ({ body: input, request, reply }) => {
      const result = await payments.completeZeroPayment(
        input.applicationId,
        applicantToken(request),
        {
          appliedCodeId: input.discountInfo?.appliedCodeId ?? input.codeId ?? undefined,
          discountAmount: input.discountInfo?.discountAmount,
          originalAmount: input.discountInfo?.originalAmount,
        },
        request.language,
      );
      reply.header("cache-control", "no-store");
      return result;
    },
  );

  /**
   * POST /api/applications/:id/checkout/cancel — no body → `{ ended }`. The payment step calls it
   * when the applicant comes back from the hosted checkout with "Cancel" (never on a page's GET,
   * docs/product/security.md#s3-cross-site-requests-change-nothing): the open session is ended at the provider and the code's hold released (P4).
   * Capability-checked (404 otherwise); 409 when the session was paid meanwhile; 503 when the
   * provider cannot be reached (the hold then stays until the session expires).
   */
  route(
    app,
    cancelCheckoutContract,
    { config: { rateLimit: { max: 20, timeWindow: "1 minute" } } },
    async ({ params, request, reply }) => {
      const result = await payments.cancelCheckout(params.id, applicantToken(request));
      reply.header("cache-control", "no-store");
      return result;
    },
  );

  /** GET /api/checkout-sessions/:sessionId/verify → CheckoutVerificationDto (payment-success page). */
  route(
    app,
    verifyCheckoutContract,
    { config: { rateLimit: { max: 60, timeWindow: "1 minute" } } },
    async ({ params, request, reply }) => {
      const result = await payments.verify(params.sessionId, applicantToken(request), request.language);
      reply.header("cache-control", "no-store");
      return result;
    },
  );

  /**
   * POST /api/payments/webhook — the provider's events, verified on the raw body (P5): 400 on a
   * bad signature; 200 once processed or for a duplicate (P6); 5xx when processing failed, so the
   * provider retries (P11). Both failures count in `hss_webhook_failures_total` (decision 013).
   */
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/json",
      { parseAs: "buffer", bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, body),
    );
    route(scope, receivePaymentWebhookContract, {}, async ({ request, reply }) => {
      const raw = request.body;
      if (!Buffer.isBuffer(raw)) throw new HttpError(400, "errors.badRequest");
      const signature = request.headers["stripe-signature"];
      let event: ProviderEvent;
      try {
        event = provider.parseWebhook(raw, typeof signature === "string" ? signature : undefined);
      } catch (err) {
        if (err instanceof WebhookSignatureError) {
          metrics.webhookFailures.inc({ reason: "signature" });
          request.log.warn({ reason: err.message }, "webhook signature rejected");
          return reply.status(400).send({ message: "Invalid signature" });
        }
        metrics.webhookFailures.inc({ reason: "processing" });
        throw err;
      }
      let outcome: Awaited<ReturnType<PaymentsService["handleEvent"]>>;
      try {
        outcome = await payments.handleEvent(event);
      } catch (err) {
        metrics.webhookFailures.inc({ reason: "processing" });
        throw err;
      }
      return reply.send({ received: true, outcome });
    });
  });
}
