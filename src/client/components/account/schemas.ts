import {
  affiliateRegistrationSchema,
  loginSchema,
  passwordResetRequestSchema,
  studentRegistrationSchema,
} from "../../../shared/schemas/accounts";
import { requiredText } from "../../../shared/schemas/applicant";
import { V } from "../../../shared/schemas/messages";
import { newPasswordField, PASSWORD_MAX_LENGTH } from "../../../shared/schemas/password";
import { line } from "../../../shared/schemas/text";
import { z } from "../../../shared/schemas/zod";

/**
 * Form schemas of the sign-in pages of the three roles, built on the shared request schemas
 * (src/shared/schemas/accounts.ts). A new password is checked with the policy's length rule
 * (`newPasswordField` of src/shared/schemas/password.ts, the server's rule too); the server alone
 * refuses common passwords.
 * Messages are translation keys: `validation.*` / `errors.*` of `common`, or `form.*` of `account`.
 */
export const PASSWORD_MAX = PASSWORD_MAX_LENGTH;

export const loginFormSchema = loginSchema;
export type LoginFormValues = z.input<typeof loginFormSchema>;

export const studentRegisterFormSchema = studentRegistrationSchema
  .omit({ language: true })
  .extend({ password: newPasswordField });
export type StudentRegisterFormValues = z.input<typeof studentRegisterFormSchema>;

export const affiliateRegisterFormSchema = affiliateRegistrationSchema.extend({
  password: newPasswordField,
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
  .object({ password: newPasswordField, confirm: line({ trim: false }) })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: "form.passwordsDiffer" });
export type NewPasswordFormValues = z.input<typeof newPasswordFormSchema>;

export const acceptInviteFormSchema = z
  .object({ name: requiredText(200), password: newPasswordField, confirm: line({ trim: false }) })
  .refine((value) => value.password === value.confirm, { path: ["confirm"], error: "form.passwordsDiffer" });
export type AcceptInviteFormValues = z.input<typeof acceptInviteFormSchema>;
