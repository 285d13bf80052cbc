import {
  adminErasureRequestListSchema,
  adminErasureRequestSchema,
  emailChangeConfirmedSchema,
  emailChangeConfirmSchema,
  emailChangeSchema,
  erasureRequestedSchema,
  erasureRequestListQuerySchema,
  erasureRequestSchema,
  okSchema,
  passwordChangeSchema,
  studentProfileSchema,
  studentProfileUpdateSchema,
} from "../schemas/profile";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The student's own account (profile, password, e-mail change with re-verification, data export,
 * files, erasure request) and the back office's erasure requests. Student calls need a student
 * session (401 without one); they work before the e-mail is verified, except the files (403
 * `errors.verifyEmailFirst`). Answers are `no-store`. Times are ISO 8601 UTC.
 */

/** `GET /api/student/profile` → the account. 401 without a student session. */
export const getStudentProfileContract = contract({
  method: "GET",
  path: "/api/student/profile",
  access: "student",
  summary: "The student's account",
  response: studentProfileSchema,
});

/** `PATCH /api/student/profile` `{ firstName, lastName, language }` → the account. 400 with field errors. */
export const updateStudentProfileContract = contract({
  method: "PATCH",
  path: "/api/student/profile",
  access: "student",
  summary: "Change the student's name and the language of their e-mails",
  body: studentProfileUpdateSchema,
  response: studentProfileSchema,
});

/**
 * `POST /api/student/profile/password` `{ currentPassword, newPassword }` → `{ ok: true }`; other
 * sessions end. 400 wrong current password or a weak new one; 429 after 5 in 15 minutes.
 */
export const changeStudentPasswordContract = contract({
  method: "POST",
  path: "/api/student/profile/password",
  access: "student",
  summary: "Change the student's password",
  body: passwordChangeSchema,
  response: okSchema,
});

/**
 * `POST /api/student/profile/email` `{ newEmail, currentPassword }` → 202 `{ ok: true }`: a link
 * goes to the new address. 400 wrong password, same or malformed address; 409 address in use; 429.
 */
export const requestEmailChangeContract = contract({
  method: "POST",
  path: "/api/student/profile/email",
  access: "student",
  summary: "Start changing the student's e-mail address (a link goes to the new one)",
  body: emailChangeSchema,
  status: 202,
  response: okSchema,
});

/** `DELETE /api/student/profile/email` → `{ ok: true }`: the pending e-mail change is cancelled. */
export const cancelEmailChangeContract = contract({
  method: "DELETE",
  path: "/api/student/profile/email",
  access: "student",
  summary: "Cancel the pending e-mail change",
  response: okSchema,
});

/** `POST /api/student/profile/email/confirm` `{ token }` → `{ email }` (no session needed). 400 invalid token; 409 address taken. */
export const confirmEmailChangeContract = contract({
  method: "POST",
  path: "/api/student/profile/email/confirm",
  access: "public",
  summary: "Confirm an e-mail change with the link's token",
  body: emailChangeConfirmSchema,
  response: emailChangeConfirmedSchema,
});

/** `GET /api/student/profile/export` → JSON attachment `my-data-<date>.json` of the student's data (audited). 429 after 5 an hour. */
export const exportStudentDataContract = contract({
  method: "GET",
  path: "/api/student/profile/export",
  access: "student",
  summary: "The student's data as a JSON file",
  produces: "application/json",
});

/** `GET /api/student/profile/export.zip` → ZIP `my-data-<date>.zip`: the JSON export and the student's files (audited). 429. */
export const exportStudentArchiveContract = contract({
  method: "GET",
  path: "/api/student/profile/export.zip",
  access: "student",
  summary: "The student's data and files as one ZIP archive",
  produces: "application/zip",
});

/** `GET /api/student/profile/files/:id` → the student's own file (PDF, JPEG or PNG) as an attachment. 404 another's; 403 unverified; 429. */
export const downloadStudentFileContract = contract({
  method: "GET",
  path: "/api/student/profile/files/:id",
  access: "student",
  summary: "Download one of the student's own files (passport, proof of insurance)",
  params: idParams,
  produces: "application/octet-stream",
});

/** `POST /api/student/profile/erasure` `{ message? }` → 201 `{ requestedAt }`. 409 already requested; 429. */
export const requestErasureContract = contract({
  method: "POST",
  path: "/api/student/profile/erasure",
  access: "student",
  summary: "Ask the school to erase the student's data",
  body: erasureRequestSchema,
  status: 201,
  response: erasureRequestedSchema,
});

/** `GET /api/admin/erasure-requests?status=open|completed|all` → `{ items }`, oldest first (privacy:write). 400 another status. */
export const listErasureRequestsContract = contract({
  method: "GET",
  path: "/api/admin/erasure-requests",
  access: "admin",
  summary: "The students' erasure requests, oldest first",
  query: erasureRequestListQuerySchema,
  response: adminErasureRequestListSchema,
});

/**
 * `POST /api/admin/erasure-requests/:id/complete` → the completed request: the account is erased.
 * 404 unknown; 409 applicants not erased yet, or already completed.
 */
export const completeErasureRequestContract = contract({
  method: "POST",
  path: "/api/admin/erasure-requests/:id/complete",
  access: "admin",
  summary: "Complete an erasure request: erase the student account",
  params: idParams,
  response: adminErasureRequestSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const PROFILE_CONTRACTS = [
  getStudentProfileContract,
  updateStudentProfileContract,
  changeStudentPasswordContract,
  requestEmailChangeContract,
  cancelEmailChangeContract,
  confirmEmailChangeContract,
  exportStudentDataContract,
  exportStudentArchiveContract,
  downloadStudentFileContract,
  requestErasureContract,
  listErasureRequestsContract,
  completeErasureRequestContract,
];
