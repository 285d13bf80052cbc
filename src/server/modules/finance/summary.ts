import { type SQL, sql } from "drizzle-orm";
import type { FinanceSummaryDto, RevenueFigures } from "../../../shared/finance";
import type { Language } from "../../../shared/i18n/languages";
import type { FinanceSummaryQuery } from "../../../shared/schemas/finance";
import { DEFAULT_VAT, type VatSetting } from "../../../shared/site";
import { vatOfGross } from "../../../shared/vat";
import type { Db } from "../../db/client";
import { csvEuros, toCsv } from "../../lib/csv";
import { localize } from "../../lib/localize";
import { dayAfter, rowsOf } from "./ledger";

/**
 * Figures from gross and refunded cents: net, the VAT included in it (`vatOfGross`, docs/product/payments.md#vat,
 * decision 034; 0 when the school is VAT-exempt, docs/product/payments.md#vat-setting), net excluding VAT.
 */
export function revenueFigures(
  gross: number,
  refunded: number,
  paymentsCount: number,
  refundsCount: number,
  vatSetting: VatSetting = DEFAULT_VAT,
): RevenueFigures {
  const net = gross - refunded;
  const vat = vatSetting.mode === "exempt" ? 0 : vatOfGross(net, vatSetting.ratePercent);
  return { gross, refunded, net, vat, netExVat: net - vat, payments: paymentsCount, refunds: refundsCount };
}

interface SummaryRow {
  school_id: string;
  school_name: { en: string; zh?: string; fr?: string };
  start_date: string | Date;
  month: string;
  gross: number;
  refunded: number;
  payments: number;
  refunds: number;
}

/**
 * `GET /api/admin/finances/summary`: revenue per school (cohort), per month and in total — gross
 * payments, succeeded refunds, net, and the 21 % VAT included in net shown apart (`vatOfGross`,
 * docs/product/payments.md#vat, decision 034), or no VAT when `vat` says the school is exempt (`INVOICE_VAT`, docs/product/payments.md#vat-setting; the report follows the setting, for past payments too). A payment counts in the month
 * (UTC) it was paid, a refund in the month it succeeded; `from`/`to` (inclusive) filter on those
 * dates. The answer carries `vat` so the page and the CSV show VAT columns only when included.
 */
export async function financeSummary(
  db: Db,
  query: FinanceSummaryQuery,
  language: Language,
  vat: VatSetting = DEFAULT_VAT,
): Promise<FinanceSummaryDto> {
  const range = (column: SQL) => {
    const parts: SQL[] = [sql`true`];
    if (query.from) parts.push(sql`${column} >= ${new Date(`${query.from}T00:00:00Z`).toISOString()}`);
    if (query.to) parts.push(sql`${column} < ${dayAfter(query.to).toISOString()}`);
    return sql.join(parts, sql` and `);
  };
  const rows = rowsOf<SummaryRow>(
    await db.execute(sql`
      select s.id as school_id, s.name as school_name, s.start_date::text as start_date, m.month,
             sum(m.gross)::bigint::int as gross, sum(m.refunded)::bigint::int as refunded,
             sum(m.payments)::int as payments, sum(m.refunds)::int as refunds
        from (
          select a.summer_school_id as school_id, to_char(p.paid_at at time zone 'UTC', 'YYYY-MM') as month,
                 p.amount_cents as gross, 0 as refunded, 1 as payments, 0 as refunds
            from payments p join applications a on a.id = p.application_id
           where p.amount_cents > 0 and ${range(sql`p.paid_at`)}
          union all
          select a.summer_school_id, to_char(r.succeeded_at at time zone 'UTC', 'YYYY-MM'),
                 0, r.amount_cents, 0, 1
            from refunds r join applications a on a.id = r.application_id
           where r.status = 'succeeded' and ${range(sql`r.succeeded_at`)}
        ) m
        join summer_schools s on s.id = m.school_id
       group by s.id, s.name, s.start_date, m.month`),
  );
  const schools = new Map<
    string,
    { name: string; startDate: string; g: number; r: number; p: number; n: number }
  >();
  const months = new Map<string, { g: number; r: number; p: number; n: number }>();
  const total = { g: 0, r: 0, p: 0, n: 0 };
  for (const row of rows) {
    const g = Number(row.gross);
    const r = Number(row.refunded);
    const p = Number(row.payments);
    const n = Number(row.refunds);
    const school = schools.get(row.school_id) ?? {
      name: localize(row.school_name, language),
      startDate: String(row.start_date).slice(0, 10),
      g: 0,
      r: 0,
      p: 0,
      n: 0,
    };
    const month = months.get(row.month) ?? { g: 0, r: 0, p: 0, n: 0 };
    for (const acc of [school, month, total]) {
      acc.g += g;
      acc.r += r;
      acc.p += p;
      acc.n += n;
    }
    schools.set(row.school_id, school);
    months.set(row.month, month);
  }
  return {
    from: query.from ?? null,
    to: query.to ?? null,
    bySchool: [...schools.entries()]
      .map(([schoolId, s]) => ({
        schoolId,
        name: s.name,
        startDate: s.startDate,
        ...revenueFigures(s.g, s.r, s.p, s.n, vat),
      }))
      .sort((a, b) => a.startDate.localeCompare(b.startDate) || a.name.localeCompare(b.name)),
    byMonth: [...months.entries()]
      .map(([month, m]) => ({ month, ...revenueFigures(m.g, m.r, m.p, m.n, vat) }))
      .sort((a, b) => a.month.localeCompare(b.month)),
    total: revenueFigures(total.g, total.r, total.p, total.n, vat),
    vat,
  };
}

/**
 * The summary as CSV: one row per school, one per month, then the total (euros). The VAT columns
 * only when VAT is included (`summary.vat`, docs/product/payments.md#vat-setting).
 */
export function summaryCsv(summary: FinanceSummaryDto): string {
  const withVat = summary.vat.mode === "included";
  const header = [
    "Group",
    "Name",
    "Gross (EUR)",
    "Refunded (EUR)",
    "Net (EUR)",
    ...(summary.vat.mode === "included"
      ? [`VAT ${summary.vat.ratePercent}% included (EUR)`, "Net excl. VAT (EUR)"]
      : []),
    "Payments",
    "Refunds",
  ];
  const figures = (f: RevenueFigures) => [
    csvEuros(f.gross),
    csvEuros(f.refunded),
    csvEuros(f.net),
    ...(withVat ? [csvEuros(f.vat), csvEuros(f.netExVat)] : []),
    f.payments,
    f.refunds,
  ];
  return toCsv(header, [
    ...summary.bySchool.map((s) => ["school", s.name, ...figures(s)]),
    ...summary.byMonth.map((m) => ["month", m.month, ...figures(m)]),
    ["total", "", ...figures(summary.total)],
  ]);
}
