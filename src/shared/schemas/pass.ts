import { PAYMENT_STATES } from "../balance";
import { APPLICATION_STATUSES } from "./admin";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * The student pass (docs/product/admissions.md#student-pass: "/student/qrcode, pass token + public check reasons"; docs/product/admissions.md#student-pass
 * /student-pass/{id}; decision 020): the shapes of the public check and of the student's own pass.
 */

/**
 * Why a pass is not valid, in the order the rule looks at them (src/server/modules/pass/service.ts
 * `passVerdict`): a token nobody issued, a token replaced by a newer one, an erased applicant, an
 * application withdrawn, cancelled or rejected, money given back, a cohort whose last day has
 * passed, an application not accepted yet, a fee not paid in full.
 */
export const PASS_REASONS = [
  "unknown",
  "revoked",
  "erased",
  "withdrawn",
  "cancelled",
  "rejected",
  "refunded",
  "ended",
  "awaiting_acceptance",
  "balance_due",
] as const;
export type PassReason = (typeof PASS_REASONS)[number];

/** A pass token: 32 random bytes in base64url, 43 characters. Anything else is an unknown pass. */
export const PASS_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

/** The cohort a pass is for: its name in the request's language and its dates (`yyyy-mm-dd`). */
const passCohortSchema = z.object({
  name: line(),
  startDate: z.iso.date(),
  endDate: z.iso.date(),
});

/**
 * Answer of `GET /api/student-pass/:token`, the public check a pass's QR code opens. `valid` only
 * for an accepted application paid in full of a cohort that has not ended (The Hague's date);
 * otherwise `reason`. `initials` ("A. O.") and `cohort` are given when the application is known
 * and its applicant not erased, null for an unknown or revoked token and an erased applicant:
 * nothing else about the holder, ever. `checkedAt` is the server's time of the check (ISO 8601),
 * so a screenshot of an old answer shows its age.
 */
export const passCheckSchema = z.object({
  valid: z.boolean(),
  reason: z.enum(PASS_REASONS).nullable(),
  initials: line().nullable(),
  cohort: passCohortSchema.nullable(),
  checkedAt: z.iso.datetime({ offset: true }),
});
export type PassCheck = z.output<typeof passCheckSchema>;

/**
 * Answer of `GET /api/student/applications/:id/pass` and `POST …/pass/reissue`: the signed-in
 * student's pass for one application. `url` is the public check address the QR code opens
 * (APP_ORIGIN + /student-pass/<token>); `qrSvg` the QR code of `url` as an SVG document (made on
 * the server with the `qrcode` library); `issuedAt` when this token was made (ISO 8601);
 * `holderName` the applicant's full name (the student's own page); `status` and `paymentState`
 * the application's states in the shared words (balance.ts); `check` what a checker scanning it
 * now sees (the same rule as the public check).
 */
export const studentPassSchema = z.object({
  applicationId: z.uuid(),
  holderName: line(),
  cohort: passCohortSchema,
  status: z.enum(APPLICATION_STATUSES),
  paymentState: z.enum(PAYMENT_STATES),
  url: line(),
  qrSvg: lines(),
  issuedAt: z.iso.datetime({ offset: true }),
  check: z.object({ valid: z.boolean(), reason: z.enum(PASS_REASONS).nullable() }),
});
export type StudentPass = z.output<typeof studentPassSchema>;

/** Answer of `GET /api/student/passes`: the pass of each of the signed-in student's applications, newest first. */
export const studentPassListSchema = z.array(studentPassSchema);
