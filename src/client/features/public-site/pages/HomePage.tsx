import {
  ArrowRight,
  Award,
  BedDouble,
  Briefcase,
  Building2,
  Check,
  ClipboardList,
  CreditCard,
  FileCheck2,
  Globe2,
  GraduationCap,
  Handshake,
  Landmark,
  Leaf,
  type LucideIcon,
  MailCheck,
  MessagesSquare,
  Presentation,
  School,
  ShieldCheck,
  Sparkles,
  Users,
} from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Accordion } from "../../../components/ui/Accordion";
import { ButtonLink } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { Card, Container, Section } from "../../../components/ui/Layout";
import { useCatalogueSummary } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { usePaymentTerms } from "../../../lib/payment-terms";
import { CohortTable } from "./home/CohortTable";
import { CatalogueFallback } from "./home/cohorts";
import { Hero, StatsStrip } from "./home/Hero";

const BENEFITS: Array<[string, LucideIcon]> = [
  ["city", Landmark],
  ["classes", Users],
  ["ects", GraduationCap],
  ["international", Globe2],
  ["arranged", Sparkles],
  ["visa", FileCheck2],
];

const PILLARS: Array<[string, LucideIcon]> = [
  ["politics", Landmark],
  ["business", Briefcase],
  ["communication", MessagesSquare],
  ["sustainability", Leaf],
];

const EXPERIENCE: Array<[string, LucideIcon]> = [
  ["visits", Building2],
  ["pitch", Presentation],
  ["development", Briefcase],
  ["housing", BedDouble],
  ["certificate", Award],
];

const INCLUDED = ["tuition", "housing", "meals", "visits", "certificate"] as const;

const PARTNERS: Array<[string, LucideIcon, string]> = [
  ["universities", GraduationCap, "/for-universities"],
  ["agents", School, "/affiliate-program"],
  ["companies", Handshake, "/partners"],
];

const EXPERTISE = [
  "courts",
  "organisations",
  "multinationals",
  "startups",
  "ngos",
  "universities",
  "government",
] as const;

const STEPS: Array<[string, LucideIcon]> = [
  ["choose", ClipboardList],
  ["details", FileCheck2],
  ["pay", CreditCard],
  ["confirm", MailCheck],
];

const FAQ = ["who", "housing", "visa", "refund"] as const;

/** The landing page (docs/product/portals.md#public-site); every figure comes from the catalogue (docs/product/catalogue-and-pricing.md#programme-length). */
export default function HomePage() {
  // What the schools really take when applying (docs/product/payments.md#deposit-and-balance): full payment, a deposit, or either.
  const paymentTerms = usePaymentTerms();
  const { t } = useTranslation("home");
  const { money, date } = useFormat();
  const summary = useCatalogueSummary();
  const { data } = summary;
  const retry = () => void summary.refetch();

  return (
    <>
      <Hero data={data} />
      <StatsStrip data={data} isPending={summary.isPending} onRetry={retry} />

      <Section title={t("benefits.title")} intro={t("benefits.intro")}>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {BENEFITS.map(([key, Icon]) => (
            <li
              key={key}
              className="flex gap-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm sm:block sm:p-6"
            >
              <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <Icon aria-hidden="true" className="h-6 w-6" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-brand-900 sm:mt-4">{t(`benefits.${key}.title`)}</h3>
                <p className="mt-1 text-slate-700 sm:mt-2">{t(`benefits.${key}.body`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section tinted title={t("pillars.title")} intro={t("pillars.intro")}>
        <ol className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {PILLARS.map(([key, Icon], i) => (
            <li
              key={key}
              className="relative h-full overflow-hidden rounded-xl border border-slate-200 border-t-4 border-t-accent-500 bg-white p-6 shadow-sm"
            >
              <span
                aria-hidden="true"
                className="absolute right-5 top-6 text-sm font-bold tracking-widest text-accent-600"
              >
                {String(i + 1).padStart(2, "0")}
              </span>
              <Icon aria-hidden="true" className="relative h-8 w-8 text-brand-700" />
              <h3 className="relative mt-4 text-lg font-semibold text-brand-900">
                {t(`pillars.${key}.title`)}
              </h3>
              <p className="relative mt-2 text-slate-700">{t(`pillars.${key}.body`)}</p>
            </li>
          ))}
        </ol>
        <p className="mt-8">
          <ArrowLink to="/program">{t("hero.program")}</ArrowLink>
        </p>
      </Section>

      <Section title={t("experience.title")} intro={t("experience.intro")}>
        <ul className="grid gap-x-10 gap-y-8 sm:grid-cols-2 lg:grid-cols-3">
          {EXPERIENCE.map(([key, Icon]) => (
            <li key={key} className="flex gap-4">
              <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full bg-accent-600 text-white">
                <Icon aria-hidden="true" className="h-5 w-5" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-brand-900">{t(`experience.${key}.title`)}</h3>
                <p className="mt-1 text-slate-700">{t(`experience.${key}.body`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section tinted id="cohorts" title={t("cohorts.title")} intro={t("cohorts.intro")}>
        {data ? (
          <CohortTable schools={data.schools} />
        ) : (
          <CatalogueFallback isPending={summary.isPending} onRetry={retry} ns="home" />
        )}
      </Section>

      <Section title={t("price.title")} intro={t("price.intro")}>
        <div className="grid overflow-hidden rounded-2xl border border-slate-200 shadow-lg md:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
          <div className="flex flex-col justify-center bg-gradient-to-br from-brand-900 to-brand-700 p-8 text-white">
            {data ? (
              data.fromPrice !== null ? (
                <p>
                  <span className="block text-lg text-brand-50">{t("price.from")}</span>
                  <span className="block text-4xl font-extrabold tracking-tight sm:text-5xl">
                    {money(data.fromPrice)}
                  </span>
                  <span className="mt-1 block text-brand-50">{t("price.perStudent")}</span>
                </p>
              ) : (
                <p className="text-lg">{t("price.noPrice")}</p>
              )
            ) : (
              <div className="rounded-lg bg-white">
                <CatalogueFallback isPending={summary.isPending} onRetry={retry} ns="home" />
              </div>
            )}
            {/* Only while the schools' early application rule is in effect (decision 030). */}
            {data?.earlyDiscount ? (
              <p className="mt-6 rounded-lg bg-white/10 px-4 py-3 text-brand-50">
                <span className="block font-semibold text-white">{t("common:pricing.earlyDiscount")}</span>
                {t("common:pricing.earlyDiscountDetail", {
                  percent: data.earlyDiscount.percent,
                  date: date(data.earlyDiscount.endsOn),
                })}
              </p>
            ) : null}
            <ButtonLink to="/apply" size="lg" className="mt-6 sm:self-start">
              {t("price.cta")}
            </ButtonLink>
          </div>
          <div className="bg-white p-8">
            <h3 className="text-lg font-semibold text-brand-900">{t("price.includedTitle")}</h3>
            <ul className="mt-4 space-y-3">
              {INCLUDED.map((key) => (
                <li key={key} className="flex items-start gap-3 text-slate-800">
                  <span className="mt-0.5 inline-flex h-5 w-5 shrink-0 items-center justify-center rounded-full bg-emerald-100 text-emerald-800">
                    <Check aria-hidden="true" className="h-3.5 w-3.5" strokeWidth={3} />
                  </span>
                  {t(`price.included.${key}`)}
                </li>
              ))}
            </ul>
            <ul className="mt-6 space-y-3 border-t border-slate-200 pt-6 text-slate-700">
              <li className="flex items-start gap-3">
                <ShieldCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
                {t("price.insurance")}
              </li>
              <li className="flex items-start gap-3">
                <CreditCard aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
                {t(`price.payment${paymentTerms.suffix}`, { percent: paymentTerms.percent })}
              </li>
            </ul>
          </div>
        </div>
      </Section>

      <Section tinted title={t("partners.title")} intro={t("partners.intro")}>
        <ul className="grid gap-5 md:grid-cols-3">
          {PARTNERS.map(([key, Icon, to]) => (
            <li key={key}>
              <Card className="flex h-full flex-col">
                <Icon aria-hidden="true" className="h-8 w-8 text-accent-600" />
                <h3 className="mt-4 text-lg font-semibold text-brand-900">{t(`partners.${key}.title`)}</h3>
                <p className="mt-2 flex-1 text-slate-700">{t(`partners.${key}.body`)}</p>
                <p className="mt-4">
                  <ArrowLink to={to}>{t(`partners.${key}.link`)}</ArrowLink>
                </p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("expertise.title")} intro={t("expertise.intro")}>
        <ul className="flex flex-wrap gap-3">
          {EXPERTISE.map((key) => (
            <li
              key={key}
              className="rounded-full border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-brand-800 shadow-sm"
            >
              {t(`expertise.${key}`)}
            </li>
          ))}
        </ul>
      </Section>

      <Section tinted title={t("steps.title")} intro={t("steps.intro")}>
        <ol className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(([key, Icon], i) => (
            <li key={key} className="relative rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
              <div className="flex items-center gap-3">
                <span className="inline-flex h-9 w-9 items-center justify-center rounded-full bg-brand-900 text-base font-bold text-white">
                  {i + 1}
                </span>
                <Icon aria-hidden="true" className="h-6 w-6 text-accent-600" />
              </div>
              <h3 className="mt-4 text-lg font-semibold text-brand-900">{t(`steps.${key}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`steps.${key}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <section className="py-12 sm:py-16">
        <Container className="grid gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)] lg:gap-12">
          <div>
            <h2 className="text-2xl font-bold text-brand-900 sm:text-3xl">{t("faq.title")}</h2>
            <p className="mt-3 text-slate-700">{t("faq.intro")}</p>
            <p className="mt-6">
              <ArrowLink to="/faq">{t("faq.more")}</ArrowLink>
            </p>
          </div>
          <Accordion
            items={FAQ.map((key) => ({ question: t(`faq.${key}.question`), answer: t(`faq.${key}.answer`) }))}
          />
        </Container>
      </section>

      <section className="pb-14 sm:pb-20">
        <Container>
          <div className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-brand-900 to-brand-700 px-6 py-12 text-center text-white shadow-xl sm:px-12">
            <div
              aria-hidden="true"
              className="pointer-events-none absolute -bottom-20 -left-20 h-64 w-64 rounded-full border-[36px] border-white/5"
            />
            <h2 className="relative text-2xl font-bold sm:text-3xl">{t("cta.title")}</h2>
            <p className="relative mx-auto mt-4 max-w-2xl text-lg text-brand-50">{t("cta.body")}</p>
            <div className="relative mt-8 flex flex-col justify-center gap-3 sm:flex-row">
              <ButtonLink to="/apply" size="lg">
                {t("cta.apply")}
                <ArrowRight aria-hidden="true" className="h-5 w-5" />
              </ButtonLink>
              <Link
                to="/program"
                className="inline-flex items-center justify-center rounded-lg border border-white/70 px-7 py-3.5 text-lg font-semibold text-white transition-colors hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
              >
                {t("cta.program")}
              </Link>
            </div>
          </div>
        </Container>
      </section>
    </>
  );
}

/** A text link with a trailing arrow that stays on the last line when the text wraps. */
function ArrowLink({ to, className, children }: { to: string; className?: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className={cn(
        "font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-900",
        className,
      )}
    >
      {children}
      <ArrowRight aria-hidden="true" className="ml-1.5 inline h-4 w-4 align-[-0.125em]" />
    </Link>
  );
}
