import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import type { AdminAffiliateDto, AdminAffiliateList } from "../../../../shared/affiliates-admin";
import {
  AFFILIATE_SORT_KEYS,
  AFFILIATE_STATUSES,
  type AffiliateSortKey,
} from "../../../../shared/schemas/affiliates-admin";
import { MAX_PAGE_SIZE } from "../../../../shared/schemas/list";
import { Button, buttonClass } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { api } from "../../../lib/api";
import { useFormat } from "../../../lib/format";
import { AdminListFrame } from "../components/AdminListFrame";
import { type AffiliateAction, AffiliateActionDialog } from "../components/codes/AffiliateActions";
import {
  AffiliateStatusBadge,
  codeKeys,
  positiveParam,
  SortHeader,
  sortFrom,
  Th,
} from "../components/codes/shared";
import { AdminPageHeader, useDateTime } from "../components/common";

const FILTER_KEYS = ["status", "q"] as const;
const DEFAULT_SORT = { key: "createdAt", direction: "desc" } as const;

/**
 * /admin/affiliates (issue 3 "Affiliates"): every affiliate with its codes, referred
 * applications, paid revenue and commission earned; filter by status, search on name or e-mail,
 * server-side sort and pages kept in the address, CSV export. Approve, suspend and reactivate
 * from the list, each confirmed in a dialog.
 */
export default function AdminAffiliatesPage() {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  const { date } = useDateTime();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const [pending, setPending] = useState<{ affiliate: AdminAffiliateDto; action: AffiliateAction } | null>(
    null,
  );

  const page = positiveParam(params.get("page"), 1, 100_000);
  const pageSize = positiveParam(params.get("pageSize"), 25, MAX_PAGE_SIZE);
  const sort = sortFrom<AffiliateSortKey>(params.get("sort"), AFFILIATE_SORT_KEYS, DEFAULT_SORT);
  const filters = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = params.get(key)?.trim();
    if (value) filters.set(key, value);
  }
  const query = new URLSearchParams(filters);
  query.set("page", String(page));
  query.set("pageSize", String(pageSize));
  query.set("sort", `${sort.key}:${sort.direction}`);
  const search = query.toString();

  const list = useQuery({
    queryKey: codeKeys.affiliateList(search),
    queryFn: ({ signal }) => api<AdminAffiliateList>(`/api/admin/affiliates?${search}`, { signal }),
    placeholderData: keepPreviousData,
  });

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
  const onSort = (column: AffiliateSortKey) => {
    const direction =
      sort.key === column ? (sort.direction === "asc" ? "desc" : "asc") : column === "name" ? "asc" : "desc";
    const value = `${column}:${direction}`;
    update({ sort: value === "createdAt:desc" ? null : value });
  };
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    const s = next.toString();
    return s ? `?${s}` : location.pathname;
  };
  const exportHref = `/api/admin/affiliates.csv${filters.size ? `?${filters.toString()}` : ""}`;

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("affiliates.title")}
        lead={t("affiliates.lead")}
        actions={
          <a href={exportHref} download className={buttonClass("secondary", "sm")}>
            <Download aria-hidden="true" className="h-4 w-4" />
            {t("affiliates.export")}
          </a>
        }
      />

      <section
        aria-labelledby="affiliate-filters-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="affiliate-filters-heading" className="sr-only">
          {t("filters.title")}
        </h2>
        <div className="flex flex-col gap-4 md:flex-row md:items-end">
          <form onSubmit={submitSearch} className="flex flex-1 flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1">
              <label htmlFor="affiliate-filter-q" className="block text-sm font-medium text-slate-900">
                {t("filters.searchAffiliates")}
              </label>
              <input
                id="affiliate-filter-q"
                type="search"
                value={q}
                onChange={(event) => setQ(event.target.value)}
                maxLength={200}
                className={inputClass}
              />
            </div>
            <Button type="submit" variant="secondary">
              {t("filters.searchButton")}
            </Button>
          </form>
          <div className="md:w-56">
            <label htmlFor="affiliate-filter-status" className="block text-sm font-medium text-slate-900">
              {t("filters.status")}
            </label>
            <select
              id="affiliate-filter-status"
              className={inputClass}
              value={params.get("status") ?? ""}
              onChange={(event) => update({ status: event.target.value || null })}
            >
              <option value="">{t("filters.all")}</option>
              {AFFILIATE_STATUSES.map((status) => (
                <option key={status} value={status}>
                  {t(`affiliates.status.${status}`)}
                </option>
              ))}
            </select>
          </div>
        </div>
      </section>

      <div className="mt-6">
        <AdminListFrame
          list={list}
          empty={filters.size ? t("affiliates.emptyFiltered") : t("affiliates.empty")}
          captionId="affiliates-caption"
          caption={t("affiliates.caption")}
          minWidth="min-w-[62rem]"
          pageLink={pageLink}
          head={
            <>
              <SortHeader column="name" sort={sort} onSort={onSort}>
                {t("affiliates.columns.affiliate")}
              </SortHeader>
              <SortHeader column="status" sort={sort} onSort={onSort}>
                {t("affiliates.columns.status")}
              </SortHeader>
              <Th>{t("affiliates.columns.codes")}</Th>
              <SortHeader column="referredApplications" sort={sort} onSort={onSort}>
                {t("affiliates.columns.referred")}
              </SortHeader>
              <SortHeader column="paidRevenue" sort={sort} onSort={onSort} className="text-right">
                {t("affiliates.columns.revenue")}
              </SortHeader>
              <SortHeader column="commission" sort={sort} onSort={onSort} className="text-right">
                {t("affiliates.columns.commission")}
              </SortHeader>
              <SortHeader column="createdAt" sort={sort} onSort={onSort}>
                {t("affiliates.columns.createdAt")}
              </SortHeader>
              <Th>
                <span className="sr-only">{t("affiliates.columns.actions")}</span>
              </Th>
            </>
          }
          row={(a) => (
            <tr key={a.id} className="align-top hover:bg-slate-50">
              <td className="min-w-56 px-3 py-3">
                <Link to={`/admin/affiliates/${a.id}`} className="font-semibold text-brand-700 underline">
                  {a.name}
                </Link>
                <div className="break-words text-slate-700">{a.email}</div>
              </td>
              <td className="px-3 py-3">
                <AffiliateStatusBadge status={a.status} />
              </td>
              <td className="px-3 py-3 font-mono text-slate-900">
                {a.codes.length ? a.codes.join(", ") : "—"}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-900">
                {a.referredApplications}
                <div className="text-xs text-slate-700">
                  {t("affiliates.paidCount", { count: a.paidApplications })}
                </div>
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
                {format.money(a.paidRevenue)}
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
                {format.money(a.commission)}
                <div className="text-xs text-slate-700">
                  {t("affiliates.rate", { percent: a.commissionPercent })}
                </div>
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{date(a.createdAt)}</td>
              <td className="px-3 py-3">
                <div className="flex justify-end gap-1">
                  {a.status !== "approved" ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      onClick={() =>
                        setPending({
                          affiliate: a,
                          action: a.status === "pending" ? "approve" : "reactivate",
                        })
                      }
                      aria-label={t(
                        a.status === "pending" ? "actions.approveLabel" : "actions.reactivateLabel",
                        {
                          name: a.name,
                        },
                      )}
                    >
                      {a.status === "pending" ? t("actions.approve") : t("actions.reactivate")}
                    </Button>
                  ) : null}
                  {a.status !== "suspended" ? (
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setPending({ affiliate: a, action: "suspend" })}
                      aria-label={t("actions.suspendLabel", { name: a.name })}
                    >
                      {t("actions.suspend")}
                    </Button>
                  ) : null}
                </div>
              </td>
            </tr>
          )}
        />
      </div>

      <AffiliateActionDialog pending={pending} onClose={() => setPending(null)} />
    </div>
  );
}
