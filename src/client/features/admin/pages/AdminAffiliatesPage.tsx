import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { AdminAffiliateDto } from "../../../../shared/affiliates-admin";
import { urlOf } from "../../../../shared/api/contract";
import { exportAffiliatesCsvContract, listAffiliatesContract } from "../../../../shared/api/partners-admin";
import { AFFILIATE_SORT_KEYS, AFFILIATE_STATUSES } from "../../../../shared/schemas/affiliates-admin";
import { Button } from "../../../components/ui/Button";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { type AffiliateAction, AffiliateActionDialog } from "../components/codes/AffiliateActions";
import { AffiliateStatusBadge, codeKeys, useRateLabel } from "../components/codes/shared";
import { AdminPageHeader, useDateTime } from "../components/common";
import {
  CsvLink,
  FilterPanel,
  FilterSelect,
  SearchForm,
  SortHeader,
  useListParams,
} from "../components/list";

/**
 * /admin/affiliates (docs/product/back-office.md#partners-admin): every affiliate with its codes, referred
 * applications, paid revenue and commission earned; filter by status, search on name or e-mail,
 * server-side sort and pages kept in the address, CSV export. Approve, suspend and reactivate
 * from the list, each confirmed in a dialog.
 */
export default function AdminAffiliatesPage() {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  const rateLabel = useRateLabel();
  const { date } = useDateTime();
  const [pending, setPending] = useState<{ affiliate: AdminAffiliateDto; action: AffiliateAction } | null>(
    null,
  );
  const list = useListParams({
    filterKeys: ["status", "q"],
    sort: {
      keys: AFFILIATE_SORT_KEYS,
      default: { key: "createdAt", direction: "desc" },
      ascendingFirst: ["name"],
    },
  });

  const affiliates = useQuery({
    queryKey: codeKeys.affiliateList(list.search),
    queryFn: ({ signal }) =>
      call(listAffiliatesContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("affiliates.title")}
        lead={t("affiliates.lead")}
        actions={
          <CsvLink href={list.csvHref(urlOf(exportAffiliatesCsvContract))}>{t("affiliates.export")}</CsvLink>
        }
      />

      <FilterPanel id="affiliate-filters-heading" title={t("filters.title")}>
        <div className="flex flex-col gap-4 md:flex-row md:items-end">
          <SearchForm
            id="affiliate-filter-q"
            label={t("filters.searchAffiliates")}
            value={list.value("q")}
            onSearch={(q) => list.update({ q })}
            className="flex-1"
          />
          <FilterSelect
            id="affiliate-filter-status"
            label={t("filters.status")}
            {...list.filterProps("status")}
            options={AFFILIATE_STATUSES.map((status) => ({
              value: status,
              label: t(`affiliates.status.${status}`),
            }))}
            allLabel={t("filters.all")}
            className="md:w-56"
          />
        </div>
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={affiliates}
          empty={list.hasFilters ? t("affiliates.emptyFiltered") : t("affiliates.empty")}
          captionId="affiliates-caption"
          caption={t("affiliates.caption")}
          minWidth="min-w-[62rem]"
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="name" list={list}>
                {t("affiliates.columns.affiliate")}
              </SortHeader>
              <SortHeader column="status" list={list}>
                {t("affiliates.columns.status")}
              </SortHeader>
              <HeaderCell>{t("affiliates.columns.codes")}</HeaderCell>
              <SortHeader column="clicks" list={list} className="text-right">
                {t("affiliates.columns.clicks")}
              </SortHeader>
              <SortHeader column="referredApplications" list={list}>
                {t("affiliates.columns.referred")}
              </SortHeader>
              <SortHeader column="paidRevenue" list={list} className="text-right">
                {t("affiliates.columns.revenue")}
              </SortHeader>
              <SortHeader column="commissionOwed" list={list} className="text-right">
                {t("affiliates.columns.owed")}
              </SortHeader>
              <SortHeader column="commissionPaid" list={list} className="text-right">
                {t("affiliates.columns.commissionPaid")}
              </SortHeader>
              <SortHeader column="createdAt" list={list}>
                {t("affiliates.columns.createdAt")}
              </SortHeader>
              <HeaderCell>
                <span className="sr-only">{t("affiliates.columns.actions")}</span>
              </HeaderCell>
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
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">{a.clicks}</td>
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
                {format.money(a.commissionOwed)}
                <div className="text-xs text-slate-700">{rateLabel(a)}</div>
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
                {format.money(a.commissionPaid)}
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
                  {a.status !== "suspended" && a.status !== "rejected" ? (
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
