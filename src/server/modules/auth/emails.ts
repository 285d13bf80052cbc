import type { Language } from "../../../shared/i18n/languages";
import { t } from "../../lib/i18n";
import { paragraphs, type RenderedEmail, renderEmail } from "../mail";

/** The account e-mails, each with keys `emails.account.<kind>.{subject,greeting,intro,action,note}`. */
export type AccountEmailKind =
  | "verifyEmail"
  | "passwordReset"
  | "adminInvite"
  | "studentInvite"
  | "studentInviteNoPayment"
  | "studentAccount"
  | "registrationAttempt"
  | "emailChange"
  | "emailChanged"
  | "passwordChanged"
  | "affiliatePasswordChanged";

/**
 * An account e-mail (verification, password reset, admin invitation, student invitation after
 * payment, student account added by the school with a choose-your-password link, "someone tried to
 * register with your address") in `language`: a greeting, one
 * paragraph, a button with the one-time link (also written out for mail clients without HTML),
 * a note on validity. `vars` fills the texts' placeholders (name, role). Returns subject, text, HTML.
 */
export function accountEmail(
  kind: AccountEmailKind,
  language: Language,
  link: string,
  vars: Record<string, string> = {},
): RenderedEmail {
  const k = (key: string) => t(language, `emails.account.${kind}.${key}`, vars);
  const subject = k("subject");
  const greeting = k("greeting");
  const intro = k("intro");
  const action = k("action");
  const note = k("note");
  const hint = t(language, "emails.account.linkHint");
  const brand = t(language, "brand.name");
  return renderEmail(language, subject, [
    ...paragraphs([greeting, intro]),
    { kind: "action", label: action, url: link, hint },
    ...paragraphs([note, brand]),
  ]);
}
