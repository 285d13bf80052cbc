import { Mail } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Accordion } from "../../../components/ui/Accordion";
import { ButtonLink, buttonClass } from "../../../components/ui/Button";
import { PageHeader, Section } from "../../../components/ui/Layout";
import { useCatalogueSummary } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { useInsuranceOffer } from "../../../lib/insurance";
import { usePaymentTerms } from "../../../lib/payment-terms";
import { useSite } from "../../../lib/site";

interface Group {
  id: string;
  questions: readonly string[];
  links?: ReadonlyArray<{ to: string; key: string }>;
}

/** Question groups, in page order; each question is `q.<id>.question` / `q.<id>.answer`. */
const GROUPS: readonly Group[] = [
  {
    id: "programme",
    questions: ["whatIs", "when", "classSize", "language", "pitch"],
    links: [{ to: "/program", key: "links.program" }],
  },
  {
    id: "admission",
    questions: ["who", "english", "deadlines", "howApply", "confirmation"],
    links: [{ to: "/courses", key: "links.courses" }],
  },
  {
    id: "costs",
    questions: ["price", "included", "payment", "codes", "refund", "scholarship"],
    links: [{ to: "/terms", key: "links.terms" }],
  },
  { id: "visa", questions: ["visa", "visaWhen", "insurance", "visaRefused", "travel"] },
  {
    id: "housing",
    questions: ["housing", "meals", "safety", "freeTime"],
    links: [
      { to: "/campus-life", key: "links.campus" },
      { to: "/for-parents", key: "links.parents" },
    ],
  },
  { id: "after", questions: ["credits", "certificate", "alumni"] },
];

/**
 * /faq (docs/product/catalogue-and-pricing.md#from-price): grouped questions with accordions; the length, the "from" price and the early
 * application discount (percentage and date, decision 030) come from the catalogue.
 */
export default function FaqPage() {
  const { t } = useTranslation("faq");
  const { supportEmail } = useSite();
  const { money, date } = useFormat();
  const { data } = useCatalogueSummary();
  const days = data?.lengthDays ?? null;
  const fromPrice = data?.fromPrice ?? null;
  const early = data?.earlyDiscount ?? null;
  const paymentTerms = usePaymentTerms();
  const insurance = useInsuranceOffer();

  /** The answer of one question, with the catalogue figures when they are known and a neutral text otherwise. */
  function answer(id: string): string {
    if (id === "whatIs") return days != null ? t("q.whatIs.answer", { days }) : t("q.whatIs.answerNoDays");
    if (id === "price") {
      return fromPrice != null
        ? t("q.price.answer", { price: money(fromPrice) })
        : t("q.price.answerNoPrice");
    }
    // Deadlines are per cohort (on /courses); the early discount only while it is in effect (decision 030).
    if (id === "deadlines" && early)
      return t("q.deadlines.answerEarly", { percent: early.percent, date: date(early.endsOn) });
    // When to pay follows the schools' deposits (docs/product/payments.md#deposit-and-balance), never a fixed "full payment".
    if (id === "payment")
      return t(`q.payment.answer${paymentTerms.suffix}`, { percent: paymentTerms.percent });
    // What the school sells of insurance, from the catalogue (docs/product/admissions.md#insurance-proof).
    if (id === "insurance" || id === "included")
      return t(`q.${id}.answer`, { insurance: insurance.sentence });
    return t(`q.${id}.answer`, { email: supportEmail });
  }

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")} />

      <nav aria-label={t("nav.label")} className="border-b border-slate-200 pb-6">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          <ul className="flex flex-wrap gap-2">
            {GROUPS.map((group) => (
              <li key={group.id}>
                <a
                  href={`#${group.id}`}
                  className="inline-block rounded-full border border-brand-200 bg-white px-4 py-2 text-sm font-semibold text-brand-800 hover:bg-brand-50"
                >
                  {t(`groups.${group.id}`)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </nav>

      {GROUPS.map((group, index) => (
        <Section key={group.id} id={group.id} title={t(`groups.${group.id}`)} tinted={index % 2 === 1}>
          <div className="max-w-3xl">
            <Accordion
              items={group.questions.map((id) => ({ question: t(`q.${id}.question`), answer: answer(id) }))}
            />
            {group.links ? (
              <ul className="mt-5 flex flex-wrap gap-x-6 gap-y-2">
                {group.links.map((link) => (
                  <li key={link.to}>
                    <Link
                      to={link.to}
                      className="font-semibold text-brand-700 underline hover:text-brand-900"
                    >
                      {t(link.key)}
                    </Link>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        </Section>
      ))}

      <section className="py-12 sm:py-16">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          <div className="rounded-2xl bg-brand-900 px-6 py-10 text-white sm:px-10">
            <h2 className="text-2xl font-bold sm:text-3xl">{t("more.title")}</h2>
            <p className="mt-3 max-w-2xl text-brand-50">{t("more.body")}</p>
            <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
              <a
                href={`mailto:${supportEmail}`}
                className={buttonClass("primary", "md", "text-center wrap-anywhere")}
              >
                <Mail aria-hidden="true" className="h-5 w-5 shrink-0" />
                {t("more.email", { email: supportEmail })}
              </a>
              <ButtonLink to="/contact" variant="secondary" className="text-center">
                {t("more.contact")}
              </ButtonLink>
              <ButtonLink to="/apply" variant="secondary" className="text-center">
                {t("more.apply")}
              </ButtonLink>
            </div>
          </div>
        </div>
      </section>
    </>
  );
}
