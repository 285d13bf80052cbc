import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AlertTriangle, ArrowDown, ArrowUp, ArrowUpDown, Download, Flag } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import type { AdminApplicationList } from "../../../../shared/admin";
import {
  APPLICATION_SORT_KEYS,
  APPLICATION_STATUSES,
  type ApplicationSortKey,
  MAX_PAGE_SIZE,
  PAYMENT_STATUSES,
} from "../../../../shared/schemas/admin";
import { Button, buttonClass } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { inputClass } from "../../../components/ui/Field";
import { api } from "../../../lib/api";
import { useSummerSchools } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { AdminListFrame } from "../components/AdminListFrame";
import {
  AdminPageHeader,
  ApplicationStatusBadge,
  PaymentStatusBadge,
  useDateTime,
} from "../components/common";
import { adminKeys } from "../permissions";

/** Filters kept in the address (the list and the CSV export take the same ones). */
const FILTER_KEYS = [
  "status",
  "paymentStatus",
  "schoolId",
  "code",
  "affiliateId",
  "from",
  "to",
  "q",
] as const;
const PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_SORT = "createdAt:desc";

interface Sort {
  key: ApplicationSortKey;
  direction: "asc" | "desc";
}

function sortOf(value: string | null): Sort {
  const [key, direction] = (value ?? DEFAULT_SORT).split(":");
  return (APPLICATION_SORT_KEYS as readonly string[]).includes(key ?? "") &&
    (direction === "asc" || direction === "desc")
    ? { key: key as ApplicationSortKey, direction }
    : { key: "createdAt", direction: "desc" };
}

const positive = (value: string | null, fallback: number, max: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

/** The filters present in the address, as a query string (for the list and the export). */
function filtersOf(params: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) out.set(key, value);
  }
  return out;
}

/** A column header that sorts the list (aria-sort on the sorted column). */
function SortHeader({
  column,
  sort,
  onSort,
  children,
  className,
}: {
  column: ApplicationSortKey;
  sort: Sort;
  onSort: (column: ApplicationSortKey) => void;
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation("admin");
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === "asc" ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
      className={cn("relative px-3 py-3 text-left font-semibold whitespace-nowrap text-slate-900", className)}
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
            ? t(sort.direction === "asc" ? "applications.sortedAsc" : "applications.sortedDesc")
            : t("applications.sortable")}
        </span>
      </button>
    </th>
  );
}

/**
 * /admin/applications: the applications with server-side pagination and sorting (column header
 * buttons), filters by status, payment status, school and a search on name or e-mail, all kept in
 * the address so a view can be shared or reloaded; "Export CSV" downloads the same selection.
 */
export default function AdminApplicationsPage() {
  const { t } = useTranslation("admin");
  const format = useFormat();
  const { date } = useDateTime();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const schools = useSummerSchools();

  const page = positive(params.get("page"), 1, 100_000);
  const pageSize = positive(params.get("pageSize"), 25, MAX_PAGE_SIZE);
  const sort = sortOf(params.get("sort"));
  const filters = filtersOf(params);
  const query = new URLSearchParams(filters);
  query.set("page", String(page));
  query.set("pageSize", String(pageSize));
  query.set("sort", `${sort.key}:${sort.direction}`);
  const search = query.toString();

  const list = useQuery({
    queryKey: adminKeys.list(search),
    queryFn: ({ signal }) => api<AdminApplicationList>(`/api/admin/applications?${search}`, { signal }),
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

  const onSort = (column: ApplicationSortKey) => {
    const direction =
      sort.key === column
        ? sort.direction === "asc"
          ? "desc"
          : "asc"
        : column === "lastName"
          ? "asc"
          : "desc";
    const value = `${column}:${direction}`;
    update({ sort: value === DEFAULT_SORT ? null : value });
  };

  const hasFilters = filters.size > 0;
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    const s = next.toString();
    return s ? `?${s}` : location.pathname;
  };
  const exportHref = `/api/admin/applications.csv${filters.size ? `?${filters.toString()}` : ""}`;
  const sortLabel = t(`applications.columns.${sort.key}`);

  const select = (
    id: string,
    label: string,
    key: "status" | "paymentStatus" | "schoolId",
    options: Array<{ value: string; label: string }>,
  ) => (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={params.get(key) ?? ""}
        onChange={(event) => update({ [key]: event.target.value || null })}
      >
        <option value="">{t("applications.filters.all")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );

  const schoolOptions = (schools.data ?? []).map((school) => ({
    value: school.id,
    label: `${school.name} (${format.date(school.startDate)})`,
  }));
  const currentSchool = params.get("schoolId");
  if (currentSchool && !schoolOptions.some((option) => option.value === currentSchool)) {
    const name = list.data?.items.find((item) => item.summerSchool.id === currentSchool)?.summerSchool.name;
    schoolOptions.push({ value: currentSchool, label: name ?? t("applications.filters.otherSchool") });
  }

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("applications.title")}
        lead={t("applications.lead")}
        actions={
          <a href={exportHref} download className={buttonClass("secondary", "sm")}>
            <Download aria-hidden="true" className="h-4 w-4" />
            {t("applications.export")}
          </a>
        }
      />

      <section
        aria-labelledby="filters-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="filters-heading" className="sr-only">
          {t("applications.filters.title")}
        </h2>
        <form onSubmit={submitSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="filter-q" className="block text-sm font-medium text-slate-900">
              {t("applications.filters.search")}
            </label>
            <input
              id="filter-q"
              type="search"
              value={q}
              onChange={(event) => setQ(event.target.value)}
              maxLength={200}
              className={inputClass}
              placeholder={t("applications.filters.searchPlaceholder")}
            />
          </div>
          <Button type="submit" variant="secondary">
            {t("applications.filters.searchButton")}
          </Button>
        </form>
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          {select(
            "filter-status",
            t("applications.filters.status"),
            "status",
            APPLICATION_STATUSES.map((value) => ({ value, label: t(`status.${value}`) })),
          )}
          {select(
            "filter-payment",
            t("applications.filters.paymentStatus"),
            "paymentStatus",
            PAYMENT_STATUSES.map((value) => ({ value, label: t(`paymentStatus.${value}`) })),
          )}
          {select("filter-school", t("applications.filters.school"), "schoolId", schoolOptions)}
        </div>
        {hasFilters ? (
          <div className="mt-4 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            {(["code", "affiliateId", "from", "to"] as const)
              .filter((key) => filters.has(key))
              .map((key) => (
                <span key={key} className="rounded-full bg-slate-100 px-3 py-1 text-slate-800">
                  {t(`applications.filters.${key}`)}: {filters.get(key)}
                </span>
              ))}
            <button
              type="button"
              onClick={() => {
                const next = new URLSearchParams(params);
                for (const key of FILTER_KEYS) next.delete(key);
                next.delete("page");
                setParams(next);
              }}
              className="font-medium text-brand-700 underline"
            >
              {t("applications.filters.clear")}
            </button>
          </div>
        ) : null}
      </section>

      <div className="mt-6">
        <AdminListFrame
          list={list}
          empty={hasFilters ? t("applications.emptyFiltered") : t("applications.empty")}
          captionId="applications-caption"
          caption={t("applications.caption", {
            sort: sortLabel,
            direction: t(sort.direction === "asc" ? "applications.ascending" : "applications.descending"),
          })}
          minWidth="min-w-[56rem]"
          paginationLabel={t("applications.pagination")}
          pageLink={pageLink}
          head={
            <>
              <SortHeader column="lastName" sort={sort} onSort={onSort}>
                {t("applications.columns.applicant")}
              </SortHeader>
              <th scope="col" className="px-3 py-3 text-left font-semibold text-slate-900">
                {t("applications.columns.programme")}
              </th>
              <SortHeader column="status" sort={sort} onSort={onSort}>
                {t("applications.columns.status")}
              </SortHeader>
              <th scope="col" className="px-3 py-3 text-left font-semibold text-slate-900">
                {t("applications.columns.payment")}
              </th>
              <SortHeader column="totalAmount" sort={sort} onSort={onSort} className="text-right">
                {t("applications.columns.totalAmount")}
              </SortHeader>
              <SortHeader column="createdAt" sort={sort} onSort={onSort}>
                {t("applications.columns.createdAt")}
              </SortHeader>
              <SortHeader column="submittedAt" sort={sort} onSort={onSort}>
                {t("applications.columns.submittedAt")}
              </SortHeader>
            </>
          }
          row={(item) => {
            const name =
              `${item.applicant.firstName} ${item.applicant.lastName}`.trim() || t("applications.noName");
            return (
              <tr key={item.id} className="align-top hover:bg-slate-50">
                <td className="min-w-56 px-3 py-3">
                  <Link
                    to={`/admin/applications/${item.id}`}
                    state={{ listSearch: location.search }}
                    className="font-semibold text-brand-700 underline"
                  >
                    {name}
                  </Link>
                  <div className="break-words text-slate-700">{item.applicant.email}</div>
                  <div className="mt-1 flex flex-wrap gap-1">
                    {item.missingCriticalData ? (
                      <span className="inline-flex items-center gap-1 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-900">
                        <AlertTriangle aria-hidden="true" className="h-3 w-3" />
                        {t("applications.missingData")}
                      </span>
                    ) : null}
                    {item.flag ? (
                      <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                        <Flag aria-hidden="true" className="h-3 w-3" />
                        {item.flag}
                      </span>
                    ) : null}
                    {item.code ? (
                      <span className="rounded-full bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-800">
                        {item.code}
                      </span>
                    ) : null}
                  </div>
                </td>
                <td className="px-3 py-3 text-slate-800">{item.summerSchool.name}</td>
                <td className="px-3 py-3">
                  <ApplicationStatusBadge status={item.status} />
                </td>
                <td className="px-3 py-3">
                  <PaymentStatusBadge status={item.paymentStatus} />
                </td>
                <td className="px-3 py-3 text-right whitespace-nowrap">
                  <div className="font-semibold text-slate-900">
                    {item.totalAmount === null ? "—" : format.money(item.totalAmount)}
                  </div>
                  <div className="text-slate-700">
                    {t("applications.paid", { amount: format.money(item.amountPaid) })}
                  </div>
                </td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-800">{date(item.createdAt)}</td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-800">{date(item.submittedAt)}</td>
              </tr>
            );
          }}
          tools={
            <div className="flex items-center gap-2">
              <label htmlFor="page-size" className="text-sm text-slate-800">
                {t("applications.pageSize")}
              </label>
              <select
                id="page-size"
                value={pageSize}
                onChange={(event) =>
                  update({ pageSize: event.target.value === "25" ? null : event.target.value })
                }
                className="rounded-lg border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900"
              >
                {PAGE_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </div>
          }
        />
      </div>
    </div>
  );
}
