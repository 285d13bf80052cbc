import { and, asc, desc, eq, gte, ilike, inArray, lt, ne, or, type SQL, sql } from "drizzle-orm";
import {
  type AdminApplicantApplication,
  type AdminApplicantDto,
  type AdminApplicationDetail,
  type AdminApplicationList,
  type AdminApplicationListItem,
  type AdminDashboard,
  type AdminNoteDto,
  canTransition,
  STATUS_TRANSITIONS,
} from "../../../shared/admin";
import { balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import { labelled } from "../../../shared/i18n/punctuation";
import { can } from "../../../shared/permissions";
import {
  APPLICATION_STATUSES,
  type ApplicationFilters,
  type ApplicationListQuery,
  type ApplicationSortKey,
  type StatusChangeInput,
} from "../../../shared/schemas/admin";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import {
  addOnOptions,
  admins,
  applicantNotes,
  applicants,
  applications,
  auditLog,
  codes,
  housingOptions,
  packages,
  payments,
  summerSchools,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion, HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { type ApplicantRow, type ApplicationRow, applicationDto } from "../applications";
import {
  PLACE_TAKING_STATUSES,
  paymentStateIs,
  refundedCentsOfOne,
  refundedCentsSql,
  takesPlaceSql,
} from "../balances";
import { queueVisaLetterReady, revokeVisaLetters } from "../letters";
import { addressedTo, type MailService, paragraphs, recipientFor, renderEmail } from "../mail";
import { readAudit } from "./audit";

/** See docs/product/back-office.md#admin-roles: a missing (empty) first or last name is missing critical data. */
export const isMissingCriticalData = (a: { firstName: string; lastName: string }) =>
  a.firstName.trim() === "" || a.lastName.trim() === "";

/** Workflow order for the status sort. */
const statusOrder = sql`array_position(array[${sql.join(
  APPLICATION_STATUSES.map((s) => sql`${s}`),
  sql`, `,
)}]::text[], ${applications.status})`;

const SORT_EXPRESSIONS: Record<ApplicationSortKey, SQL> = {
  createdAt: sql`${applications.createdAt}`,
  submittedAt: sql`${applications.submittedAt}`,
  lastName: sql`lower(${applicants.lastName})`,
  totalAmount: sql`${applications.totalAmountCents}`,
  status: statusOrder,
};

/**
 * The WHERE clause of the list filters (contract: status, paymentStatus, schoolId, code,
 * affiliateId, from, to, q). `paymentStatus` is the state `balanceOf` gives on `today` (yyyy-mm-dd,
 * The Hague), in SQL that follows it exactly (balances/rule.ts); the query joins the school.
 */
function filterConditions(filters: ApplicationFilters, today: string): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(applications.status, filters.status));
  if (filters.paymentStatus) conditions.push(paymentStateIs(filters.paymentStatus, today));
  if (filters.schoolId) conditions.push(eq(applications.summerSchoolId, filters.schoolId));
  if (filters.affiliateId) conditions.push(eq(applications.affiliateId, filters.affiliateId));
  if (filters.code) conditions.push(eq(codes.code, filters.code.toUpperCase()));
  if (filters.from) conditions.push(gte(applications.createdAt, new Date(`${filters.from}T00:00:00Z`)));
  if (filters.to) {
    const end = new Date(`${filters.to}T00:00:00Z`);
    end.setUTCDate(end.getUTCDate() + 1);
    conditions.push(lt(applications.createdAt, end));
  }
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(
      or(
        ilike(applicants.firstName, pattern),
        ilike(applicants.lastName, pattern),
        ilike(applicants.email, pattern),
        ilike(sql`${applicants.firstName} || ' ' || ${applicants.lastName}`, pattern),
      )!,
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

const listColumns = {
  id: applications.id,
  createdAt: applications.createdAt,
  submittedAt: applications.submittedAt,
  status: applications.status,
  paymentStatus: applications.paymentStatus,
  applicantId: applicants.id,
  firstName: applicants.firstName,
  lastName: applicants.lastName,
  email: applicants.email,
  schoolId: summerSchools.id,
  schoolName: summerSchools.name,
  startDate: summerSchools.startDate,
  totalAmount: applications.totalAmountCents,
  amountPaid: applications.amountPaidCents,
  refunded: refundedCentsSql,
  code: codes.code,
  flag: applications.flag,
};

/** The list query with its joins (applicant, school, applied code). */
function listBase(tx: Tx) {
  return tx
    .select(listColumns)
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .leftJoin(codes, eq(codes.id, applications.appliedCodeId));
}

type ListRow = Awaited<ReturnType<ReturnType<typeof listBase>["execute"]>>[number];

/**
 * The payment state of a row by the one rule (src/shared/balance.ts; docs/product/payments.md#payment-status) on `today`
 * (The Hague); `refunded`: the succeeded refunds of its accepted payments (`refundedCentsSql`).
 */
const balanceOfRow = (
  row: Pick<ListRow, "status" | "paymentStatus" | "totalAmount" | "amountPaid" | "refunded" | "startDate">,
  today: string,
) =>
  balanceOf(
    {
      status: row.status,
      paymentStatus: row.paymentStatus,
      totalAmountCents: row.totalAmount,
      amountPaidCents: row.amountPaid,
      refundedCents: Number(row.refunded),
      startDate: row.startDate,
    },
    today,
  );

const toListItem = (row: ListRow, language: Language, today: string): AdminApplicationListItem => {
  const balance = balanceOfRow(row, today);
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    submittedAt: row.submittedAt?.toISOString() ?? null,
    status: row.status,
    paymentStatus: balance.state,
    balanceDue: balance.balanceDue,
    dueDate: balance.dueDate,
    applicant: { id: row.applicantId, firstName: row.firstName, lastName: row.lastName, email: row.email },
    summerSchool: { id: row.schoolId, name: localize(row.schoolName, language) },
    totalAmount: row.totalAmount,
    amountPaid: balance.paidNet,
    refunded: balance.refunded,
    code: row.code ?? null,
    flag: row.flag,
    missingCriticalData: isMissingCriticalData(row),
  };
};

/**
 * `GET /api/admin/applications`: one page of the applications matching the filters, sorted
 * server-side (nulls last, ties broken by id so pages never overlap) → `{ items, total, page, pageSize }`.
 * Each row's payment state and balance are `balanceOf`'s on `today` (yyyy-mm-dd, The Hague).
 */
export async function listApplications(
  db: Db,
  query: ApplicationListQuery,
  language: Language,
  today: string,
): Promise<AdminApplicationList> {
  const where = filterConditions(query, today);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .leftJoin(codes, eq(codes.id, applications.appliedCodeId))
    .where(where);
  const rows = await listBase(db)
    .where(where)
    .orderBy(sortedBy(SORT_EXPRESSIONS[query.sort.key], query.sort.direction), asc(applications.id))
    .limit(query.pageSize)
    .offset(pageOffset(query));
  return pageOf(
    rows.map((r) => toListItem(r, language, today)),
    total,
    query,
  );
}

/**
 * `GET /api/admin/applications.csv`: every application matching the filters (newest first) as
 * CSV, UTF-8 with a byte-order mark (so spreadsheet programs read accents and Chinese), CRLF line
 * ends, amounts in euros. Cells are guarded against formula injection (csvCell). The payment
 * status, balance due and due date (yyyy-mm-dd, empty when nothing is owed) are `balanceOf`'s on
 * `today`. Returns the text and the number of rows.
 */
export async function exportApplications(
  db: Db,
  filters: ApplicationFilters,
  language: Language,
  today: string,
): Promise<{ csv: string; rows: number }> {
  const rows = await listBase(db)
    .where(filterConditions(filters, today))
    .orderBy(desc(applications.createdAt), asc(applications.id));
  const header = [
    "Application ID",
    "Created",
    "Submitted",
    "Status",
    "Payment status",
    "First name",
    "Last name",
    "E-mail",
    "Programme",
    "Total (EUR)",
    "Paid net of refunds (EUR)",
    "Refunded (EUR)",
    "Balance due (EUR)",
    "Balance due date",
    "Code",
    "Flag",
    "Missing critical data",
  ];
  const lines = rows.map((row) => {
    const item = toListItem(row, language, today);
    return [
      item.id,
      item.createdAt,
      item.submittedAt,
      item.status,
      item.paymentStatus,
      item.applicant.firstName,
      item.applicant.lastName,
      item.applicant.email,
      item.summerSchool.name,
      csvEuros(item.totalAmount),
      csvEuros(item.amountPaid),
      csvEuros(item.refunded),
      csvEuros(item.balanceDue),
      item.dueDate,
      item.code,
      item.flag,
      item.missingCriticalData ? "yes" : "no",
    ];
  });
  return { csv: toCsv(header, lines), rows: rows.length };
}

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

const STATUS_BODY_KEY: Record<string, string> = {
  pending_payment: "pendingPayment",
  submitted: "submitted",
  under_review: "underReview",
  accepted: "accepted",
  rejected: "rejected",
  waitlisted: "waitlisted",
  withdrawn: "withdrawn",
  cancelled: "cancelled",
};

/**
 * The e-mail telling an applicant their application's new status, in their language
 * (keys `emails.status.*` of common.json). Returns subject, text and HTML (values escaped).
 */
export function statusEmail(input: {
  language: Language;
  firstName: string;
  program: string;
  status: string;
  applicationId: string;
  paid: boolean;
  supportEmail: string;
}) {
  const { language } = input;
  const k = (key: string, vars?: Record<string, string | number>) =>
    t(language, `emails.status.${key}`, vars);
  const vars = { program: input.program };
  const subject = k("subject", vars);
  const texts = [
    input.firstName.trim() ? k("greeting", { name: input.firstName.trim() }) : k("greetingNoName"),
    k(`body.${STATUS_BODY_KEY[input.status] ?? "submitted"}`, vars),
    ...(input.paid && ["rejected", "withdrawn", "cancelled"].includes(input.status)
      ? [k("paymentNote")]
      : []),
    labelled(language, k("applicationId"), input.applicationId),
    k("questions", { email: input.supportEmail }),
    k("signature"),
  ];
  return renderEmail(language, subject, paragraphs(texts));
}

/**
 * `PATCH /api/admin/applications/:id/status`: applies a workflow step (STATUS_TRANSITIONS) in one
 * transaction with the row locked: 409 `{ message, current }` when `version` is not the current
 * one (no silent overwrite), 422 for a transition the workflow does not allow; otherwise bumps
 * the version, writes one audit entry (before → after) and queues one e-mail to the applicant in
 * their language (dedupe key `status:<applicationId>:<newVersion>`). Returns the new detail.
 */
export async function changeStatus(
  db: Db,
  deps: {
    mail: MailService;
    supportEmail: string;
    now: () => Date;
    /** Origin and contact of the "visa letter ready" e-mail (docs/product/admissions.md#visa-letter). */
    letters: { APP_ORIGIN: string; SUPPORT_EMAIL: string };
  },
  admin: AdminUser,
  id: string,
  input: StatusChangeInput,
  language: Language,
): Promise<AdminApplicationDetail> {
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, id, true);
    await assertVersion(application.version, input.version, "errors.staleVersion", () =>
      applicationDetail(tx, application, language, schoolDate(deps.now())),
    );
    if (!canTransition(application.status, input.status)) {
      throw new HttpError(422, "errors.illegalTransition");
    }
    const version = application.version + 1;
    const [updated] = await tx
      .update(applications)
      .set({ status: input.status, version, updatedAt: deps.now() })
      .where(and(eq(applications.id, id), eq(applications.version, application.version)))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "application.status",
      entityType: "application",
      entityId: id,
      before: { status: application.status, version: application.version },
      after: { status: input.status, version },
    });
    const applicant = await findApplicant(tx, application.applicantId);
    // The student's current address and e-mail language (docs/product/portals.md#who-an-email-is-written-to), not those of the form.
    const recipient = await recipientFor(tx, { applicationId: id });
    const applicantLanguage: Language = recipient?.language ?? "en";
    const [school] = await tx
      .select({ name: summerSchools.name })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const email = statusEmail({
      language: applicantLanguage,
      firstName: applicant.firstName,
      program: localize(school?.name, applicantLanguage),
      status: input.status,
      applicationId: id,
      paid: application.amountPaidCents > 0,
      supportEmail: deps.supportEmail,
    });
    if (recipient)
      await deps.mail.enqueue(tx, {
        dedupeKey: `status:${id}:${version}`,
        ...addressedTo(recipient),
        ...email,
      });
    // See docs/product/admissions.md#letter-verification: a closed application's visa letter is revoked; an acceptance may make it available.
    if (input.status === "withdrawn" || input.status === "cancelled" || input.status === "rejected")
      await revokeVisaLetters(tx, id, input.status, deps.now());
    if (input.status === "accepted")
      await queueVisaLetterReady(tx, deps.mail, deps.letters, id, schoolDate(deps.now()));
    return applicationDetail(tx, updated!, language, schoolDate(deps.now()));
  });
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

const noteColumns = {
  note: applicantNotes,
  authorName: admins.name,
  authorEmail: admins.email,
};

type NoteRow = { note: typeof applicantNotes.$inferSelect; authorName: string; authorEmail: string };

const noteDto = ({ note, authorName, authorEmail }: NoteRow): AdminNoteDto => ({
  id: note.id,
  applicantId: note.applicantId,
  body: note.body,
  author: { id: note.authorAdminId, name: authorName, email: authorEmail },
  createdAt: note.createdAt.toISOString(),
  updatedAt: note.updatedAt.toISOString(),
});

async function readNote(tx: Tx, id: string): Promise<NoteRow> {
  const [row] = await tx
    .select(noteColumns)
    .from(applicantNotes)
    .innerJoin(admins, eq(admins.id, applicantNotes.authorAdminId))
    .where(eq(applicantNotes.id, id));
  if (!row) throw adminNotFound();
  return row;
}

/** `GET /api/admin/applicants/:id/notes`: the applicant's notes, oldest first. 404 for an unknown applicant. */
export async function listNotes(tx: Tx, applicantId: string): Promise<AdminNoteDto[]> {
  await findApplicant(tx, applicantId);
  const rows = await tx
    .select(noteColumns)
    .from(applicantNotes)
    .innerJoin(admins, eq(admins.id, applicantNotes.authorAdminId))
    .where(eq(applicantNotes.applicantId, applicantId))
    .orderBy(asc(applicantNotes.createdAt), asc(applicantNotes.id));
  return rows.map(noteDto);
}

/** `POST /api/admin/applicants/:id/notes`: adds a note by `admin` (audit "note.create"). */
export async function createNote(db: Db, admin: AdminUser, applicantId: string, body: string, now: Date) {
  return db.transaction(async (tx) => {
    await findApplicant(tx, applicantId);
    const [note] = await tx
      .insert(applicantNotes)
      .values({ applicantId, authorAdminId: admin.id, body, createdAt: now, updatedAt: now })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "note.create",
      entityType: "note",
      entityId: note!.id,
      after: { applicantId, body },
    });
    return noteDto({ note: note!, authorName: admin.name, authorEmail: admin.email });
  });
}

/** Only the author or an owner edits or deletes a note (contract); others get 403. */
function assertMayEdit(admin: AdminUser, row: NoteRow) {
  if (row.note.authorAdminId !== admin.id && admin.role !== "owner") {
    throw new HttpError(403, "errors.forbiddenRole");
  }
}

/** `PATCH /api/admin/notes/:id`: new body (author or owner; audit "note.update" before → after). */
export async function updateNote(db: Db, admin: AdminUser, id: string, body: string, now: Date) {
  return db.transaction(async (tx) => {
    const row = await readNote(tx, id);
    assertMayEdit(admin, row);
    const [note] = await tx
      .update(applicantNotes)
      .set({ body, updatedAt: now })
      .where(eq(applicantNotes.id, id))
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "note.update",
      entityType: "note",
      entityId: id,
      before: { applicantId: row.note.applicantId, body: row.note.body },
      after: { applicantId: row.note.applicantId, body },
    });
    return noteDto({ ...row, note: note! });
  });
}

/** `DELETE /api/admin/notes/:id` (author or owner; audit "note.delete" keeps the deleted body). */
export async function deleteNote(db: Db, admin: AdminUser, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await readNote(tx, id);
    assertMayEdit(admin, row);
    await tx.delete(applicantNotes).where(eq(applicantNotes.id, id));
    await recordAudit(tx, {
      actor: admin,
      action: "note.delete",
      entityType: "note",
      entityId: id,
      before: { applicantId: row.note.applicantId, body: row.note.body },
    });
  });
}

/**
 * `GET /api/admin/dashboard`: applications per status (every status, 0 included), revenue paid
 * net of refunds (amount paid on paid, deposit-paid, partially refunded and refunded
 * applications, minus succeeded refunds), each cohort's taken places (paid in full or deposit
 * paid, docs/product/payments.md#deposit-and-balance; balances/rule.ts `PLACE_TAKING_STATUSES`) against its capacity, and the 10 newest audit entries the admin may see (all with audit:read,
 * otherwise application changes only).
 */
export async function dashboard(db: Db, admin: AdminUser, language: Language): Promise<AdminDashboard> {
  const byStatus = Object.fromEntries(APPLICATION_STATUSES.map((s) => [s, 0])) as AdminDashboard["byStatus"];
  const counts = await db
    .select({ status: applications.status, n: sql<number>`count(*)::int` })
    .from(applications)
    .groupBy(applications.status);
  for (const { status, n } of counts) byStatus[status] = Number(n);
  // Net of refunds (docs/product/back-office.md#finance): paid on paid, deposit-paid, partially refunded and refunded
  // applications, minus the refunds that succeeded.
  const [{ revenue } = { revenue: 0 }] = await db
    .select({
      revenue: sql<number>`(coalesce(sum(${applications.amountPaidCents}), 0) - coalesce((select sum(r.amount_cents) from refunds r where r.status = 'succeeded'), 0))::bigint`,
    })
    .from(applications)
    .where(inArray(applications.paymentStatus, [...PLACE_TAKING_STATUSES, "refunded"]));
  const schools = await db
    .select()
    .from(summerSchools)
    .where(sql`${summerSchools.archivedAt} is null`)
    .orderBy(asc(summerSchools.startDate));
  const paid = await db
    .select({ schoolId: applications.summerSchoolId, n: sql<number>`count(*)::int` })
    .from(applications)
    .where(takesPlaceSql)
    .groupBy(applications.summerSchoolId);
  const paidBySchool = new Map(paid.map((p) => [p.schoolId, Number(p.n)]));
  const recent = await readAudit(db, {
    where: can(admin.role, "audit:read") ? undefined : eq(auditLog.entityType, "application"),
    limit: 10,
  });
  return {
    byStatus,
    paidRevenue: Number(revenue),
    cohorts: schools.map((s) => {
      const n = paidBySchool.get(s.id) ?? 0;
      return {
        id: s.id,
        name: localize(s.name, language),
        startDate: s.startDate,
        capacity: s.capacity,
        paid: n,
        fillRate: s.capacity > 0 ? Math.round((n / s.capacity) * 1000) / 1000 : 0,
      };
    }),
    recent,
  };
}
