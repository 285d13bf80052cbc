import type { Language } from "../../../shared/i18n/languages";
import { labelLine } from "../../../shared/i18n/punctuation";
import {
  ANSWER_BUSINESS_DAYS,
  type InquiryKind,
  type PartnershipInterest,
} from "../../../shared/schemas/inquiries";
import { t } from "../../lib/i18n";
import { type EmailBlock, paragraphs, type RenderedEmail, renderEmail } from "../mail";

/** An e-mail of blocks, signed with the school's name. */
function plainEmail(language: Language, subject: string, blocks: EmailBlock[]): RenderedEmail {
  return renderEmail(language, subject, [...blocks, { kind: "paragraph", text: t(language, "brand.name") }]);
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
 * The school's notification of a new partnership inquiry or message (docs/product/portals.md#public-forms), in English (the
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
    { kind: "rows", rows },
    { kind: "paragraph", text: `${labelLine("en", k("fields.message"))}\n${f.message}` },
    { kind: "paragraph", text: k("notify.inbox", { url: `${origin}/admin/inbox` }) },
  ]);
}

/**
 * The sender's confirmation (docs/product/languages.md#supported-languages): in the language of the page the form was sent from, with
 * the answer time (docs/product/languages.md#supported-languages: within 5 business days). It repeats nothing the sender typed (name,
 * university, message): anyone can type someone else's address into a public form, and a receipt
 * that carried their text would relay it from the school's address (docs/product/portals.md#public-forms).
 */
export function inquiryReceiptEmail(f: Pick<InquiryFacts, "kind" | "language">, supportEmail: string) {
  const language = f.language;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.inquiry.receipt.${key}`, vars);
  const subject = f.kind === "partnership" ? k("subjectPartnership") : k("subjectMessage");
  return plainEmail(
    language,
    subject,
    paragraphs([
      k("greeting"),
      f.kind === "partnership"
        ? k("introPartnership", { days: ANSWER_BUSINESS_DAYS })
        : k("introMessage", { days: ANSWER_BUSINESS_DAYS }),
      k("help", { email: supportEmail }),
    ]),
  );
}

/**
 * The newsletter's confirmation e-mail (double opt-in, docs/product/admissions.md#confirmation) in the language of the sign-up
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
    { kind: "paragraph", text: k("intro") },
    { kind: "action", label: k("action"), url: confirmUrl },
    { kind: "paragraph", text: k("note", { hours }) },
    { kind: "link", label: k("unsubscribe"), url: unsubscribeUrl },
  ]);
}
