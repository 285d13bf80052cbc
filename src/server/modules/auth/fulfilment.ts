import { eq } from "drizzle-orm";
import { isLanguage } from "../../../shared/i18n/languages";
import type { Tx } from "../../db/client";
import { applicants, applications, payments } from "../../db/schema";
import type { MailService } from "../mail";
import { queueStudentInvite } from "./student-invite";

/**
 * Fulfilment step `studentInvitation` of an accepted payment (decision 021): the "create your
 * student account" e-mail to the applicant, in the applicant's language, or the link of the
 * application to the verified account that has the address (`queueStudentInvite`). A payment whose
 * quote was 0 (a whole scholarship) gets the e-mail that speaks of no payment. Idempotent (dedupe
 * key `student-invite:<email>`).
 */
export async function studentInvitationStep(
  tx: Tx,
  mail: MailService,
  appOrigin: string,
  p: { paymentId: string },
): Promise<void> {
  const [row] = await tx
    .select({ quote: payments.quote, applicant: applicants })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.applicationId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .where(eq(payments.id, p.paymentId));
  if (!row) return;
  const { applicant } = row;
  await queueStudentInvite(
    tx,
    mail,
    appOrigin,
    {
      email: applicant.email,
      firstName: applicant.firstName,
      language: isLanguage(applicant.language) ? applicant.language : "en",
    },
    { noPayment: row.quote?.totalAmount === 0 },
  );
}
