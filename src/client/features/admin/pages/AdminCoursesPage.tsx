import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download, Plus } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { AdminSummerSchoolDto, CataloguePage } from "../../../../shared/catalogue-admin";
import {
  SCHOOL_ADMIN_STATUSES,
  SCHOOL_SORT_KEYS,
  type SchoolSortKey,
} from "../../../../shared/schemas/catalogue-admin";
import { Button, ButtonLink, buttonClass } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { api } from "../../../lib/api";
import { useFormat } from "../../../lib/format";
import { AdminListFrame } from "../components/AdminListFrame";
import {
  catalogueAdminKeys,
  FilterSelect,
  SchoolStatusBadge,
  SortHeader,
  useListState,
  useLocalized,
} from "../components/catalogue/shared";
import { AdminPageHeader } from "../components/common";

/**
 * /admin/courses: the summer schools (cohorts) with their dates, capacity, paid places and fill,
 * and status (open, few spots left, full, opening soon, closed, past, archived); search, status
 * filter, sort and pages on the server, kept in the address; CSV export of the same selection;
 * "New summer school" (issue 3 "Courses").
 */
export default function AdminCoursesPage() {
  const { t } = useTranslation("adminCatalogue");
  const format = useFormat();
  const l = useLocalized();
  const list = useListState<SchoolSortKey>({
    sortKeys: SCHOOL_SORT_KEYS,
    defaultSort: { key: "startDate", direction: "asc" },
    filterKeys: ["status", "q"],
  });
  const query = useQuery({
    queryKey: catalogueAdminKeys.list("school", list.search),
    queryFn: ({ signal }) =>
      api<CataloguePage<AdminSummerSchoolDto>>(`/api/admin/summer-schools?${list.search}`, { signal }),
    placeholderData: keepPreviousData,
  });

  const [q, setQ] = useState(list.params.get("q") ?? "");
  const addressQ = list.params.get("q") ?? "";
  useEffect(() => setQ(addressQ), [addressQ]);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    list.update({ q: q.trim() || null });
  };
  const exportHref = `/api/admin/summer-schools.csv${list.filters.size ? `?${list.filters.toString()}` : ""}`;

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
            <a href={exportHref} download className={buttonClass("secondary", "sm")}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t("list.export")}
            </a>
            <ButtonLink to="/admin/summer-schools/new" size="sm">
              <Plus aria-hidden="true" className="h-4 w-4" />
              {t("courses.new")}
            </ButtonLink>
          </>
        }
      />

      <section
        aria-labelledby="filters-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="filters-heading" className="sr-only">
          {t("list.filters")}
        </h2>
        <div className="grid gap-4 sm:grid-cols-[1fr_16rem]">
          <form onSubmit={submitSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
            <div className="flex-1">
              <label htmlFor="filter-q" className="block text-sm font-medium text-slate-900">
                {t("list.search")}
              </label>
              <input
                id="filter-q"
                type="search"
                value={q}
                onChange={(event) => setQ(event.target.value)}
                maxLength={200}
                className={inputClass}
                placeholder={t("list.searchSchoolsPlaceholder")}
              />
            </div>
            <Button type="submit" variant="secondary">
              {t("list.searchButton")}
            </Button>
          </form>
          <FilterSelect
            id="filter-status"
            label={t("list.status")}
            value={list.params.get("status") ?? ""}
            onChange={(value) => list.update({ status: value || null })}
            options={SCHOOL_ADMIN_STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
            allLabel={t("list.allStatuses")}
          />
        </div>
      </section>

      <div className="mt-6">
        <AdminListFrame
          list={query}
          empty={list.filters.size ? t("list.emptyFiltered") : t("courses.empty")}
          captionId="courses-caption"
          caption={t("courses.caption")}
          minWidth="min-w-[52rem]"
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="name" sort={list.sort} onSort={list.onSort}>
                {t("courses.columns.name")}
              </SortHeader>
              <SortHeader column="startDate" sort={list.sort} onSort={list.onSort}>
                {t("courses.columns.dates")}
              </SortHeader>
              <SortHeader column="capacity" sort={list.sort} onSort={list.onSort} className="text-right">
                {t("courses.columns.capacity")}
              </SortHeader>
              <SortHeader column="paid" sort={list.sort} onSort={list.onSort} className="text-right">
                {t("courses.columns.paid")}
              </SortHeader>
              <SortHeader column="fill" sort={list.sort} onSort={list.onSort} className="text-right">
                {t("courses.columns.fill")}
              </SortHeader>
              <th scope="col" className="px-3 py-3 text-left font-semibold text-slate-900">
                {t("courses.columns.status")}
              </th>
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
              </td>
            </tr>
          )}
        />
      </div>
    </div>
  );
}
