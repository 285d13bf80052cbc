import {
  BedDouble,
  Bike,
  Briefcase,
  Building2,
  Check,
  CloudSun,
  Landmark,
  type LucideIcon,
  Moon,
  Network,
  PartyPopper,
  Presentation,
  Smartphone,
  Sun,
  Sunrise,
  Sunset,
  TrainFront,
  TramFront,
  Umbrella,
  Utensils,
  Wallet,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";

type Item = { id: string; icon: LucideIcon };

const WHO = ["age", "english", "curious", "team"] as const;

const DAY: readonly Item[] = [
  { id: "morning", icon: Sunrise },
  { id: "midday", icon: Sun },
  { id: "afternoon", icon: Sunset },
  { id: "evening", icon: Moon },
];

const CITY: readonly Item[] = [
  { id: "peace", icon: Landmark },
  { id: "beach", icon: Umbrella },
  { id: "nearby", icon: TrainFront },
  { id: "bike", icon: Bike },
];

const LIFE: readonly Item[] = [
  { id: "housing", icon: BedDouble },
  { id: "meals", icon: Utensils },
  { id: "social", icon: PartyPopper },
];

const HIGHLIGHTS: readonly Item[] = [
  { id: "visits", icon: Building2 },
  { id: "pitch", icon: Presentation },
  { id: "career", icon: Briefcase },
  { id: "alumni", icon: Network },
];

const TIPS: readonly Item[] = [
  { id: "weather", icon: CloudSun },
  { id: "transport", icon: TramFront },
  { id: "phone", icon: Smartphone },
  { id: "money", icon: Wallet },
];

/** A grid of cards, each with an icon, an `h3` title and a paragraph: `<ns>.<group>.<id>.title|body`. */
function CardGrid({ group, items, columns }: { group: string; items: readonly Item[]; columns: string }) {
  const { t } = useTranslation("campus");
  return (
    <ul className={`grid gap-6 ${columns}`}>
      {items.map(({ id, icon: Icon }) => (
        <li key={id} className="flex">
          <Card className="w-full">
            <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
              <Icon aria-hidden="true" className="h-6 w-6" />
            </span>
            <h3 className="mt-4 text-lg font-semibold text-brand-900">{t(`${group}.${id}.title`)}</h3>
            <p className="mt-2 text-slate-700">{t(`${group}.${id}.body`)}</p>
          </Card>
        </li>
      ))}
    </ul>
  );
}

/** /campus-life, "For Students" (docs/product/catalogue-and-pricing.md#housing): daily life, the city, housing, highlights and practical tips. */
export default function CampusLifePage() {
  const { t } = useTranslation("campus");

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")}>
        <ButtonLink to="/apply" size="lg" className="text-center">
          {t("header.apply")}
        </ButtonLink>
        <ButtonLink to="/program" variant="secondary" size="lg" className="text-center">
          {t("header.program")}
        </ButtonLink>
      </PageHeader>

      <Section title={t("who.title")}>
        <ul className="grid gap-4 md:grid-cols-2">
          {WHO.map((id) => (
            <li key={id} className="flex gap-3 rounded-xl border border-slate-200 bg-white p-5">
              <Check aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
              <span className="text-slate-700">{t(`who.${id}`)}</span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("day.title")} intro={t("day.intro")} tinted>
        <ol className="relative ml-5 max-w-3xl space-y-8 border-l-2 border-brand-200 pl-8">
          {DAY.map(({ id, icon: Icon }) => (
            <li key={id} className="relative">
              <span className="absolute top-0 -left-[3.2rem] flex h-9 w-9 items-center justify-center rounded-full border-2 border-brand-200 bg-white text-brand-700">
                <Icon aria-hidden="true" className="h-5 w-5" />
              </span>
              <h3 className="text-lg font-semibold text-brand-900">{t(`day.${id}.time`)}</h3>
              <p className="mt-1 text-slate-700">{t(`day.${id}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section title={t("city.title")} intro={t("city.intro")}>
        <CardGrid group="city" items={CITY} columns="sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <Section title={t("life.title")} tinted>
        <CardGrid group="life" items={LIFE} columns="md:grid-cols-3" />
      </Section>

      <Section title={t("highlights.title")}>
        <CardGrid group="highlights" items={HIGHLIGHTS} columns="md:grid-cols-2" />
      </Section>

      <Section title={t("tips.title")} intro={t("tips.intro")} tinted>
        <CardGrid group="tips" items={TIPS} columns="sm:grid-cols-2 lg:grid-cols-4" />
      </Section>

      <section className="py-12 sm:py-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          <div className="rounded-2xl bg-brand-900 px-6 py-10 text-white sm:px-10">
            <h2 className="text-2xl font-bold sm:text-3xl">{t("cta.title")}</h2>
            <p className="mt-3 max-w-2xl text-brand-50">{t("cta.body")}</p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:items-center">
              <ButtonLink to="/apply" size="lg" className="text-center">
                {t("cta.apply")}
              </ButtonLink>
              <ButtonLink to="/program" variant="secondary" size="lg" className="text-center">
                {t("cta.program")}
              </ButtonLink>
              <Link to="/faq" className="font-semibold text-white underline hover:text-brand-100 sm:ml-2">
                {t("cta.faq")}
              </Link>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
