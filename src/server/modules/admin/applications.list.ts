import { and, asc, desc, eq, gte, ilike, lt, or, type SQL, sql } from "drizzle-orm";
import type { AdminApplicationList, AdminApplicationListItem } from "../../../shared/admin";
import { balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import {
  APPLICATION_STATUSES,
  type ApplicationFilters,
  type ApplicationListQuery,
  type ApplicationSortKey,
} from "../../../shared/schemas/admin";
import type { Db, Tx } from "../../db/client";
import { applicants, applications, codes, summerSchools } from "../../db/schema";
import { csvEuros, toCsv } from "../../lib/csv";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { paymentStateIs, refundedCentsSql } from "../balances";

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
export const balanceOfRow = (
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
