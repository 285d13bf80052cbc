import { V } from "./messages";
import { line } from "./text";

/**
 * The password policy of docs/product/security.md#s4-password-storage-and-policy / ASVS 6.2 (8 to 128 characters counted in Unicode code
 * points, no composition rules, not a common password), written once for every form of the three
 * roles (sign-up, reset, invitation, change in a profile) and for the server. The length part lives
 * here; the list of common passwords stays on the server (src/server/modules/auth/passwords.ts),
 * which adds `errors.passwordCommon` after this rule.
 *
 * Message keys are those of `common.json`: `errors.passwordTooShort`, `errors.passwordTooLong`.
 */

/** Password length limits of docs/product/security.md#s4-password-storage-and-policy (Unicode code points, so "🔒" counts as one). */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

/** The message key of a broken length rule (a key of `common.json`). */
export type PasswordLengthIssue = "errors.passwordTooShort" | "errors.passwordTooLong";

/**
 * The length rule of the policy: `errors.passwordTooShort` under 8 code points,
 * `errors.passwordTooLong` over 128, null otherwise. The server and the forms both call it.
 */
export function passwordLengthIssue(password: string): PasswordLengthIssue | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return "errors.passwordTooShort";
  if (length > PASSWORD_MAX_LENGTH) return "errors.passwordTooLong";
  return null;
}

/**
 * A password as sent to the server (login, registration, reset, change): present, not trimmed,
 * at most 1024 characters so a huge input is refused before hashing. The policy itself is applied
 * by the server after parsing (`assertPasswordPolicy`), so an old password of another length still
 * signs in.
 */
export const passwordInput = line({ error: V.required, trim: false })
  .min(1, { error: V.required })
  .max(1024, { error: V.tooLong });

/**
 * A new password in a form (sign-up, reset, invitation, profile change): `validation.required` when
 * empty, else the first broken length rule of `passwordLengthIssue` — one message per field.
 * Common passwords are refused by the server alone (the list is not sent to the browser).
 */
export const newPasswordField = line({ error: V.required, trim: false })
  .min(1, { error: V.required, abort: true })
  .superRefine((value, ctx) => {
    const issue = passwordLengthIssue(value);
    if (issue) ctx.addIssue({ code: "custom", message: issue });
  });
