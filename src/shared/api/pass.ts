import { passCheckSchema, studentPassListSchema, studentPassSchema } from "../schemas/pass";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The student pass (decision 020): the public check a pass's QR code opens, and the signed-in
 * student's passes with their QR codes and the reissue action (401 without a student session, 403
 * `errors.verifyEmailFirst` before the e-mail is verified, 404 another person's application).
 * Answers are `no-store`.
 */

/**
 * `GET /api/student-pass/:token` → `{ valid, reason, initials, cohort, checkedAt }`, always 200:
 * an unknown or malformed token is `reason: "unknown"`. 429 beyond 30 checks a minute.
 */
export const checkPassContract = contract({
  method: "GET",
  path: "/api/student-pass/:token",
  access: "public",
  summary: "Check a student pass (what its QR code opens)",
  // Any token is answered (an unknown one as `reason: "unknown"`), never a 404.
  params: z.object({ token: z.string() }),
  response: passCheckSchema,
});

/** `GET /api/student/passes` → the pass of each of the student's applications, newest first. 401/403. */
export const listStudentPassesContract = contract({
  method: "GET",
  path: "/api/student/passes",
  access: "student",
  summary: "The pass of each of the student's applications",
  response: studentPassListSchema,
});

/** `GET /api/student/applications/:id/pass` → the application's pass (made on first opening). 401/403/404. */
export const getStudentPassContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/pass",
  access: "student",
  summary: "The pass of one of the student's applications, with its QR code",
  params: idParams,
  response: studentPassSchema,
});

/** `POST /api/student/applications/:id/pass/reissue` (no body) → the pass with a new token; the old one is revoked. 401/403/404; 429. */
export const reissueStudentPassContract = contract({
  method: "POST",
  path: "/api/student/applications/:id/pass/reissue",
  access: "student",
  summary: "Reissue the application's pass: a new token, the old one revoked",
  params: idParams,
  response: studentPassSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const PASS_CONTRACTS = [
  checkPassContract,
  listStudentPassesContract,
  getStudentPassContract,
  reissueStudentPassContract,
];
