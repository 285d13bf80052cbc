import { eq } from "drizzle-orm";
import { pageUrl } from "../../../shared/i18n/addresses";
import { type Language, LOCALE_OF } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import type { Tx } from "../../db/client";
import { applicants, applications, emailOutbox, refunds, summerSchools } from "../../db/schema";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { recipientFor, withDocumentHead } from "../mail";
import type { IssuedDocument } from "./invoices";
import { invoicePdfPath } from "./invoices";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A moment written for people in `language`, as a day in The Hague: "24 November 2026", "2026年11月24日". */
export function dayForPeople(at: Date, language: Language): string {
  return new Intl.DateTimeFormat(LOCALE_OF[language], {
    dateStyle: "long",
    timeZone: "Europe/Amsterdam",
  }).format(at);
}

/**
 * The "refund made" e-mail (issue 11 "E-mails"), in the student's language: the amount in the
 * language's number format, the day written for people, the credit note's link (when the refunded
 * payment had an invoice) and the student portal's payment page. Returns subject, text and HTML.
 */
export function refundEmail(
  p: {
    firstName: string;
    amountCents: number;
    at: Date;
    program: string;
    creditNote: IssuedDocument | null;
  },
  language: Language,
  supportEmail: string,
  origin: string,
) {
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.refund.${key}`, vars);
  const amount = formatMoney(p.amountCents, language);
  const subject = k("subject", { amount });
  const greeting = p.firstName ? k("greeting", { name: p.firstName }) : k("greetingNoName");
  const paragraphs = [
    k("intro", { date: dayForPeople(p.at, language), amount, program: p.program }),
    k("delay"),
    ...(p.creditNote
      ? [k("creditNote", { number: p.creditNote.number, url: `${origin}${invoicePdfPath(p.creditNote.id)}` })]
      : []),
    k("portal", { url: pageUrl(origin, language, "/student/payment") }),
    k("questions", { email: supportEmail }),
  ];
  const signature = k("signature");
  const text = [greeting, "", ...paragraphs.flatMap((l) => [l, ""]), signature].join("\n");
  const linkify = (s: string) =>
    escapeHtml(s).replace(
      /(https?:\/\/[^\s<]+)/g,
      (url) => `<a href="${url}" style="color:#0b3a5b">${url}</a>`,
    );
  const html = `<!doctype html><html lang="${language}"><body style="font-family:system-ui,sans-serif;color:#1e293b;max-width:600px;margin:auto">
<h1 style="color:#0b3a5b;font-size:22px">${escapeHtml(subject)}</h1>
<p>${escapeHtml(greeting)}</p>${paragraphs.map((l) => `<p>${linkify(l)}</p>`).join("")}
<p>${escapeHtml(signature)}</p></body></html>`;
  return { subject, text, html };
}

/**
 * Queues the "refund made" e-mail of a succeeded refund in the refund's transaction `tx`, once
 * (outbox dedupe key `refund:<refundId>`), to the applicant in their language. Nothing is queued
 * for an erased applicant. Same insert as `MailService.enqueue` (the sending runs as for every
 * queued e-mail).
 */
export async function queueRefundEmail(
  tx: Tx,
  p: { refundId: string; creditNote: IssuedDocument | null; at: Date; origin: string; supportEmail: string },
): Promise<void> {
  const [row] = await tx
    .select({ refund: refunds, applicant: applicants, school: summerSchools })
    .from(refunds)
    .innerJoin(applications, eq(applications.id, refunds.applicationId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(refunds.id, p.refundId));
  // The student's current address and e-mail language (issue 22 item 14); null when erased.
  const recipient = row ? await recipientFor(tx, { applicationId: row.refund.applicationId }) : null;
  if (!row || !recipient) return;
  const language: Language = recipient.language;
  // Written straight into the outbox in the refund's transaction: the document head every
  // queued e-mail gets (issue 23 item 13) is added here.
  const email = withDocumentHead(
    refundEmail(
      {
        firstName: row.applicant.firstName,
        amountCents: row.refund.amountCents,
        at: p.at,
        program: localize(row.school.name, language),
        creditNote: p.creditNote,
      },
      language,
      p.supportEmail,
      p.origin,
    ),
  );
  await tx
    .insert(emailOutbox)
    .values({
      dedupeKey: `refund:${p.refundId}`,
      toAddress: recipient.to,
      studentId: recipient.studentId,
      applicationId: recipient.applicationId,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html,
    })
    .onConflictDoNothing({ target: emailOutbox.dedupeKey });
}
