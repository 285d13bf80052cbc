import { useQuery } from "@tanstack/react-query";
import { Award, CalendarDays, MapPin } from "lucide-react";
import { useTranslation } from "react-i18next";
import { getStudentProgramContract } from "../../../../shared/api/cohort";
import type { StudentProgram } from "../../../../shared/schemas/cohort";
import { Card } from "../../../components/ui/Layout";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { CohortPage, cohortKeys, NoCohort, QueryState } from "../components/CohortPage";

type Cohort = StudentProgram["cohorts"][number];

/** One cohort's programme: dates and place, the ECTS card, the days as a list, what to bring. */
function CohortProgram({ cohort, headingLevel }: { cohort: Cohort; headingLevel: "h2" | "h3" }) {
  const { t } = useTranslation("cohort");
  const format = useFormat();
  const Heading = headingLevel;
  const id = `cohort-${cohort.applicationId}`;
  return (
    <section aria-labelledby={id} className="space-y-6">
      <div>
        <Heading id={id} className="text-xl font-bold text-brand-900">
          {cohort.name}
        </Heading>
        <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-slate-700">
          <span className="inline-flex items-center gap-2">
            <CalendarDays aria-hidden="true" className="h-4 w-4 shrink-0" />
            {t("common:dates.range", {
              start: format.date(cohort.startDate),
              end: format.date(cohort.endDate),
            })}
          </span>
          <span className="inline-flex items-center gap-2">
            <MapPin aria-hidden="true" className="h-4 w-4 shrink-0" />
            {cohort.location}
          </span>
        </p>
      </div>
      <Card className="flex gap-3">
        <Award aria-hidden="true" className="mt-1 h-6 w-6 shrink-0 text-brand-700" />
        <div>
          <p className="font-semibold text-brand-900">{t("program.ectsTitle", { count: cohort.ects })}</p>
          <p className="mt-1 text-slate-700">{t("program.ectsBody", { count: cohort.ects })}</p>
        </div>
      </Card>
      <div>
        <h3 className="text-lg font-bold text-brand-900">{t("program.days")}</h3>
        {cohort.days.length === 0 ? (
          <p className="mt-2 text-slate-700">{t("program.notPublished")}</p>
        ) : (
          <ol className="mt-3 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
            {cohort.days.map((day) => (
              <li key={day.day} className="p-4 sm:flex sm:gap-6">
                <p className="shrink-0 text-sm font-semibold text-brand-800 sm:w-44">
                  {t("program.day", { day: day.day })}
                  <span className="block font-normal text-slate-700">
                    <time dateTime={day.date}>{format.date(day.date)}</time>
                  </span>
                </p>
                <div className="mt-1 sm:mt-0">
                  <p className="font-semibold text-slate-900">{day.title}</p>
                  {day.details ? (
                    <p className="mt-1 whitespace-pre-line text-slate-700">{day.details}</p>
                  ) : null}
                </div>
              </li>
            ))}
          </ol>
        )}
      </div>
      <div>
        <h3 className="text-lg font-bold text-brand-900">{t("program.bring")}</h3>
        {cohort.whatToBring.length === 0 ? (
          <p className="mt-2 text-slate-700">{t("program.bringEmpty")}</p>
        ) : (
          <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-800">
            {cohort.whatToBring.map((item) => (
              <li key={item}>{item}</li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}

/**
 * /student/program (docs/product/catalogue-and-pricing.md#cohorts): the day-by-day programme of each of the student's cohorts (GET
 * /api/student/program, in the UI language), the ECTS credits (docs/product/portals.md#cohort-pages) and what to bring. A
 * student without a paid place sees what opens the page; an unverified one, the request to
 * confirm the e-mail address.
 */
export default function StudentProgramPage() {
  const { t } = useTranslation("cohort");
  const { language } = useFormat();
  const program = useQuery({
    queryKey: cohortKeys.program(language),
    queryFn: ({ signal }) => call(getStudentProgramContract, { signal }),
  });
  const cohorts = program.data?.cohorts;
  return (
    <CohortPage title={t("program.title")} lead={t("program.lead")}>
      <QueryState query={program} />
      {cohorts && cohorts.length === 0 ? <NoCohort /> : null}
      {cohorts && cohorts.length > 0 ? (
        <div className="space-y-12">
          {cohorts.map((cohort) => (
            <CohortProgram key={cohort.applicationId} cohort={cohort} headingLevel="h2" />
          ))}
        </div>
      ) : null}
    </CohortPage>
  );
}
