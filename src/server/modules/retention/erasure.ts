import { and, eq, inArray, ne, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import {
  applicantNotes,
  applicants,
  applications,
  applicationTrips,
  auditLog,
  billingDetails,
  emailOutbox,
  resumeLinks,
  storedFiles,
} from "../../db/schema";
import { type AuditActor, recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { hashToken, newToken } from "../../lib/tokens";
import { erasedEmail } from "../applications";
import type { FileStorage } from "../files";
import { revokeVisaLetters } from "../letters";
import { forgetUnqueuedRecipient } from "../mailings";

/** The personal fields erasure overwrites, with their neutral values. */
const ERASED_FIELDS = {
  firstName: "Erased",
  lastName: "Erased",
  phone: "",
  address: "",
  city: "",
  postalCode: "",
  countryOfResidence: "",
  nationality: "",
  dateOfBirth: "1900-01-01",
  passportNumber: "",
  university: "",
  fieldOfStudy: "",
  studentStatus: "",
  expectations: "",
  referralSource: "",
  otherReferralDetail: "",
} as const;

/** Names of every field erasure replaces (what the audit entry records instead of the values). */
export const ERASED_FIELD_NAMES = [
  ...Object.keys(ERASED_FIELDS),
  "email",
  "passportFileId",
  "accessTokenHash",
];

/** Why an applicant was erased: an owner's decision (GDPR 17) or the retention period's end. */
export type ErasureReason = "request" | "retention";

/** What an erasure removed, as the audit entry records it (counts, never values). */
export interface ErasureSummary {
  notesDeleted: number;
  filesDeleted: number;
  outboxDeleted: number;
}

/**
 * Erases an applicant's personal data in the caller's transaction (docs/product/privacy.md#erasure,
 * docs/product/security.md#d3-export-and-erasure): personal fields neutralised, capability hash
 * replaced, notes (and their text in the audit log), billing details, resume links, trip details
 * (emergency contact, insurance proof), stored-file rows and their encrypted chunks deleted,
 * unsent outbox e-mails to the person deleted, visa letters revoked; audit "applicant.erase" with
 * field names and counts only. Applications, payments, invoices, credit notes and commissions stay
 * (pseudonymised: the law keeps financial records 7 years, docs/product/privacy.md#financial-records).
 *
 * Returns the function that removes the files' content from disk: call it after the commit (if it
 * fails, the file sweeper removes them: no row references them any more; decision 012).
 * Throws 409 errors.alreadyErased for an erased applicant; the caller has checked it exists.
 */
export async function eraseApplicant(
  tx: Tx,
  input: { id: string; files: FileStorage; now: Date; actor: AuditActor; reason: ErasureReason },
): Promise<{ removeFromDisk: () => Promise<void>; summary: ErasureSummary }> {
  const { id, files, now } = input;
  const [applicant] = await tx.select().from(applicants).where(eq(applicants.id, id)).for("update");
  if (!applicant) throw new HttpError(404, "errors.notFound");
  if (applicant.email === erasedEmail(id)) throw new HttpError(409, "errors.alreadyErased");
  const fileRows = await tx
    .select({ id: storedFiles.id })
    .from(storedFiles)
    .where(eq(storedFiles.applicantId, id));
  const ids = new Set(fileRows.map((f) => f.id));
  if (applicant.passportFileId) ids.add(applicant.passportFileId);
  const notes = await tx
    .delete(applicantNotes)
    .where(eq(applicantNotes.applicantId, id))
    .returning({ id: applicantNotes.id });
  // The audit entries of those notes carry their text: erasure (GDPR 17) redacts it there too,
  // the one change ever made to audit rows; who did what and when stays.
  await tx
    .update(auditLog)
    .set({
      before: sql`case when ${auditLog.before} ? 'body' then jsonb_set(${auditLog.before}, '{body}', '"[erased]"') else ${auditLog.before} end`,
      after: sql`case when ${auditLog.after} ? 'body' then jsonb_set(${auditLog.after}, '{body}', '"[erased]"') else ${auditLog.after} end`,
    })
    .where(
      and(
        eq(auditLog.entityType, "note"),
        sql`(${auditLog.before}->>'applicantId' = ${id} or ${auditLog.after}->>'applicantId' = ${id})`,
      ),
    );
  // The applicant's applications, read once (their rows stay: only what hangs on them goes).
  const applicationIds = (
    await tx.select({ id: applications.id }).from(applications).where(eq(applications.applicantId, id))
  ).map((a) => a.id);
  // The organisation that pays goes too; invoices already issued keep what they print, for
  // the 7 years the law keeps financial records (decision 017).
  if (applicationIds.length)
    await tx.delete(billingDetails).where(inArray(billingDetails.applicationId, applicationIds));
  const outbox = await tx
    .delete(emailOutbox)
    .where(
      and(
        // Also those about the applicant's applications sent to the student's current address
        // (`recipientFor`, docs/product/portals.md#who-an-email-is-written-to).
        sql`(lower(${emailOutbox.toAddress}) = lower(${applicant.email}) or ${emailOutbox.applicationId} in (select ${applications.id} from ${applications} where ${applications.applicantId} = ${id}))`,
        ne(emailOutbox.status, "sent"),
      ),
    )
    .returning({ id: emailOutbox.id });
  // Nor will a message to many people not yet queued to them (docs/product/back-office.md#messages).
  await forgetUnqueuedRecipient(tx, applicant.email, applicationIds);
  await tx
    .update(applicants)
    .set({
      ...ERASED_FIELDS,
      email: erasedEmail(id),
      passportFileId: null,
      accessTokenHash: hashToken(newToken()),
      remindMe: false,
      reminderOptOutHash: null,
      updatedAt: now,
    })
    .where(eq(applicants.id, id));
  // Resume links of the applicant (decision 028) would lead to nothing any more.
  await tx.delete(resumeLinks).where(eq(resumeLinks.applicantId, id));
  // The trip details a student gave in the portal (emergency contact, proof of insurance,
  // docs/product/admissions.md#insurance-proof).
  if (applicationIds.length)
    await tx.delete(applicationTrips).where(inArray(applicationTrips.applicationId, applicationIds));
  // docs/product/admissions.md#visa-letter: the visa letters of the erased applicant's applications no longer verify.
  for (const applicationId of applicationIds) await revokeVisaLetters(tx, applicationId, "erased", now);
  const removeFromDisk = await files.removeContent(tx, [...ids]);
  await tx.delete(storedFiles).where(eq(storedFiles.applicantId, id));
  const summary = { notesDeleted: notes.length, filesDeleted: ids.size, outboxDeleted: outbox.length };
  await recordAudit(tx, {
    actor: input.actor,
    action: "applicant.erase",
    entityType: "applicant",
    entityId: id,
    before: { erased: false },
    after: { erased: true, reason: input.reason, fields: ERASED_FIELD_NAMES, ...summary },
  });
  return { removeFromDisk, summary };
}
