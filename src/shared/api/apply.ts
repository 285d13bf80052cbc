import { applicantInputSchema } from "../schemas/applicant";
import {
  createApplicationSchema,
  createCheckoutSessionSchema,
  processZeroPaymentSchema,
  recordCodeClickSchema,
  validateCodeSchema,
} from "../schemas/application";
import { reminderOptOutSchema, resumeLinkRequestSchema, resumeLinkUseSchema } from "../schemas/resume";
import { z } from "../schemas/zod";
import {
  applicantDtoSchema,
  applicantPatchedSchema,
  applicationDtoSchema,
  applicationQuoteSchema,
  checkoutCancelResultSchema,
  checkoutVerificationSchema,
  codeClickRecordedSchema,
  codeValidationSchema,
  okSchema,
  resumedWizardSchema,
  savedDraftSchema,
} from "./application";
import { idParams, noContent } from "./common";
import { contract } from "./contract";

/**
 * The application wizard's endpoints (docs/product/admissions.md#application-wizard, docs/product/admissions.md#passport-upload): applicant, passport, application,
 * checkout session, zero payment, codes and referral clicks, save and resume (docs/product/codes-and-partners.md#clicks, decision
 * 028), and the payment provider's webhook. Each is declared by the server from its contract and called by
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
 * sent differ from the server's quote (docs/product/catalogue-and-pricing.md#client-amounts).
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

/**
 * `PATCH /api/applicants/:id`: either the full applicant fields (going back to step 2) or
 * `{ passportUrl }` confirming the uploaded passport → `{ id, passportUrl }`. The handler tells the
 * two apart (a body with `firstName` is the full form) and checks it with `applicantInputSchema`
 * or `applicantPatchSchema` (400 with `fieldErrors`; 400 `errors.passportMissing`). Owner only: 404.
 */
export const updateApplicantContract = contract({
  method: "PATCH",
  path: "/api/applicants/:id",
  access: "applicant",
  summary: "Change the applicant's details, or confirm the uploaded passport",
  params: idParams,
  body: z.record(z.string(), z.unknown()),
  response: applicantPatchedSchema,
});

/** `GET /api/applicants/:id`: the owner's own fields (to refill step 2 after a reload). 404 for anyone else. */
export const getApplicantContract = contract({
  method: "GET",
  path: "/api/applicants/:id",
  access: "applicant",
  summary: "The applicant's own details",
  params: idParams,
  response: applicantDtoSchema,
});

/** `GET /api/applicants/:id/passport`: the owner's passport (PDF attachment). 404 for anyone else or none. */
export const getPassportContract = contract({
  method: "GET",
  path: "/api/applicants/:id/passport",
  access: "applicant",
  summary: "The applicant's uploaded passport (PDF)",
  params: idParams,
  produces: "application/pdf",
});

/**
 * `POST /api/record-code-click`: a visit through a referral link → 201 `{ recorded: true }`, or 200
 * `{ recorded: false }` when this visitor was already counted on this code today. 404 for an
 * unknown code; 429.
 */
export const recordCodeClickContract = contract({
  method: "POST",
  path: "/api/record-code-click",
  access: "public",
  summary: "Record a visit through a referral link",
  body: recordCodeClickSchema,
  status: 201,
  response: codeClickRecordedSchema,
});

/**
 * `POST /api/applications/:id/checkout/cancel`: ends the open checkout session when the applicant
 * comes back with "Cancel" → `{ ended }`. 404 for anyone else; 409 when paid meanwhile; 503.
 */
export const cancelCheckoutContract = contract({
  method: "POST",
  path: "/api/applications/:id/checkout/cancel",
  access: "applicant",
  summary: "End the open checkout session of the application",
  params: idParams,
  response: checkoutCancelResultSchema,
});

/**
 * `POST /api/payments/webhook`: the payment provider's signed events, verified on the raw body
 * (P5) → `{ received, outcome }`; 400 on a bad signature; 5xx when processing failed (the provider
 * retries). The handler reads the body itself and sends the answer.
 */
export const receivePaymentWebhookContract = contract({
  method: "POST",
  path: "/api/payments/webhook",
  access: "public",
  summary: "The payment provider's signed events (checkout completed, expired, refunded...)",
  produces: "application/json",
});

/** `POST /api/resume-links` `{ email }` → 202 `{ ok: true }` whether or not an application exists; 400, 429. */
export const requestResumeLinkContract = contract({
  method: "POST",
  path: "/api/resume-links",
  access: "public",
  summary: "E-mail a link that continues an unfinished application",
  body: resumeLinkRequestSchema,
  status: 202,
  response: okSchema,
});

/**
 * `POST /api/resume-links/use` `{ token }` → where the wizard continues, and the capability
 * cookie. 400 `errors.resumeLinkInvalid` for an unknown, used or expired link; 429.
 */
export const redeemResumeLinkContract = contract({
  method: "POST",
  path: "/api/resume-links/use",
  access: "public",
  summary: "Continue an unfinished application through the e-mailed link",
  body: resumeLinkUseSchema,
  response: resumedWizardSchema,
});

/** `POST /api/resume-reminders/opt-out` `{ token }` → `{ ok: true }`: no more reminders; 429. */
export const optOutOfRemindersContract = contract({
  method: "POST",
  path: "/api/resume-reminders/opt-out",
  access: "public",
  summary: "Stop the reminders of an unfinished application",
  body: reminderOptOutSchema,
  response: okSchema,
});

/**
 * `GET /api/resume/draft`: the unfinished application this browser holds → `{ draft }` (null
 * without one). Anyone may ask: without the capability cookie the answer is `{ draft: null }`.
 */
export const getSavedDraftContract = contract({
  method: "GET",
  path: "/api/resume/draft",
  access: "public",
  summary: "The unfinished application this browser holds",
  response: savedDraftSchema,
});

/**
 * `DELETE /api/resume/draft` → 204: this browser forgets its application (the capability cookie
 * is cleared). Anyone may ask; without the cookie there is nothing to forget.
 */
export const forgetSavedDraftContract = contract({
  method: "DELETE",
  path: "/api/resume/draft",
  access: "public",
  summary: "Forget the unfinished application in this browser (start a new one)",
  status: 204,
  response: noContent,
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
  updateApplicantContract,
  getApplicantContract,
  getPassportContract,
  recordCodeClickContract,
  cancelCheckoutContract,
  receivePaymentWebhookContract,
  requestResumeLinkContract,
  redeemResumeLinkContract,
  optOutOfRemindersContract,
  getSavedDraftContract,
  forgetSavedDraftContract,
];
