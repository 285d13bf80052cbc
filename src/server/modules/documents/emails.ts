import { eq } from "drizzle-orm";
import { formatDate } from "../../../shared/dates";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { schoolDate } from "../../../shared/refunds";
import type { Tx } from "../../db/client";
import { applicants, applications, refunds, summerSchools } from "../../db/schema";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { addressedTo, type MailService, paragraphs, recipientFor, renderEmail } from "../mail";
import type { IssuedDocument } from "./invoices";
import { invoicePdfPath } from "./invoices";

/** A moment written for people in `language`, as a day in The Hague: "24 November 2026", "2026年11月24日". */
export function dayForPeople(at: Date, language: Language): string {
  return formatDate(schoolDate(at), language);
}

/**
 * The "refund made" e-mail (docs/product/portals.md#who-an-email-is-written-to), in the student's language: the amount in the
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
  const texts = [
    k("intro", { date: dayForPeople(p.at, language), amount, program: p.program }),
    k("delay"),
    ...(p.creditNote
      ? [k("creditNote", { number: p.creditNote.number, url: `${origin}${invoicePdfPath(p.creditNote.id)}` })]
      : []),
    k("portal", { url: pageUrl(origin, language, "/student/payment") }),
    k("questions", { email: supportEmail }),
  ];
  return renderEmail(language, subject, paragraphs([greeting, ...texts, k("signature")]));
}

/**
 * Queues the "refund made" e-mail of a succeeded refund in the refund's transaction `tx`, once
 * (outbox dedupe key `refund:<refundId>`), to the applicant at the current address and in the
 * current e-mail language (`recipientFor`), through the mail service like every e-mail (document
 * head, school footer). Nothing is queued for an erased applicant.
 */
export async function queueRefundEmail(
  tx: Tx,
  p: {
    refundId: string;
    creditNote: IssuedDocument | null;
    at: Date;
    origin: string;
    supportEmail: string;
    mail: Pick<MailService, "enqueue">;
  },
): Promise<void> {
  const [row] = await tx
    .select({ refund: refunds, applicant: applicants, school: summerSchools })
    .from(refunds)
    .innerJoin(applications, eq(applications.id, refunds.applicationId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(refunds.id, p.refundId));
  // The student's current address and e-mail language (docs/product/portals.md#who-an-email-is-written-to); null when erased.
  const recipient = row ? await recipientFor(tx, { applicationId: row.refund.applicationId }) : null;
  if (!row || !recipient) return;
  const language: Language = recipient.language;
  await p.mail.enqueue(tx, {
    dedupeKey: `refund:${p.refundId}`,
    ...addressedTo(recipient),
    ...refundEmail(
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
  });
}
