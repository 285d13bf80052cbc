import {
  ArrowRight,
  Award,
  Briefcase,
  Building2,
  Check,
  CheckCircle2,
  Coffee,
  Landmark,
  Leaf,
  type LucideIcon,
  MessagesSquare,
  Palette,
  Presentation,
  Sun,
  Sunset,
  Users,
  UsersRound,
  Utensils,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, Container, PageHeader, Section } from "../../../components/ui/Layout";
import { useCatalogueSummary } from "../../../lib/catalogue";
import { useInsuranceOffer } from "../../../lib/insurance";

const GOALS = ["politics", "business", "teams", "sustainability", "pitch", "network"] as const;
const AREAS: Array<[string, LucideIcon]> = [
  ["politics", Landmark],
  ["business", Briefcase],
  ["communication", MessagesSquare],
  ["sustainability", Leaf],
];
const TOPICS = ["a", "b", "c"] as const;
const DAY: Array<[string, LucideIcon]> = [
  ["morning", Coffee],
  ["midday", Utensils],
  ["afternoon", Sun],
  ["evening", Sunset],
];
const WEEK_ITEMS = ["a", "b", "c", "d"] as const;
const TEACHING: Array<[string, LucideIcon]> = [
  ["size", Users],
  ["active", Presentation],
  ["mixed", UsersRound],
];
const ADMISSION = ["age", "english", "status", "passport", "insurance"] as const;
const INCLUDED = ["tuition", "housing", "meals", "visits", "certificate", "alumni"] as const;

/** The programme page (/program): what the weeks in The Hague look like. The length comes from the catalogue. */
export default function ProgramPage() {
  const { t } = useTranslation("program");
  const { data } = useCatalogueSummary();
  // What the open cohorts sell of insurance (docs/product/admissions.md#insurance-proof).
  const insurance = useInsuranceOffer();
  const days = data?.lengthDays ?? null;

  return (
    <>
      <PageHeader
        title={t("header.title")}
        lead={days !== null ? t("header.lead", { count: days }) : t("header.leadNoDays")}
      >
        <ButtonLink to="/apply" size="lg">
          {t("header.apply")}
          <ArrowRight aria-hidden="true" className="h-5 w-5" />
        </ButtonLink>
        <ButtonLink to="/courses" size="lg" variant="secondary">
          {t("header.dates")}
        </ButtonLink>
      </PageHeader>

      <Section title={t("goals.title")} intro={t("goals.intro")}>
        <ul className="grid gap-4 md:grid-cols-2">
          {GOALS.map((key) => (
            <li key={key} className="flex items-start gap-3 text-slate-800">
              <CheckCircle2 aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-emerald-700" />
              {t(`goals.items.${key}`)}
            </li>
          ))}
        </ul>
      </Section>

      <Section tinted title={t("areas.title")} intro={t("areas.intro")}>
        <div className="grid gap-5 md:grid-cols-2">
          {AREAS.map(([key, Icon]) => (
            <Card key={key} className="border-t-4 border-t-accent-500">
              <div className="flex items-center gap-3">
                <span className="inline-flex h-11 w-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="h-6 w-6" />
                </span>
                <h3 className="text-xl font-semibold text-brand-900">{t(`areas.${key}.title`)}</h3>
              </div>
              <p className="mt-4 text-slate-700">{t(`areas.${key}.body`)}</p>
              <p className="mt-4 text-sm font-semibold text-brand-900">{t("areas.topicsLabel")}</p>
              <ul className="mt-2 space-y-1.5">
                {TOPICS.map((topic) => (
                  <li key={topic} className="flex items-start gap-2 text-slate-700">
                    <Check aria-hidden="true" className="mt-1 h-4 w-4 shrink-0 text-accent-600" />
                    {t(`areas.${key}.topics.${topic}`)}
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </div>
      </Section>

      <Section title={t("day.title")} intro={t("day.intro")}>
        <ol className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {DAY.map(([key, Icon], i) => (
            <li key={key} className="relative rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <Icon aria-hidden="true" className="h-7 w-7 text-accent-600" />
              <h3 className="mt-3 text-lg font-semibold text-brand-900">{t(`day.${key}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`day.${key}.body`)}</p>
              {i < DAY.length - 1 ? (
                <span
                  aria-hidden="true"
                  className="absolute -right-3 top-1/2 hidden h-0.5 w-6 bg-brand-200 lg:block"
                />
              ) : null}
            </li>
          ))}
        </ol>
      </Section>

      <Section
        tinted
        title={t("outline.title")}
        intro={days !== null ? t("outline.intro", { count: days }) : t("outline.introNoDays")}
      >
        <div className="grid gap-5 md:grid-cols-2">
          {(["week1", "week2"] as const).map((week, i) => (
            <Card key={week}>
              <div className="flex items-center gap-3">
                <span className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-brand-900 font-bold text-white">
                  {i + 1}
                </span>
                <h3 className="text-xl font-semibold text-brand-900">{t(`outline.${week}.title`)}</h3>
              </div>
              <ul className="mt-5 space-y-3 border-l-2 border-brand-100 pl-5">
                {WEEK_ITEMS.map((item) => (
                  <li key={item} className="relative text-slate-800">
                    <span
                      aria-hidden="true"
                      className="absolute -left-[1.6rem] top-2 h-2.5 w-2.5 rounded-full bg-accent-500 ring-4 ring-white"
                    />
                    {t(`outline.${week}.items.${item}`)}
                  </li>
                ))}
              </ul>
            </Card>
          ))}
        </div>
      </Section>

      <Section title={t("teaching.title")} intro={t("teaching.intro")}>
        <ul className="grid gap-5 md:grid-cols-3">
          {TEACHING.map(([key, Icon]) => (
            <li key={key}>
              <Card className="h-full">
                <Icon aria-hidden="true" className="h-8 w-8 text-brand-700" />
                <h3 className="mt-3 text-lg font-semibold text-brand-900">{t(`teaching.${key}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`teaching.${key}.body`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <section className="bg-brand-900 py-12 text-white sm:py-16">
        <Container className="grid gap-8 md:grid-cols-[auto_minmax(0,1fr)] md:items-start">
          <span className="inline-flex h-16 w-16 items-center justify-center rounded-2xl bg-accent-600">
            <Presentation aria-hidden="true" className="h-8 w-8" />
          </span>
          <div>
            <h2 className="text-2xl font-bold sm:text-3xl">{t("pitch.title")}</h2>
            <p className="mt-4 max-w-3xl text-lg text-brand-50">{t("pitch.body1")}</p>
            <p className="mt-4 max-w-3xl text-brand-50">{t("pitch.body2")}</p>
          </div>
        </Container>
      </section>

      <Section title={t("visits.title")}>
        <div className="grid gap-5 md:grid-cols-2">
          {(
            [
              ["companies", Building2],
              ["culture", Palette],
            ] as Array<[string, LucideIcon]>
          ).map(([key, Icon]) => (
            <Card key={key}>
              <Icon aria-hidden="true" className="h-8 w-8 text-accent-600" />
              <h3 className="mt-3 text-lg font-semibold text-brand-900">{t(`visits.${key}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`visits.${key}.body`)}</p>
            </Card>
          ))}
        </div>
      </Section>

      <Section tinted title={t("certificate.title")}>
        <div className="flex max-w-3xl gap-4">
          <Award aria-hidden="true" className="h-10 w-10 shrink-0 text-accent-600" />
          <p className="text-slate-800">{t("certificate.body")}</p>
        </div>
      </Section>

      <Section title={t("admission.title")} intro={t("admission.intro")}>
        <ul className="grid max-w-4xl gap-3 md:grid-cols-2">
          {ADMISSION.map((key) => (
            <li
              key={key}
              className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-4 text-slate-800"
            >
              <CheckCircle2 aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-emerald-700" />
              {t(`admission.${key}`)}
            </li>
          ))}
        </ul>
      </Section>

      <Section tinted title={t("included.title")} intro={t("included.intro")}>
        <ul className="grid gap-3 sm:grid-cols-2">
          {INCLUDED.map((key) => (
            <li key={key} className="flex items-start gap-3 text-slate-800">
              <span className="mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-800">
                <Check aria-hidden="true" className="h-3.5 w-3.5" strokeWidth={3} />
              </span>
              {t(`included.items.${key}`)}
            </li>
          ))}
        </ul>
        <p className="mt-6 max-w-3xl text-slate-700">
          {t("included.extras", { insurance: insurance.sentence })}
        </p>
      </Section>

      <section className="py-14 sm:py-20">
        <Container>
          <div className="rounded-2xl bg-gradient-to-br from-brand-900 to-brand-700 px-6 py-10 text-center text-white sm:px-12">
            <h2 className="text-2xl font-bold sm:text-3xl">{t("cta.title")}</h2>
            <p className="mx-auto mt-4 max-w-2xl text-lg text-brand-50">{t("cta.body")}</p>
            <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <ButtonLink to="/apply" size="lg">
                {t("cta.apply")}
                <ArrowRight aria-hidden="true" className="h-5 w-5" />
              </ButtonLink>
              <ButtonLink to="/courses" size="lg" variant="secondary">
                {t("cta.courses")}
              </ButtonLink>
            </div>
          </div>
        </Container>
      </section>
    </>
  );
}
