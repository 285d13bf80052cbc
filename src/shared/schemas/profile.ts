import { LANGUAGES } from "../i18n/languages";
import { emailField, requiredText } from "./applicant";
import { V } from "./messages";
import { passwordInput } from "./password";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Requests and answers of the student's own account (docs/product/portals.md#student-profile student
 * portal): contact details, preferred language, password, e-mail change with re-verification,
 * data export, erasure request; and the back office's list of erasure requests. Shared by the
 * server (`parseOrThrow`) and the page (`call` with the contract, react-hook-form).
 */

/** GET /api/student/profile, and the answer of PATCH /api/student/profile. Times are ISO 8601 UTC. */
export const studentProfileSchema = z.object({
  id: lines(),
  firstName: lines(),
  lastName: lines(),
  email: lines(),
  emailVerified: z.boolean(),
  /** A new address waiting for its confirmation link; null when no change is pending. */
  pendingEmail: lines().nullable(),
  /** Language of the school's e-mails to the student. */
  language: z.enum(LANGUAGES),
  /**
   * The phone number given on the student's latest application (read only here: it belongs to
   * the application, which the admissions team corrects on request); null without an application.
   */
  applicationPhone: lines().nullable(),
  createdAt: lines(),
  /** When the student asked for erasure and the request is still open; null otherwise. */
  erasureRequestedAt: lines().nullable(),
  /** The student's uploaded files (verified accounts): each downloads from `downloadUrl` while signed in. */
  files: z.array(z.object({ id: lines(), kind: lines(), uploadedAt: lines(), downloadUrl: lines() })),
});
export type StudentProfile = z.output<typeof studentProfileSchema>;

/** PATCH /api/student/profile: the account's name and the language of its e-mails. */
export const studentProfileUpdateSchema = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  language: z.enum(LANGUAGES, { error: V.invalidChoice }),
});
export type StudentProfileUpdate = z.output<typeof studentProfileUpdateSchema>;

/** POST /api/student/profile/password: the current password, and the new one (policy: server). */
export const passwordChangeSchema = z.object({
  currentPassword: passwordInput,
  newPassword: passwordInput,
});
export type PasswordChangeInput = z.output<typeof passwordChangeSchema>;

/** POST /api/student/profile/email: the new address, confirmed with the current password. */
export const emailChangeSchema = z.object({
  newEmail: emailField,
  currentPassword: passwordInput,
});
export type EmailChangeInput = z.output<typeof emailChangeSchema>;

/** POST /api/student/profile/email/confirm: the one-time token of the link sent to the new address. */
export const emailChangeConfirmSchema = z.object({
  token: line({ error: V.required })
    .min(1, { error: V.required })
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/),
});

/** The answer of POST /api/student/profile/email/confirm: the account's address now. */
export const emailChangeConfirmedSchema = z.object({ email: lines() });

/** POST /api/student/profile/erasure: an optional message to the school's team. */
export const erasureRequestSchema = z.object({
  message: lines().max(1000, { error: V.tooLong }).optional().default(""),
});
export type ErasureRequestInput = z.output<typeof erasureRequestSchema>;

/** The answer of POST /api/student/profile/erasure. */
export const erasureRequestedSchema = z.object({ requestedAt: lines() });

/** `{ ok: true }` answers (password changed, e-mail change started or cancelled). */
export const okSchema = z.object({ ok: z.literal(true) });

/** One erasure request in the back office (GET /api/admin/erasure-requests). */
export const adminErasureRequestSchema = z.object({
  id: lines(),
  status: z.enum(["open", "completed"]),
  message: lines(),
  createdAt: lines(),
  completedAt: lines().nullable(),
  student: z.object({ id: lines(), email: lines(), firstName: lines(), lastName: lines() }),
  /** The applicants of the student's applications, and whether each is erased yet. */
  applicants: z.array(z.object({ id: lines(), erased: z.boolean(), applicationIds: z.array(lines()) })),
});
export type AdminErasureRequest = z.output<typeof adminErasureRequestSchema>;
export const adminErasureRequestListSchema = z.object({ items: z.array(adminErasureRequestSchema) });

/** GET /api/admin/erasure-requests?status=open|completed|all (default open). */
export const erasureRequestListQuerySchema = z.object({
  status: z.enum(["open", "completed", "all"], { error: V.invalidChoice }).optional().default("open"),
});
