import {
  and,
  asc,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import type {
  StudentCreateInput,
  StudentFilters,
  StudentListQuery,
  StudentSortKey,
  StudentUpdateInput,
} from "../../../shared/schemas/students-admin";
import type {
  AdminStudentDetail,
  AdminStudentList,
  AdminStudentListItem,
  StudentLinkSent,
} from "../../../shared/students-admin";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, payments, sessions, students, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion, HttpError } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import type { AuthService } from "../auth";
import { paidInFullSql, paidNetSql, refundedCentsSql } from "../balances";

type StudentRow = typeof students.$inferSelect;

/**
 * Applications are linked to a student account by e-mail address (schema: "students … linked to
 * applications by e-mail address"): the applicant's address, compared case-insensitively.
 */
const applicantEmail = sql`lower(${applicants.email})`;

/**
 * Per e-mail address: number of applications, of those paid in full, and the amount paid net of
 * refunds (cents), by the one payment-status rule (balances/rule.ts).
 * A subquery joined to `students` on the address.
 */
function applicationStats(db: Tx) {
  return db
    .select({
      email: sql<string>`${applicantEmail}`.as("stats_email"),
      applicationCount: sql<number>`count(*)::int`.as("application_count"),
      paidCount: sql<number>`count(*) filter (where ${paidInFullSql})::int`.as("paid_count"),
      // Net of refunds (docs/product/payments.md#refunds; docs/product/payments.md#payment-status): the rule's `paidNetSql`.
      amountPaid: sql<number>`coalesce(sum(${paidNetSql}), 0)::int`.as("amount_paid"),
    })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .groupBy(applicantEmail)
    .as("stats");
}

/** The WHERE clause of the student list filters (q, verified, disabled, paid, schoolId). */
function filterConditions(
  filters: StudentFilters,
  stats: ReturnType<typeof applicationStats>,
): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(
      or(
        ilike(students.firstName, pattern),
        ilike(students.lastName, pattern),
        ilike(students.email, pattern),
        ilike(sql`${students.firstName} || ' ' || ${students.lastName}`, pattern),
      )!,
    );
  }
  if (filters.verified)
    conditions.push(
      filters.verified === "yes" ? isNotNull(students.emailVerifiedAt) : isNull(students.emailVerifiedAt),
    );
  if (filters.disabled)
    conditions.push(
      filters.disabled === "yes" ? isNotNull(students.disabledAt) : isNull(students.disabledAt),
    );
  if (filters.paid)
    conditions.push(
      filters.paid === "yes"
        ? sql`coalesce(${stats.paidCount}, 0) > 0`
        : sql`coalesce(${stats.paidCount}, 0) = 0`,
    );
  if (filters.schoolId) {
    const schoolId = filters.schoolId;
    conditions.push(
      exists(
        sql`(select 1 from ${applications} inner join ${applicants} on ${applicants.id} = ${applications.applicantId}
          where ${applications.summerSchoolId} = ${schoolId} and lower(${applicants.email}) = ${students.email})`,
      ),
    );
  }
  return conditions.length ? and(...conditions) : undefined;
}

function sortExpression(key: StudentSortKey, stats: ReturnType<typeof applicationStats>): SQL {
  switch (key) {
    case "lastName":
      return sql`lower(${students.lastName})`;
    case "email":
      return sql`${students.email}`;
    case "applications":
      return sql`coalesce(${stats.applicationCount}, 0)`;
    case "amountPaid":
      return sql`coalesce(${stats.amountPaid}, 0)`;
    default:
      return sql`${students.createdAt}`;
  }
}

/** The list query: students with their application statistics. */
function listBase(db: Tx, stats: ReturnType<typeof applicationStats>) {
  return db
    .select({
      student: students,
      applicationCount: stats.applicationCount,
      paidCount: stats.paidCount,
      amountPaid: stats.amountPaid,
    })
    .from(students)
    .leftJoin(stats, eq(stats.email, students.email));
}

type ListRow = {
  student: StudentRow;
  applicationCount: number | null;
  paidCount: number | null;
  amountPaid: number | null;
};

const toListItem = ({ student: s, ...stats }: ListRow): AdminStudentListItem => ({
  id: s.id,
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  language: s.language,
  emailVerified: s.emailVerifiedAt !== null,
  disabled: s.disabledAt !== null,
  hasPassword: s.passwordHash !== null,
  createdAt: s.createdAt.toISOString(),
  applicationCount: Number(stats.applicationCount ?? 0),
  paidApplicationCount: Number(stats.paidCount ?? 0),
  amountPaid: Number(stats.amountPaid ?? 0),
});

/**
 * `GET /api/admin/students`: one page of student accounts matching the filters, sorted server-side
 * (nulls last, ties broken by id so pages never overlap), each with its number of applications,
 * paid applications and amount paid (applications made with the account's e-mail address)
 * → `{ items, total, page, pageSize }`.
 */
export async function listStudents(db: Db, query: StudentListQuery): Promise<AdminStudentList> {
  const stats = applicationStats(db);
  const where = filterConditions(query, stats);
  const [{ total } = { total: 0 }] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(students)
    .leftJoin(stats, eq(stats.email, students.email))
    .where(where);
  const rows = await listBase(db, stats)
    .where(where)
    .orderBy(sortedBy(sortExpression(query.sort.key, stats), query.sort.direction), asc(students.id))
    .limit(query.pageSize)
    .offset(pageOffset(query));
  return pageOf(rows.map(toListItem), total, query);
}

/**
 * `GET /api/admin/students.csv`: every student account matching the filters (newest first) as CSV
 * (UTF-8 with BOM, CRLF, formula-injection guarded, amounts in euros). Returns the text and the
 * number of rows.
 */
export async function exportStudents(
  db: Db,
  filters: StudentFilters,
): Promise<{ csv: string; rows: number }> {
  const stats = applicationStats(db);
  const rows = await listBase(db, stats)
    .where(filterConditions(filters, stats))
    .orderBy(desc(students.createdAt), asc(students.id));
  const header = [
    "Student ID",
    "E-mail",
    "First name",
    "Last name",
    "Language",
    "E-mail verified",
    "Disabled",
    "Password set",
    "Created",
    "Applications",
    "Paid applications",
    "Amount paid (EUR)",
  ];
  const lines = rows.map((row) => {
    const s = toListItem(row);
    return [
      s.id,
      s.email,
      s.firstName,
      s.lastName,
      s.language,
      s.emailVerified ? "yes" : "no",
      s.disabled ? "yes" : "no",
      s.hasPassword ? "yes" : "no",
      s.createdAt,
      s.applicationCount,
      s.paidApplicationCount,
      csvEuros(s.amountPaid),
    ];
  });
  return { csv: toCsv(header, lines), rows: rows.length };
}

/** Reads a student account by id (optionally locked for update); 404 `{ error, message }` when unknown. */
export async function findStudent(tx: Tx, id: string, lock = false): Promise<StudentRow> {
  const base = tx.select().from(students).where(eq(students.id, id));
  const [row] = lock ? await base.for("update") : await base;
  if (!row) throw adminNotFound();
  return row;
}

/** What the audit log keeps of an account (never the password hash). */
const auditState = (s: StudentRow) => ({
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  language: s.language,
  emailVerified: s.emailVerifiedAt !== null,
  disabled: s.disabledAt !== null,
  version: s.version,
});

/**
 * `GET /api/admin/students/:id`: the account (e-mail, names, language, verified, disabled, created,
 * start of the newest stored session), every application made with its e-mail address (newest
 * first; `paymentStatus` and `paid` (paid in full) by the one balance rule `balanceOf` on `today`,
 * yyyy-mm-dd in The Hague, docs/product/payments.md#payment-status) and the payments of those applications (oldest first).
 */
export async function studentDetail(
  tx: Tx,
  student: StudentRow,
  language: Language,
  today: string = schoolDate(new Date()),
): Promise<AdminStudentDetail> {
  const rows = await tx
    .select({ application: applications, school: summerSchools, refundedCents: refundedCentsSql })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(sql`${applicantEmail} = ${student.email}`)
    .orderBy(desc(applications.createdAt), asc(applications.id));
  const names = new Map(
    rows.map(({ application, school }) => [application.id, localize(school.name, language)]),
  );
  const paymentRows = rows.length
    ? await tx
        .select()
        .from(payments)
        .where(inArray(payments.applicationId, [...names.keys()]))
        .orderBy(asc(payments.paidAt), asc(payments.id))
    : [];
  const [lastSession] = await tx
    .select({ createdAt: sessions.createdAt })
    .from(sessions)
    .where(and(eq(sessions.role, "student"), eq(sessions.accountId, student.id)))
    .orderBy(desc(sessions.createdAt))
    .limit(1);
  return {
    id: student.id,
    email: student.email,
    firstName: student.firstName,
    lastName: student.lastName,
    language: student.language,
    emailVerified: student.emailVerifiedAt !== null,
    emailVerifiedAt: student.emailVerifiedAt?.toISOString() ?? null,
    disabled: student.disabledAt !== null,
    disabledAt: student.disabledAt?.toISOString() ?? null,
    hasPassword: student.passwordHash !== null,
    createdAt: student.createdAt.toISOString(),
    updatedAt: student.updatedAt.toISOString(),
    lastLoginAt: lastSession?.createdAt.toISOString() ?? null,
    version: student.version,
    applications: rows.map(({ application: a, school, refundedCents }) => {
      const balance = balanceOf(balanceFactsOf(a, refundedCents, school.startDate), today);
      return {
        id: a.id,
        programName: localize(school.name, language),
        startDate: school.startDate,
        endDate: school.endDate,
        status: a.status,
        paymentStatus: balance.state,
        paid: balance.paidInFull,
        totalAmount: a.totalAmountCents,
        amountPaid: balance.paidNet,
        createdAt: a.createdAt.toISOString(),
      };
    }),
    payments: paymentRows.map((p) => ({
      id: p.id,
      applicationId: p.applicationId,
      programName: names.get(p.applicationId) ?? "",
      amount: p.amountCents,
      currency: p.currency,
      provider: p.provider,
      reference: p.providerReference,
      kind: p.kind,
      paidAt: p.paidAt.toISOString(),
    })),
  };
}

/** Dependencies of the changes: the database, the account e-mails, the clock. */
export interface StudentAdminDeps {
  db: Db;
  auth: AuthService;
  now: () => Date;
}

/**
 * `POST /api/admin/students`: creates a student account without a password (e-mail not yet
 * verified) and e-mails the student a 24-hour link to choose one (/student/reset-password with a
 * set_password token; choosing the password also confirms the address). 409
 * errors.students.emailTaken `{ message, existingId }` when the address already has an account.
 * Audit "student.create". Returns the detail.
 */
export async function createStudent(
  deps: StudentAdminDeps,
  admin: AdminUser,
  input: StudentCreateInput,
  language: Language,
): Promise<AdminStudentDetail> {
  const at = deps.now();
  const detail = await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(students)
      .values({
        email: input.email,
        firstName: input.firstName,
        lastName: input.lastName,
        language: input.language,
        createdAt: at,
        updatedAt: at,
      })
      .onConflictDoNothing({ target: students.email })
      .returning();
    if (!row) {
      const [existing] = await tx
        .select({ id: students.id })
        .from(students)
        .where(eq(students.email, input.email));
      throw new HttpError(409, "errors.students.emailTaken", { existingId: existing?.id ?? null });
    }
    await deps.auth.queueStudentLink(tx, row, "setPassword", at);
    await recordAudit(tx, {
      actor: admin,
      action: "student.create",
      entityType: "student",
      entityId: row.id,
      before: null,
      after: auditState(row),
    });
    return studentDetail(tx, row, language);
  });
  deps.auth.flushOutbox();
  return detail;
}

/**
 * `PATCH /api/admin/students/:id`: changes names, language and/or disabled, in one transaction with
 * the row locked. 409 errors.students.staleVersion `{ message, current }` when `version` is not the
 * current one (no silent overwrite); otherwise bumps the version, and disabling deletes every
 * session of the student (docs/product/security.md#s2-session-fixation-logout-and-disabled-accounts) — enabling leaves them signed out. Audit "student.update"
 * with the changed fields before → after (nothing written when nothing changed).
 */
export async function updateStudent(
  deps: StudentAdminDeps,
  admin: AdminUser,
  id: string,
  input: StudentUpdateInput,
  language: Language,
): Promise<AdminStudentDetail> {
  const at = deps.now();
  return deps.db.transaction(async (tx) => {
    const before = await findStudent(tx, id, true);
    await assertVersion(before.version, input.version, "errors.students.staleVersion", () =>
      studentDetail(tx, before, language),
    );
    const disabledAt =
      input.disabled === undefined ? before.disabledAt : input.disabled ? (before.disabledAt ?? at) : null;
    const next = {
      firstName: input.firstName ?? before.firstName,
      lastName: input.lastName ?? before.lastName,
      language: input.language ?? before.language,
      disabledAt,
    };
    const changed =
      next.firstName !== before.firstName ||
      next.lastName !== before.lastName ||
      next.language !== before.language ||
      (next.disabledAt === null) !== (before.disabledAt === null);
    if (!changed) return studentDetail(tx, before, language);
    const [after] = (await tx
      .update(students)
      .set({ ...next, version: before.version + 1, updatedAt: at })
      .where(and(eq(students.id, id), eq(students.version, before.version)))
      .returning()) as [StudentRow];
    if (after.disabledAt && !before.disabledAt) {
      await tx.delete(sessions).where(and(eq(sessions.role, "student"), eq(sessions.accountId, id)));
    }
    const beforeState = auditState(before);
    const afterState = auditState(after);
    const keys = (Object.keys(afterState) as Array<keyof typeof afterState>).filter(
      (key) => beforeState[key] !== afterState[key],
    );
    await recordAudit(tx, {
      actor: admin,
      action:
        after.disabledAt && !before.disabledAt
          ? "student.disable"
          : !after.disabledAt && before.disabledAt
            ? "student.enable"
            : "student.update",
      entityType: "student",
      entityId: id,
      before: Object.fromEntries(keys.map((key) => [key, beforeState[key]])),
      after: Object.fromEntries(keys.map((key) => [key, afterState[key]])),
    });
    return studentDetail(tx, after, language);
  });
}

/**
 * `POST /api/admin/students/:id/resend-verification` and `/send-password-reset`: e-mails the
 * student a one-time link (AuthService.queueStudentLink) and writes an audit entry
 * ("student.resendVerification" / "student.sendPasswordReset", after: what was sent).
 * Verification: 409 errors.students.alreadyVerified for a verified address; an account without a
 * password gets the choose-your-password link instead (it confirms the address too). Password
 * reset: the 1-hour reset link, or the choose-your-password link (24 hours) when the account has no
 * password yet. Both: 409 errors.students.disabled for a disabled account; 404 unknown id.
 */
export async function sendStudentLink(
  deps: StudentAdminDeps,
  admin: AdminUser,
  id: string,
  purpose: "verification" | "passwordReset",
): Promise<StudentLinkSent> {
  const at = deps.now();
  const result = await deps.db.transaction(async (tx) => {
    const student = await findStudent(tx, id, true);
    if (student.disabledAt) throw new HttpError(409, "errors.students.disabled");
    if (purpose === "verification" && student.emailVerifiedAt)
      throw new HttpError(409, "errors.students.alreadyVerified");
    const sent: StudentLinkSent["sent"] = !student.passwordHash ? "setPassword" : purpose;
    await deps.auth.queueStudentLink(tx, student, sent, at);
    await recordAudit(tx, {
      actor: admin,
      action: purpose === "verification" ? "student.resendVerification" : "student.sendPasswordReset",
      entityType: "student",
      entityId: id,
      after: { sent, email: student.email },
    });
    return { sent, email: student.email };
  });
  deps.auth.flushOutbox();
  return result;
}
