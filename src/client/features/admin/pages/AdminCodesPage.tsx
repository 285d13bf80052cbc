import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, Pencil, Plus } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import type { AdminCodeDto, AdminCodeList } from "../../../../shared/codes-admin";
import { CODE_SORT_KEYS, CODE_TYPES, type CodeSortKey } from "../../../../shared/schemas/codes-admin";
import { MAX_PAGE_SIZE } from "../../../../shared/schemas/list";
import { Button, buttonClass } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { toast } from "../../../components/ui/toast-store";
import { api } from "../../../lib/api";
import { useSummerSchools } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { AdminListFrame } from "../components/AdminListFrame";
import { CodeFormDialog } from "../components/codes/CodeFormDialog";
import {
  CodeStateBadge,
  codeKeys,
  positiveParam,
  SortHeader,
  sortFrom,
  Th,
  useAffiliateOptions,
  useDiscountLabel,
  useUsesLabel,
} from "../components/codes/shared";
import { AdminPageHeader, useDateTime } from "../components/common";

/** Filters kept in the address (the list and the CSV export take the same ones). */
const FILTER_KEYS = ["type", "active", "expired", "schoolId", "affiliateId", "q"] as const;
const DEFAULT_SORT = { key: "createdAt", direction: "desc" } as const;

/**
 * /admin/codes (issue 3 "Codes"): every discount and referral code with its live uses against
 * its maximum and the revenue of the applications that redeemed it; search on code or
 * description, filters (type, active, expired, programme, affiliate), server-side sort and pages,
 * all kept in the address; "New code" and "Edit" open the code form; "Deactivate"/"Activate"
 * switch a code; "Export CSV" downloads the same selection.
 */
export default function AdminCodesPage() {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const location = useLocation();
  const queryClient = useQueryClient();
  const discount = useDiscountLabel();
  const usesLabel = useUsesLabel();
  const [params, setParams] = useSearchParams();
  const schools = useSummerSchools();
  const affiliateOptions = useAffiliateOptions();
  const [editing, setEditing] = useState<AdminCodeDto | null>(null);
  const [formOpen, setFormOpen] = useState(false);

  const page = positiveParam(params.get("page"), 1, 100_000);
  const pageSize = positiveParam(params.get("pageSize"), 25, MAX_PAGE_SIZE);
  const sort = sortFrom<CodeSortKey>(params.get("sort"), CODE_SORT_KEYS, DEFAULT_SORT);
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
    queryKey: codeKeys.list(search),
    queryFn: ({ signal }) => api<AdminCodeList>(`/api/admin/codes?${search}`, { signal }),
    placeholderData: keepPreviousData,
  });

  const toggle = useMutation({
    mutationFn: (code: AdminCodeDto) =>
      api<AdminCodeDto>(`/api/admin/codes/${code.id}/${code.active ? "deactivate" : "activate"}`, {
        body: { version: code.version },
      }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
      toast({
        title: saved.active ? t("codes.activatedTitle") : t("codes.deactivatedTitle"),
        description: saved.code,
        variant: "success",
      });
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
      toast({ title: t("codes.failedTitle"), description: error.message, variant: "destructive" });
    },
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

  const onSort = (column: CodeSortKey) => {
    const direction =
      sort.key === column ? (sort.direction === "asc" ? "desc" : "asc") : column === "code" ? "asc" : "desc";
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
  const exportHref = `/api/admin/codes.csv${filters.size ? `?${filters.toString()}` : ""}`;

  const select = (
    id: string,
    label: string,
    key: string,
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
        <option value="">{t("filters.all")}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );

  const openNew = () => {
    setEditing(null);
    setFormOpen(true);
  };

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("codes.title")}
        lead={t("codes.lead")}
        actions={
          <>
            <Button size="sm" onClick={openNew}>
              <Plus aria-hidden="true" className="h-4 w-4" />
              {t("codes.new")}
            </Button>
            <a href={exportHref} download className={buttonClass("secondary", "sm")}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t("codes.export")}
            </a>
          </>
        }
      />

      <section
        aria-labelledby="code-filters-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="code-filters-heading" className="sr-only">
          {t("filters.title")}
        </h2>
        <form onSubmit={submitSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="code-filter-q" className="block text-sm font-medium text-slate-900">
              {t("filters.searchCodes")}
            </label>
            <input
              id="code-filter-q"
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
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          {select(
            "code-filter-type",
            t("filters.type"),
            "type",
            CODE_TYPES.map((value) => ({ value, label: t(`codes.type.${value}`) })),
          )}
          {select("code-filter-active", t("filters.active"), "active", [
            { value: "true", label: t("filters.activeYes") },
            { value: "false", label: t("filters.activeNo") },
          ])}
          {select("code-filter-expired", t("filters.expired"), "expired", [
            { value: "false", label: t("filters.expiredNo") },
            { value: "true", label: t("filters.expiredYes") },
          ])}
          {select(
            "code-filter-school",
            t("filters.school"),
            "schoolId",
            (schools.data ?? []).map((s) => ({
              value: s.id,
              label: `${s.name} (${format.date(s.startDate)})`,
            })),
          )}
          {select(
            "code-filter-affiliate",
            t("filters.affiliate"),
            "affiliateId",
            (affiliateOptions.data?.items ?? []).map((a) => ({ value: a.id, label: a.name })),
          )}
        </div>
        {filters.size > 0 ? (
          <button
            type="button"
            onClick={() => {
              const next = new URLSearchParams(params);
              for (const key of FILTER_KEYS) next.delete(key);
              next.delete("page");
              setParams(next);
            }}
            className="mt-4 text-sm font-medium text-brand-700 underline"
          >
            {t("filters.clear")}
          </button>
        ) : null}
      </section>

      <div className="mt-6">
        <AdminListFrame
          list={list}
          empty={filters.size ? t("codes.emptyFiltered") : t("codes.empty")}
          captionId="codes-caption"
          caption={t("codes.caption")}
          minWidth="min-w-[60rem]"
          pageLink={pageLink}
          head={
            <>
              <SortHeader column="code" sort={sort} onSort={onSort}>
                {t("codes.columns.code")}
              </SortHeader>
              <Th>{t("codes.columns.discount")}</Th>
              <Th>{t("codes.columns.state")}</Th>
              <SortHeader column="validTo" sort={sort} onSort={onSort}>
                {t("codes.columns.validity")}
              </SortHeader>
              <SortHeader column="uses" sort={sort} onSort={onSort}>
                {t("codes.columns.uses")}
              </SortHeader>
              <SortHeader column="revenue" sort={sort} onSort={onSort} className="text-right">
                {t("codes.columns.revenue")}
              </SortHeader>
              <SortHeader column="createdAt" sort={sort} onSort={onSort}>
                {t("codes.columns.createdAt")}
              </SortHeader>
              <Th>
                <span className="sr-only">{t("codes.columns.actions")}</span>
              </Th>
            </>
          }
          row={(code) => (
            <tr key={code.id} className="align-top hover:bg-slate-50">
              <td className="min-w-48 px-3 py-3">
                <Link
                  to={`/admin/codes/${code.id}`}
                  className="font-mono font-semibold text-brand-700 underline"
                >
                  {code.code}
                </Link>
                {code.description ? <div className="text-slate-700">{code.description}</div> : null}
                <div className="mt-1 text-xs text-slate-700">
                  {code.summerSchools.length
                    ? code.summerSchools.map((s) => s.name).join(", ")
                    : t("codes.allSchools")}
                  {code.affiliate ? ` · ${code.affiliate.name}` : ""}
                </div>
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-900">{discount(code)}</td>
              <td className="px-3 py-3">
                <CodeStateBadge code={code} />
              </td>
              <td className="px-3 py-3 text-slate-800">
                <div className="whitespace-nowrap">{t("codes.from", { date: dateTime(code.validFrom) })}</div>
                <div className="whitespace-nowrap">{t("codes.to", { date: dateTime(code.validTo) })}</div>
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-900">
                {usesLabel(code)}
                <div className="text-xs text-slate-700">{t("codes.redeemed", { count: code.redeemed })}</div>
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
                {format.money(code.revenue)}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(code.createdAt)}</td>
              <td className="px-3 py-3">
                <div className="flex justify-end gap-1">
                  <Button
                    size="sm"
                    variant="ghost"
                    onClick={() => {
                      setEditing(code);
                      setFormOpen(true);
                    }}
                    aria-label={t("codes.editLabel", { code: code.code })}
                  >
                    <Pencil aria-hidden="true" className="h-4 w-4" />
                    {t("codes.edit")}
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    disabled={toggle.isPending}
                    onClick={() => toggle.mutate(code)}
                    aria-label={t(code.active ? "codes.deactivateLabel" : "codes.activateLabel", {
                      code: code.code,
                    })}
                  >
                    {code.active ? t("codes.deactivate") : t("codes.activate")}
                  </Button>
                </div>
              </td>
            </tr>
          )}
          tools={
            <div className="flex items-center gap-2">
              <label htmlFor="code-page-size" className="text-sm text-slate-800">
                {t("list.pageSize")}
              </label>
              <select
                id="code-page-size"
                value={pageSize}
                onChange={(event) =>
                  update({ pageSize: event.target.value === "25" ? null : event.target.value })
                }
                className="rounded-lg border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900"
              >
                {[25, 50, 100].map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </select>
            </div>
          }
        />
      </div>

      <CodeFormDialog open={formOpen} onOpenChange={setFormOpen} code={editing} />
    </div>
  );
}
