import { LANGUAGES } from "../i18n/languages";
import { emailField, requiredText } from "./applicant";
import { V } from "./messages";
import { passwordInput } from "./password";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the account calls of the three roles (docs/product/portals.md#sessions: "Sessions of the three
 * roles"): login, registration, e-mail verification, password reset, admin invitations. Shared by
 * the server (parseOrThrow → 400 with field errors) and the forms.
 *
 * Passwords are parsed with `passwordInput` of ./password.ts (present, at most 1024 characters);
 * the policy (docs/product/security.md#s4-password-storage-and-policy) is the rule of ./password.ts, applied by the server after parsing and
 * by the forms with `newPasswordField`.
 */

/** The admin roles (docs/product/back-office.md#admin-roles). */
export const ADMIN_ROLES = ["owner", "admissions", "finance"] as const;
export type AdminRoleName = (typeof ADMIN_ROLES)[number];

/** A one-time token from an e-mailed link (base64url, 43 characters when issued by the server). */
export const tokenInput = line({ error: V.required })
  .min(1, { error: V.required })
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/);

/** POST /api/{student|affiliate|admin}/login */
export const loginSchema = z.object({ email: emailField, password: passwordInput });
export type LoginInput = z.output<typeof loginSchema>;

/** POST /api/student/register */
export const studentRegistrationSchema = z.object({
  firstName: requiredText(100),
  lastName: requiredText(100),
  email: emailField,
  password: passwordInput,
  language: z.enum(LANGUAGES).optional(),
});
export type StudentRegistrationInput = z.output<typeof studentRegistrationSchema>;

/** POST /api/affiliate/register (website: empty or an http(s) address; country: ISO code or empty). */
export const affiliateRegistrationSchema = z.object({
  name: requiredText(200),
  email: emailField,
  password: passwordInput,
  website: line()
    .max(300, { error: V.tooLong })
    .refine((value) => value === "" || /^https?:\/\/[^\s.]+\.[^\s]+$/i.test(value), {
      error: V.invalidChoice,
    })
    .optional()
    .default(""),
  country: line()
    .max(2, { error: V.tooLong })
    .transform((value) => value.toUpperCase())
    .optional()
    .default(""),
});
export type AffiliateRegistrationInput = z.output<typeof affiliateRegistrationSchema>;

/** POST /api/{student|affiliate}/verify-email */
export const tokenSchema = z.object({ token: tokenInput });

/** POST /api/{role}/password-reset */
export const passwordResetRequestSchema = z.object({ email: emailField });

/** POST /api/{role}/password-reset/confirm */
export const passwordResetConfirmSchema = z.object({ token: tokenInput, password: passwordInput });
export type PasswordResetConfirmInput = z.output<typeof passwordResetConfirmSchema>;

/** POST /api/admin/accept-invite (also used for an admin's password reset link) */
export const acceptInviteSchema = z.object({
  token: tokenInput,
  password: passwordInput,
  name: line().max(200, { error: V.tooLong }).optional(),
});
export type AcceptInviteInput = z.output<typeof acceptInviteSchema>;

/** POST /api/admin/admins (owner) */
export const adminInviteSchema = z.object({
  email: emailField,
  name: requiredText(200),
  role: z.enum(ADMIN_ROLES, { error: V.invalidChoice }),
});
export type AdminInviteInput = z.output<typeof adminInviteSchema>;

/** PATCH /api/admin/admins/:id (owner) */
export const adminUpdateSchema = z
  .object({
    role: z.enum(ADMIN_ROLES, { error: V.invalidChoice }).optional(),
    disabled: z.boolean().optional(),
  })
  .refine((value) => value.role !== undefined || value.disabled !== undefined, { error: V.required });
export type AdminUpdateInput = z.output<typeof adminUpdateSchema>;
