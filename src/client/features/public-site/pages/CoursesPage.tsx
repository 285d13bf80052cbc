import { BadgePercent, CalendarDays, Check, Clock, Mail, Ticket, Users } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { canApply, type SummerSchoolDto } from "../../../../shared/catalogue";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { useCatalogueSummary } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";
import { ApplyAction, CatalogueFallback, StatusBadge } from "./home/cohorts";

/**
 * All upcoming cohorts as cards (/courses), custom cohorts for groups, the packages in words and the
 * important dates. Every date and percentage comes from the catalogue: each cohort's application
 * deadline and early application discount (decision 030) on its card, the discount the open cohorts
 * share in the list of dates; nothing is said of a rule that is not in effect.
 */
export default function CoursesPage() {
  const { t } = useTranslation("courses");
  const { supportEmail } = useSite();
  const { date } = useFormat();
  const summary = useCatalogueSummary();
  const { data } = summary;
  const early = data?.earlyDiscount ?? null;
  const mailto = `mailto:${supportEmail}?subject=${encodeURIComponent(t("custom.subject"))}`;

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")} />

      <Section title={t("list.title")} intro={t("list.intro")}>
        {!data ? (
          <CatalogueFallback
            isPending={summary.isPending}
            onRetry={() => void summary.refetch()}
            ns="courses"
          />
        ) : data.schools.length === 0 ? (
          <p className="max-w-3xl rounded-xl border border-slate-200 bg-slate-50 p-6 text-slate-800">
            {t("list.empty", { email: supportEmail })}
          </p>
        ) : (
          <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
            {data.schools.map((school) => (
              <li key={school.id}>
                <CohortCard school={school} />
              </li>
            ))}
          </ul>
        )}
      </Section>

      <Section tinted title={t("custom.title")}>
        <Card className="max-w-3xl">
          <div className="flex flex-col gap-4 sm:flex-row">
            <Users aria-hidden="true" className="h-8 w-8 shrink-0 text-accent-600" />
            <div>
              <p className="text-slate-800">{t("custom.body")}</p>
              <p className="mt-2 text-slate-800">{t("custom.faculty")}</p>
              <a
                href={mailto}
                className="mt-4 inline-flex items-center gap-2 font-semibold [overflow-wrap:anywhere] text-brand-700 underline underline-offset-4 hover:text-brand-900"
              >
                <Mail aria-hidden="true" className="h-5 w-5 shrink-0" />
                {t("custom.action", { email: supportEmail })}
              </a>
            </div>
          </div>
        </Card>
      </Section>

      <Section title={t("packages.title")} intro={t("packages.intro")}>
        <div className="grid gap-5 md:grid-cols-2">
          {(["standard", "premium"] as const).map((key) => (
            <Card
              key={key}
              className={
                key === "premium" ? "border-t-4 border-t-accent-500" : "border-t-4 border-t-brand-700"
              }
            >
              <h3 className="text-xl font-semibold text-brand-900">{t(`packages.${key}.title`)}</h3>
              <p className="mt-3 text-slate-700">{t(`packages.${key}.body`)}</p>
            </Card>
          ))}
        </div>
        <div className="mt-6 max-w-3xl space-y-3 text-slate-700">
          <p>{t("packages.housing")}</p>
          <p className="font-semibold text-brand-900">{t("packages.prices")}</p>
        </div>
      </Section>

      <Section tinted title={t("deadlines.title")}>
        <ul className="max-w-3xl space-y-3">
          {[
            ...(early ? [t("deadlines.early", { percent: early.percent, date: date(early.endsOn) })] : []),
            t("deadlines.regular"),
            t("deadlines.scholarship", { email: supportEmail }),
            t("deadlines.visa"),
          ].map((text) => (
            <li key={text} className="flex items-start gap-3 text-slate-800">
              <Check aria-hidden="true" className="mt-1 h-4 w-4 shrink-0 text-accent-600" />
              {text}
            </li>
          ))}
        </ul>
      </Section>
    </>
  );
}

function CohortCard({ school }: { school: SummerSchoolDto }) {
  const { t } = useTranslation("courses");
  const { date, money } = useFormat();
  const open = canApply(school.status);
  return (
    <article className="flex h-full flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="flex flex-1 flex-col p-6">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h3 className="text-lg font-semibold text-brand-900">{school.name}</h3>
          <StatusBadge status={school.status} ns="courses" />
        </div>
        <dl className="mt-5 grid grid-cols-2 gap-4 text-slate-800">
          <Fact
            icon={<CalendarDays aria-hidden="true" className="h-5 w-5" />}
            label={t("list.dates")}
            className="col-span-2"
          >
            {t("list.range", { start: date(school.startDate), end: date(school.endDate) })}
          </Fact>
          <Fact icon={<Clock aria-hidden="true" className="h-5 w-5" />} label={t("list.length")}>
            {t("list.days", { count: school.lengthDays })}
          </Fact>
          {open ? (
            <Fact icon={<Users aria-hidden="true" className="h-5 w-5" />} label={t("list.places")}>
              {school.placesLeft}
            </Fact>
          ) : null}
          {school.fromPrice !== null ? (
            <Fact icon={<Ticket aria-hidden="true" className="h-5 w-5" />} label={t("list.from")}>
              <span className="font-bold text-brand-900">
                {t("list.fromValue", { price: money(school.fromPrice) })}
              </span>
            </Fact>
          ) : null}
          {school.applicationDeadline && (open || school.status === "openingSoon") ? (
            <Fact
              icon={<CalendarDays aria-hidden="true" className="h-5 w-5" />}
              label={t("list.deadline")}
              className="col-span-2"
            >
              {date(school.applicationDeadline)}
            </Fact>
          ) : null}
          {open && school.earlyDiscount ? (
            <Fact
              icon={<BadgePercent aria-hidden="true" className="h-5 w-5" />}
              label={t("common:pricing.earlyDiscount")}
              className="col-span-2"
            >
              {t("common:pricing.earlyDiscountDetail", {
                percent: school.earlyDiscount.percent,
                date: date(school.earlyDiscount.endsOn),
              })}
            </Fact>
          ) : null}
        </dl>
      </div>
      <div className="border-t border-slate-200 bg-slate-50 px-6 py-4">
        <ApplyAction school={school} ns="courses" className="w-full" />
      </div>
    </article>
  );
}

function Fact({
  icon,
  label,
  className,
  children,
}: {
  icon: ReactNode;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <dt className="flex items-center gap-2 text-sm text-slate-700">
        <span className="text-brand-600">{icon}</span>
        {label}
      </dt>
      <dd className="mt-0.5 pl-7">{children}</dd>
    </div>
  );
}
