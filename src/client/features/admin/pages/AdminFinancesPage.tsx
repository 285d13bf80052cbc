import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, ArrowUpDown, Download } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import type { FinanceSummaryDto, LedgerPage, RevenueFigures } from "../../../../shared/finance";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import { LEDGER_KINDS, LEDGER_SORT_KEYS, type LedgerSortKey } from "../../../../shared/schemas/finance";
import { Notice } from "../../../components/account/auth";
import { Button, buttonClass } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { inputClass } from "../../../components/ui/Field";
import { Spinner } from "../../../components/ui/Spinner";
import { api } from "../../../lib/api";
import { useFormat } from "../../../lib/format";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import { RefundStatusBadge } from "../components/finance/RefundPanel";

const PAGE_SIZE = 25;
const DEFAULT_SORT = "date:desc";
/** Filters of the ledger kept in the address (the CSV export takes the same ones). */
const LEDGER_FILTERS = ["schoolId", "kind", "from", "to", "q"] as const;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Sort {
  key: LedgerSortKey;
  direction: "asc" | "desc";
}

function sortOf(value: string | null): Sort {
  const [key, direction] = (value ?? DEFAULT_SORT).split(":");
  return (LEDGER_SORT_KEYS as readonly string[]).includes(key ?? "") &&
    (direction === "asc" || direction === "desc")
    ? { key: key as LedgerSortKey, direction }
    : { key: "date", direction: "desc" };
}

const financeQueryKeys = {
  summary: (search: string) => ["admin", "finance", "summary", search] as const,
  ledger: (search: string) => ["admin", "finance", "ledger", search] as const,
};

/** The revenue figures of one row: gross, refunded, net, VAT included in net, net without VAT. */
function FigureCells({ figures, strong = false }: { figures: RevenueFigures; strong?: boolean }) {
  const format = useFormat();
  const cell = cn(
    "px-3 py-2 text-right whitespace-nowrap",
    strong ? "font-semibold text-slate-900" : "text-slate-800",
  );
  return (
    <>
      <td className={cell}>{format.money(figures.gross)}</td>
      <td className={cell}>{figures.refunded ? `−${format.money(figures.refunded)}` : format.money(0)}</td>
      <td className={cell}>{format.money(figures.net)}</td>
      <td className={cell}>{format.money(figures.vat)}</td>
      <td className={cell}>{format.money(figures.netExVat)}</td>
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
            <th scope="col" className={number}>
              {t("summary.columns.vat")}
            </th>
            <th scope="col" className={number}>
              {t("summary.columns.netExVat")}
            </th>
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

/** A column header that sorts the ledger (aria-sort on the sorted column). */
function SortHeader({
  column,
  sort,
  onSort,
  children,
  className,
}: {
  column: LedgerSortKey;
  sort: Sort;
  onSort: (column: LedgerSortKey) => void;
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation("adminFinance");
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === "asc" ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
      className={cn("px-3 py-3 text-left font-semibold whitespace-nowrap text-slate-900", className)}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 rounded hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {children}
        <Icon aria-hidden="true" className={cn("h-4 w-4", active ? "text-brand-700" : "text-slate-500")} />
        <span className="sr-only">
          {active
            ? t(sort.direction === "asc" ? "ledger.sortedAsc" : "ledger.sortedDesc")
            : t("ledger.sortable")}
        </span>
      </button>
    </th>
  );
}

/**
 * /admin/finances (owners and finance, `finance:read`; issue "Finances"): revenue per programme
 * and per month — payments received, refunds, net, and the 21 % VAT included in net shown apart —
 * and the ledger of payments and refunds, newest first, with search, filters, sorting and
 * pagination on the server. The period (from/to), filters, sort and page live in the address, and
 * both CSV buttons export the same selection.
 */
export default function AdminFinancesPage() {
  const { t } = useTranslation("adminFinance");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const location = useLocation();
  const [params, setParams] = useSearchParams();

  const pageParam = Number(params.get("page"));
  const page = Number.isInteger(pageParam) && pageParam >= 1 ? pageParam : 1;
  const sort = sortOf(params.get("sort"));
  const from = DATE.test(params.get("from") ?? "") ? params.get("from")! : "";
  const to = DATE.test(params.get("to") ?? "") ? params.get("to")! : "";

  const period = new URLSearchParams();
  if (from) period.set("from", from);
  if (to) period.set("to", to);
  const periodSearch = period.toString();

  const filters = new URLSearchParams();
  for (const key of LEDGER_FILTERS) {
    const value = params.get(key)?.trim();
    if (value && ((key !== "from" && key !== "to") || DATE.test(value))) filters.set(key, value);
  }
  const ledgerQuery = new URLSearchParams(filters);
  ledgerQuery.set("page", String(page));
  ledgerQuery.set("pageSize", String(PAGE_SIZE));
  ledgerQuery.set("sort", `${sort.key}:${sort.direction}`);
  const ledgerSearch = ledgerQuery.toString();

  const summary = useQuery({
    queryKey: financeQueryKeys.summary(periodSearch),
    queryFn: ({ signal }) =>
      api<FinanceSummaryDto>(`/api/admin/finances/summary${periodSearch ? `?${periodSearch}` : ""}`, {
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const ledger = useQuery({
    queryKey: financeQueryKeys.ledger(ledgerSearch),
    queryFn: ({ signal }) => api<LedgerPage>(`/api/admin/finances/ledger?${ledgerSearch}`, { signal }),
    placeholderData: keepPreviousData,
  });

  /** Changes some parameters of the address (empty values removed); back to page 1 unless `page` is set. */
  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    if (!("page" in changes)) next.delete("page");
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };

  const [q, setQ] = useState(params.get("q") ?? "");
  const addressQ = params.get("q") ?? "";
  useEffect(() => setQ(addressQ), [addressQ]);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    update({ q: q.trim() || null });
  };

  const onSort = (column: LedgerSortKey) => {
    const direction =
      sort.key === column
        ? sort.direction === "asc"
          ? "desc"
          : "asc"
        : column === "applicant"
          ? "asc"
          : "desc";
    const value = `${column}:${direction}`;
    update({ sort: value === DEFAULT_SORT ? null : value });
  };
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    const s = next.toString();
    return s ? `?${s}` : location.pathname;
  };

  const monthLabel = (month: string) =>
    new Intl.DateTimeFormat(LOCALE_OF[format.language], {
      month: "long",
      year: "numeric",
      timeZone: "UTC",
    }).format(new Date(`${month}-01T00:00:00Z`));
  const hasFilters = filters.size > 0;
  const summaryCsv = `/api/admin/finances/summary.csv${periodSearch ? `?${periodSearch}` : ""}`;
  const ledgerCsv = `/api/admin/finances/ledger.csv${filters.size ? `?${filters.toString()}` : ""}`;
  const schoolOptions = (summary.data?.bySchool ?? []).map((s) => ({
    value: s.schoolId,
    label: `${s.name} (${format.date(s.startDate)})`,
  }));

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader title={t("title")} lead={t("lead")} />

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
              onChange={(event) => update({ from: event.target.value || null })}
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
              onChange={(event) => update({ to: event.target.value || null })}
            />
          </div>
          <p className="self-end text-sm text-slate-700">{t("period.hint")}</p>
        </div>
      </section>

      <div className="mt-8 space-y-6">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 className="text-xl font-bold text-brand-900">{t("summary.title")}</h2>
          <a href={summaryCsv} download className={buttonClass("secondary", "sm")}>
            <Download aria-hidden="true" className="h-4 w-4" />
            {t("summary.export")}
          </a>
        </div>
        {summary.isPending ? (
          <Spinner />
        ) : summary.isError ? (
          <Notice tone="error" title={t("common:loadError")}>
            <p>{summary.error.message}</p>
          </Notice>
        ) : (
          <>
            <dl className="grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
              {(
                [
                  ["gross", summary.data.total.gross],
                  ["refunded", summary.data.total.refunded],
                  ["net", summary.data.total.net],
                  ["vat", summary.data.total.vat],
                ] as const
              ).map(([name, cents]) => (
                <div key={name} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                  <dt className="text-sm text-slate-700">{t(`summary.cards.${name}`)}</dt>
                  <dd className="mt-1 text-2xl font-bold text-brand-900">{format.money(cents)}</dd>
                </div>
              ))}
            </dl>
            <p className="text-sm text-slate-700">{t("summary.vatNote")}</p>
            {summary.data.bySchool.length === 0 ? (
              <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-700">
                {t("summary.empty")}
              </p>
            ) : (
              <>
                <RevenueTable
                  id="revenue-by-school"
                  caption={t("summary.bySchool")}
                  firstColumn={t("summary.columns.school")}
                  rows={summary.data.bySchool.map((s) => ({
                    key: s.schoolId,
                    label: (
                      <>
                        {s.name}
                        <span className="block text-xs text-slate-700">{format.date(s.startDate)}</span>
                      </>
                    ),
                    figures: s,
                  }))}
                  total={summary.data.total}
                />
                <RevenueTable
                  id="revenue-by-month"
                  caption={t("summary.byMonth")}
                  firstColumn={t("summary.columns.month")}
                  rows={summary.data.byMonth.map((m) => ({
                    key: m.month,
                    label: monthLabel(m.month),
                    figures: m,
                  }))}
                  total={summary.data.total}
                />
              </>
            )}
          </>
        )}
      </div>

      <div className="mt-10">
        <Panel
          title={t("ledger.title")}
          id="ledger-heading"
          actions={
            <a href={ledgerCsv} download className={buttonClass("secondary", "sm")}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t("ledger.export")}
            </a>
          }
        >
          <form onSubmit={submitSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1">
              <label htmlFor="ledger-q" className="block text-sm font-medium text-slate-900">
                {t("ledger.search")}
              </label>
              <input
                id="ledger-q"
                type="search"
                value={q}
                onChange={(event) => setQ(event.target.value)}
                maxLength={200}
                className={inputClass}
                placeholder={t("ledger.searchPlaceholder")}
              />
            </div>
            <Button type="submit" variant="secondary">
              {t("ledger.searchButton")}
            </Button>
          </form>
          <div className="mt-4 grid gap-4 sm:grid-cols-2">
            <div>
              <label htmlFor="ledger-kind" className="block text-sm font-medium text-slate-900">
                {t("ledger.kind")}
              </label>
              <select
                id="ledger-kind"
                className={inputClass}
                value={params.get("kind") ?? ""}
                onChange={(event) => update({ kind: event.target.value || null })}
              >
                <option value="">{t("ledger.all")}</option>
                {LEDGER_KINDS.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`ledger.kinds.${kind}`)}
                  </option>
                ))}
              </select>
            </div>
            <div>
              <label htmlFor="ledger-school" className="block text-sm font-medium text-slate-900">
                {t("ledger.school")}
              </label>
              <select
                id="ledger-school"
                className={inputClass}
                value={params.get("schoolId") ?? ""}
                onChange={(event) => update({ schoolId: event.target.value || null })}
              >
                <option value="">{t("ledger.all")}</option>
                {schoolOptions.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </select>
            </div>
          </div>
          {hasFilters ? (
            <button
              type="button"
              onClick={() => {
                const next = new URLSearchParams(params);
                for (const key of LEDGER_FILTERS) next.delete(key);
                next.delete("page");
                setParams(next);
              }}
              className="mt-4 text-sm font-medium text-brand-700 underline"
            >
              {t("ledger.clear")}
            </button>
          ) : null}
        </Panel>
      </div>

      <div className="mt-6">
        <AdminListFrame
          list={ledger}
          empty={hasFilters ? t("ledger.emptyFiltered") : t("ledger.empty")}
          caption={t("ledger.caption")}
          captionId="ledger-caption"
          minWidth="min-w-[56rem]"
          paginationLabel={t("ledger.pagination")}
          pageLink={pageLink}
          head={
            <>
              <SortHeader column="date" sort={sort} onSort={onSort}>
                {t("ledger.columns.date")}
              </SortHeader>
              <HeaderCell>{t("ledger.columns.kind")}</HeaderCell>
              <SortHeader column="applicant" sort={sort} onSort={onSort}>
                {t("ledger.columns.applicant")}
              </SortHeader>
              <HeaderCell>{t("ledger.columns.school")}</HeaderCell>
              <SortHeader column="amount" sort={sort} onSort={onSort} className="text-right">
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
