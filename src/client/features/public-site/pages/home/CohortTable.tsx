import { Mail } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { SummerSchoolDto } from "../../../../../shared/catalogue";
import { useFormat } from "../../../../lib/format";
import { useSite } from "../../../../lib/site";
import { ApplyAction, StatusBadge } from "./cohorts";

/**
 * Upcoming cohorts (docs/product/catalogue-and-pricing.md#cohort-status): one row per school from the database, then the
 * fixed "Custom cohorts — on request" row with a mail link. On phones the dates and the status move
 * under the name (their columns are hidden) so the table fits 375 px without scrolling.
 */
export function CohortTable({ schools }: { schools: SummerSchoolDto[] }) {
  const { t } = useTranslation("home");
  const { dayMonth } = useFormat();
  const { supportEmail } = useSite();
  const mailto = `mailto:${supportEmail}?subject=${encodeURIComponent(t("cohorts.customSubject"))}`;
  const th = "px-3 py-3 text-left text-sm font-semibold sm:px-5";
  const td = "px-3 py-4 align-middle sm:px-5";

  return (
    <div>
      <div className="overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full border-collapse">
          <caption className="sr-only">{t("cohorts.caption")}</caption>
          <thead className="bg-brand-900 text-white">
            <tr>
              <th scope="col" className={th}>
                {t("cohorts.cohort")}
              </th>
              <th scope="col" className={`${th} hidden sm:table-cell`}>
                {t("cohorts.dates")}
              </th>
              <th scope="col" className={`${th} hidden sm:table-cell`}>
                {t("cohorts.statusColumn")}
              </th>
              <th scope="col" className={`${th} text-right`}>
                {t("cohorts.applyColumn")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-200">
            {schools.length === 0 ? (
              <tr>
                <td colSpan={4} className={`${td} text-slate-700`}>
                  {t("cohorts.empty")}
                </td>
              </tr>
            ) : null}
            {schools.map((school) => {
              const range = t("cohorts.range", {
                start: dayMonth(school.startDate),
                end: dayMonth(school.endDate),
              });
              return (
                <tr key={school.id} className="hover:bg-slate-50">
                  <th scope="row" className={`${td} text-left font-semibold text-brand-900`}>
                    {school.name}
                    <span className="mt-1 block text-sm font-normal text-slate-700 sm:hidden">{range}</span>
                    <span className="mt-2 block sm:hidden">
                      <StatusBadge status={school.status} ns="home" />
                    </span>
                  </th>
                  <td className={`${td} hidden whitespace-nowrap text-slate-800 sm:table-cell`}>{range}</td>
                  <td className={`${td} hidden sm:table-cell`}>
                    <StatusBadge status={school.status} ns="home" />
                  </td>
                  <td className={`${td} text-right`}>
                    <ApplyAction school={school} ns="home" />
                  </td>
                </tr>
              );
            })}
            <tr className="bg-brand-50/60">
              <th scope="row" className={`${td} text-left font-semibold text-brand-900`}>
                {t("cohorts.customName")}
                <span className="mt-1 block text-sm font-normal text-slate-700 sm:hidden">
                  {t("cohorts.customDates")} · {t("cohorts.customStatus")}
                </span>
              </th>
              <td className={`${td} hidden text-slate-800 sm:table-cell`}>{t("cohorts.customDates")}</td>
              <td className={`${td} hidden text-sm text-slate-800 sm:table-cell`}>
                {t("cohorts.customStatus")}
              </td>
              <td className={`${td} text-right`}>
                <a
                  href={mailto}
                  className="inline-flex items-center gap-1.5 whitespace-nowrap text-sm font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
                >
                  <Mail aria-hidden="true" className="h-4 w-4 shrink-0" />
                  {t("cohorts.customAction")} <span className="sr-only">{t("cohorts.customActionFor")}</span>
                </a>
              </td>
            </tr>
          </tbody>
        </table>
      </div>
      <p className="mt-4">
        <Link
          to="/courses"
          className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
        >
          {t("cohorts.allDates")}
        </Link>
      </p>
    </div>
  );
}
