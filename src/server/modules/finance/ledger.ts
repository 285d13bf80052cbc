import { type SQL, sql } from "drizzle-orm";
import type { LedgerEntryDto, LedgerPage } from "../../../shared/finance";
import type { Language } from "../../../shared/i18n/languages";
import type { LedgerFilters, LedgerQuery, LedgerSortKey } from "../../../shared/schemas/finance";
import type { Db } from "../../db/client";
import { csvEuros, toCsv } from "../../lib/csv";
import { likePattern, pageOf, pageOffset, sortKeyword } from "../../lib/lists";
import { localize } from "../../lib/localize";

/** The ledger as one relation: payments (money in) and refunds (money out), with applicant and school. */
const LEDGER = sql`(
  select 'payment' as kind, p.id as entry_id, p.paid_at as at, p.amount_cents as amount, p.currency,
         'succeeded' as status, p.provider, p.provider_reference as reference, null::text as reason,
         a.id as application_id, ap.first_name, ap.last_name, ap.email, s.id as school_id, s.name as school_name
    from payments p
    join applications a on a.id = p.application_id
    join applicants ap on ap.id = a.applicant_id
    join summer_schools s on s.id = a.summer_school_id
  union all
  select 'refund', r.id, r.created_at, r.amount_cents, r.currency, r.status, r.provider,
         r.provider_refund_id, r.reason, a.id, ap.first_name, ap.last_name, ap.email, s.id, s.name
    from refunds r
    join applications a on a.id = r.application_id
    join applicants ap on ap.id = a.applicant_id
    join summer_schools s on s.id = a.summer_school_id
) as ledger`;

/** Start of the day after `iso` (yyyy-mm-dd, UTC): the exclusive end of an inclusive `to`. */
export const dayAfter = (iso: string) => {
  const end = new Date(`${iso}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return end;
};

function ledgerWhere(filters: LedgerFilters): SQL {
  const conditions: SQL[] = [sql`true`];
  if (filters.schoolId) conditions.push(sql`school_id = ${filters.schoolId}`);
  if (filters.kind) conditions.push(sql`kind = ${filters.kind}`);
  if (filters.from) conditions.push(sql`at >= ${new Date(`${filters.from}T00:00:00Z`).toISOString()}`);
  if (filters.to) conditions.push(sql`at < ${dayAfter(filters.to).toISOString()}`);
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(
      sql`(first_name ilike ${pattern} or last_name ilike ${pattern} or email ilike ${pattern}
        or (first_name || ' ' || last_name) ilike ${pattern} or coalesce(reference, '') ilike ${pattern}
        or application_id::text ilike ${pattern})`,
    );
  }
  return sql.join(conditions, sql` and `);
}

const LEDGER_SORT: Record<LedgerSortKey, SQL> = {
  date: sql`at`,
  amount: sql`amount`,
  applicant: sql`lower(last_name || ' ' || first_name)`,
};

interface LedgerRow {
  kind: "payment" | "refund";
  entry_id: string;
  at: Date | string;
  amount: number;
  currency: string;
  status: LedgerEntryDto["status"];
  provider: LedgerEntryDto["provider"];
  reference: string | null;
  reason: string | null;
  application_id: string;
  first_name: string;
  last_name: string;
  email: string;
  school_id: string;
  school_name: { en: string; zh?: string; fr?: string };
}

/** The rows of a `db.execute` result (none when it has no `rows`). */
export const rowsOf = <T>(result: unknown): T[] => ((result as { rows?: T[] }).rows ?? []) as T[];
const isoOf = (value: Date | string) => (value instanceof Date ? value : new Date(value)).toISOString();

function ledgerDto(row: LedgerRow, language: Language): LedgerEntryDto {
  return {
    id: `${row.kind}:${row.entry_id}`,
    kind: row.kind,
    date: isoOf(row.at),
    amount: Number(row.amount),
    currency: row.currency,
    status: row.status,
    provider: row.provider,
    reference: row.reference,
    reason: row.reason,
    applicationId: row.application_id,
    applicant: { firstName: row.first_name, lastName: row.last_name, email: row.email },
    school: { id: row.school_id, name: localize(row.school_name, language) },
  };
}

/**
 * `GET /api/admin/finances/ledger`: payments and refunds interleaved, one page, sorted on the
 * server (date by default, newest first; ties by kind and id so pages never overlap) →
 * `{ items, total, page, pageSize }`.
 */
export async function listLedger(db: Db, query: LedgerQuery, language: Language): Promise<LedgerPage> {
  const where = ledgerWhere(query);
  const [count] = rowsOf<{ total: number }>(
    await db.execute(sql`select count(*)::int as total from ${LEDGER} where ${where}`),
  );
  const rows = rowsOf<LedgerRow>(
    await db.execute(
      sql`select * from ${LEDGER} where ${where}
          order by ${LEDGER_SORT[query.sort.key]} ${sortKeyword(query.sort.direction)}, kind asc, entry_id asc
          limit ${query.pageSize} offset ${pageOffset(query)}`,
    ),
  );
  return pageOf(
    rows.map((r) => ledgerDto(r, language)),
    count?.total ?? 0,
    query,
  );
}

/**
 * `GET /api/admin/finances/ledger.csv`: every matching ledger entry, newest first, as CSV (euros,
 * refunds negative in "Amount (EUR)" so the column sums to the net). Returns the text and row count.
 */
export async function exportLedger(db: Db, filters: LedgerFilters, language: Language) {
  const rows = rowsOf<LedgerRow>(
    await db.execute(
      sql`select * from ${LEDGER} where ${ledgerWhere(filters)} order by at desc, kind asc, entry_id asc`,
    ),
  );
  const header = [
    "Date",
    "Kind",
    "Status",
    "Amount (EUR)",
    "Currency",
    "Provider",
    "Reference",
    "Reason",
    "Application ID",
    "First name",
    "Last name",
    "E-mail",
    "Programme",
  ];
  const lines = rows.map((row) => {
    const e = ledgerDto(row, language);
    return [
      e.date,
      e.kind,
      e.status,
      csvEuros(e.kind === "refund" ? -e.amount : e.amount),
      e.currency,
      e.provider,
      e.reference,
      e.reason,
      e.applicationId,
      e.applicant.firstName,
      e.applicant.lastName,
      e.applicant.email,
      e.school.name,
    ];
  });
  return { csv: toCsv(header, lines), rows: rows.length };
}
