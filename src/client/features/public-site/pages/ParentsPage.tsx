import {
  BedDouble,
  BedSingle,
  Check,
  CreditCard,
  HeartPulse,
  Lock,
  type LucideIcon,
  Mail,
  Minus,
  Phone,
  Plane,
  ShieldCheck,
  Stamp,
  Users,
  UsersRound,
  Utensils,
} from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ButtonLink, buttonClass } from "../../../components/ui/Button";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { useCatalogueSummary } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { useInsuranceOffer } from "../../../lib/insurance";
import { usePaymentTerms } from "../../../lib/payment-terms";
import { useSite } from "../../../lib/site";

const FACTS = ["age", "emergency", "class"] as const;

const SAFETY: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "emergency", icon: Phone },
  { id: "staff", icon: Users },
  { id: "residence", icon: ShieldCheck },
  { id: "arrival", icon: Plane },
];

const ROOMS: ReadonlyArray<{ id: string; icon: LucideIcon }> = [
  { id: "shared", icon: BedDouble },
  { id: "private", icon: BedSingle },
  { id: "group", icon: UsersRound },
];

const INCLUDED = ["teaching", "housing", "meals", "visits", "certificate", "alumni"] as const;
const EXTRA = ["flights", "visa", "insurance", "options", "personal"] as const;
const PAYMENT_STEPS = ["choose", "pay", "confirm"] as const;
const REFUNDS = [
  { when: "more60", refund: "r70" },
  { when: "from30to60", refund: "r50" },
  { when: "less30", refund: "r0" },
] as const;

function IconBadge({ icon: Icon }: { icon: LucideIcon }) {
  return (
    <span className="flex h-11 w-11 shrink-0 items-center justify-center rounded-lg bg-brand-50 text-brand-700">
      <Icon aria-hidden="true" className="h-6 w-6" />
    </span>
  );
}

/** The "from" price fact: catalogue data, never an invented amount. */
function PriceFact() {
  const { t } = useTranslation("parents");
  const { money } = useFormat();
  const summary = useCatalogueSummary();
  if (summary.isPending) return <Spinner className="py-2" />;
  const price = summary.data?.fromPrice;
  if (price == null) {
    return (
      <p className="text-slate-700">
        {t("facts.priceUnavailable")}{" "}
        <Link to="/program" className="font-semibold text-brand-700 underline hover:text-brand-900">
          {t("facts.priceLink")}
        </Link>
      </p>
    );
  }
  return (
    <>
      <p className="text-2xl font-bold text-brand-900">{t("facts.price.value", { price: money(price) })}</p>
      <p className="mt-1 text-slate-700">{t("facts.price.label")}</p>
    </>
  );
}

/** /for-parents (docs/product/payments.md#refunds): safety, housing, meals, health, visa, costs, payment, refunds and contact. */
export default function ParentsPage() {
  // The payment step follows the schools' deposits (docs/product/payments.md#deposit-and-balance).
  const paymentTerms = usePaymentTerms();
  // What the open cohorts sell of insurance (docs/product/admissions.md#insurance-proof).
  const insurance = useInsuranceOffer();
  const { t } = useTranslation("parents");
  const { supportEmail, school } = useSite();
  const { money, date } = useFormat();
  const summary = useCatalogueSummary();
  const fromPrice = summary.data?.fromPrice ?? null;
  // The early application discount, only while the open cohorts' rule is in effect (decision 030).
  const early = summary.data?.earlyDiscount ?? null;

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")}>
        <ButtonLink to="/program" size="lg" className="text-center">
          {t("header.program")}
        </ButtonLink>
        <ButtonLink to="/contact" variant="secondary" size="lg" className="text-center">
          {t("header.contact")}
        </ButtonLink>
      </PageHeader>

      <section aria-label={t("facts.label")} className="pb-4">
        <div className="mx-auto w-full max-w-6xl px-4 sm:px-6 lg:px-8">
          <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            {FACTS.map((id) => (
              <li key={id} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <p className="text-2xl font-bold text-brand-900">{t(`facts.${id}.value`)}</p>
                <p className="mt-1 text-slate-700">{t(`facts.${id}.label`)}</p>
              </li>
            ))}
            <li className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
              <PriceFact />
            </li>
          </ul>
        </div>
      </section>

      <Section title={t("safety.title")} intro={t("safety.intro")}>
        <ul className="grid gap-6 md:grid-cols-2">
          {SAFETY.map(({ id, icon }) => (
            <li key={id} className="flex">
              <Card className="w-full">
                <div className="flex items-center gap-3">
                  <IconBadge icon={icon} />
                  <h3 className="text-lg font-semibold text-brand-900">{t(`safety.${id}.title`)}</h3>
                </div>
                <p className="mt-4 text-slate-700">
                  {id === "emergency" && school.emergencyPhone
                    ? t("safety.emergency.bodyWithNumber", { phone: school.emergencyPhone })
                    : t(`safety.${id}.body`)}
                </p>
              </Card>
            </li>
          ))}
        </ul>
      </Section>

      <Section title={t("housing.title")} intro={t("housing.intro")} tinted>
        <ul className="grid gap-6 md:grid-cols-3">
          {ROOMS.map(({ id, icon }) => (
            <li key={id} className="flex">
              <Card className="w-full">
                <IconBadge icon={icon} />
                <h3 className="mt-4 text-lg font-semibold text-brand-900">{t(`housing.${id}.title`)}</h3>
                <p className="mt-2 text-slate-700">{t(`housing.${id}.body`)}</p>
              </Card>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-slate-700">{t("housing.note")}</p>
      </Section>

      <Section title={t("care.title")}>
        <div className="grid gap-6 md:grid-cols-2">
          <Card>
            <div className="flex items-center gap-3">
              <IconBadge icon={Utensils} />
              <h3 className="text-lg font-semibold text-brand-900">{t("care.meals.title")}</h3>
            </div>
            <p className="mt-4 text-slate-700">{t("care.meals.body")}</p>
            <p className="mt-3 text-slate-700">{t("care.meals.diet")}</p>
          </Card>
          <Card>
            <div className="flex items-center gap-3">
              <IconBadge icon={HeartPulse} />
              <h3 className="text-lg font-semibold text-brand-900">{t("care.health.title")}</h3>
            </div>
            <p className="mt-4 text-slate-700">
              {t("care.health.insurance", { insurance: insurance.sentence })}
            </p>
            <p className="mt-3 text-slate-700">{t("care.health.doctor")}</p>
            <p className="mt-3 text-slate-700">{t("care.health.medication")}</p>
          </Card>
        </div>
      </Section>

      <Section title={t("visa.title")} tinted>
        <div className="flex max-w-3xl gap-4">
          <IconBadge icon={Stamp} />
          <div>
            <p className="text-slate-700">{t("visa.body")}</p>
            <p className="mt-3 font-semibold text-brand-900">{t("visa.tip")}</p>
          </div>
        </div>
      </Section>

      <Section title={t("costs.title")}>
        <p className="max-w-3xl text-lg text-slate-700">
          {fromPrice != null ? t("costs.from", { price: money(fromPrice) }) : t("costs.fromUnavailable")}
        </p>
        <div className="mt-8 grid gap-6 md:grid-cols-2">
          <Card>
            <h3 className="text-lg font-semibold text-brand-900">{t("costs.includedTitle")}</h3>
            <ul className="mt-4 space-y-3 text-slate-700">
              {INCLUDED.map((id) => (
                <li key={id} className="flex gap-3">
                  <Check aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-green-700" />
                  <span>{t(`costs.included.${id}`)}</span>
                </li>
              ))}
            </ul>
          </Card>
          <Card>
            <h3 className="text-lg font-semibold text-brand-900">{t("costs.extraTitle")}</h3>
            <ul className="mt-4 space-y-3 text-slate-700">
              {EXTRA.map((id) => (
                <li key={id} className="flex gap-3">
                  <Minus aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-slate-600" />
                  <span>
                    {id === "insurance"
                      ? t(`costs.extra.insurance_${insurance.kind}`, { price: insurance.price })
                      : t(`costs.extra.${id}`)}
                  </span>
                </li>
              ))}
            </ul>
          </Card>
        </div>
        {early ? (
          <p className="mt-6 rounded-lg border border-accent-400 bg-orange-50 px-4 py-3 font-semibold text-brand-900">
            {t("costs.early", { percent: early.percent, date: date(early.endsOn) })}
          </p>
        ) : null}
      </Section>

      <Section title={t("payment.title")} tinted>
        <ol className="grid gap-6 md:grid-cols-3">
          {PAYMENT_STEPS.map((id, index) => (
            <li key={id} className="rounded-xl border border-slate-200 bg-white p-5">
              <span
                aria-hidden="true"
                className="flex h-9 w-9 items-center justify-center rounded-full bg-brand-700 font-bold text-white"
              >
                {index + 1}
              </span>
              <h3 className="mt-3 font-semibold text-brand-900">{t(`payment.steps.${id}.title`)}</h3>
              <p className="mt-2 text-slate-700">
                {id === "pay"
                  ? t(`payment.steps.pay.body${paymentTerms.suffix}`, { percent: paymentTerms.percent })
                  : t(`payment.steps.${id}.body`)}
              </p>
            </li>
          ))}
        </ol>
        <div className="mt-6 space-y-3 text-slate-700">
          <p className="flex gap-3">
            <Lock aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
            <span>{t("payment.security")}</span>
          </p>
          <p className="flex gap-3">
            <CreditCard aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0 text-brand-700" />
            <span>{t("payment.parents")}</span>
          </p>
        </div>
      </Section>

      <Section title={t("refunds.title")} intro={t("refunds.intro")}>
        <div className="max-w-3xl overflow-x-auto rounded-xl border border-slate-200">
          <table className="w-full text-left">
            <caption className="sr-only">{t("refunds.caption")}</caption>
            <thead className="bg-brand-50 text-brand-900">
              <tr>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t("refunds.when")}
                </th>
                <th scope="col" className="px-4 py-3 font-semibold">
                  {t("refunds.refund")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-200 bg-white">
              {REFUNDS.map(({ when, refund }) => (
                <tr key={when}>
                  <th scope="row" className="px-4 py-3 font-normal text-slate-700">
                    {t(`refunds.${when}`)}
                  </th>
                  <td className="px-4 py-3 font-semibold text-brand-900">{t(`refunds.${refund}`)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p className="mt-4">
          <Link to="/terms" className="font-semibold text-brand-700 underline hover:text-brand-900">
            {t("refunds.terms")}
          </Link>
        </p>
      </Section>

      <Section title={t("contact.title")} tinted>
        <div className="max-w-3xl space-y-3 text-slate-700">
          <p>{t("contact.before")}</p>
          <p>{t("contact.during")}</p>
        </div>
        <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap">
          <a
            href={`mailto:${supportEmail}`}
            className={buttonClass("primary", "md", "text-center wrap-anywhere")}
          >
            <Mail aria-hidden="true" className="h-5 w-5 shrink-0" />
            {t("contact.email", { email: supportEmail })}
          </a>
          <ButtonLink to="/contact" variant="secondary" className="text-center">
            {t("contact.contactPage")}
          </ButtonLink>
          <ButtonLink to="/faq" variant="secondary" className="text-center">
            {t("contact.faq")}
          </ButtonLink>
        </div>
      </Section>
    </>
  );
}
