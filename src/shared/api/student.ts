import {
  balanceVerificationSchema,
  balanceVerifyQuerySchema,
  checkoutRedirectSchema,
  studentPaymentSchema,
} from "../schemas/student-payment";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The student portal's money endpoints (decision 016): an application's ledger and balance, the
 * balance checkout and its verification. A verified student session is needed (401 without one,
 * 403 `errors.verifyEmailFirst` before the e-mail is confirmed); an application that is not the
 * student's is a 404. Amounts are integer euro cents. Answers are `no-store`.
 */

/** `GET /api/student/applications/:id/payment`: the application's ledger, balance, due date and payment state. 404 another's application. */
export const getStudentPaymentContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/payment",
  access: "student",
  summary: "The ledger and balance of one of the student's applications",
  params: idParams,
  response: studentPaymentSchema,
});

/**
 * `POST /api/student/applications/:id/balance-checkout` (no body) → 201 `{ url, sessionId }`: a
 * checkout session for the balance owed now. 409 nothing owed or a payment pending; 502 provider
 * failure; 429 beyond 10 a minute.
 */
export const createBalanceCheckoutContract = contract({
  method: "POST",
  path: "/api/student/applications/:id/balance-checkout",
  access: "student",
  summary: "Open a checkout session for the balance owed on the application",
  params: idParams,
  status: 201,
  response: checkoutRedirectSchema,
});

/**
 * `GET /api/student/checkout/verify?session_id=` → `{ state, applicationId }`: the success page's
 * verification of a balance payment. 400 without a session id; 404 a session not of the
 * student's applications; 502 when the provider cannot be asked.
 */
export const verifyBalanceCheckoutContract = contract({
  method: "GET",
  path: "/api/student/checkout/verify",
  access: "student",
  summary: "Verify a balance checkout session after the payment provider's redirect",
  query: balanceVerifyQuerySchema,
  response: balanceVerificationSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const STUDENT_CONTRACTS = [
  getStudentPaymentContract,
  createBalanceCheckoutContract,
  verifyBalanceCheckoutContract,
];
