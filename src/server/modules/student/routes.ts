import type { FastifyInstance } from "fastify";
import {
  createBalanceCheckoutContract,
  getStudentPaymentContract,
  verifyBalanceCheckoutContract,
} from "../../../shared/api/student";
import type { Db } from "../../db/client";
import { route } from "../../lib/contract";
import { requireStudent, studentApplication, studentApplications } from "./ownership";
import { studentPayment } from "./payment";

/** At most 10 balance checkouts a minute per address: each one calls the payment provider. */
const CHECKOUT_LIMIT = { max: 10, timeWindow: 60_000 };

/**
 * The student portal's money routes (docs/product/payments.md#deposit-and-balance; decision 016;
 * docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p6-an-event-delivered-twice-counts-once, docs/product/security.md#p10-amount-or-currency-mismatch, docs/product/security.md#p12-the-webhook-never-arrives, docs/product/security.md#s6-nobody-reads-what-is-not-theirs). Every route needs a verified student session (401 without one,
 * 403 `errors.verifyEmailFirst` before the e-mail is confirmed) and answers 404 for an application
 * that is not the student's. Answers are `Cache-Control: no-store`.
 */
export async function studentRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const { sessions, payments } = app.services;

  /**
   * GET /api/student/applications/:id/payment → StudentPayment (src/shared/schemas/student-payment.ts):
   * the ledger of the application (payments and refunds, cents, ISO instants, provider references)
   * and its balance, due date and state by the shared rule (src/shared/balance.ts).
   */
  route(app, getStudentPaymentContract, {}, async ({ params, request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    const row = await studentApplication(db, student, params.id);
    reply.header("cache-control", "no-store");
    return studentPayment(db, row, request.language, now());
  });

  /**
   * POST /api/student/applications/:id/balance-checkout (no body) → 201 `{ url, sessionId }`: a
   * checkout session at the provider for exactly the balance owed now. 409 `errors.nothingOwed`
   * when nothing is owed, 409 `errors.paymentPending` while a delayed balance payment is being
   * processed, 502 `errors.paymentUnavailable` when the provider fails. 429 beyond 10 a minute.
   */
  route(
    app,
    createBalanceCheckoutContract,
    { config: { rateLimit: CHECKOUT_LIMIT } },
    async ({ params, request, reply }) => {
      const student = await requireStudent(db, sessions, request);
      const { application } = await studentApplication(db, student, params.id);
      const created = await payments.createBalanceCheckout(application.id, request.language);
      reply.header("cache-control", "no-store");
      return created;
    },
  );

  /**
   * GET /api/student/checkout/verify?session_id= → `{ state, applicationId }` (state: confirmed,
   * pending, failed, expired, open): the success page's verification of a balance payment (P12),
   * through the one fulfilment function. 400 without a session id; 404 for a session that is not a
   * balance session of the student's applications; 502 when the provider cannot be asked.
   */
  route(app, verifyBalanceCheckoutContract, {}, async ({ query, request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    const { session_id } = query;
    const ids = (await studentApplications(db, student)).map((row) => row.application.id);
    reply.header("cache-control", "no-store");
    return payments.verifyBalance(session_id, ids);
  });
}
