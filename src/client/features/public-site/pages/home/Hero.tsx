import { ArrowRight, CalendarDays, CheckCircle2, MapPin } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type CatalogueSummaryDto, canApply } from "../../../../../shared/catalogue";
import { ButtonLink } from "../../../../components/ui/Button";
import { cn } from "../../../../components/ui/cn";
import { Container } from "../../../../components/ui/Layout";
import { useFormat } from "../../../../lib/format";
import { CatalogueFallback } from "./cohorts";

const HIGHLIGHTS = ["english", "ects", "age", "housing"] as const;

/** The landing page's top band: the page's only h1, the two calls to action and, on wide screens, the next open cohort. */
export function Hero({ data }: { data: CatalogueSummaryDto | undefined }) {
  const { t } = useTranslation("home");
  const next = data?.schools.find((school) => canApply(school.status));
  return (
    <section className="relative overflow-hidden bg-brand-900 text-white">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(circle_at_15%_10%,rgb(31_109_163/0.6),transparent_55%),radial-gradient(circle_at_90%_80%,rgb(232_116_31/0.28),transparent_45%)]"
      />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -right-24 -top-24 h-72 w-72 rounded-full border-[40px] border-white/5"
      />
      <Container className="relative grid gap-10 pb-24 pt-12 sm:pb-28 sm:pt-20 lg:grid-cols-[minmax(0,1.5fr)_minmax(0,1fr)] lg:items-center">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm font-medium text-white ring-1 ring-white/25">
            <MapPin aria-hidden="true" className="h-4 w-4 text-accent-400" />
            {t("hero.eyebrow")}
          </p>
          <h1 className="mt-5 text-[2.1rem] font-extrabold leading-tight tracking-tight sm:text-5xl lg:text-[3.4rem]">
            {t("hero.title")}
          </h1>
          <p className="mt-5 max-w-xl text-lg text-brand-50">{t("hero.lead")}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <ButtonLink to="/apply" size="lg">
              {t("hero.apply")}
              <ArrowRight aria-hidden="true" className="h-5 w-5" />
            </ButtonLink>
            <Link
              to="/program"
              className="inline-flex items-center justify-center gap-2 rounded-lg border border-white/70 px-7 py-3.5 text-lg font-semibold text-white transition-colors hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
            >
              {t("hero.program")}
            </Link>
          </div>
          <ul className="mt-8 grid grid-cols-2 gap-x-6 gap-y-2 text-sm text-brand-50 sm:flex sm:flex-wrap">
            {HIGHLIGHTS.map((key) => (
              <li key={key} className="flex items-center gap-2">
                <CheckCircle2 aria-hidden="true" className="h-4 w-4 shrink-0 text-accent-400" />
                {t(`hero.highlights.${key}`)}
              </li>
            ))}
          </ul>
        </div>
        {next ? <NextCohort school={next} /> : null}
      </Container>
    </section>
  );
}

function NextCohort({ school }: { school: CatalogueSummaryDto["schools"][number] }) {
  const { t } = useTranslation("home");
  const { dayMonth, money } = useFormat();
  return (
    <div className="hidden rounded-2xl bg-white p-6 text-slate-800 shadow-2xl ring-1 ring-white/10 lg:block">
      <p className="text-sm font-semibold uppercase tracking-wide text-accent-600">{t("nextCohort.title")}</p>
      <p className="mt-2 text-xl font-bold text-brand-900">{school.name}</p>
      <p className="mt-3 flex items-center gap-2 text-slate-700">
        <CalendarDays aria-hidden="true" className="h-5 w-5 text-brand-600" />
        {t("cohorts.range", { start: dayMonth(school.startDate), end: dayMonth(school.endDate) })}
      </p>
      <p className="mt-1 text-slate-700">{t("nextCohort.placesLeft", { count: school.placesLeft })}</p>
      {school.fromPrice !== null ? (
        <p className="mt-4 text-2xl font-extrabold text-brand-900">
          {t("nextCohort.from", { price: money(school.fromPrice) })}
        </p>
      ) : null}
      <div className="mt-5 flex flex-wrap items-center gap-4">
        <ButtonLink to={`/apply?school=${encodeURIComponent(school.id)}`}>{t("nextCohort.apply")}</ButtonLink>
        <Link
          to="/courses"
          className="font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900"
        >
          {t("nextCohort.all")}
        </Link>
      </div>
    </div>
  );
}

/** The figures under the hero; the live ones (length, price) come from the catalogue, never from copy. */
export function StatsStrip({
  data,
  isPending,
  onRetry,
}: {
  data: CatalogueSummaryDto | undefined;
  isPending: boolean;
  onRetry: () => void;
}) {
  const { t } = useTranslation("home");
  const { money } = useFormat();
  const stats: Array<{ key: string; value: ReactNode; label: string }> = [];
  if (data) {
    if (data.lengthDays !== null) {
      stats.push({
        key: "days",
        value: t("stats.days", { count: data.lengthDays }),
        label: t("stats.daysLabel", { count: data.lengthDays }),
      });
    }
    stats.push({ key: "students", value: t("stats.students"), label: t("stats.studentsLabel") });
    stats.push(
      data.fromPrice !== null
        ? {
            key: "price",
            value: <FromPrice text={t("stats.from", { price: MARK })} price={money(data.fromPrice)} />,
            label: t("stats.fromLabel"),
          }
        : { key: "price", value: t("stats.noPrice"), label: t("stats.noPriceLabel") },
    );
    stats.push({ key: "satisfaction", value: t("stats.satisfaction"), label: t("stats.satisfactionLabel") });
  }
  return (
    <section aria-labelledby="key-figures">
      <h2 id="key-figures" className="sr-only">
        {t("stats.label")}
      </h2>
      <Container className="relative -mt-14 sm:-mt-16">
        <div className="rounded-2xl bg-white shadow-xl ring-1 ring-slate-200">
          {data ? (
            <dl className={cn("grid grid-cols-2", stats.length === 4 ? "sm:grid-cols-4" : "sm:grid-cols-3")}>
              {stats.map((stat, i) => (
                <div
                  key={stat.key}
                  className={cn(
                    "flex flex-col-reverse items-center justify-start border-slate-200 px-3 py-5 text-center sm:border-0 sm:py-7",
                    i < 2 && "border-b",
                    i % 2 === 0 && i < stats.length - 1 && "border-r",
                    i === stats.length - 1 && i % 2 === 0 && "col-span-2 sm:col-span-1",
                    i > 0 && "sm:border-l",
                  )}
                >
                  <dt className="mt-1 text-sm text-slate-700">{stat.label}</dt>
                  <dd className="text-xl font-extrabold tracking-tight text-brand-900 sm:text-3xl">
                    {stat.value}
                  </dd>
                </div>
              ))}
            </dl>
          ) : (
            <CatalogueFallback isPending={isPending} onRetry={onRetry} ns="home" />
          )}
        </div>
      </Container>
    </section>
  );
}

const MARK = "\u0000";

/** "from {{price}}" with the words around the amount in a smaller size, in any language's word order. */
function FromPrice({ text, price }: { text: string; price: string }) {
  const [before = "", after = ""] = text.split(MARK);
  return (
    <>
      {before.trim() ? <span className="text-base font-semibold sm:text-lg">{before}</span> : null}
      <span className="whitespace-nowrap">{price}</span>
      {after.trim() ? <span className="text-base font-semibold sm:text-lg">{after}</span> : null}
    </>
  );
}
