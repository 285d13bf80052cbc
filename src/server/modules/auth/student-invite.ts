import { eq } from "drizzle-orm";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import type { Tx } from "../../db/client";
import { students } from "../../db/schema";
import type { MailService } from "../mail";
import { linkApplicationsToVerifiedAccount } from "../student";
import { accountEmail } from "./emails";

/**
 * Queues the "create your student account" e-mail for the applicant of a paid application (or one
 * whose fee a scholarship covers whole, `noPayment`: the e-mail then does not thank for a payment) when no
 * student account has that e-mail (contract: dedupe key `student-invite:<email>`, link
 * /student/register?email=…). When a verified account has that e-mail, the paid application is
 * linked to it instead (decision 021). Called by the fulfilment step `studentInvitation`
 * (fulfilment.ts), after the payment's transaction.
 */
export async function queueStudentInvite(
  tx: Tx,
  mail: MailService,
  appOrigin: string,
  applicant: { email: string; firstName: string; language: Language },
  /** Nothing to pay (a 100 % scholarship): the e-mail does not speak of a payment (docs/product/payments.md#zero-payment). */
  options: { noPayment?: boolean } = {},
): Promise<void> {
  const email = applicant.email.toLowerCase();
  const [existing] = await tx.select({ id: students.id }).from(students).where(eq(students.email, email));
  if (existing) {
    await linkApplicationsToVerifiedAccount(tx, email);
    return;
  }
  const link = pageUrl(appOrigin, applicant.language, `/student/register?email=${encodeURIComponent(email)}`);
  await mail.enqueue(tx, {
    dedupeKey: `student-invite:${email}`,
    to: email,
    ...accountEmail(
      options.noPayment ? "studentInviteNoPayment" : "studentInvite",
      applicant.language,
      link,
      {
        name: applicant.firstName,
      },
    ),
  });
}
