import {
  CircleCheck,
  Clock,
  CreditCard,
  GraduationCap,
  Handshake,
  type LucideIcon,
  Mail,
  MapPin,
  Newspaper,
  ShieldAlert,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { ANSWER_BUSINESS_DAYS } from "../../../../shared/schemas/inquiries";
import { ButtonLink, buttonClass } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { useSite } from "../../../lib/site";
import { ContactForm } from "../forms/ContactForm";

const MAP_URL = "https://www.openstreetmap.org/search?query=The%20Hague";

/** The topics with their own prefilled subject line. */
const TOPICS: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "admissions", icon: GraduationCap },
  { id: "payment", icon: CreditCard },
  { id: "partnership", icon: Handshake },
  { id: "press", icon: Newspaper },
];

const INCLUDE = ["name", "email", "applicationId", "cohort", "question", "deadline"] as const;
const NEVER = ["card", "passport"] as const;

const linkClass = "font-semibold text-brand-700 underline hover:text-brand-900";

/**
 * /contact (docs/product/portals.md#public-forms): the contact form (docs/product/portals.md#public-forms), the support address, response times, where we
 * are, and a mail link per topic (partnerships go to the inquiry form of /for-universities).
 */
export default function ContactPage() {
  const { t } = useTranslation("contact");
  const { t: tf } = useTranslation("forms");
  const { supportEmail } = useSite();
  const mailto = (subject?: string) =>
    subject ? `mailto:${supportEmail}?subject=${encodeURIComponent(subject)}` : `mailto:${supportEmail}`;

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")}>
        <a href="#write" className={buttonClass("primary", "lg")}>
          <Mail aria-hidden="true" className="h-5 w-5" />
          {t("header.cta")}
        </a>
      </PageHeader>

      <Section
        id="write"
        title={tf("contact.title")}
        intro={tf("contact.intro", { days: ANSWER_BUSINESS_DAYS })}
      >
        <div className="max-w-2xl">
          <Card>
            <ContactForm />
          </Card>
        </div>
      </Section>

      <Section title={t("reach.title")} tinted>
        <div className="grid gap-6 md:grid-cols-3">
          <Card>
            <Mail aria-hidden="true" className="h-7 w-7 text-accent-600" />
            <h3 className="mt-3 text-lg font-semibold text-brand-900">{t("reach.email.title")}</h3>
            <p className="mt-2 text-slate-700">{t("reach.email.body")}</p>
            <p className="mt-3">
              <a href={mailto()} className={`${linkClass} break-all`}>
                {supportEmail}
              </a>
            </p>
          </Card>
          <Card>
            <Clock aria-hidden="true" className="h-7 w-7 text-accent-600" />
            <h3 className="mt-3 text-lg font-semibold text-brand-900">{t("reach.times.title")}</h3>
            <ul className="mt-2 space-y-2 text-slate-700">
              <li>{t("reach.times.confirmation")}</li>
              <li>{t("reach.times.answer")}</li>
              <li>{t("reach.times.spam")}</li>
            </ul>
          </Card>
          <Card>
            <MapPin aria-hidden="true" className="h-7 w-7 text-accent-600" />
            <h3 className="mt-3 text-lg font-semibold text-brand-900">{t("reach.place.title")}</h3>
            <p className="mt-2 text-slate-700">{t("reach.place.city")}</p>
            <p className="mt-2 text-slate-700">{t("reach.place.body")}</p>
            <p className="mt-3">
              <a href={MAP_URL} className={linkClass}>
                {t("reach.place.map")}
              </a>
            </p>
          </Card>
        </div>
      </Section>

      <Section title={t("topics.title")} intro={t("topics.intro")}>
        <ul className="grid gap-6 sm:grid-cols-2">
          {TOPICS.map(({ id, icon: Icon }) => (
            <li key={id} className="flex">
              <Card className="flex w-full flex-col">
                <div className="flex items-center gap-3">
                  <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
                    <Icon aria-hidden="true" className="h-5 w-5" />
                  </span>
                  <h3 className="text-lg font-semibold text-brand-900">{t(`topics.${id}.title`)}</h3>
                </div>
                <p className="mt-3 text-slate-700">{t(`topics.${id}.body`)}</p>
                <p className="mt-auto pt-4">
                  <a
                    href={
                      id === "partnership" ? "/for-universities#inquiry" : mailto(t(`topics.${id}.subject`))
                    }
                    className={`${linkClass} inline-flex items-center gap-2`}
                  >
                    <Mail aria-hidden="true" className="h-4 w-4 shrink-0" />
                    {t(`topics.${id}.link`)}
                  </a>
                </p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("include.title")} intro={t("include.intro")} tinted>
        <div className="grid gap-6 lg:grid-cols-2">
          <Card>
            <h3 className="text-lg font-semibold text-brand-900">{t("include.listTitle")}</h3>
            <ul className="mt-4 space-y-3">
              {INCLUDE.map((item) => (
                <li key={item} className="flex gap-3 text-slate-700">
                  <CircleCheck aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-600" />
                  <span>{t(`include.items.${item}`)}</span>
                </li>
              ))}
            </ul>
          </Card>
          <Card className="border-accent-400 bg-orange-50">
            <h3 className="text-lg font-semibold text-brand-900">{t("include.neverTitle")}</h3>
            <ul className="mt-4 space-y-3">
              {NEVER.map((item) => (
                <li key={item} className="flex gap-3 text-slate-800">
                  <ShieldAlert aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-accent-600" />
                  <span>{t(`include.never.${item}`)}</span>
                </li>
              ))}
            </ul>
          </Card>
        </div>
      </Section>

      <Section title={t("faq.title")} intro={t("faq.intro")}>
        <div className="flex flex-col gap-3 sm:flex-row">
          <ButtonLink to="/faq" variant="primary">
            {t("faq.faq")}
          </ButtonLink>
          <ButtonLink to="/resources" variant="secondary">
            {t("faq.resources")}
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}
