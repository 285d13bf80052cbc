import { and, asc, eq, inArray, notInArray, sql } from "drizzle-orm";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import type { MailingAudience } from "../../../shared/schemas/mailings";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, newsletterSubscribers, waitingListEntries } from "../../db/schema";
import { recipientFor } from "../mail";

/** One person a mailing goes to, as fixed when it is sent. */
export interface MailingRecipientDraft {
  /** Lower-case. */
  email: string;
  language: Language;
  studentId: string | null;
  applicationId: string | null;
  /** The subscriber's token of the one-click unsubscribe (newsletter only). */
  unsubscribeToken: string | null;
}

/** Application statuses left out of a message when the filter names none. */
export const CLOSED_STATUSES = ["rejected", "withdrawn", "cancelled"] as const;

/**
 * The people `audience` picks now, in a stable order (docs/product/back-office.md#messages), each
 * address once (the first match wins):
 * - applicants: each matching application's current address and e-mail language (`recipientFor`:
 *   the student account's, else the applicant's), erased applicants left out;
 * - waiting list: the cohort's entries still waiting or holding an offer, in their language;
 * - newsletter: the confirmed subscribers, in their language, with their unsubscribe token.
 */
export async function recipientsOf(tx: Db | Tx, audience: MailingAudience): Promise<MailingRecipientDraft[]> {
  const found: MailingRecipientDraft[] = [];
  if (audience.kind === "applicants") {
    const rows = await tx
      .select({ id: applications.id })
      .from(applications)
      .innerJoin(applicants, eq(applicants.id, applications.applicantId))
      .where(
        and(
          sql`${applicants.email} not like 'erased-%@invalid'`,
          audience.cohortId ? eq(applications.summerSchoolId, audience.cohortId) : undefined,
          audience.status
            ? eq(applications.status, audience.status)
            : notInArray(applications.status, [...CLOSED_STATUSES]),
          audience.payment ? eq(applications.paymentStatus, audience.payment) : undefined,
        ),
      )
      .orderBy(asc(applications.createdAt), asc(applications.id));
    for (const { id } of rows) {
      const to = await recipientFor(tx, { applicationId: id });
      if (!to) continue;
      found.push({
        email: to.to.toLowerCase(),
        language: to.language,
        studentId: to.studentId,
        applicationId: to.applicationId,
        unsubscribeToken: null,
      });
    }
  } else if (audience.kind === "waitingList") {
    const rows = await tx
      .select({ email: waitingListEntries.email, language: waitingListEntries.language })
      .from(waitingListEntries)
      .where(
        and(
          eq(waitingListEntries.summerSchoolId, audience.cohortId),
          inArray(waitingListEntries.status, ["waiting", "offered"]),
        ),
      )
      .orderBy(asc(waitingListEntries.position));
    for (const row of rows)
      found.push({
        email: row.email.toLowerCase(),
        language: isLanguage(row.language) ? row.language : "en",
        studentId: null,
        applicationId: null,
        unsubscribeToken: null,
      });
  } else {
    const rows = await tx
      .select({
        email: newsletterSubscribers.email,
        language: newsletterSubscribers.language,
        token: newsletterSubscribers.unsubscribeToken,
      })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.status, "confirmed"))
      .orderBy(asc(newsletterSubscribers.confirmedAt), asc(newsletterSubscribers.id));
    for (const row of rows)
      found.push({
        email: row.email.toLowerCase(),
        language: row.language,
        studentId: null,
        applicationId: null,
        unsubscribeToken: row.token,
      });
  }
  const seen = new Set<string>();
  return found.filter((r) => !seen.has(r.email) && seen.add(r.email));
}
