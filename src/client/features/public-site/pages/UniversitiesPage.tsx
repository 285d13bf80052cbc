import {
  Award,
  BookOpenCheck,
  CalendarRange,
  ClipboardCheck,
  GraduationCap,
  Handshake,
  Lightbulb,
  type LucideIcon,
  Mail,
  MessageSquareText,
  Presentation,
  Repeat,
  Sparkles,
  UserCheck,
  Users,
  UsersRound,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { ButtonLink, buttonClass } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { useSite } from "../../../lib/site";
import { PartnershipForm } from "../forms/PartnershipForm";

/** The partnership interests of the inquiry form (docs/product/portals.md#public-site), in that order. */
const OPTIONS: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "creditTransfer", icon: GraduationCap },
  { id: "groupReferral", icon: UsersRound },
  { id: "coBranded", icon: Handshake },
  { id: "facultyExchange", icon: Repeat },
  { id: "customProgram", icon: CalendarRange },
  { id: "other", icon: Lightbulb },
];

const BENEFITS: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "faculty", icon: Award },
  { id: "dates", icon: CalendarRange },
  { id: "contact", icon: UserCheck },
];

const QUALITY: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "teaching", icon: Presentation },
  { id: "classes", icon: Users },
  { id: "admission", icon: BookOpenCheck },
  { id: "assessment", icon: ClipboardCheck },
  { id: "feedback", icon: MessageSquareText },
];

const STEPS = ["write", "call", "agree", "welcome"] as const;

/**
 * /for-universities (docs/product/portals.md#public-forms): partnership options, benefits, quality, and the partnership inquiry
 * form (docs/product/portals.md#public-forms) as the call to action.
 */
export default function UniversitiesPage() {
  const { t } = useTranslation("universities");
  const { supportEmail } = useSite();
  const inquiry = "#inquiry";

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")}>
        <a href={inquiry} className={buttonClass("primary", "lg", "text-center")}>
          <Mail aria-hidden="true" className="h-5 w-5 shrink-0" />
          {t("header.cta")}
        </a>
        <ButtonLink to="/program" variant="secondary" size="lg" className="text-center">
          {t("header.program")}
        </ButtonLink>
      </PageHeader>

      <Section title={t("options.title")} intro={t("options.intro")}>
        <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
          {OPTIONS.map(({ id, icon: Icon }) => (
            <li key={id} className="flex">
              <Card className="w-full">
                <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="h-6 w-6" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-brand-900">{t(`options.${id}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`options.${id}.body`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("benefits.title")} tinted>
        <ul className="grid gap-6 md:grid-cols-3">
          {BENEFITS.map(({ id, icon: Icon }) => (
            <li key={id} className="rounded-xl border-l-4 border-accent-500 bg-white p-5 shadow-sm">
              <Icon aria-hidden="true" className="h-7 w-7 text-accent-600" />
              <h3 className="mt-3 text-lg font-semibold text-brand-900">{t(`benefits.${id}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`benefits.${id}.body`)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("quality.title")} intro={t("quality.intro")}>
        <ul className="grid gap-x-10 gap-y-8 md:grid-cols-2">
          {QUALITY.map(({ id, icon: Icon }) => (
            <li key={id} className="flex gap-4">
              <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <Icon aria-hidden="true" className="h-6 w-6" />
              </span>
              <div>
                <h3 className="text-lg font-semibold text-brand-900">{t(`quality.${id}.title`)}</h3>
                <p className="mt-1 text-slate-700">{t(`quality.${id}.body`)}</p>
              </div>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("steps.title")} tinted>
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map((id, index) => (
            <li key={id} className="rounded-xl border border-slate-200 bg-white p-5">
              <span
                aria-hidden="true"
                className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold text-brand-900">{t(`steps.${id}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`steps.${id}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <section id="inquiry" className="scroll-mt-20 py-12 sm:py-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          <div className="rounded-2xl bg-brand-900 px-4 py-10 text-white sm:px-10">
            <Sparkles aria-hidden="true" className="h-8 w-8 text-accent-400" />
            <h2 className="mt-3 text-2xl font-bold sm:text-3xl">{t("cta.title")}</h2>
            <p className="mt-3 max-w-2xl text-brand-50">{t("cta.body")}</p>
            <div className="mt-6 rounded-xl bg-white p-4 text-slate-900 sm:p-6">
              <PartnershipForm />
            </div>
            <p className="mt-4 text-brand-50 wrap-anywhere">{t("cta.address", { email: supportEmail })}</p>
          </div>
        </div>
      </section>
    </>
  );
}
