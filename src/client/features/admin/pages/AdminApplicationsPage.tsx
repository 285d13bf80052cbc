import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AlertTriangle, Flag } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import {
  exportApplicationsContract,
  listApplicationsContract,
} from "../../../../shared/api/admin-applications";
import { urlOf } from "../../../../shared/api/contract";
import { PAYMENT_STATES } from "../../../../shared/balance";
import { APPLICATION_SORT_KEYS, APPLICATION_STATUSES } from "../../../../shared/schemas/admin";
import { call } from "../../../lib/call";
import { useSummerSchools } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import {
  AdminPageHeader,
  ApplicationStatusBadge,
  PaymentStatusBadge,
  useDateTime,
} from "../components/common";
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
  const schools = useSummerSchools();
  const list = useListParams({
    filterKeys: FILTER_KEYS,
    sort: {
      keys: APPLICATION_SORT_KEYS,
      default: { key: "createdAt", direction: "desc" },
      ascendingFirst: ["lastName"],
    },
  });
  const { sort, filters } = list;

  const applications = useQuery({
    queryKey: adminKeys.list(list.search),
    queryFn: ({ signal }) =>
      call(listApplicationsContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });
  const sortLabel = t(`applications.columns.${sort.key}`);

  const schoolOptions = (schools.data ?? []).map((school) => ({
    value: school.id,
    label: `${school.name} (${format.date(school.startDate)})`,
  }));
  const currentSchool = list.value("schoolId");
  if (currentSchool && !schoolOptions.some((option) => option.value === currentSchool)) {
    const name = applications.data?.items.find((item) => item.summerSchool.id === currentSchool)?.summerSchool
      .name;
    schoolOptions.push({ value: currentSchool, label: name ?? t("applications.filters.otherSchool") });
  }

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("applications.title")}
        lead={t("applications.lead")}
        actions={
          <CsvLink href={list.csvHref(urlOf(exportApplicationsContract))}>{t("applications.export")}</CsvLink>
        }
      />

      <FilterPanel id="filters-heading" title={t("applications.filters.title")}>
        <SearchForm
          id="filter-q"
          label={t("applications.filters.search")}
          placeholder={t("applications.filters.searchPlaceholder")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-3">
          <FilterSelect
            id="filter-status"
            label={t("applications.filters.status")}
            {...list.filterProps("status")}
            options={APPLICATION_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
            allLabel={t("applications.filters.all")}
          />
          <FilterSelect
            id="filter-payment"
            label={t("applications.filters.paymentStatus")}
            {...list.filterProps("paymentStatus")}
            // The states of the one balance rule (docs/product/payments.md#deposit-and-balance), "deposit paid, balance due" and
            // "balance overdue" included; the server filters with SQL that follows balanceOf.
            options={PAYMENT_STATES.map((value) => ({ value, label: t(`paymentStatus.${value}`) }))}
            allLabel={t("applications.filters.all")}
          />
          <FilterSelect
            id="filter-school"
            label={t("applications.filters.school")}
            {...list.filterProps("schoolId")}
            options={schoolOptions}
            allLabel={t("applications.filters.all")}
          />
        </div>
        {list.hasFilters ? (
          <div className="mt-4 flex flex-wrap items-center gap-2 text-sm text-slate-700">
            {(["code", "affiliateId", "from", "to"] as const)
              .filter((key) => filters.has(key))
              .map((key) => (
                <span key={key} className="rounded-full bg-slate-100 px-3 py-1 text-slate-800">
                  {t(`applications.filters.${key}`)}: {filters.get(key)}
                </span>
              ))}
            <ClearFiltersButton onClick={list.clearFilters} className="">
              {t("applications.filters.clear")}
            </ClearFiltersButton>
          </div>
        ) : null}
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={applications}
          empty={list.hasFilters ? t("applications.emptyFiltered") : t("applications.empty")}
          captionId="applications-caption"
          caption={t("applications.caption", {
            sort: sortLabel,
            direction: t(sort.direction === "asc" ? "applications.ascending" : "applications.descending"),
          })}
          minWidth="min-w-[56rem]"
          paginationLabel={t("applications.pagination")}
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="lastName" list={list}>
                {t("applications.columns.applicant")}
              </SortHeader>
              <HeaderCell>{t("applications.columns.programme")}</HeaderCell>
              <SortHeader column="status" list={list}>
                {t("applications.columns.status")}
              </SortHeader>
              <HeaderCell>{t("applications.columns.payment")}</HeaderCell>
              <SortHeader column="totalAmount" list={list} className="text-right">
                {t("applications.columns.totalAmount")}
              </SortHeader>
              <SortHeader column="createdAt" list={list}>
                {t("applications.columns.createdAt")}
              </SortHeader>
              <SortHeader column="submittedAt" list={list}>
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
          tools={<PageSizeSelect id="page-size" list={list} />}
        />
      </div>
    </div>
  );
}
