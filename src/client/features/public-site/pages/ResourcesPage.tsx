import {
  BookOpen,
  CircleCheck,
  CloudSun,
  FileText,
  HeartPulse,
  type LucideIcon,
  Luggage,
  Presentation,
  TrainFront,
  Wallet,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, Container, PageHeader, Section } from "../../../components/ui/Layout";

/** The guide's chapters, in page order: anchor id (also the translation key) and icon. */
const CHAPTERS: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "visa", icon: FileText },
  { id: "insurance", icon: HeartPulse },
  { id: "packing", icon: Luggage },
  { id: "money", icon: Wallet },
  { id: "travel", icon: TrainFront },
  { id: "weather", icon: CloudSun },
  { id: "pitch", icon: Presentation },
  { id: "reading", icon: BookOpen },
];

const VISA_DOCUMENTS = ["passport", "letter", "insurance", "means", "flight"] as const;
const VISA_STEPS = ["check", "letter", "appointment", "decision", "refusal"] as const;
const INSURANCE_MUST = ["medical", "area", "period", "repatriation"] as const;
const INSURANCE_ADVICE = ["liability", "luggage", "cancellation", "english"] as const;
const PACKING: ReadonlyArray<{ id: string; items: readonly string[] }> = [
  { id: "documents", items: ["passport", "copies", "insurance", "cards"] },
  { id: "clothing", items: ["layers", "rain", "shoes", "smart"] },
  { id: "electronics", items: ["plug", "powerbank", "phone"] },
  { id: "health", items: ["medicine", "glasses", "bottle"] },
];
const MONEY_TIPS = ["currency", "cards", "wallets", "cash", "bank", "budget"] as const;
const TRAVEL_STEPS = ["arrive", "ticket", "train", "checkout", "housing"] as const;
const WEATHER_FACTS = ["temperature", "rain", "wind", "daylight"] as const;
const PITCH_STEPS = ["problem", "structure", "slides", "rehearse", "questions", "dress"] as const;
const READING: ReadonlyArray<{ id: string; items: readonly string[] }> = [
  { id: "politics", items: ["courts", "institutions", "peace"] },
  { id: "business", items: ["market", "trade", "entry"] },
  { id: "culture", items: ["dimensions", "map", "teams"] },
  { id: "sustainability", items: ["sdgs", "water", "circular"] },
];

/** A list with a check mark before each item. */
function Checklist({ items }: { items: readonly string[] }) {
  return (
    <ul className="space-y-3">
      {items.map((item) => (
        <li key={item} className="flex gap-3 text-slate-700">
          <CircleCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
          <span>{item}</span>
        </li>
      ))}
    </ul>
  );
}

/** A numbered list of steps. */
function Steps({ items }: { items: readonly string[] }) {
  return (
    <ol className="space-y-4">
      {items.map((item, index) => (
        <li key={item} className="flex gap-3 text-slate-700">
          <span
            aria-hidden="true"
            className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
          >
            {index + 1}
          </span>
          <span className="pt-0.5">{item}</span>
        </li>
      ))}
    </ol>
  );
}

function CardTitle({ children }: { children: string }) {
  return <h3 className="mb-4 text-lg font-semibold text-brand-900">{children}</h3>;
}

/** /resources (docs/product/admissions.md#visa-letter): a practical guide for the trip, from the visa to the final pitch. */
export default function ResourcesPage() {
  const { t } = useTranslation("resources");
  const keys = (prefix: string, ids: readonly string[]) => ids.map((id) => t(`${prefix}.${id}`));

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")} />

      <Container>
        <nav aria-labelledby="resources-contents" className="rounded-xl border border-slate-200 bg-white p-5">
          <p id="resources-contents" className="font-semibold text-brand-900">
            {t("contents")}
          </p>
          <ul className="mt-3 grid gap-2 sm:grid-cols-2 lg:grid-cols-4">
            {CHAPTERS.map(({ id, icon: Icon }) => (
              <li key={id}>
                <a
                  href={`#${id}`}
                  className="flex items-center gap-2 rounded-md py-1 text-brand-700 underline hover:text-brand-900"
                >
                  <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
                  {t(`${id}.title`)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      </Container>

      <Section id="visa" title={t("visa.title")} intro={t("visa.intro")}>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardTitle>{t("visa.documents.title")}</CardTitle>
            <Checklist items={keys("visa.documents.items", VISA_DOCUMENTS)} />
            <p className="mt-4 text-slate-700">{t("visa.documents.also")}</p>
          </Card>
          <Card>
            <CardTitle>{t("visa.steps.title")}</CardTitle>
            <Steps items={keys("visa.steps.items", VISA_STEPS)} />
          </Card>
        </div>
        <p className="mt-6 max-w-3xl text-slate-700">
          {t("visa.official")}{" "}
          <a
            href="https://www.netherlandsworldwide.nl"
            className="font-semibold text-brand-700 underline hover:text-brand-900"
          >
            {t("visa.officialLink")}
          </a>
        </p>
      </Section>

      <Section id="insurance" title={t("insurance.title")} intro={t("insurance.intro")} tinted>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <CardTitle>{t("insurance.must.title")}</CardTitle>
            <Checklist items={keys("insurance.must.items", INSURANCE_MUST)} />
          </Card>
          <Card>
            <CardTitle>{t("insurance.advice.title")}</CardTitle>
            <Checklist items={keys("insurance.advice.items", INSURANCE_ADVICE)} />
          </Card>
        </div>
      </Section>

      <Section id="packing" title={t("packing.title")} intro={t("packing.intro")}>
        <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {PACKING.map((group) => (
            <Card key={group.id}>
              <CardTitle>{t(`packing.${group.id}.title`)}</CardTitle>
              <Checklist items={keys(`packing.${group.id}.items`, group.items)} />
            </Card>
          ))}
        </div>
      </Section>

      <Section id="money" title={t("money.title")} intro={t("money.intro")} tinted>
        <Card className="max-w-3xl">
          <Checklist items={keys("money.tips", MONEY_TIPS)} />
        </Card>
      </Section>

      <Section id="travel" title={t("travel.title")} intro={t("travel.intro")}>
        <div className="grid gap-6 lg:grid-cols-3">
          <Card className="lg:col-span-2">
            <CardTitle>{t("travel.steps.title")}</CardTitle>
            <Steps items={keys("travel.steps.items", TRAVEL_STEPS)} />
          </Card>
          <Card className="bg-brand-50">
            <CardTitle>{t("travel.pickup.title")}</CardTitle>
            <p className="text-slate-700">{t("travel.pickup.body")}</p>
            <p className="mt-4 text-slate-700">
              {t("travel.planner")}{" "}
              <a
                href="https://www.ns.nl/en"
                className="font-semibold text-brand-700 underline hover:text-brand-900"
              >
                {t("travel.plannerLink")}
              </a>
            </p>
          </Card>
        </div>
      </Section>

      <Section id="weather" title={t("weather.title")} intro={t("weather.intro")} tinted>
        <Card className="max-w-3xl">
          <Checklist items={keys("weather.facts", WEATHER_FACTS)} />
        </Card>
      </Section>

      <Section id="pitch" title={t("pitch.title")} intro={t("pitch.intro")}>
        <Card className="max-w-3xl">
          <CardTitle>{t("pitch.steps.title")}</CardTitle>
          <Steps items={keys("pitch.steps.items", PITCH_STEPS)} />
        </Card>
      </Section>

      <Section id="reading" title={t("reading.title")} intro={t("reading.intro")} tinted>
        <div className="grid gap-6 sm:grid-cols-2">
          {READING.map((topic) => (
            <Card key={topic.id}>
              <CardTitle>{t(`reading.${topic.id}.title`)}</CardTitle>
              <Checklist items={keys(`reading.${topic.id}.items`, topic.items)} />
            </Card>
          ))}
        </div>
        <p className="mt-6 max-w-3xl text-slate-700">{t("reading.news")}</p>
      </Section>

      <Section title={t("more.title")} intro={t("more.intro")}>
        <div className="flex flex-col gap-3 sm:flex-row">
          <ButtonLink to="/faq" variant="primary">
            {t("more.faq")}
          </ButtonLink>
          <ButtonLink to="/contact" variant="secondary">
            {t("more.contact")}
          </ButtonLink>
        </div>
        <p className="mt-5 text-slate-700">
          <Link to="/terms" className="font-semibold text-brand-700 underline hover:text-brand-900">
            {t("more.terms")}
          </Link>
        </p>
      </Section>
    </>
  );
}
