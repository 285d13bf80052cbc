import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  activateCodeContract,
  deactivateCodeContract,
  exportCodesContract,
  listCodesContract,
} from "../../../../shared/api/codes-admin";
import { urlOf } from "../../../../shared/api/contract";
import type { AdminCodeDto } from "../../../../shared/codes-admin";
import { CODE_SORT_KEYS, CODE_TYPES } from "../../../../shared/schemas/codes-admin";
import { Button } from "../../../components/ui/Button";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useSummerSchools } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { CodeFormDialog } from "../components/codes/CodeFormDialog";
import {
  CodeStateBadge,
  codeKeys,
  useAffiliateOptions,
  useDiscountLabel,
  useUsesLabel,
} from "../components/codes/shared";
import { AdminPageHeader, useDateTime } from "../components/common";
import {
  ClearFiltersButton,
  CsvLink,
  FilterPanel,
  FilterSelect,
  PageSizeSelect,
  SearchForm,
  SortHeader,
  useListParams,
} from "../components/list";

/** Filters kept in the address (the list and the CSV export take the same ones). */
const FILTER_KEYS = ["type", "active", "expired", "schoolId", "affiliateId", "q"] as const;

/**
 * /admin/codes (docs/product/back-office.md#codes-admin): every discount and referral code with its live uses against
 * its maximum and the revenue of the applications that redeemed it; search on code or
 * description, filters (type, active, expired, programme, affiliate), server-side sort and pages,
 * all kept in the address; "New code" and "Edit" open the code form; "Deactivate"/"Activate"
 * switch a code; "Export CSV" downloads the same selection.
 */
export default function AdminCodesPage() {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const discount = useDiscountLabel();
  const usesLabel = useUsesLabel();
  const schools = useSummerSchools();
  const affiliateOptions = useAffiliateOptions();
  const [editing, setEditing] = useState<AdminCodeDto | null>(null);
  const [formOpen, setFormOpen] = useState(false);
  const list = useListParams({
    filterKeys: FILTER_KEYS,
    sort: {
      keys: CODE_SORT_KEYS,
      default: { key: "createdAt", direction: "desc" },
      ascendingFirst: ["code"],
    },
  });

  const codes = useQuery({
    queryKey: codeKeys.list(list.search),
    queryFn: ({ signal }) =>
      call(listCodesContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });

  const toggle = useMutation({
    mutationFn: (code: AdminCodeDto) =>
      call(code.active ? deactivateCodeContract : activateCodeContract, {
        params: { id: code.id },
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
            <CsvLink href={list.csvHref(urlOf(exportCodesContract))}>{t("codes.export")}</CsvLink>
          </>
        }
      />

      <FilterPanel id="code-filters-heading" title={t("filters.title")}>
        <SearchForm
          id="code-filter-q"
          label={t("filters.searchCodes")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-5">
          <FilterSelect
            id="code-filter-type"
            label={t("filters.type")}
            {...list.filterProps("type")}
            options={CODE_TYPES.map((value) => ({ value, label: t(`codes.type.${value}`) }))}
            allLabel={t("filters.all")}
          />
          <FilterSelect
            id="code-filter-active"
            label={t("filters.active")}
            {...list.filterProps("active")}
            options={[
              { value: "true", label: t("filters.activeYes") },
              { value: "false", label: t("filters.activeNo") },
            ]}
            allLabel={t("filters.all")}
          />
          <FilterSelect
            id="code-filter-expired"
            label={t("filters.expired")}
            {...list.filterProps("expired")}
            options={[
              { value: "false", label: t("filters.expiredNo") },
              { value: "true", label: t("filters.expiredYes") },
            ]}
            allLabel={t("filters.all")}
          />
          <FilterSelect
            id="code-filter-school"
            label={t("filters.school")}
            {...list.filterProps("schoolId")}
            options={(schools.data ?? []).map((s) => ({
              value: s.id,
              label: `${s.name} (${format.date(s.startDate)})`,
            }))}
            allLabel={t("filters.all")}
          />
          <FilterSelect
            id="code-filter-affiliate"
            label={t("filters.affiliate")}
            {...list.filterProps("affiliateId")}
            options={(affiliateOptions.data?.items ?? []).map((a) => ({ value: a.id, label: a.name }))}
            allLabel={t("filters.all")}
          />
        </div>
        {list.hasFilters ? (
          <ClearFiltersButton onClick={list.clearFilters}>{t("filters.clear")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={codes}
          empty={list.hasFilters ? t("codes.emptyFiltered") : t("codes.empty")}
          captionId="codes-caption"
          caption={t("codes.caption")}
          minWidth="min-w-[60rem]"
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="code" list={list}>
                {t("codes.columns.code")}
              </SortHeader>
              <HeaderCell>{t("codes.columns.discount")}</HeaderCell>
              <HeaderCell>{t("codes.columns.state")}</HeaderCell>
              <SortHeader column="validTo" list={list}>
                {t("codes.columns.validity")}
              </SortHeader>
              <SortHeader column="uses" list={list}>
                {t("codes.columns.uses")}
              </SortHeader>
              <SortHeader column="revenue" list={list} className="text-right">
                {t("codes.columns.revenue")}
              </SortHeader>
              <SortHeader column="createdAt" list={list}>
                {t("codes.columns.createdAt")}
              </SortHeader>
              <HeaderCell>
                <span className="sr-only">{t("codes.columns.actions")}</span>
              </HeaderCell>
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
          tools={<PageSizeSelect id="code-page-size" list={list} />}
        />
      </div>

      <CodeFormDialog open={formOpen} onOpenChange={setFormOpen} code={editing} />
    </div>
  );
}
