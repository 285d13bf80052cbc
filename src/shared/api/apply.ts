import { applicantInputSchema } from "../schemas/applicant";
import {
  createApplicationSchema,
  createCheckoutSessionSchema,
  processZeroPaymentSchema,
  validateCodeSchema,
} from "../schemas/application";
import { z } from "../schemas/zod";
import {
  applicationDtoSchema,
  applicationQuoteSchema,
  checkoutVerificationSchema,
  codeValidationSchema,
} from "./application";
import { contract } from "./contract";

/**
 * The application wizard's endpoints (spec §4 steps 2-3, §7): applicant, passport, application,
 * checkout session, zero payment. Each is declared by the server from its contract and called by
 * the wizard through it.
 */

/** `POST /api/applicants`: the applicant's details → 201 `{ id }`, and the capability cookie. */
export const createApplicantContract = contract({
  method: "POST",
  path: "/api/applicants",
  access: "public",
  summary: "Create the applicant (the wizard's first step); sets the capability cookie",
  body: applicantInputSchema,
  status: 201,
  response: z.object({ id: z.uuid() }),
});

/** `POST /api/upload-passport`: the passport's copy (multipart, PDF ≤ 5 MB) → 201 `{ url }` of the stored file. */
export const uploadPassportContract = contract({
  method: "POST",
  path: "/api/upload-passport",
  access: "applicant",
  summary: "Upload the passport copy (PDF, at most 5 MB)",
  multipart: true,
  status: 201,
  response: z.object({ url: z.string() }),
});

/** `POST /api/create-application-from-info`: cohort, package, housing, add-ons → 201 `{ id }`. */
export const createApplicationContract = contract({
  method: "POST",
  path: "/api/create-application-from-info",
  access: "applicant",
  summary: "Create the application: cohort, package, housing, add-ons",
  body: createApplicationSchema,
  status: 201,
  response: z.object({ id: z.uuid() }),
});

/**
 * `POST /api/create-checkout-session`: opens (or returns the open) checkout session of the
 * application at the provider → `{ url, sessionId }`. 409 `{ message, quote }` when the amounts
 * sent differ from the server's quote (decisions.md §2).
 */
export const createCheckoutSessionContract = contract({
  method: "POST",
  path: "/api/create-checkout-session",
  access: "applicant",
  summary: "Open the checkout session of the application at the payment provider",
  body: createCheckoutSessionSchema,
  response: z.object({ url: z.string(), sessionId: z.string() }),
});

/** `POST /api/process-zero-payment`: completes an application whose quote is 0 → `{ paymentIntentId }`. */
export const processZeroPaymentContract = contract({
  method: "POST",
  path: "/api/process-zero-payment",
  access: "applicant",
  summary: "Complete an application whose quote is 0",
  body: processZeroPaymentSchema,
  response: z.object({ paymentIntentId: z.string() }),
});

/** `GET /api/applications/:id`: the owner's application with its current quote. 404 for anyone else. */
export const getApplicationContract = contract({
  method: "GET",
  path: "/api/applications/:id",
  access: "applicant",
  summary: "The application with its current quote",
  params: z.object({ id: z.uuid() }),
  response: applicationDtoSchema,
});

/**
 * `POST /api/validate-code`: checks a code and, with an application, applies it → the verdict
 * (`isValid`, `message` in the user's language) and the server's new quote. 409 when already paid.
 */
export const validateCodeContract = contract({
  method: "POST",
  path: "/api/validate-code",
  access: "public",
  summary: "Check a code and, with an application, apply it",
  body: validateCodeSchema,
  response: codeValidationSchema,
});

/** `DELETE /api/applications/:id/code`: removes the applied code → `{ quote }`. 409 when already paid. */
export const removeCodeContract = contract({
  method: "DELETE",
  path: "/api/applications/:id/code",
  access: "applicant",
  summary: "Remove the applied code from the application",
  params: z.object({ id: z.uuid() }),
  response: z.object({ quote: applicationQuoteSchema }),
});

/** `GET /api/checkout-sessions/:sessionId/verify`: the payment-success page's verdict on a session. */
export const verifyCheckoutContract = contract({
  method: "GET",
  path: "/api/checkout-sessions/:sessionId/verify",
  access: "public",
  summary: "The payment-success page's verdict on a checkout session",
  params: z.object({ sessionId: z.string().regex(/^[A-Za-z0-9_-]{8,255}$/) }),
  response: checkoutVerificationSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const APPLY_CONTRACTS = [
  createApplicantContract,
  uploadPassportContract,
  createApplicationContract,
  createCheckoutSessionContract,
  processZeroPaymentContract,
  getApplicationContract,
  validateCodeContract,
  removeCodeContract,
  verifyCheckoutContract,
];
