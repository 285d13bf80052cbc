import { and, eq, isNotNull, isNull } from "drizzle-orm";
import { DEFAULT_LANGUAGE, isLanguage, type Language } from "../../../shared/i18n/languages";
import type { Db, Tx } from "../../db/client";
import { admins, affiliates, applicants, applications, students } from "../../db/schema";

/**
 * To whom, at which address and in which language the school writes (docs/product/portals.md#who-an-email-is-written-to; decision
 * 037). Every e-mail about a person asks `recipientFor` at the moment it is queued, instead of
 * using the address and language the applicant typed when applying: a student who changed the
 * account's address or e-mail language in the profile gets every later e-mail (status, payment,
 * balance reminders, refund, letters) at the new address, in the new language. It lives in the
 * mail module, which imports no other module, so any module may call it without a cycle.
 */

/** Whom an e-mail is about: an application (its student), a student account, an affiliate, an admin. */
export type Person =
  | { applicationId: string }
  | { studentId: string }
  | { affiliateId: string }
  | { adminId: string };

/** Where and how to write to a person. */
export interface Recipient {
  /** The current address (lower-case for accounts, as stored). */
  to: string;
  /** The e-mail language: the profile's, else the application's, else the site default. */
  language: Language;
  /** The student account written to, if any: stored with the e-mail (outbox `student_id`). */
  studentId: string | null;
  /** The application the e-mail is about, if any: stored with the e-mail (outbox `application_id`). */
  applicationId: string | null;
}

/** An erased applicant's or account's address (`erased-…@invalid`): no one to write to. */
const erased = (address: string) => address.endsWith("@invalid");

const languageOf = (...candidates: Array<string | null | undefined>): Language =>
  candidates.find((c): c is Language => isLanguage(c)) ?? DEFAULT_LANGUAGE;

/**
 * The current address and e-mail language of `person`, read in `tx` (so inside the transaction
 * that queues the e-mail). Rules:
 * - an application: its student account (`applications.student_id`, or else the verified account
 *   whose address is the applicant's, as the portal counts it, decision 020/021): the account's
 *   address and profile language (falling back to the applicant's language); with no account, the
 *   applicant's address and language as given when applying;
 * - a student account, an affiliate: its address and language; an admin: its address, site default.
 * Returns null for an unknown id or an erased person (nothing is to be sent).
 */
export async function recipientFor(tx: Db | Tx, person: Person): Promise<Recipient | null> {
  if ("applicationId" in person) {
    const [row] = await tx
      .select({ application: applications, applicant: applicants })
      .from(applications)
      .innerJoin(applicants, eq(applicants.id, applications.applicantId))
      .where(eq(applications.id, person.applicationId));
    if (!row || erased(row.applicant.email)) return null;
    const [account] = row.application.studentId
      ? await tx.select().from(students).where(eq(students.id, row.application.studentId))
      : await tx
          .select()
          .from(students)
          .where(
            and(
              eq(students.email, row.applicant.email.trim().toLowerCase()),
              isNotNull(students.emailVerifiedAt),
              isNull(students.disabledAt),
            ),
          );
    if (account && !erased(account.email)) {
      return {
        to: account.email,
        language: languageOf(account.language, row.applicant.language),
        studentId: account.id,
        applicationId: row.application.id,
      };
    }
    return {
      to: row.applicant.email,
      language: languageOf(row.applicant.language),
      studentId: null,
      applicationId: row.application.id,
    };
  }
  if ("studentId" in person) {
    const [account] = await tx.select().from(students).where(eq(students.id, person.studentId));
    if (!account || erased(account.email)) return null;
    return {
      to: account.email,
      language: languageOf(account.language),
      studentId: account.id,
      applicationId: null,
    };
  }
  if ("affiliateId" in person) {
    const [affiliate] = await tx.select().from(affiliates).where(eq(affiliates.id, person.affiliateId));
    if (!affiliate || erased(affiliate.email)) return null;
    return {
      to: affiliate.email,
      language: languageOf(affiliate.language),
      studentId: null,
      applicationId: null,
    };
  }
  const [admin] = await tx.select().from(admins).where(eq(admins.id, person.adminId));
  if (!admin) return null;
  return { to: admin.email, language: DEFAULT_LANGUAGE, studentId: null, applicationId: null };
}

/**
 * The outbox fields of a recipient, to spread into `MailService.enqueue`'s e-mail: the address and
 * the account and application the e-mail is stored under (docs/product/privacy.md#data-export).
 */
export const addressedTo = (r: Recipient) => ({
  to: r.to,
  studentId: r.studentId,
  applicationId: r.applicationId,
});
