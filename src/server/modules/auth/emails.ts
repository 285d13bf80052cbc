import type { Language } from "../../../shared/i18n/languages";
import { t } from "../../lib/i18n";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

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
): { subject: string; text: string; html: string } {
  const k = (key: string) => t(language, `emails.account.${kind}.${key}`, vars);
  const subject = k("subject");
  const greeting = k("greeting");
  const intro = k("intro");
  const action = k("action");
  const note = k("note");
  const hint = t(language, "emails.account.linkHint");
  const brand = t(language, "brand.name");
  const text = [greeting, "", intro, "", `${action}: ${link}`, "", note, "", brand].join("\n");
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:600px;margin:auto">
<h1 style="color:#0b3a5b;font-size:22px">${escapeHtml(subject)}</h1>
<p>${escapeHtml(greeting)}</p><p>${escapeHtml(intro)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#0b3a5b;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(action)}</a></p>
<p style="font-size:13px;color:#475569">${escapeHtml(hint)}<br>${escapeHtml(link)}</p>
<p>${escapeHtml(note)}</p><p>${escapeHtml(brand)}</p></body></html>`;
  return { subject, text, html };
}
