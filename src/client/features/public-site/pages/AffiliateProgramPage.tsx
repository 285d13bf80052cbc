import {
  BadgeCheck,
  Cookie,
  GraduationCap,
  HandCoins,
  LayoutDashboard,
  type LucideIcon,
  Megaphone,
  School,
  Share2,
  ShieldCheck,
  Tag,
  UserPlus,
  Users,
  Wallet,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";

type Item = { id: string; icon: LucideIcon };

const STEPS: readonly Item[] = [
  { id: "register", icon: UserPlus },
  { id: "approved", icon: BadgeCheck },
  { id: "share", icon: Share2 },
  { id: "earn", icon: HandCoins },
];

const TRACKING: readonly Item[] = [
  { id: "code", icon: Tag },
  { id: "cookie", icon: Cookie },
  { id: "price", icon: Wallet },
];

const COMMISSION: readonly Item[] = [
  { id: "rate", icon: HandCoins },
  { id: "dashboard", icon: LayoutDashboard },
  { id: "payouts", icon: Wallet },
];

const WHO: readonly Item[] = [
  { id: "agents", icon: School },
  { id: "teachers", icon: GraduationCap },
  { id: "alumni", icon: Users },
  { id: "associations", icon: Megaphone },
];

const RULES = ["spam", "claims", "search", "disclose"] as const;

/** /affiliate-program (docs/product/codes-and-partners.md#commissions): how referral works, commission, who can join, rules; links to register and log in. */
export default function AffiliateProgramPage() {
  const { t } = useTranslation("affiliate");
  const { supportEmail, partners } = useSite();
  const { money } = useFormat();
  // The payout rules the product applies (docs/product/languages.md#copy-states-the-rules): the hold, the minimum, clawbacks.
  const rules = {
    releaseDays: partners.releaseDaysBeforeStart,
    minimum: money(partners.minimumPayoutCents),
  };

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")}>
        <ButtonLink to="/affiliate/register" size="lg" className="text-center">
          {t("header.register")}
        </ButtonLink>
        <ButtonLink to="/affiliate/login" variant="secondary" size="lg" className="text-center">
          {t("header.login")}
        </ButtonLink>
      </PageHeader>

      <Section title={t("steps.title")}>
        <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ id, icon: Icon }, index) => (
            <li key={id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <div className="flex items-center gap-3">
                <span
                  aria-hidden="true"
                  className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
                >
                  {index + 1}
                </span>
                <Icon aria-hidden="true" className="h-6 w-6 text-accent-600" />
              </div>
              <h3 className="mt-3 font-semibold text-brand-900">{t(`steps.${id}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`steps.${id}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section title={t("tracking.title")} tinted>
        <ul className="grid gap-6 md:grid-cols-3">
          {TRACKING.map(({ id, icon: Icon }) => (
            <li key={id} className="flex">
              <Card className="w-full">
                <span className="flex h-11 w-11 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                  <Icon aria-hidden="true" className="h-6 w-6" />
                </span>
                <h3 className="mt-4 text-lg font-semibold text-brand-900">{t(`tracking.${id}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`tracking.${id}.body`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("commission.title")}>
        <ul className="max-w-3xl space-y-5">
          {COMMISSION.map(({ id, icon: Icon }) => (
            <li key={id} className="flex gap-4">
              <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                <Icon aria-hidden="true" className="h-5 w-5" />
              </span>
              <p className="text-slate-700">{t(`commission.${id}`, rules)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("who.title")} tinted>
        <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {WHO.map(({ id, icon: Icon }) => (
            <li key={id} className="flex">
              <Card className="w-full">
                <Icon aria-hidden="true" className="h-7 w-7 text-brand-700" />
                <h3 className="mt-3 text-lg font-semibold text-brand-900">{t(`who.${id}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`who.${id}.body`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("rules.title")} intro={t("rules.intro")}>
        <ul className="max-w-3xl space-y-3">
          {RULES.map((id) => (
            <li key={id} className="flex gap-3 text-slate-700">
              <ShieldCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
              <span>{t(`rules.${id}`)}</span>
            </li>
          ))}
        </ul>
      </Section>

      <section className="pb-12 sm:pb-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          <div className="rounded-2xl bg-brand-900 px-6 py-10 text-white sm:px-10">
            <h2 className="text-2xl font-bold sm:text-3xl">{t("cta.title")}</h2>
            <p className="mt-3 max-w-2xl text-brand-50">{t("cta.body")}</p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <ButtonLink to="/affiliate/register" size="lg" className="text-center">
                {t("cta.register")}
              </ButtonLink>
              <ButtonLink to="/affiliate/login" variant="secondary" size="lg" className="text-center">
                {t("cta.login")}
              </ButtonLink>
            </div>
            <p className="mt-6 text-brand-50 wrap-anywhere">{t("cta.questions", { email: supportEmail })}</p>
          </div>
        </div>
      </section>
    </>
  );
}
