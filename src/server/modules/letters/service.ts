import { randomBytes } from "node:crypto";
import { and, eq, inArray, isNull } from "drizzle-orm";
import { balanceOf } from "../../../shared/balance";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import {
  CLOSED_STATUSES,
  completionEligible,
  formatDateFor,
  initialsOf,
  PROGRAMME_ECTS,
  type VisaLetterFacts,
  visaLetterBlock,
  visaLetterRevocation,
  visaWindow,
} from "../../../shared/letters";
import { formatMoney } from "../../../shared/money";
import type {
  ApplicationDocuments,
  CohortCompletionResult,
  CompletionChange,
  VisaLetterVerification,
} from "../../../shared/schemas/letters";
import type { Db, Tx } from "../../db/client";
import {
  addOnOptions,
  applicants,
  applications,
  housingOptions,
  packages,
  summerSchools,
  visaLetters,
} from "../../db/schema";
import type { Env } from "../../env";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { assertVersion, HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { documentFonts } from "../../lib/pdf-fonts";
import { erasedEmail } from "../applications";
import { refundedCentsOf, refundedCentsSql } from "../balances";
import {
  addressedTo,
  type MailService,
  paragraphs,
  type RenderedEmail,
  recipientFor,
  renderEmail,
} from "../mail";
import {
  type CertificateContent,
  type Issuer,
  renderCertificate,
  renderVisaLetter,
  verificationQrPng,
} from "./pdf";
import { revokeVisaLetters } from "./revoke";

/**
 * The letters module (docs/product/admissions.md#documents-and-letters, second and third bullets; decision 018): the visa
 * invitation letter and its public verification, the certificate of completion, and the admin's
 * completion marks. Routes ask these functions; none repeats a rule of src/shared/letters.ts.
 */

type ApplicationRow = typeof applications.$inferSelect;
type ApplicantRow = typeof applicants.$inferSelect;
type SchoolRow = typeof summerSchools.$inferSelect;
type LetterRow = typeof visaLetters.$inferSelect;

/** One application with its applicant and cohort. */
export interface LetterRows {
  application: ApplicationRow;
  applicant: ApplicantRow;
  school: SchoolRow;
  /** Succeeded refunds of its accepted payments, cents (balances/rule.ts `refundedCentsSql`). */
  refundedCents: number;
}

/** The application `id` with its applicant and cohort (row-locked with `lock`), or 404 `errors.notFound`. */
export async function letterRows(tx: Db | Tx, id: string, lock = false): Promise<LetterRows> {
  const query = tx
    .select({
      application: applications,
      applicant: applicants,
      school: summerSchools,
      refundedCents: refundedCentsSql,
    })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(applications.id, id));
  const [row] = lock ? await query.for("update", { of: applications }) : await query;
  if (!row) throw new HttpError(404, "errors.notFound");
  return row;
}

/** Whether the applicant's personal data was erased (admin/privacy.ts). */
const isErased = (applicant: ApplicantRow) => applicant.email === erasedEmail(applicant.id);

/** The facts the shared rules need (src/shared/letters.ts). */
export function factsOf(rows: LetterRows): VisaLetterFacts {
  return {
    status: rows.application.status,
    paymentStatus: rows.application.paymentStatus,
    totalAmountCents: rows.application.totalAmountCents,
    amountPaidCents: rows.application.amountPaidCents,
    refundedCents: rows.refundedCents,
    startDate: rows.school.startDate,
    requiresAcceptance: rows.school.visaLetterRequiresAcceptance,
    erased: isErased(rows.applicant),
  };
}

/** The live (not revoked) letter of an application, if one was issued. */
async function liveLetter(tx: Db | Tx, applicationId: string): Promise<LetterRow | undefined> {
  const [row] = await tx
    .select()
    .from(visaLetters)
    .where(and(eq(visaLetters.applicationId, applicationId), isNull(visaLetters.revokedAt)));
  return row;
}

/** Whether the certificate of completion exists: marked completed, not closed, not erased. */
function certificateAvailable(rows: LetterRows): boolean {
  return (
    rows.application.completedAt !== null &&
    !CLOSED_STATUSES.has(rows.application.status) &&
    !isErased(rows.applicant)
  );
}

/**
 * What the document cards show of one application (`ApplicationDocuments`): the visa letter's
 * availability and why not, the visa window (8 to 6 weeks before the start, docs/product/admissions.md#visa-deadline), and the
 * certificate's. `today` is `schoolDate(now)`.
 */
export async function documentsOf(
  tx: Db | Tx,
  rows: LetterRows,
  today: string,
  language: Language,
): Promise<ApplicationDocuments> {
  const facts = factsOf(rows);
  const blockedBy = visaLetterBlock(facts, today);
  const letter = await liveLetter(tx, rows.application.id);
  return {
    applicationId: rows.application.id,
    programme: {
      name: localize(rows.school.name, language),
      startDate: rows.school.startDate,
      endDate: rows.school.endDate,
    },
    visaLetter: {
      available: blockedBy === null,
      blockedBy,
      requiresAcceptance: rows.school.visaLetterRequiresAcceptance,
      issuedAt: letter && blockedBy === null ? letter.issuedAt.toISOString() : null,
    },
    visaWindow: visaWindow(rows.school.startDate, today),
    certificate: {
      available: certificateAvailable(rows),
      completedAt: rows.application.completedAt?.toISOString() ?? null,
      ects: PROGRAMME_ECTS,
    },
    version: rows.application.version,
    completionEligible: completionEligible(facts, today),
  };
}

/** The issuer block of the documents, from configuration. */
export function issuerOf(env: Env): Issuer {
  return {
    legalName: env.SCHOOL_LEGAL_NAME,
    address: env.SCHOOL_ADDRESS,
    email: env.SUPPORT_EMAIL,
    website: env.APP_ORIGIN.replace(/^https?:\/\//, ""),
    signatoryName: env.VISA_SIGNATORY_NAME,
    signatoryTitle: env.VISA_SIGNATORY_TITLE,
  };
}

/** The public address that verifies a letter (the QR code's content). */
export const verificationUrl = (origin: string, token: string) => `${origin}/verify/visa-letter/${token}`;

/**
 * The live letter of an application, issued now if there is none (one live letter per application:
 * a partial unique index; two requests at once end with the same row).
 */
async function issueLetter(tx: Tx, applicationId: string, at: Date): Promise<LetterRow> {
  const existing = await liveLetter(tx, applicationId);
  if (existing) return existing;
  await tx
    .insert(visaLetters)
    .values({ applicationId, token: randomBytes(32).toString("base64url"), issuedAt: at })
    .onConflictDoNothing();
  const created = await liveLetter(tx, applicationId);
  if (!created) throw new Error("visa letter not issued");
  return created;
}

const EN_REGIONS = new Intl.DisplayNames(["en"], { type: "region" });
const en = (iso: string) => formatDateFor(iso, "en");
const daysOf = (start: string, end: string) =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/**
 * `GET …/visa-letter.pdf`: the visa invitation letter of an application as PDF bytes (docs/product/admissions.md#visa-letter),
 * issuing its letter record (verification token) on the first request. 409 with
 * `errors.letters.<reason>` when it is not available (`visaLetterBlock`). The content: name,
 * passport number, nationality (country name), date of birth, programme dates and location,
 * housing and the address of stay (`PROGRAMME_ADDRESS`, docs/product/admissions.md#documents-and-letters), the fee stored with the
 * application and what it includes, what was paid and what is still due, the signatory, and the QR
 * code of the verification address.
 */
export async function visaLetterPdf(
  db: Db,
  env: Env,
  applicationId: string,
  now: Date,
  today: string,
): Promise<Buffer> {
  const content = await db.transaction(async (tx) => {
    const rows = await letterRows(tx, applicationId, true);
    const blockedBy = visaLetterBlock(factsOf(rows), today);
    if (blockedBy) throw new HttpError(409, `errors.letters.${blockedBy}`, { reason: blockedBy });
    const letter = await issueLetter(tx, applicationId, now);
    const { application, applicant, school } = rows;
    const [pkg] = await tx.select().from(packages).where(eq(packages.id, application.packageId));
    const [housing] = await tx
      .select()
      .from(housingOptions)
      .where(eq(housingOptions.id, application.housingOptionId));
    const chosen = new Set([...(pkg?.includedAddOnIds ?? []), ...application.addOnIds]);
    const addOns = chosen.size
      ? await tx
          .select()
          .from(addOnOptions)
          .where(inArray(addOnOptions.id, [...chosen]))
      : [];
    const housingName = housing ? localize(housing.name, "en") : "";
    const balance = balanceOf(factsOf(rows), today);
    const total = application.totalAmountCents ?? application.amountPaidCents;
    return {
      letter,
      rows,
      body: {
        fullName: `${applicant.firstName} ${applicant.lastName}`,
        passportNumber: applicant.passportNumber,
        nationality: EN_REGIONS.of(applicant.nationality) ?? applicant.nationality,
        dateOfBirth: en(applicant.dateOfBirth),
        programmeName: localize(school.name, "en"),
        startDate: en(school.startDate),
        endDate: en(school.endDate),
        days: daysOf(school.startDate, school.endDate),
        location: school.location,
        accepted: application.status === "accepted",
        housing: `${housingName}, arranged by the school for the dates of the programme`,
        included: [
          ...(pkg?.includes?.length
            ? pkg.includes.map((item) => localize(item, "en"))
            : ["Tuition: the full programme of classes, company and cultural visits"]),
          `Housing: ${housingName}`,
          ...addOns.map((a) => localize(a.name, "en")),
        ].filter((item, i, all) => item.trim() !== "" && all.indexOf(item) === i),
        totalFee: formatMoney(total, "en"),
        paid: formatMoney(balance.paidNet, "en"),
        balance:
          balance.balanceDue > 0 && balance.dueDate
            ? { amount: formatMoney(balance.balanceDue, "en"), dueOn: en(balance.dueDate) }
            : null,
      },
    };
  });
  const url = verificationUrl(env.APP_ORIGIN, content.letter.token);
  return renderVisaLetter(
    {
      issuer: issuerOf(env),
      issuedOn: en(today),
      reference: `VL-${content.rows.application.id.slice(0, 8).toUpperCase()}`,
      ...content.body,
      // Housing options have no address: the students stay at the programme's address.
      stayAddress: env.PROGRAMME_ADDRESS,
      verificationUrl: url,
      qrPng: await verificationQrPng(url),
    },
    documentFonts(env.DOCUMENT_FONT),
  );
}

/**
 * `GET /api/visa-letters/:token` (public): the check of a letter (docs/product/admissions.md#visa-letter). `unknown` for a token
 * no letter has; `revoked` when its revocation was recorded or the application's live state
 * revokes it (withdrawn, cancelled, rejected, fully refunded, erased: recorded now, so it stays
 * revoked); else `genuine`. Shows initials (none once erased), programme dates and days of issue
 * and revocation: nothing else.
 */
export async function verifyVisaLetter(db: Db, token: string, now: Date, today: (at: Date) => string) {
  return db.transaction(async (tx): Promise<VisaLetterVerification> => {
    const [letter] = await tx.select().from(visaLetters).where(eq(visaLetters.token, token));
    if (!letter) return { state: "unknown" };
    const rows = await letterRows(tx, letter.applicationId);
    let revokedAt = letter.revokedAt;
    if (!revokedAt) {
      const reason = visaLetterRevocation(factsOf(rows));
      if (reason) {
        await revokeVisaLetters(tx, letter.applicationId, reason, now);
        revokedAt = now;
      }
    }
    const erased = isErased(rows.applicant);
    return {
      state: revokedAt ? "revoked" : "genuine",
      initials: erased ? "" : initialsOf(rows.applicant.firstName, rows.applicant.lastName),
      startDate: rows.school.startDate,
      endDate: rows.school.endDate,
      issuedOn: today(letter.issuedAt),
      revokedOn: revokedAt ? today(revokedAt) : null,
    };
  });
}

/**
 * `GET …/certificate.pdf`: the certificate of completion (docs/product/catalogue-and-pricing.md#programme). 409
 * `errors.letters.notCompleted` until an admin marked the programme completed (or once the
 * application is closed or erased).
 */
export async function certificatePdf(db: Db, env: Env, applicationId: string, today: (at: Date) => string) {
  const rows = await letterRows(db, applicationId);
  if (!certificateAvailable(rows)) throw new HttpError(409, "errors.letters.notCompleted");
  const { application, applicant, school } = rows;
  const content: CertificateContent = {
    issuer: issuerOf(env),
    fullName: `${applicant.firstName} ${applicant.lastName}`,
    programmeName: localize(school.name, "en"),
    location: school.location,
    startDate: en(school.startDate),
    endDate: en(school.endDate),
    ects: PROGRAMME_ECTS,
    completedOn: en(today(application.completedAt!)),
    reference: `CC-${application.id.slice(0, 8).toUpperCase()}`,
  };
  return renderCertificate(content, documentFonts(env.DOCUMENT_FONT));
}

/**
 * `POST /api/admin/applications/:id/completion` `{ completed, version }`: marks (or unmarks) the
 * programme of one application completed (docs/product/admissions.md#certificate). Row-locked; 409 `errors.staleVersion` with
 * the current documents when `version` is not the application's; 422
 * `errors.letters.notAccepted` to mark an application that is not accepted, 422
 * `errors.letters.notEnded` before the programme's last day (docs/product/admissions.md#certificate). Bumps the version and
 * writes audit "application.completion" (before → after). Returns the new documents view.
 */
export async function setCompletion(
  db: Db,
  admin: AdminUser,
  id: string,
  input: CompletionChange,
  now: Date,
  today: string,
  language: Language,
): Promise<ApplicationDocuments> {
  return db.transaction(async (tx) => {
    const rows = await letterRows(tx, id, true);
    const { application } = rows;
    await assertVersion(application.version, input.version, "errors.staleVersion", () =>
      documentsOf(tx, rows, today, language),
    );
    if (input.completed && application.status !== "accepted")
      throw new HttpError(422, "errors.letters.notAccepted");
    // A certificate says the programme was completed: not before its last day (docs/product/admissions.md#certificate).
    if (input.completed && !application.completedAt && today < rows.school.endDate)
      throw new HttpError(422, "errors.letters.notEnded");
    const completedAt = input.completed ? (application.completedAt ?? now) : null;
    const version = application.version + 1;
    const [updated] = await tx
      .update(applications)
      .set({ completedAt, version, updatedAt: now })
      .where(eq(applications.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "application.completion",
      entityType: "application",
      entityId: id,
      before: { completedAt: application.completedAt?.toISOString() ?? null, version: application.version },
      after: { completedAt: completedAt?.toISOString() ?? null, version },
    });
    return documentsOf(tx, { ...rows, application: updated! }, today, language);
  });
}

/**
 * `POST /api/admin/summer-schools/:id/complete-cohort` `{ version }`: marks completed every
 * application of the cohort that is accepted and paid in full (`completionEligible`) and not
 * marked yet; leaves the others alone (docs/product/admissions.md#certificate). 404 unknown school, 409 `errors.staleVersion`
 * when the school changed since the admin saw it, 422 `errors.letters.notEnded` before the
 * programme's last day in The Hague (docs/product/admissions.md#certificate). One audit entry per application marked
 * ("application.completion", `cohort: true`) and one for the cohort ("summerSchool.completeCohort").
 */
export async function completeCohort(
  db: Db,
  admin: AdminUser,
  schoolId: string,
  schoolVersion: number,
  now: Date,
  today: string,
): Promise<CohortCompletionResult> {
  return db.transaction(async (tx) => {
    const [school] = await tx
      .select()
      .from(summerSchools)
      .where(eq(summerSchools.id, schoolId))
      .for("update");
    if (!school) throw new HttpError(404, "errors.notFound");
    await assertVersion(school.version, schoolVersion, "errors.staleVersion", () => ({
      version: school.version,
    }));
    if (today < school.endDate) throw new HttpError(422, "errors.letters.notEnded");
    const rows = await tx
      .select()
      .from(applications)
      .where(eq(applications.summerSchoolId, schoolId))
      .for("update");
    const refunded = await refundedCentsOf(
      tx,
      rows.map((a) => a.id),
    );
    const result: CohortCompletionResult = { marked: 0, alreadyCompleted: 0, notEligible: 0 };
    for (const application of rows) {
      const eligible = completionEligible(
        {
          status: application.status,
          paymentStatus: application.paymentStatus,
          totalAmountCents: application.totalAmountCents,
          amountPaidCents: application.amountPaidCents,
          refundedCents: refunded.get(application.id) ?? 0,
          startDate: school.startDate,
        },
        today,
      );
      if (!eligible) {
        result.notEligible += 1;
        continue;
      }
      if (application.completedAt) {
        result.alreadyCompleted += 1;
        continue;
      }
      const version = application.version + 1;
      await tx
        .update(applications)
        .set({ completedAt: now, version, updatedAt: now })
        .where(eq(applications.id, application.id));
      await recordAudit(tx, {
        actor: admin,
        action: "application.completion",
        entityType: "application",
        entityId: application.id,
        before: { completedAt: null, version: application.version },
        after: { completedAt: now.toISOString(), version, cohort: true },
      });
      result.marked += 1;
    }
    await recordAudit(tx, {
      actor: admin,
      action: "summerSchool.completeCohort",
      entityType: "summer_school",
      entityId: schoolId,
      after: { ...result },
    });
    return result;
  });
}

/**
 * Queues the "visa invitation letter ready" e-mail of an application in the caller's transaction
 * (docs/product/portals.md#who-an-email-is-written-to): once per application (dedupe key `visa-letter-ready:<applicationId>`),
 * only when the letter is available now (`visaLetterBlock` null: deposit paid, and accepted where
 * the school asks for it), in the applicant's language, with the visa window's dates written for
 * people and a link to the student portal (the letter is never attached). Call it after the change
 * that may make the letter available: PaymentsService.markPaid, and an acceptance.
 */
export async function queueVisaLetterReady(
  tx: Tx,
  mail: MailService,
  env: Pick<Env, "APP_ORIGIN" | "SUPPORT_EMAIL">,
  applicationId: string,
  today: string,
): Promise<boolean> {
  const rows = await letterRows(tx, applicationId);
  if (visaLetterBlock(factsOf(rows), today) !== null) return false;
  // The student's current address and e-mail language (docs/product/portals.md#who-an-email-is-written-to); none when erased.
  const recipient = await recipientFor(tx, { applicationId });
  if (!recipient) return false;
  const language: Language = recipient.language;
  await mail.enqueue(tx, {
    dedupeKey: `visa-letter-ready:${applicationId}`,
    ...addressedTo(recipient),
    ...visaLetterReadyEmail({
      language,
      firstName: rows.applicant.firstName,
      programme: localize(rows.school.name, language),
      startDate: rows.school.startDate,
      link: pageUrl(env.APP_ORIGIN, language, "/student/trip"),
      supportEmail: env.SUPPORT_EMAIL,
    }),
  });
  return true;
}

/** The "visa invitation letter ready" e-mail (keys `emails.visaLetterReady.*` of common.json). */
export function visaLetterReadyEmail(input: {
  language: Language;
  firstName: string;
  programme: string;
  startDate: string;
  link: string;
  supportEmail: string;
}): RenderedEmail {
  const { language } = input;
  const window = visaWindow(input.startDate, input.startDate);
  const vars = {
    name: input.firstName,
    program: input.programme,
    start: formatDateFor(input.startDate, language),
    opens: formatDateFor(window.opens, language),
    closes: formatDateFor(window.closes, language),
    email: input.supportEmail,
  };
  const k = (key: string) => t(language, `emails.visaLetterReady.${key}`, vars);
  const subject = k("subject");
  const texts = [k("intro"), k("window"), k("note")];
  const action = k("action");
  const brand = t(language, "brand.name");
  return renderEmail(language, subject, [
    ...paragraphs([k("greeting"), ...texts]),
    { kind: "action", label: action, url: input.link },
    { kind: "paragraph", text: brand },
  ]);
}
