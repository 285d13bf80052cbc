import {
  applicationDocumentsSchema,
  cohortCompletionResultSchema,
  cohortCompletionSchema,
  completionChangeSchema,
  visaLetterVerificationSchema,
} from "../schemas/letters";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The letters (docs/product/admissions.md#documents-and-letters): the visa invitation letter and the certificate of completion
 * for the student (own applications only: 401 without a session, 403 unverified, 404 for anyone
 * else's) and for admins (`applications:read` to download, `applications:write` to mark
 * completion), and the public check of a letter. The answers' schemas are those of
 * `src/shared/schemas/letters.ts`.
 */

/**
 * A student's application id: any text, checked by the handler after the session (401/403 first,
 * then 404 for an application that is not the student's), as before contracts.
 */
const studentApplicationParams = z.object({ id: z.string() });

/** `GET /api/student/applications/:id/documents`: the visa letter's and the certificate's availability. */
export const getStudentDocumentsContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/documents",
  access: "student",
  summary: "The documents of one of the student's applications",
  params: studentApplicationParams,
  response: applicationDocumentsSchema,
});

/** `GET /api/student/applications/:id/visa-letter.pdf`: the visa invitation letter; 409 while not available. */
export const getStudentVisaLetterContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/visa-letter.pdf",
  access: "student",
  summary: "The visa invitation letter of one of the student's applications",
  params: studentApplicationParams,
  produces: "application/pdf",
});

/** `GET /api/student/applications/:id/certificate.pdf`: the certificate of completion; 409 until completed. */
export const getStudentCertificateContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/certificate.pdf",
  access: "student",
  summary: "The certificate of completion of one of the student's applications",
  params: studentApplicationParams,
  produces: "application/pdf",
});

/** `GET /api/admin/applications/:id/documents`: an application's documents; 404 unknown. */
export const getApplicationDocumentsContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/documents",
  access: "admin",
  summary: "The documents of an application",
  params: idParams,
  response: applicationDocumentsSchema,
});

/** `GET /api/admin/applications/:id/visa-letter.pdf`: the visa invitation letter (audited); 409 while not available. */
export const getVisaLetterContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/visa-letter.pdf",
  access: "admin",
  summary: "The visa invitation letter of an application",
  params: idParams,
  produces: "application/pdf",
});

/** `GET /api/admin/applications/:id/certificate.pdf`: the certificate of completion; 409 until completed. */
export const getCertificateContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/certificate.pdf",
  access: "admin",
  summary: "The certificate of completion of an application",
  params: idParams,
  produces: "application/pdf",
});

/**
 * `POST /api/admin/applications/:id/completion` `{ completed, version }`: marks or unmarks the
 * programme completed → the documents; 409 stale, 422 when the application is not accepted.
 */
export const setCompletionContract = contract({
  method: "POST",
  path: "/api/admin/applications/:id/completion",
  access: "admin",
  summary: "Mark or unmark an application's programme completed",
  params: idParams,
  body: completionChangeSchema,
  response: applicationDocumentsSchema,
});

/**
 * `POST /api/admin/summer-schools/:id/complete-cohort` `{ version }`: marks the cohort's accepted,
 * paid-in-full applications completed → the counts; 404 unknown school, 409 stale.
 */
export const completeCohortContract = contract({
  method: "POST",
  path: "/api/admin/summer-schools/:id/complete-cohort",
  access: "admin",
  summary: "Mark the cohort's accepted, paid-in-full applications completed",
  params: idParams,
  body: cohortCompletionSchema,
  response: cohortCompletionResultSchema,
});

/**
 * `GET /api/visa-letters/:token`: the public check of a visa letter — genuine, revoked or unknown
 * (a malformed token is unknown too); rate-limited.
 */
export const verifyVisaLetterContract = contract({
  method: "GET",
  path: "/api/visa-letters/:token",
  access: "public",
  summary: "Check a visa invitation letter by the token of its QR code",
  params: z.object({ token: z.string() }),
  response: visaLetterVerificationSchema,
});

/** Every contract of this area. */
export const LETTERS_CONTRACTS = [
  getStudentDocumentsContract,
  getStudentVisaLetterContract,
  getStudentCertificateContract,
  getApplicationDocumentsContract,
  getVisaLetterContract,
  getCertificateContract,
  setCompletionContract,
  completeCohortContract,
  verifyVisaLetterContract,
];
