import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { UserPlus } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { urlOf } from "../../../../shared/api/contract";
import { exportStudentsContract, listStudentsContract } from "../../../../shared/api/students-admin";
import { STUDENT_SORT_KEYS } from "../../../../shared/schemas/students-admin";
import { buttonClass } from "../../../components/ui/Button";
import { call } from "../../../lib/call";
import { useSummerSchools } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { useSignedInUser } from "../../../lib/session";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
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
import { Pill } from "../components/people/list";
import { canWriteStudents, peopleKeys } from "../components/people/permissions";

const FILTER_KEYS = ["q", "verified", "disabled", "paid", "schoolId"] as const;

/**
 * /admin/students: the student accounts with server-side search (name, e-mail), filters (e-mail
 * confirmed, disabled, has a paid application, summer school), sorting and pagination, all kept in
 * the address; "Export CSV" downloads the same selection; "Add student" for owners and admissions.
 * Each row shows the number of applications made with the account's e-mail and the amount paid.
 */
export default function AdminStudentsPage() {
  const { t } = useTranslation("adminPeople");
  const admin = useSignedInUser("admin");
  const format = useFormat();
  const { date } = useDateTime();
  const location = useLocation();
  const schools = useSummerSchools();
  const state = useListParams({
    filterKeys: FILTER_KEYS,
    sort: {
      keys: STUDENT_SORT_KEYS,
      default: { key: "createdAt", direction: "desc" },
      ascendingFirst: ["lastName", "email"],
    },
  });
  const { sort, update } = state;
  const list = useQuery({
    queryKey: peopleKeys.students(state.search),
    queryFn: ({ signal }) =>
      call(listStudentsContract, { query: Object.fromEntries(new URLSearchParams(state.search)), signal }),
    placeholderData: keepPreviousData,
  });

  const yesNo = [
    { value: "yes", label: t("common.yes") },
    { value: "no", label: t("common.no") },
  ];
  const schoolOptions = (schools.data ?? []).map((school) => ({
    value: school.id,
    label: `${school.name} (${format.date(school.startDate)})`,
  }));
  const sortLabel = t(`students.sortKeys.${sort.key}`);

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("students.title")}
        lead={t("students.lead")}
        actions={
          <>
            <CsvLink href={state.csvHref(urlOf(exportStudentsContract))}>{t("common.export")}</CsvLink>
            {canWriteStudents(admin) ? (
              <Link to="/admin/students/add" className={buttonClass("primary", "sm")}>
                <UserPlus aria-hidden="true" className="h-4 w-4" />
                {t("students.add")}
              </Link>
            ) : null}
          </>
        }
      />

      <FilterPanel id="student-filters-heading" title={t("students.filtersTitle")}>
        <SearchForm
          id="student-q"
          label={t("students.search")}
          placeholder={t("students.searchPlaceholder")}
          value={state.value("q")}
          onSearch={(q) => update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {(["verified", "disabled", "paid"] as const).map((key) => (
            <FilterSelect
              key={key}
              id={`student-${key}`}
              label={t(`students.${key}`)}
              {...state.filterProps(key)}
              options={yesNo}
              allLabel={t("common.all")}
            />
          ))}
          <FilterSelect
            id="student-school"
            label={t("students.school")}
            {...state.filterProps("schoolId")}
            options={schoolOptions}
            allLabel={t("common.all")}
          />
        </div>
        {state.hasFilters ? (
          <ClearFiltersButton onClick={state.clearFilters}>{t("common.clear")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={list}
          empty={state.hasFilters ? t("students.emptyFiltered") : t("students.empty")}
          captionId="students-caption"
          caption={t("students.caption", {
            sort: sortLabel,
            direction: t(sort.direction === "asc" ? "common.ascending" : "common.descending"),
          })}
          minWidth="min-w-[46rem]"
          paginationLabel={t("students.pagination")}
          pageLink={state.pageLink}
          head={
            <>
              <SortHeader column="lastName" list={state}>
                {t("students.columns.student")}
              </SortHeader>
              <HeaderCell>{t("students.columns.status")}</HeaderCell>
              <SortHeader column="applications" list={state}>
                {t("students.columns.applications")}
              </SortHeader>
              <SortHeader column="amountPaid" list={state} className="text-right">
                {t("students.columns.amountPaid")}
              </SortHeader>
              <SortHeader column="createdAt" list={state}>
                {t("students.columns.createdAt")}
              </SortHeader>
            </>
          }
          row={(item) => (
            <tr key={item.id} className="align-top hover:bg-slate-50">
              <td className="min-w-48 px-3 py-3">
                <Link
                  to={`/admin/students/${item.id}`}
                  state={{ listSearch: location.search }}
                  className="font-semibold text-brand-700 underline"
                >
                  {`${item.firstName} ${item.lastName}`.trim()}
                </Link>
                <div className="text-slate-700 wrap-anywhere">{item.email}</div>
              </td>
              <td className="px-3 py-3">
                <div className="flex flex-wrap gap-1">
                  {item.disabled ? <Pill tone="bad">{t("students.badges.disabled")}</Pill> : null}
                  {item.emailVerified ? (
                    <Pill tone="good">{t("students.badges.verified")}</Pill>
                  ) : (
                    <Pill tone="warn">{t("students.badges.unverified")}</Pill>
                  )}
                  {item.hasPassword ? null : <Pill tone="info">{t("students.badges.noPassword")}</Pill>}
                </div>
              </td>
              <td className="px-3 py-3 text-slate-800">
                {t("students.applicationCount", {
                  count: item.applicationCount,
                  paid: item.paidApplicationCount,
                })}
              </td>
              <td className="px-3 py-3 text-right font-semibold whitespace-nowrap text-slate-900">
                {format.money(item.amountPaid)}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{date(item.createdAt)}</td>
            </tr>
          )}
          tools={<PageSizeSelect id="students-page-size" list={state} />}
        />
      </div>
    </div>
  );
}
