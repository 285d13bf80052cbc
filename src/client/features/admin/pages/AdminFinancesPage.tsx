import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { urlOf } from "../../../../shared/api/contract";
import {
  exportFinanceSummaryContract,
  exportLedgerContract,
  getFinanceSummaryContract,
  listLedgerContract,
} from "../../../../shared/api/finance";
import { dateFormatFor } from "../../../../shared/date-format";
import type { RevenueFigures } from "../../../../shared/finance";
import { LEDGER_KINDS, LEDGER_SORT_KEYS } from "../../../../shared/schemas/finance";
import { cn } from "../../../components/ui/cn";
import { inputClass } from "../../../components/ui/Field";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useVatContext } from "../../../lib/vat";
import { AdminListFrame, HeaderCell, QueryResult } from "../components/AdminListFrame";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import { BalancesPanel } from "../components/finance/BalancesPanel";
import { RefundStatusBadge } from "../components/finance/RefundPanel";
import {
  ClearFiltersButton,
  CsvLink,
  FilterSelect,
  SearchForm,
  SortHeader,
  useListParams,
} from "../components/list";

/** Filters of the ledger kept in the address (the CSV export takes the same ones); from/to also set the summary's period. */
const LEDGER_FILTERS = ["schoolId", "kind", "from", "to", "q"] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

const financeQueryKeys = {
  summary: (search: string) => ["admin", "finance", "summary", search] as const,
  ledger: (search: string) => ["admin", "finance", "ledger", search] as const,
};

/**
 * The revenue figures of one row: gross, refunded, net, VAT included in net, net without VAT; the
 * VAT columns only when VAT is included (`INVOICE_VAT`, docs/product/payments.md#vat-setting).
 */
function FigureCells({ figures, strong = false }: { figures: RevenueFigures; strong?: boolean }) {
  const format = useFormat();
  const exempt = useVatContext() === "exempt";
  const cell = cn(
    "px-3 py-2 text-right whitespace-nowrap",
    strong ? "font-semibold text-slate-900" : "text-slate-800",
  );
  return (
    <>
      <td className={cell}>{format.money(figures.gross)}</td>
      <td className={cell}>{figures.refunded ? `−${format.money(figures.refunded)}` : format.money(0)}</td>
      <td className={cell}>{format.money(figures.net)}</td>
      {exempt ? null : (
        <>
          <td className={cell}>{format.money(figures.vat)}</td>
          <td className={cell}>{format.money(figures.netExVat)}</td>
        </>
      )}
    </>
  );
}

/** A revenue table (per school or per month) with its total row. */
function RevenueTable({
  id,
  caption,
  firstColumn,
  rows,
  total,
}: {
  id: string;
  caption: string;
  firstColumn: string;
  rows: Array<{ key: string; label: ReactNode; figures: RevenueFigures }>;
  total: RevenueFigures;
}) {
  const { t } = useTranslation("adminFinance");
  const exempt = useVatContext() === "exempt";
  const number = "px-3 py-2 text-right font-semibold whitespace-nowrap text-slate-900";
  return (
    <section
      className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      aria-labelledby={id}
    >
      <table className="w-full min-w-[44rem] text-sm">
        <caption id={id} className="px-3 pt-3 text-left font-semibold text-brand-900">
          {caption}
        </caption>
        <thead className="border-b border-slate-200 bg-slate-50">
          <tr>
            <th scope="col" className="px-3 py-2 text-left font-semibold text-slate-900">
              {firstColumn}
            </th>
            <th scope="col" className={number}>
              {t("summary.columns.gross")}
            </th>
            <th scope="col" className={number}>
              {t("summary.columns.refunded")}
            </th>
            <th scope="col" className={number}>
              {t("summary.columns.net")}
            </th>
            {exempt ? null : (
              <>
                <th scope="col" className={number}>
                  {t("summary.columns.vat")}
                </th>
                <th scope="col" className={number}>
                  {t("summary.columns.netExVat")}
                </th>
              </>
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row" className="px-3 py-2 text-left font-normal text-slate-900">
                {row.label}
              </th>
              <FigureCells figures={row.figures} />
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-300">
          <tr>
            <th scope="row" className="px-3 py-2 text-left font-semibold text-slate-900">
              {t("summary.total")}
            </th>
            <FigureCells figures={total} strong />
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

/**
 * /admin/finances (owners and finance, `finance:read`; docs/product/back-office.md#finance): revenue per programme
 * and per month — payments received, refunds, net, and the 21 % VAT included in net shown apart (none
 * under `INVOICE_VAT=exempt`, docs/product/payments.md#vat-setting) —
 * and the ledger of payments and refunds, newest first, with search, filters, sorting and
 * pagination on the server. The period (from/to), filters, sort and page live in the address, and
 * both CSV buttons export the same selection.
 */
export default function AdminFinancesPage() {
  const { t } = useTranslation("adminFinance");
  const vatCtx = useVatContext();
  const format = useFormat();
  const { dateTime } = useDateTime();
  const list = useListParams({
    filterKeys: LEDGER_FILTERS,
    accept: (key, value) => (key !== "from" && key !== "to") || DATE.test(value),
    sort: {
      keys: LEDGER_SORT_KEYS,
      default: { key: "date", direction: "desc" },
      ascendingFirst: ["applicant"],
    },
  });
  const from = list.value("from");
  const to = list.value("to");

  const period = { from: from || undefined, to: to || undefined };
  const periodSearch = new URLSearchParams(
    Object.entries(period).filter((e): e is [string, string] => Boolean(e[1])),
  ).toString();

  const summary = useQuery({
    queryKey: financeQueryKeys.summary(periodSearch),
    queryFn: ({ signal }) => call(getFinanceSummaryContract, { query: period, signal }),
    placeholderData: keepPreviousData,
  });
  const ledger = useQuery({
    queryKey: financeQueryKeys.ledger(list.search),
    queryFn: ({ signal }) =>
      call(listLedgerContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });

  const monthLabel = (month: string) =>
    dateFormatFor(format.language, {
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${month}-01T00:00:00Z`));
  const summaryCsv = urlOf(exportFinanceSummaryContract, {}, period);
  const schoolOptions = (summary.data?.bySchool ?? []).map((s) => ({
    value: s.schoolId,
    label: `${s.name} (${format.date(s.startDate)})`,
  }));

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader title={t("title")} lead={t("lead", { context: vatCtx })} />

      <section
        aria-labelledby="period-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="period-heading" className="text-base font-semibold text-brand-900">
          {t("period.title")}
        </h2>
        <div className="mt-2 grid gap-4 sm:grid-cols-3">
          <div>
            <label htmlFor="finance-from" className="block text-sm font-medium text-slate-900">
              {t("period.from")}
            </label>
            <input
              id="finance-from"
              type="date"
              className={inputClass}
              value={from}
              max={to || undefined}
              onChange={(event) => list.update({ from: event.target.value || null })}
            />
          </div>
          <div>
            <label htmlFor="finance-to" className="block text-sm font-medium text-slate-900">
              {t("period.to")}
            </label>
            <input
              id="finance-to"
              type="date"
              className={inputClass}
              value={to}
              min={from || undefined}
              onChange={(event) => list.update({ to: event.target.value || null })}
            />
          </div>
          <p className="self-end text-sm text-slate-700">{t("period.hint")}</p>
        </div>
      </section>

      <div className="mt-6">
        <BalancesPanel id="finance-balances-heading" />
      </div>

      <div className="mt-8 space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-xl font-bold text-brand-900">{t("summary.title")}</h2>
          <CsvLink href={summaryCsv}>{t("summary.export")}</CsvLink>
        </div>
        <QueryResult query={summary}>
          {(data) => (
            <>
              <dl className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
                {(
                  [
                    ["gross", data.total.gross],
                    ["refunded", data.total.refunded],
                    ["net", data.total.net],
                    ...(vatCtx === "exempt" ? [] : ([["vat", data.total.vat]] as const)),
                  ] as const
                ).map(([name, cents]) => (
                  <div key={name} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                    <dt className="text-sm text-slate-700">{t(`summary.cards.${name}`)}</dt>
                    <dd className="mt-1 text-2xl font-bold text-brand-900">{format.money(cents)}</dd>
                  </div>
                ))}
              </dl>
              <p className="text-sm text-slate-700">{t("summary.vatNote", { context: vatCtx })}</p>
              {data.bySchool.length === 0 ? (
                <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-700">
                  {t("summary.empty")}
                </p>
              ) : (
                <>
                  <RevenueTable
                    id="revenue-by-school"
                    caption={t("summary.bySchool")}
                    firstColumn={t("summary.columns.school")}
                    rows={data.bySchool.map((s) => ({
                      key: s.schoolId,
                      label: (
                        <>
                          {s.name}
                          <span className="block text-xs text-slate-700">{format.date(s.startDate)}</span>
                        </>
                      ),
                      figures: s,
                    }))}
                    total={data.total}
                  />
                  <RevenueTable
                    id="revenue-by-month"
                    caption={t("summary.byMonth")}
                    firstColumn={t("summary.columns.month")}
                    rows={data.byMonth.map((m) => ({
                      key: m.month,
                      label: monthLabel(m.month),
                      figures: m,
                    }))}
                    total={data.total}
                  />
                </>
              )}
            </>
          )}
        </QueryResult>
      </div>

      <div className="mt-10">
        <Panel
          title={t("ledger.title")}
          id="ledger-heading"
          actions={<CsvLink href={list.csvHref(urlOf(exportLedgerContract))}>{t("ledger.export")}</CsvLink>}
        >
          <SearchForm
            id="ledger-q"
            label={t("ledger.search")}
            placeholder={t("ledger.searchPlaceholder")}
            value={list.value("q")}
            onSearch={(q) => list.update({ q })}
          />
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <FilterSelect
              id="ledger-kind"
              label={t("ledger.kind")}
              {...list.filterProps("kind")}
              options={LEDGER_KINDS.map((kind) => ({ value: kind, label: t(`ledger.kinds.${kind}`) }))}
              allLabel={t("ledger.all")}
            />
            <FilterSelect
              id="ledger-school"
              label={t("ledger.school")}
              {...list.filterProps("schoolId")}
              options={schoolOptions}
              allLabel={t("ledger.all")}
            />
          </div>
          {list.hasFilters ? (
            <ClearFiltersButton onClick={list.clearFilters}>{t("ledger.clear")}</ClearFiltersButton>
          ) : null}
        </Panel>
      </div>

      <div className="mt-6">
        <AdminListFrame
          list={ledger}
          empty={list.hasFilters ? t("ledger.emptyFiltered") : t("ledger.empty")}
          caption={t("ledger.caption")}
          captionId="ledger-caption"
          minWidth="min-w-[56rem]"
          paginationLabel={t("ledger.pagination")}
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="date" list={list}>
                {t("ledger.columns.date")}
              </SortHeader>
              <HeaderCell>{t("ledger.columns.kind")}</HeaderCell>
              <SortHeader column="applicant" list={list}>
                {t("ledger.columns.applicant")}
              </SortHeader>
              <HeaderCell>{t("ledger.columns.school")}</HeaderCell>
              <SortHeader column="amount" list={list} className="text-right">
                {t("ledger.columns.amount")}
              </SortHeader>
              <HeaderCell>{t("ledger.columns.reference")}</HeaderCell>
            </>
          }
          row={(entry) => {
            const name =
              `${entry.applicant.firstName} ${entry.applicant.lastName}`.trim() || entry.applicant.email;
            return (
              <tr key={entry.id} className="align-top hover:bg-slate-50">
                <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(entry.date)}</td>
                <td className="px-3 py-3">
                  <div className="font-medium text-slate-900">{t(`ledger.kinds.${entry.kind}`)}</div>
                  {entry.kind === "refund" ? (
                    <div className="mt-1">
                      <RefundStatusBadge status={entry.status} />
                    </div>
                  ) : null}
                </td>
                <td className="min-w-48 px-3 py-3">
                  <Link
                    to={`/admin/applications/${entry.applicationId}`}
                    className="font-semibold text-brand-700 underline"
                  >
                    {name}
                  </Link>
                  <div className="break-words text-slate-700">{entry.applicant.email}</div>
                </td>
                <td className="px-3 py-3 text-slate-800">{entry.school.name}</td>
                <td
                  className={cn(
                    "px-3 py-3 text-right font-semibold whitespace-nowrap",
                    entry.kind === "refund" ? "text-red-800" : "text-slate-900",
                  )}
                >
                  {entry.kind === "refund" ? `−${format.money(entry.amount)}` : format.money(entry.amount)}
                </td>
                <td className="min-w-56 px-3 py-3 text-slate-700">
                  {entry.reference ? (
                    <span className="font-mono text-xs break-all">{entry.reference}</span>
                  ) : (
                    "—"
                  )}
                  {entry.reason ? (
                    <div className="mt-1 break-words text-slate-800">{entry.reason}</div>
                  ) : null}
                </td>
              </tr>
            );
          }}
        />
      </div>
    </div>
  );
}
