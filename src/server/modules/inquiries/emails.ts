import type { Language } from "../../../shared/i18n/languages";
import {
  ANSWER_BUSINESS_DAYS,
  type InquiryKind,
  type PartnershipInterest,
} from "../../../shared/schemas/inquiries";
import { t } from "../../lib/i18n";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** "Label: " with the language's punctuation (glossary: full-width colon in Chinese, U+202F before it in French). */
function label(text: string, language: Language): string {
  if (language === "zh") return `${text}：`;
  if (language === "fr") return `${text}\u202f: `;
  return `${text}: `;
}

/** A plain e-mail: heading, paragraphs (a URL in a paragraph becomes a link), the brand. */
function plainEmail(language: Language, subject: string, paragraphs: string[]) {
  const brand = t(language, "brand.name");
  const text = [...paragraphs, brand].join("\n\n");
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:600px;margin:auto">
<h1 style="color:#0b3a5b;font-size:22px">${escapeHtml(subject)}</h1>
${paragraphs
  .map(
    (p) =>
      `<p>${escapeHtml(p)
        .replace(/(https?:\/\/[^\s<]+)/g, (url) => `<a href="${url}" style="color:#0b3a5b">${url}</a>`)
        .replace(/\n/g, "<br>")}</p>`,
  )
  .join("\n")}
<p>${escapeHtml(brand)}</p></body></html>`;
  return { subject, text, html };
}

/** What the school's notification and the sender's confirmation show of an inquiry or message. */
export interface InquiryFacts {
  kind: InquiryKind;
  name: string;
  email: string;
  phone: string;
  university: string;
  /** Country name in English (the school's language), "" for a message. */
  countryName: string;
  position: string;
  interest: PartnershipInterest | null;
  message: string;
  language: Language;
}

/**
 * The school's notification of a new partnership inquiry or message (issue 13), in English (the
 * school's working language), with every field and a link to the back office's inbox. The
 * sender's address is the reply address (Reply-To is not set: the team answers from the inbox).
 */
export function inquiryNotificationEmail(f: InquiryFacts, origin: string) {
  const k = (key: string, vars?: Record<string, string | number>) => t("en", `emails.inquiry.${key}`, vars);
  const rows: Array<[string, string]> =
    f.kind === "partnership"
      ? [
          [k("fields.university"), f.university],
          [k("fields.country"), f.countryName],
          [k("fields.contactPerson"), f.name],
          [k("fields.position"), f.position],
          [k("fields.email"), f.email],
          [k("fields.phone"), f.phone || "—"],
          [k("fields.interest"), f.interest ? t("en", `emails.inquiry.interests.${f.interest}`) : "—"],
          [k("fields.language"), t("en", `emails.inquiry.languages.${f.language}`)],
        ]
      : [
          [k("fields.name"), f.name],
          [k("fields.email"), f.email],
          [k("fields.language"), t("en", `emails.inquiry.languages.${f.language}`)],
        ];
  const subject =
    f.kind === "partnership"
      ? k("notify.subjectPartnership", { university: f.university })
      : k("notify.subjectMessage", { name: f.name });
  return plainEmail("en", subject, [
    rows.map(([l, v]) => `${label(l, "en")}${v}`).join("\n"),
    `${label(k("fields.message"), "en")}\n${f.message}`,
    k("notify.inbox", { url: `${origin}/admin/inbox` }),
  ]);
}

/**
 * The sender's confirmation (issue 13): in the language of the page the form was sent from, with
 * the answer time (spec §9: within 5 business days). It repeats nothing the sender typed (name,
 * university, message): anyone can type someone else's address into a public form, and a receipt
 * that carried their text would relay it from the school's address (issue 22 item 19).
 */
export function inquiryReceiptEmail(f: Pick<InquiryFacts, "kind" | "language">, supportEmail: string) {
  const language = f.language;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.inquiry.receipt.${key}`, vars);
  const subject = f.kind === "partnership" ? k("subjectPartnership") : k("subjectMessage");
  return plainEmail(language, subject, [
    k("greeting"),
    f.kind === "partnership"
      ? k("introPartnership", { days: ANSWER_BUSINESS_DAYS })
      : k("introMessage", { days: ANSWER_BUSINESS_DAYS }),
    k("help", { email: supportEmail }),
  ]);
}

/**
 * The newsletter's confirmation e-mail (double opt-in, issue 13) in the language of the sign-up
 * page: the single-use link (valid `hours` hours) and the unsubscribe link every newsletter e-mail
 * carries.
 */
export function newsletterConfirmEmail(
  language: Language,
  confirmUrl: string,
  unsubscribeUrl: string,
  hours: number,
) {
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.newsletter.${key}`, vars);
  return plainEmail(language, k("subject"), [
    k("intro"),
    `${label(k("action"), language)}${confirmUrl}`,
    k("note", { hours }),
    `${label(k("unsubscribe"), language)}${unsubscribeUrl}`,
  ]);
}
