import {
  affiliateRegistrationSchema,
  loginSchema,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  passwordResetRequestSchema,
  studentRegistrationSchema,
} from "../../../shared/schemas/accounts";
import { requiredText } from "../../../shared/schemas/applicant";
import { V } from "../../../shared/schemas/messages";
import { line } from "../../../shared/schemas/text";
import { z } from "../../../shared/schemas/zod";

/**
 * Form schemas of the sign-in pages of the three roles, built on the shared request schemas
 * (src/shared/schemas/accounts.ts). Forms also check the password length of the policy (checklist
 * S4: 8 to 128 characters, no composition rules); the server alone refuses common passwords.
 * Messages are translation keys: `validation.*` / `errors.*` of `common`, or `form.*` of `account`.
 */
export const PASSWORD_MAX = PASSWORD_MAX_LENGTH;

/** A new password: the policy's length, counted in code points like the server. */
const newPassword = line({ error: V.required, trim: false })
  .min(1, { error: V.required, abort: true })
  .refine((value) => [...value].length >= PASSWORD_MIN_LENGTH, {
    error: "errors.passwordTooShort",
    abort: true,
  })
  .refine((value) => [...value].length <= PASSWORD_MAX_LENGTH, { error: "errors.passwordTooLong" });

export const loginFormSchema = loginSchema;
export type LoginFormValues = z.input<typeof loginFormSchema>;

export const studentRegisterFormSchema = studentRegistrationSchema
  .omit({ language: true })
  .extend({ password: newPassword });
export type StudentRegisterFormValues = z.input<typeof studentRegisterFormSchema>;

export const affiliateRegisterFormSchema = affiliateRegistrationSchema.extend({
  password: newPassword,
  website: line()
    .max(300, { error: V.tooLong })
    .refine((value) => value === "" || /^https?:\/\/[^\s.]+\.[^\s]+$/i.test(value), {
      error: "form.invalidWebsite",
    }),
  country: line().max(2),
});
export type AffiliateRegisterFormValues = z.input<typeof affiliateRegisterFormSchema>;

export const resetRequestFormSchema = passwordResetRequestSchema;
export type ResetRequestFormValues = z.input<typeof resetRequestFormSchema>;

export const newPasswordFormSchema = z
  .object({ password: newPassword, confirm: line({ trim: false }) })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: "form.passwordsDiffer" });
export type NewPasswordFormValues = z.input<typeof newPasswordFormSchema>;

export const acceptInviteFormSchema = z
  .object({ name: requiredText(200), password: newPassword, confirm: line({ trim: false }) })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: "form.passwordsDiffer" });
export type AcceptInviteFormValues = z.input<typeof acceptInviteFormSchema>;
