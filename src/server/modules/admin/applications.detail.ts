import { and, asc, desc, eq, inArray, ne, or, sql } from "drizzle-orm";
import {
  type AdminApplicantApplication,
  type AdminApplicantDto,
  type AdminApplicationDetail,
  STATUS_TRANSITIONS,
} from "../../../shared/admin";
import type { Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import type { Tx } from "../../db/client";
import {
  addOnOptions,
  applicants,
  applications,
  codes,
  housingOptions,
  packages,
  payments,
  summerSchools,
} from "../../db/schema";
import { adminNotFound, HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { type ApplicantRow, type ApplicationRow, applicationDto } from "../applications";
import { refundedCentsOfOne, refundedCentsSql } from "../balances";
import { balanceOfRow, isMissingCriticalData } from "./applications.list";

/** URL of an applicant's passport in the back office. */
export const adminPassportUrl = (applicantId: string) => `/api/admin/applicants/${applicantId}/passport`;

/** Every applicant field an admin sees (never the capability hash nor the storage id). */
export function applicantDtoOf(a: ApplicantRow): AdminApplicantDto {
  return {
    id: a.id,
    firstName: a.firstName,
    lastName: a.lastName,
    email: a.email,
    phone: a.phone,
    address: a.address,
    city: a.city,
    postalCode: a.postalCode,
    countryOfResidence: a.countryOfResidence,
    nationality: a.nationality,
    dateOfBirth: a.dateOfBirth,
    passportNumber: a.passportNumber,
    university: a.university,
    fieldOfStudy: a.fieldOfStudy,
    studentStatus: a.studentStatus,
    expectations: a.expectations,
    referralSource: a.referralSource,
    otherReferralDetail: a.otherReferralDetail,
    language: a.language,
    hasPassport: Boolean(a.passportFileId),
    passportUrl: a.passportFileId ? adminPassportUrl(a.id) : null,
    missingCriticalData: isMissingCriticalData(a),
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
  };
}

/** Reads an applicant by id; 404 `{ error, message }` when unknown. */
export async function findApplicant(tx: Tx, id: string): Promise<ApplicantRow> {
  const [row] = await tx.select().from(applicants).where(eq(applicants.id, id));
  if (!row) throw adminNotFound();
  return row;
}

/**
 * The programme part of the detail. Normally the owner's ApplicationDto (same quote logic as the
 * payment step); when the programme's catalogue rows were archived since (the quote can no longer
 * be computed: 422 from loadPricedRows), the stored names and amounts with `quote: null`.
 */
async function programmeOf(
  tx: Tx,
  application: ApplicationRow,
  applicant: ApplicantRow,
  language: Language,
  today: string,
) {
  try {
    const dto = await applicationDto(tx, application, applicant, language, today);
    return {
      summerSchool: dto.summerSchool,
      package: dto.package,
      housing: dto.housing,
      addOns: dto.addOns,
      quote: dto.quote,
    };
  } catch (err) {
    if (!(err instanceof HttpError) || err.status !== 422) throw err;
  }
  const [school] = await tx
    .select()
    .from(summerSchools)
    .where(eq(summerSchools.id, application.summerSchoolId));
  const [pkg] = await tx.select().from(packages).where(eq(packages.id, application.packageId));
  const [housing] = await tx
    .select()
    .from(housingOptions)
    .where(eq(housingOptions.id, application.housingOptionId));
  const addOns = application.addOnIds.length
    ? await tx.select().from(addOnOptions).where(inArray(addOnOptions.id, application.addOnIds))
    : [];
  return {
    summerSchool: {
      id: school!.id,
      name: localize(school!.name, language),
      startDate: school!.startDate,
      endDate: school!.endDate,
    },
    package: { id: pkg!.id, name: localize(pkg!.name, language) },
    housing: {
      id: housing!.id,
      name: localize(housing!.name, language),
      priceAdjustment: housing!.priceAdjustmentCents,
    },
    addOns: addOns.map((a) => ({
      id: a.id,
      name: localize(a.name, language),
      price: a.priceCents,
      included: false,
    })),
    quote: null,
  };
}

/** Reads an application by id (optionally locked for update); 404 `{ error, message }` when unknown. */
export async function findApplication(tx: Tx, id: string, lock = false): Promise<ApplicationRow> {
  const base = tx.select().from(applications).where(eq(applications.id, id));
  const [row] = lock ? await base.for("update") : await base;
  if (!row) throw adminNotFound();
  return row;
}

/**
 * `GET /api/admin/applications/:id`: the application with every applicant field, the programme
 * and quote (ApplicationDto's, reused), payments, the applied code, the workflow's allowed next
 * statuses, and the same person's other applications (same applicant, or same e-mail address in
 * any case).
 */
export async function applicationDetail(
  tx: Tx,
  application: ApplicationRow,
  language: Language,
  /** yyyy-mm-dd in The Hague (the automatic discount of an unpaid application's quote). */
  today: string,
): Promise<AdminApplicationDetail> {
  const applicant = await findApplicant(tx, application.applicantId);
  const programme = await programmeOf(tx, application, applicant, language, today);
  const paymentRows = await tx
    .select()
    .from(payments)
    .where(eq(payments.applicationId, application.id))
    .orderBy(asc(payments.paidAt));
  const [code] = application.appliedCodeId
    ? await tx.select({ code: codes.code }).from(codes).where(eq(codes.id, application.appliedCodeId))
    : [];
  const others = await tx
    .select({
      id: applications.id,
      schoolName: summerSchools.name,
      status: applications.status,
      paymentStatus: applications.paymentStatus,
      totalAmount: applications.totalAmountCents,
      amountPaid: applications.amountPaidCents,
      refunded: refundedCentsSql,
      startDate: summerSchools.startDate,
    })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(
      and(
        ne(applications.id, application.id),
        or(
          eq(applications.applicantId, applicant.id),
          sql`lower(${applicants.email}) = lower(${applicant.email})`,
        ),
      ),
    )
    .orderBy(desc(applications.createdAt));
  const balance = balanceOfRow(
    {
      status: application.status,
      paymentStatus: application.paymentStatus,
      totalAmount: application.totalAmountCents,
      amountPaid: application.amountPaidCents,
      refunded: await refundedCentsOfOne(tx, application.id),
      startDate: programme.summerSchool.startDate,
    },
    today,
  );
  return {
    id: application.id,
    version: application.version,
    status: application.status,
    paymentStatus: balance.state,
    balanceDue: balance.balanceDue,
    dueDate: balance.dueDate,
    allowedTransitions: [...STATUS_TRANSITIONS[application.status]],
    flag: application.flag,
    createdAt: application.createdAt.toISOString(),
    submittedAt: application.submittedAt?.toISOString() ?? null,
    paidAt: application.paidAt?.toISOString() ?? null,
    missingCriticalData: isMissingCriticalData(applicant),
    applicant: applicantDtoOf(applicant),
    ...programme,
    totalAmount: application.totalAmountCents,
    amountPaid: balance.paidNet,
    refunded: balance.refunded,
    code: code?.code ?? null,
    payments: paymentRows.map((p) => ({
      id: p.id,
      flag: p.flag,
      amount: p.amountCents,
      currency: p.currency,
      provider: p.provider,
      reference: p.providerReference,
      paidAt: p.paidAt.toISOString(),
    })),
    otherApplications: others.map((o) => ({
      id: o.id,
      programName: localize(o.schoolName, language),
      status: o.status,
      paymentStatus: balanceOfRow(o, today).state,
    })),
  };
}

/** `GET /api/admin/applicants/:id/applications`: the applicant's applications, newest first. */
export async function applicantApplications(
  tx: Tx,
  applicantId: string,
  language: Language,
  today: string = schoolDate(new Date()),
): Promise<AdminApplicantApplication[]> {
  await findApplicant(tx, applicantId);
  const rows = await tx
    .select({ application: applications, school: summerSchools, refunded: refundedCentsSql })
    .from(applications)
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(applications.applicantId, applicantId))
    .orderBy(desc(applications.createdAt), asc(applications.id));
  return rows.map(({ application: a, school, refunded }) => {
    const balance = balanceOfRow(
      {
        status: a.status,
        paymentStatus: a.paymentStatus,
        totalAmount: a.totalAmountCents,
        amountPaid: a.amountPaidCents,
        refunded,
        startDate: school.startDate,
      },
      today,
    );
    return {
      id: a.id,
      programName: localize(school.name, language),
      startDate: school.startDate,
      endDate: school.endDate,
      status: a.status,
      paymentStatus: balance.state,
      totalAmount: a.totalAmountCents,
      amountPaid: balance.paidNet,
      createdAt: a.createdAt.toISOString(),
    };
  });
}
