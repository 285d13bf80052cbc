import { and, eq } from "drizzle-orm";
import type { ApplicationDto, ApplicationQuoteDto } from "../../../shared/application";
import type { Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import type { Tx } from "../../db/client";
import { applicants, applications, invoices, payments, summerSchools } from "../../db/schema";
import type { Env } from "../../env";
import { localize } from "../../lib/localize";
import { addressedTo, recipientFor } from "./recipient";
import type { MailService } from "./service";
import { balancePaidEmail, confirmationEmail } from "./templates";

/**
 * The owner's view of a paid application for its confirmation e-mail, showing `quote` (the quote
 * stored with the payment) instead of a new pricing: the applications module's `applicationDto`,
 * given by the caller (this module does not import that one).
 */
export type DescribePaidApplication = (
  tx: Tx,
  application: typeof applications.$inferSelect,
  applicant: typeof applicants.$inferSelect,
  language: Language,
  quote: ApplicationQuoteDto | null,
) => Promise<ApplicationDto>;

/**
 * Fulfilment step `confirmationEmail` of an accepted payment, to the student's current address in
 * the profile's e-mail language (docs/product/portals.md#who-an-email-is-written-to), with the payment's invoice linked when it has
 * one (run it after the `invoice` step):
 * - a first payment (deposit or in full, or the zero completion): the confirmation e-mail, stating
 *   the quote the payment was made at (`payments.quote`, the one stored with its checkout session),
 *   never one priced again under rules or prices changed since (docs/product/catalogue-and-pricing.md#pricing-rules); dedupe key
 *   `confirmation:<applicationId>`;
 * - a balance payment: the receipt of the balance; dedupe key `balance-paid:<provider session id>`.
 * Nothing is queued when the student's data was erased. Idempotent (the outbox's dedupe key).
 */
export async function confirmationEmailStep(
  tx: Tx,
  mail: MailService,
  env: Pick<Env, "APP_ORIGIN" | "SUPPORT_EMAIL">,
  p: { paymentId: string; describe: DescribePaidApplication },
): Promise<void> {
  const [row] = await tx
    .select({ payment: payments, application: applications, applicant: applicants })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.applicationId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .where(eq(payments.id, p.paymentId));
  if (!row) return;
  const { payment, application, applicant } = row;
  const recipient = await recipientFor(tx, { applicationId: application.id });
  if (!recipient) return;
  const language = recipient.language;
  const [invoice] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.paymentId, payment.id), eq(invoices.kind, "invoice")));
  if (payment.kind === "balance") {
    const [school] = await tx
      .select({ name: summerSchools.name })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const paid = (payment.paidBeforeCents ?? 0) + payment.amountCents;
    const email = balancePaidEmail(
      {
        firstName: applicant.firstName,
        program: localize(school!.name, language),
        amount: payment.amountCents,
        total: application.totalAmountCents ?? paid,
        paid,
        reference: payment.providerReference,
        paidOn: schoolDate(payment.paidAt),
      },
      language,
      env.SUPPORT_EMAIL,
      env.APP_ORIGIN,
      invoice ?? null,
    );
    await mail.enqueue(tx, {
      dedupeKey: `balance-paid:${payment.providerSessionId}`,
      ...addressedTo(recipient),
      ...email,
    });
    return;
  }
  const dto = await p.describe(tx, application, applicant, language, payment.quote);
  const email = confirmationEmail(
    payment.quote ? { ...dto, quote: payment.quote } : dto,
    language,
    env.SUPPORT_EMAIL,
    env.APP_ORIGIN,
    invoice ?? null,
  );
  await mail.enqueue(tx, {
    dedupeKey: `confirmation:${application.id}`,
    ...addressedTo(recipient),
    ...email,
  });
}
