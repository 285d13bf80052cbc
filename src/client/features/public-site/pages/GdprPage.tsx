import {
  Ban,
  CircleCheck,
  CirclePause,
  Download,
  Eye,
  type LucideIcon,
  Mail,
  PenLine,
  Scale,
  ToggleLeft,
  Trash2,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LEGAL_UPDATED } from "../../../../shared/legal-documents";
import { ButtonLink, buttonClass } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";

const AP_URL = "https://autoriteitpersoonsgegevens.nl";

const SUMMARY = ["needed", "passport", "cards", "noSale", "deleted"] as const;
const RIGHTS: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "access", icon: Eye },
  { id: "rectification", icon: PenLine },
  { id: "erasure", icon: Trash2 },
  { id: "portability", icon: Download },
  { id: "restriction", icon: CirclePause },
  { id: "objection", icon: Ban },
  { id: "consent", icon: ToggleLeft },
  { id: "complaint", icon: Scale },
];
const STEPS = ["write", "identity", "answer", "free"] as const;

/** /gdpr (docs/product/languages.md#supported-languages): your data rights in plain language, and how to use them. */
export default function GdprPage() {
  const { t } = useTranslation("legal");
  const { supportEmail } = useSite();
  const { date } = useFormat();
  const request = `mailto:${supportEmail}?subject=${encodeURIComponent(t("gdpr.how.subject"))}`;
  const linkClass = "font-semibold text-brand-700 underline hover:text-brand-900";

  return (
    <>
      <PageHeader title={t("gdpr.header.title")} lead={t("gdpr.header.lead")}>
        <p className="w-full text-slate-700">{t("updated", { date: date(LEGAL_UPDATED.gdpr) })}</p>
        <ButtonLink to="/privacy-policy" variant="secondary">
          {t("gdpr.header.privacy")}
        </ButtonLink>
      </PageHeader>

      <Section title={t("gdpr.summary.title")}>
        <ul className="max-w-3xl space-y-3">
          {SUMMARY.map((item) => (
            <li key={item} className="flex gap-3 text-slate-700">
              <CircleCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
              <span>{t(`gdpr.summary.items.${item}`)}</span>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("gdpr.rights.title")} intro={t("gdpr.rights.intro")} tinted>
        <ul className="grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
          {RIGHTS.map(({ id, icon: Icon }) => (
            <li key={id} className="flex">
              <Card className="w-full p-5">
                <Icon aria-hidden="true" className="h-6 w-6 text-accent-600" />
                <h3 className="mt-3 font-semibold text-brand-900">{t(`gdpr.rights.items.${id}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`gdpr.rights.items.${id}.body`)}</p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("gdpr.how.title")} intro={t("gdpr.how.intro")}>
        <ol className="max-w-3xl space-y-4">
          {STEPS.map((step, index) => (
            <li key={step} className="flex gap-3 text-slate-700">
              <span
                aria-hidden="true"
                className="flex h-7 w-7 shrink-0 items-center justify-center rounded-full bg-brand-700 text-sm font-bold text-white"
              >
                {index + 1}
              </span>
              <span className="pt-0.5">{t(`gdpr.how.steps.${step}`, { email: supportEmail })}</span>
            </li>
          ))}
        </ol>
        <p className="mt-6">
          <a href={request} className={buttonClass("primary", "md")}>
            <Mail aria-hidden="true" className="h-5 w-5" />
            {t("gdpr.how.button")}
          </a>
        </p>
      </Section>

      <Section title={t("gdpr.application.title")} intro={t("gdpr.application.intro")} tinted>
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <Download aria-hidden="true" className="h-6 w-6 text-accent-600" />
            <h3 className="mt-3 text-lg font-semibold text-brand-900">
              {t("gdpr.application.export.title")}
            </h3>
            <p className="mt-2 text-slate-700">{t("gdpr.application.export.body")}</p>
          </Card>
          <Card>
            <Trash2 aria-hidden="true" className="h-6 w-6 text-accent-600" />
            <h3 className="mt-3 text-lg font-semibold text-brand-900">
              {t("gdpr.application.erasure.title")}
            </h3>
            <p className="mt-2 text-slate-700">{t("gdpr.application.erasure.body")}</p>
            <p className="mt-2 text-slate-700">{t("gdpr.application.erasure.enrolled")}</p>
          </Card>
        </div>
      </Section>

      <Section title={t("gdpr.complaint.title")}>
        <p className="max-w-3xl text-slate-700">{t("gdpr.complaint.body")}</p>
        <p className="mt-4">
          <a href={AP_URL} className={linkClass}>
            {t("gdpr.complaint.link")}
          </a>
        </p>
        <p className="mt-6 max-w-3xl text-slate-700">{t("gdpr.complaint.more")}</p>
        <p className="mt-2">
          <Link to="/privacy-policy" className={linkClass}>
            {t("gdpr.complaint.privacy")}
          </Link>
        </p>
      </Section>
    </>
  );
}
