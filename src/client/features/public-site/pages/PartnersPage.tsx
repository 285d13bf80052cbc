import {
  Building2,
  CircleCheck,
  GraduationCap,
  Landmark,
  type LucideIcon,
  Mail,
  School,
  Ticket,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ButtonLink, buttonClass } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { useSite } from "../../../lib/site";

interface PartnerKind {
  id: "universities" | "agents" | "companies" | "organisations";
  icon: LucideIcon;
  benefits: readonly string[];
  link?: { to: string; key: string };
}

const KINDS: readonly PartnerKind[] = [
  {
    id: "universities",
    icon: GraduationCap,
    benefits: ["credits", "faculty", "groups", "formats"],
    link: { to: "/for-universities", key: "kinds.universities.link" },
  },
  {
    id: "agents",
    icon: School,
    benefits: ["code", "dashboard", "support", "material"],
    link: { to: "/affiliate-program", key: "kinds.agents.link" },
  },
  { id: "companies", icon: Building2, benefits: ["talent", "present", "jury", "effort"] },
  { id: "organisations", icon: Landmark, benefits: ["audience", "visit", "exchange", "network"] },
];

const STEPS = ["write", "reply", "agree", "start"] as const;

/** The referral code of `/partner/:code`, as the referral tracker reads codes: trimmed, upper case, at most 64 characters. */
function cleanCode(code: string | undefined): string | undefined {
  const clean = code?.trim().toUpperCase();
  return clean && clean.length <= 64 ? clean : undefined;
}

/** /partners and /partner/:code? (docs/product/catalogue-and-pricing.md#code-discounts): the kinds of partners and what each gets; a welcome line for referred visitors. */
export default function PartnersPage() {
  const { t } = useTranslation("partners");
  const { supportEmail } = useSite();
  const code = cleanCode(useParams().code);
  const inquiry = `mailto:${supportEmail}?subject=${encodeURIComponent(t("contact.subject"))}`;

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")}>
        <a href={inquiry} className={buttonClass("primary", "lg")}>
          <Mail aria-hidden="true" className="h-5 w-5" />
          {t("header.cta")}
        </a>
      </PageHeader>

      {code ? (
        <div className="border-y border-accent-400 bg-orange-50">
          <div className="mx-auto flex w-full max-w-6xl flex-col gap-4 px-4 py-5 sm:flex-row sm:items-center sm:justify-between sm:px-6 lg:px-8">
            <p className="flex items-start gap-3 text-brand-900">
              <Ticket aria-hidden="true" className="mt-0.5 h-6 w-6 shrink-0 text-accent-600" />
              <span className="break-words">{t("referred.message", { code })}</span>
            </p>
            <ButtonLink to="/apply" variant="primary" className="shrink-0">
              {t("referred.apply")}
            </ButtonLink>
          </div>
        </div>
      ) : null}

      <Section title={t("kinds.title")} intro={t("kinds.intro")}>
        <ul className="grid gap-6 md:grid-cols-2">
          {KINDS.map(({ id, icon: Icon, benefits, link }) => (
            <li key={id} className="flex">
              <Card className="flex w-full flex-col">
                <div className="flex items-center gap-3">
                  <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <Icon aria-hidden="true" className="h-6 w-6" />
                  </span>
                  <h3 className="text-xl font-semibold text-brand-900">{t(`kinds.${id}.title`)}</h3>
                </div>
                <p className="mt-4 text-slate-700">{t(`kinds.${id}.description`)}</p>
                <p className="mt-4 font-semibold text-brand-900">{t("kinds.benefitsLabel")}</p>
                <ul className="mt-2 space-y-2 text-slate-700">
                  {benefits.map((benefit) => (
                    <li key={benefit} className="flex gap-2">
                      <CircleCheck aria-hidden="true" className="mt-1 h-4 w-4 shrink-0 text-brand-600" />
                      <span>{t(`kinds.${id}.benefits.${benefit}`)}</span>
                    </li>
                  ))}
                </ul>
                {link ? (
                  <p className="mt-auto pt-5">
                    <Link
                      to={link.to}
                      className="font-semibold text-brand-700 underline hover:text-brand-900"
                    >
                      {t(link.key)}
                    </Link>
                  </p>
                ) : null}
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("steps.title")} intro={t("steps.intro")} tinted>
        <ol className="grid gap-6 md:grid-cols-4">
          {STEPS.map((step, index) => (
            <li key={step} className="rounded-xl border border-slate-200 bg-white p-5">
              <span
                aria-hidden="true"
                className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold text-brand-900">{t(`steps.${step}.title`)}</h3>
              <p className="mt-2 text-slate-700">{t(`steps.${step}.body`)}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section title={t("contact.title")} intro={t("contact.intro")}>
        <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <a href={inquiry} className={buttonClass("primary", "md")}>
            <Mail aria-hidden="true" className="h-5 w-5" />
            {t("contact.button")}
          </a>
          <ButtonLink to="/for-universities" variant="secondary">
            {t("contact.universities")}
          </ButtonLink>
          <ButtonLink to="/affiliate-program" variant="secondary">
            {t("contact.affiliates")}
          </ButtonLink>
        </div>
        <p className="mt-5 break-words text-slate-700">{t("contact.address", { email: supportEmail })}</p>
      </Section>
    </>
  );
}
