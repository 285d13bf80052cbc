import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  exportSummerSchoolsContract,
  listSummerSchoolsContract,
} from "../../../../shared/api/catalogue-admin";
import { urlOf } from "../../../../shared/api/contract";
import { SCHOOL_ADMIN_STATUSES, SCHOOL_SORT_KEYS } from "../../../../shared/schemas/catalogue-admin";
import { ButtonLink } from "../../../components/ui/Button";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { catalogueAdminKeys, SchoolStatusBadge, useLocalized } from "../components/catalogue/shared";
import { AdminPageHeader } from "../components/common";
import {
  CsvLink,
  FilterPanel,
  FilterSelect,
  SearchForm,
  SortHeader,
  useListParams,
} from "../components/list";

/**
 * /admin/courses: the summer schools (cohorts) with their dates, capacity, paid places and fill,
 * and status (open, few spots left, full, opening soon, closed, past, archived) with a link to the
 * cohort's waiting list (docs/product/admissions.md#waiting-list); search, status
 * filter, sort and pages on the server, kept in the address; CSV export of the same selection;
 * "New summer school" (docs/product/back-office.md#catalogue-admin).
 */
export default function AdminCoursesPage() {
  const { t } = useTranslation("adminCatalogue");
  const format = useFormat();
  const l = useLocalized();
  const list = useListParams({
    filterKeys: ["status", "q"],
    // Every column sorts ascending on its first click.
    sort: {
      keys: SCHOOL_SORT_KEYS,
      default: { key: "startDate", direction: "asc" },
      ascendingFirst: SCHOOL_SORT_KEYS,
    },
  });
  const query = useQuery({
    queryKey: catalogueAdminKeys.list("school", list.search),
    queryFn: ({ signal }) =>
      call(listSummerSchoolsContract, {
        query: Object.fromEntries(new URLSearchParams(list.search)),
        signal,
      }),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("courses.title")}
        lead={
          <>
            <p>{t("courses.lead")}</p>
            <p className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
              <Link to="/admin/packages" className="font-medium text-brand-700 underline">
                {t("packages.title")}
              </Link>
              <Link to="/admin/housing" className="font-medium text-brand-700 underline">
                {t("housing.title")}
              </Link>
              <Link to="/admin/add-ons" className="font-medium text-brand-700 underline">
                {t("addOns.title")}
              </Link>
            </p>
          </>
        }
        actions={
          <>
            <CsvLink href={list.csvHref(urlOf(exportSummerSchoolsContract))}>{t("list.export")}</CsvLink>
            <ButtonLink to="/admin/summer-schools/new" size="sm">
              <Plus aria-hidden="true" className="h-4 w-4" />
              {t("courses.new")}
            </ButtonLink>
          </>
        }
      />

      <FilterPanel id="filters-heading" title={t("list.filters")}>
        <div className="grid gap-4 sm:grid-cols-[1fr_16rem]">
          <SearchForm
            id="filter-q"
            label={t("list.search")}
            placeholder={t("list.searchSchoolsPlaceholder")}
            value={list.value("q")}
            onSearch={(q) => list.update({ q })}
          />
          <FilterSelect
            id="filter-status"
            label={t("list.status")}
            {...list.filterProps("status")}
            options={SCHOOL_ADMIN_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
            allLabel={t("list.allStatuses")}
          />
        </div>
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={query}
          empty={list.hasFilters ? t("list.emptyFiltered") : t("courses.empty")}
          captionId="courses-caption"
          caption={t("courses.caption")}
          minWidth="min-w-[52rem]"
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="name" list={list}>
                {t("courses.columns.name")}
              </SortHeader>
              <SortHeader column="startDate" list={list}>
                {t("courses.columns.dates")}
              </SortHeader>
              <SortHeader column="capacity" list={list} className="text-right">
                {t("courses.columns.capacity")}
              </SortHeader>
              <SortHeader column="paid" list={list} className="text-right">
                {t("courses.columns.paid")}
              </SortHeader>
              <SortHeader column="fill" list={list} className="text-right">
                {t("courses.columns.fill")}
              </SortHeader>
              <HeaderCell>{t("courses.columns.status")}</HeaderCell>
            </>
          }
          row={(school) => (
            <tr key={school.id} className="align-top hover:bg-slate-50">
              <td className="min-w-56 px-3 py-3">
                <Link
                  to={`/admin/summer-schools/${school.id}`}
                  className="font-semibold text-brand-700 underline"
                >
                  {l(school.name)}
                </Link>
                <div className="text-sm text-slate-700">
                  {school.location} · <span className="font-mono">{school.slug}</span>
                </div>
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                <div>
                  {format.date(school.startDate)} – {format.date(school.endDate)}
                </div>
                {school.applicationDeadline ? (
                  <div className="text-sm text-slate-700">
                    {t("courses.deadline", { date: format.date(school.applicationDeadline) })}
                  </div>
                ) : null}
              </td>
              <td className="px-3 py-3 text-right text-slate-900">{school.capacity}</td>
              <td className="px-3 py-3 text-right text-slate-900">{school.paidPlaces}</td>
              <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
                {Math.round(school.fillRate * 100)}%
              </td>
              <td className="px-3 py-3">
                <SchoolStatusBadge status={school.status} />
                <Link
                  to={`/admin/summer-schools/${school.id}#waiting-list`}
                  className="mt-1 block text-sm font-medium whitespace-nowrap text-brand-700 underline"
                  aria-label={t("courses.waitingListOf", { name: l(school.name) })}
                >
                  {t("courses.waitingList")}
                </Link>
              </td>
            </tr>
          )}
        />
      </div>
    </div>
  );
}
