import { and, asc, desc, eq, inArray, isNull, ne, or, sql } from "drizzle-orm";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import type {
  AdminErasureRequest,
  StudentProfile,
  StudentProfileUpdate,
} from "../../../shared/schemas/profile";
import type { Db, Tx } from "../../db/client";
import {
  accountTokens,
  applicationTrips,
  billingDetails,
  emailOutbox,
  erasureRequests,
  housingOptions,
  invoices,
  newsletterSubscribers,
  packages,
  payments,
  refunds,
  sessions,
  storedFiles,
  studentPasses,
  students,
  visaLetters,
  waitingListEntries,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { erasedEmail } from "../applications";
import { invoicePdfPath } from "../documents";
import { type StudentRow, studentApplications } from "../student";

/**
 * The student's own account (docs/product/portals.md#student-profile): what the profile page shows and
 * changes, the data export (GDPR 15, 20; docs/product/security.md#d3-export-and-erasure) and the erasure request (GDPR 17) that the
 * school's admins complete with the applicant erasure of modules/admin/privacy.ts.
 */

const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

/** The address a completed erasure gives the account: also how an erased account is recognised. */
export const erasedStudentEmail = (studentId: string) => `erased-student-${studentId}@invalid`;

/** Where a student downloads one of their files (GET /api/student/profile/files/:id). */
export const studentFileUrl = (fileId: string) => `/api/student/profile/files/${fileId}`;

/** The open erasure request of a student, if any. */
async function openRequest(tx: Db | Tx, studentId: string) {
  const [row] = await tx
    .select()
    .from(erasureRequests)
    .where(and(eq(erasureRequests.studentId, studentId), eq(erasureRequests.status, "open")));
  return row ?? null;
}

/**
 * The profile page's data of `student`: name, address (and a pending new one), e-mail language,
 * the phone of the latest application (read only), and an open erasure request.
 */
export async function profileOf(db: Db | Tx, student: StudentRow): Promise<StudentProfile> {
  const owned = await studentApplications(db, student);
  const [latest] = owned;
  const request = await openRequest(db, student.id);
  const applicantIds = [...new Set(owned.map((r) => r.applicant.id))];
  const fileRows = applicantIds.length
    ? await db
        .select()
        .from(storedFiles)
        .where(and(inArray(storedFiles.applicantId, applicantIds), ne(storedFiles.storage, "none")))
        .orderBy(asc(storedFiles.createdAt))
    : [];
  return {
    id: student.id,
    firstName: student.firstName,
    lastName: student.lastName,
    email: student.email,
    emailVerified: student.emailVerifiedAt !== null,
    pendingEmail: student.pendingEmail,
    language: languageOf(student.language),
    applicationPhone: latest?.applicant.phone || null,
    createdAt: student.createdAt.toISOString(),
    erasureRequestedAt: request?.createdAt.toISOString() ?? null,
    files: fileRows.map((f) => ({
      id: f.id,
      kind: f.kind,
      uploadedAt: f.createdAt.toISOString(),
      downloadUrl: studentFileUrl(f.id),
    })),
  };
}

/**
 * Changes the account's name and e-mail language (PATCH /api/student/profile). The account's
 * version goes up, so an admin editing the same student meanwhile gets 409 instead of overwriting
 * it. Audit "student.profile.update" (before and after: names and language) for the back office.
 */
export async function updateProfile(
  db: Db,
  student: StudentRow,
  input: StudentProfileUpdate,
  at: Date,
): Promise<StudentProfile> {
  return db.transaction(async (tx) => {
    const [after] = (await tx
      .update(students)
      .set({ ...input, version: sql`${students.version} + 1`, updatedAt: at })
      .where(eq(students.id, student.id))
      .returning()) as [StudentRow];
    const fields = (s: StudentRow) => ({
      firstName: s.firstName,
      lastName: s.lastName,
      language: s.language,
    });
    await recordAudit(tx, {
      actor: { actorRole: "student", actorId: student.id },
      action: "student.profile.update",
      entityType: "student",
      entityId: student.id,
      before: fields(student),
      after: fields(after),
    });
    return profileOf(tx, after);
  });
}

/**
 * What the school holds per application besides the application itself (docs/product/privacy.md#data-export): the
 * emergency contact and insurance of the trip, the organisation's billing details, the invoices
 * and credit notes (with their download addresses), the visa letters and student passes issued,
 * and the waiting-list places that led to it; and the consents given (newsletter of the account's
 * address, "remind me" of each application, the waiting list's consent). Read by application id.
 */
async function heldFor(db: Db, student: StudentRow, applicationIds: string[]) {
  const any = applicationIds.length > 0;
  const trips = any
    ? await db.select().from(applicationTrips).where(inArray(applicationTrips.applicationId, applicationIds))
    : [];
  const billing = any
    ? await db.select().from(billingDetails).where(inArray(billingDetails.applicationId, applicationIds))
    : [];
  const documents = any
    ? await db
        .select()
        .from(invoices)
        .where(inArray(invoices.applicationId, applicationIds))
        .orderBy(asc(invoices.issuedAt))
    : [];
  const letters = any
    ? await db
        .select()
        .from(visaLetters)
        .where(inArray(visaLetters.applicationId, applicationIds))
        .orderBy(asc(visaLetters.issuedAt))
    : [];
  const passes = any
    ? await db
        .select()
        .from(studentPasses)
        .where(inArray(studentPasses.applicationId, applicationIds))
        .orderBy(asc(studentPasses.createdAt))
    : [];
  const waiting = any
    ? await db
        .select()
        .from(waitingListEntries)
        .where(inArray(waitingListEntries.applicationId, applicationIds))
    : [];
  const [newsletter] = await db
    .select()
    .from(newsletterSubscribers)
    .where(eq(newsletterSubscribers.email, student.email));
  return {
    of: (applicationId: string) => {
      const trip = trips.find((r) => r.applicationId === applicationId);
      const bill = billing.find((r) => r.applicationId === applicationId);
      return {
        emergencyContact: trip
          ? { name: trip.emergencyName, relationship: trip.emergencyRelationship, phone: trip.emergencyPhone }
          : null,
        insurance: trip?.insuranceUploadedAt
          ? { type: trip.insuranceType, uploadedAt: trip.insuranceUploadedAt.toISOString() }
          : null,
        billingDetails: bill
          ? {
              organisationName: bill.organisationName,
              address: bill.address,
              vatNumber: bill.vatNumber,
              updatedAt: bill.updatedAt.toISOString(),
            }
          : null,
        invoices: documents
          .filter((d) => d.applicationId === applicationId)
          .map((d) => ({
            id: d.id,
            number: d.number,
            kind: d.kind,
            totalCents: d.totalCents,
            issuedAt: d.issuedAt.toISOString(),
            downloadUrl: invoicePdfPath(d.id),
          })),
        visaLetters: letters
          .filter((l) => l.applicationId === applicationId)
          .map((l) => ({
            issuedAt: l.issuedAt.toISOString(),
            revokedAt: l.revokedAt?.toISOString() ?? null,
            revokedReason: l.revokedReason,
          })),
        studentPasses: passes
          .filter((p) => p.applicationId === applicationId)
          .map((p) => ({
            issuedAt: p.createdAt.toISOString(),
            revokedAt: p.revokedAt?.toISOString() ?? null,
          })),
      };
    },
    consents: (rows: Array<{ application: { id: string }; applicant: { remindMe: boolean } }>) => ({
      newsletter: newsletter
        ? {
            email: newsletter.email,
            status: newsletter.status,
            language: newsletter.language,
            confirmedAt: newsletter.confirmedAt?.toISOString() ?? null,
            unsubscribedAt: newsletter.unsubscribedAt?.toISOString() ?? null,
          }
        : null,
      applicationReminders: rows.map((r) => ({
        applicationId: r.application.id,
        remindMe: r.applicant.remindMe,
      })),
      waitingList: waiting.map((w) => ({
        applicationId: w.applicationId,
        status: w.status,
        consentedAt: w.consentedAt.toISOString(),
      })),
    }),
  };
}

/** A file of the export: what it is and where the student downloads it. */
interface ExportFile {
  id: string;
  applicationIds: string[];
  kind: string;
  sizeBytes: number;
  sha256: string;
  uploadedAt: string;
  downloadUrl: string;
}

/**
 * Everything the school holds on the student's account (GET /api/student/profile/export): the
 * account, each application with the applicant's details as given, the choices and amounts, its
 * payments and refunds, emergency contact, billing details, invoices and credit notes, visa letters
 * and student passes (`heldFor`), the consents, the uploaded files (metadata and an authenticated
 * download address each: the files themselves are separate downloads), and the e-mails written to
 * the account or about its applications (subject and date; by the outbox's `student_id` and
 * `application_id`, not by address, docs/product/privacy.md#data-export). Only what belongs to the account
 * (modules/student/ownership.ts): nothing of another person. Amounts in euro cents, times ISO 8601 UTC.
 */
export async function exportOf(db: Db, student: StudentRow, language: Language, at: Date) {
  const rows = await studentApplications(db, student);
  const applicationIds = rows.map((r) => r.application.id);
  const applicantIds = [...new Set(rows.map((r) => r.applicant.id))];
  const paymentRows = applicationIds.length
    ? await db
        .select()
        .from(payments)
        .where(inArray(payments.applicationId, applicationIds))
        .orderBy(asc(payments.paidAt))
    : [];
  const refundRows = applicationIds.length
    ? await db
        .select()
        .from(refunds)
        .where(inArray(refunds.applicationId, applicationIds))
        .orderBy(asc(refunds.createdAt))
    : [];
  const fileRows = applicantIds.length
    ? await db
        .select()
        .from(storedFiles)
        .where(and(inArray(storedFiles.applicantId, applicantIds), ne(storedFiles.storage, "none")))
        .orderBy(asc(storedFiles.createdAt))
    : [];
  const packageNames = new Map<string, string>();
  const housingNames = new Map<string, string>();
  for (const { application } of rows) {
    if (!packageNames.has(application.packageId)) {
      const [p] = await db.select().from(packages).where(eq(packages.id, application.packageId));
      packageNames.set(application.packageId, p ? localize(p.name, language) : "");
    }
    if (!housingNames.has(application.housingOptionId)) {
      const [h] = await db
        .select()
        .from(housingOptions)
        .where(eq(housingOptions.id, application.housingOptionId));
      housingNames.set(application.housingOptionId, h ? localize(h.name, language) : "");
    }
  }
  // By account and application, never by address: an address can pass to another person, whose
  // e-mails are not this student's (docs/product/privacy.md#data-export; the outbox stores both, `recipientFor`).
  const mails = await db
    .select({
      subject: emailOutbox.subject,
      to: emailOutbox.toAddress,
      applicationId: emailOutbox.applicationId,
      sentAt: emailOutbox.sentAt,
      createdAt: emailOutbox.createdAt,
    })
    .from(emailOutbox)
    .where(
      or(
        eq(emailOutbox.studentId, student.id),
        applicationIds.length ? inArray(emailOutbox.applicationId, applicationIds) : undefined,
      ),
    )
    .orderBy(desc(emailOutbox.createdAt))
    .limit(500);
  const held = await heldFor(db, student, applicationIds);
  const files: ExportFile[] = fileRows.map((f) => ({
    id: f.id,
    applicationIds: rows.filter((r) => r.applicant.id === f.applicantId).map((r) => r.application.id),
    kind: f.kind,
    sizeBytes: f.sizeBytes,
    sha256: f.sha256,
    uploadedAt: f.createdAt.toISOString(),
    downloadUrl: studentFileUrl(f.id),
  }));
  return {
    exportedAt: at.toISOString(),
    about:
      "Your data at The Hague Summer School: your account, your applications with the details you gave (with the emergency contact and the billing details), your payments, refunds, invoices and documents, your consents, your files (download each from its address while signed in) and the e-mails we sent you.",
    account: {
      id: student.id,
      email: student.email,
      pendingEmail: student.pendingEmail,
      emailVerifiedAt: student.emailVerifiedAt?.toISOString() ?? null,
      firstName: student.firstName,
      lastName: student.lastName,
      language: student.language,
      createdAt: student.createdAt.toISOString(),
    },
    applications: rows.map(({ application, applicant, school }) => {
      const {
        accessTokenHash: _hash,
        reminderOptOutHash: _optOut,
        resumeReminderSentAt: _reminded,
        passportFileId: _file,
        createdAt: applicantCreatedAt,
        updatedAt: _updated,
        ...details
      } = applicant;
      return {
        id: application.id,
        programme: localize(school.name, language),
        startDate: school.startDate,
        endDate: school.endDate,
        package: packageNames.get(application.packageId) ?? "",
        housing: housingNames.get(application.housingOptionId) ?? "",
        status: application.status,
        paymentStatus: application.paymentStatus,
        amounts: {
          currency: "EUR",
          originalCents: application.originalAmountCents,
          discountCents: application.discountAmountCents,
          totalCents: application.totalAmountCents,
          depositCents: application.depositAmountCents,
          paidCents: application.amountPaidCents,
        },
        submittedAt: application.submittedAt?.toISOString() ?? null,
        paidAt: application.paidAt?.toISOString() ?? null,
        createdAt: application.createdAt.toISOString(),
        completedAt: application.completedAt?.toISOString() ?? null,
        applicant: { ...details, createdAt: applicantCreatedAt.toISOString() },
        ...held.of(application.id),
        payments: paymentRows
          .filter((p) => p.applicationId === application.id)
          .map((p) => ({
            id: p.id,
            kind: p.kind,
            amountCents: p.amountCents,
            currency: p.currency,
            provider: p.provider,
            reference: p.providerReference,
            paidAt: p.paidAt.toISOString(),
          })),
        refunds: refundRows
          .filter((r) => r.applicationId === application.id)
          .map((r) => ({
            id: r.id,
            paymentId: r.paymentId,
            amountCents: r.amountCents,
            currency: r.currency,
            status: r.status,
            createdAt: r.createdAt.toISOString(),
            succeededAt: r.succeededAt?.toISOString() ?? null,
          })),
      };
    }),
    files,
    consents: held.consents(rows),
    emails: mails.map((m) => ({
      applicationId: m.applicationId,
      to: m.to,
      subject: m.subject,
      queuedAt: m.createdAt.toISOString(),
      sentAt: m.sentAt?.toISOString() ?? null,
    })),
  };
}

/**
 * The stored file `fileId` if it belongs to an applicant of one of the student's applications
 * and still has content; else 404 errors.notFound (someone else's file answers the same).
 */
export async function studentFile(db: Db, student: StudentRow, fileId: string) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(fileId)) {
    throw new HttpError(404, "errors.notFound");
  }
  const applicantIds = new Set((await studentApplications(db, student)).map((r) => r.applicant.id));
  const [file] = await db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
  if (!file || file.storage === "none" || !applicantIds.has(file.applicantId)) {
    throw new HttpError(404, "errors.notFound");
  }
  return file;
}

/**
 * Records the student's request to erase their data (POST /api/student/profile/erasure): one open
 * request per account (409 errors.erasureAlreadyRequested for a second). Audit
 * "student.erasure_request" so the back office sees who asked and when. Nothing is erased yet:
 * an admin does it (GDPR 17 leaves a month; financial records are kept 7 years).
 */
export async function requestErasure(db: Db, student: StudentRow, message: string, at: Date) {
  return db.transaction(async (tx) => {
    if (await openRequest(tx, student.id)) throw new HttpError(409, "errors.erasureAlreadyRequested");
    const [row] = await tx
      .insert(erasureRequests)
      .values({ studentId: student.id, message, createdAt: at })
      .onConflictDoNothing()
      .returning();
    if (!row) throw new HttpError(409, "errors.erasureAlreadyRequested");
    await recordAudit(tx, {
      actor: { actorRole: "student", actorId: student.id },
      action: "student.erasure_request",
      entityType: "student",
      entityId: student.id,
      after: { requestId: row.id },
    });
    return { requestedAt: row.createdAt.toISOString() };
  });
}

/** An erasure request as the back office lists it, with the student's applicants and their state. */
async function adminRequestDto(
  tx: Db | Tx,
  row: typeof erasureRequests.$inferSelect,
): Promise<AdminErasureRequest> {
  const [student] = await tx.select().from(students).where(eq(students.id, row.studentId));
  const owned = student ? await studentApplications(tx, student, { includeErased: true }) : [];
  const seen = new Map<string, { id: string; erased: boolean; applicationIds: string[] }>();
  for (const { applicant, application } of owned) {
    const entry = seen.get(applicant.id) ?? {
      id: applicant.id,
      erased: applicant.email === erasedEmail(applicant.id),
      applicationIds: [],
    };
    entry.applicationIds.push(application.id);
    seen.set(applicant.id, entry);
  }
  return {
    id: row.id,
    status: row.status,
    message: row.message,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt?.toISOString() ?? null,
    student: {
      id: row.studentId,
      email: student?.email ?? "",
      firstName: student?.firstName ?? "",
      lastName: student?.lastName ?? "",
    },
    applicants: [...seen.values()],
  };
}

/** The erasure requests of `status` (open by default), oldest first (GET /api/admin/erasure-requests). */
export async function listErasureRequests(db: Db, status: "open" | "completed" | "all") {
  const rows = await db
    .select()
    .from(erasureRequests)
    .where(status === "all" ? undefined : eq(erasureRequests.status, status))
    .orderBy(asc(erasureRequests.createdAt))
    .limit(500);
  const items: AdminErasureRequest[] = [];
  for (const row of rows) items.push(await adminRequestDto(db, row));
  return { items };
}

/**
 * Completes an erasure request (POST /api/admin/erasure-requests/:id/complete, privacy:write): the
 * applicants of the student's applications must have been erased first with the existing applicant
 * erasure (409 errors.erasureApplicantsNotErased otherwise); then the account itself is erased in
 * one transaction: name and addresses replaced, password removed, account disabled, its sessions
 * and one-time links deleted, unsent e-mails to it dropped. Applications, payments and invoices
 * stay (financial records are kept 7 years), pseudonymised. Audit "student.erase". 404 unknown
 * request; 409 errors.erasureAlreadyCompleted.
 */
export async function completeErasure(db: Db, admin: AdminUser, requestId: string, at: Date) {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(requestId)) {
    throw new HttpError(404, "errors.notFound");
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(erasureRequests)
      .where(eq(erasureRequests.id, requestId))
      .for("update");
    if (!row) throw new HttpError(404, "errors.notFound");
    if (row.status === "completed") throw new HttpError(409, "errors.erasureAlreadyCompleted");
    const dto = await adminRequestDto(tx, row);
    if (dto.applicants.some((a) => !a.erased)) throw new HttpError(409, "errors.erasureApplicantsNotErased");
    const [student] = await tx.select().from(students).where(eq(students.id, row.studentId)).for("update");
    if (student) {
      await tx.delete(emailOutbox).where(
        and(
          or(
            eq(emailOutbox.studentId, student.id),
            inArray(
              sql`lower(${emailOutbox.toAddress})`,
              [student.email, student.pendingEmail].filter((e): e is string => Boolean(e)),
            ),
          ),
          ne(emailOutbox.status, "sent"),
        ),
      );
      await tx
        .update(students)
        .set({
          email: erasedStudentEmail(student.id),
          pendingEmail: null,
          firstName: "Erased",
          lastName: "Erased",
          passwordHash: null,
          disabledAt: student.disabledAt ?? at,
          version: student.version + 1,
          updatedAt: at,
        })
        .where(eq(students.id, student.id));
      await tx.delete(sessions).where(and(eq(sessions.role, "student"), eq(sessions.accountId, student.id)));
      await tx
        .delete(accountTokens)
        .where(and(eq(accountTokens.role, "student"), eq(accountTokens.accountId, student.id)));
    }
    await tx
      .update(erasureRequests)
      .set({ status: "completed", completedAt: at, completedByAdminId: admin.id, message: "" })
      .where(and(eq(erasureRequests.id, row.id), isNull(erasureRequests.completedAt)));
    await recordAudit(tx, {
      actor: admin,
      action: "student.erase",
      entityType: "student",
      entityId: row.studentId,
      before: { erased: false },
      after: { erased: true, requestId: row.id, applicants: dto.applicants.length },
    });
    return adminRequestDto(tx, { ...row, status: "completed", completedAt: at, message: "" });
  });
}
