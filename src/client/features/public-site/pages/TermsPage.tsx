import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LEGAL_UPDATED } from "../../../../shared/legal-documents";
import { Container, PageHeader, Prose } from "../../../components/ui/Layout";
import { useFormat } from "../../../lib/format";
import { usePaymentTerms } from "../../../lib/payment-terms";
import { useSite } from "../../../lib/site";
import { useVatContext } from "../../../lib/vat";
import { OperatorIdentity } from "./legal/OperatorIdentity";

const SECTIONS = [
  "about",
  "application",
  "prices",
  "codes",
  "cancellation",
  "schoolCancellation",
  "visa",
  "insurance",
  "conduct",
  "liability",
  "photos",
  "complaints",
  "law",
] as const;

const APPLICATION = ["eligibility", "accurate", "confirmation", "review", "places"] as const;
const PRICES = ["currency", "total", "payment", "fees"] as const;
const CODES = ["one", "conditions", "before", "cash", "misuse"] as const;
const REFUNDS = ["more60", "between", "less30"] as const;
const CANCELLATION = ["counting", "method", "noShow"] as const;
const CONDUCT = ["respect", "attend", "rules", "law"] as const;
const LIABILITY = ["limit", "belongings", "thirdParties", "consumer"] as const;

/** /terms (docs/product/portals.md#legal-pages, alias /terms-conditions): the terms and conditions of applying and taking part. */
export default function TermsPage() {
  const { t } = useTranslation("legal");
  const vatCtx = useVatContext();
  const { supportEmail } = useSite();
  const { date } = useFormat();
  // When payment is due follows the schools' deposits (docs/product/payments.md#deposit-and-balance; docs/product/catalogue-and-pricing.md#deposit-percent).
  const paymentTerms = usePaymentTerms();
  const list = (prefix: string, ids: readonly string[]) => (
    <ul>
      {ids.map((id) => (
        <li key={id}>{t(`${prefix}.${id}`)}</li>
      ))}
    </ul>
  );
  const heading = (id: (typeof SECTIONS)[number]) => <h2 id={id}>{t(`terms.${id}.title`)}</h2>;
  const mail = (
    <p>
      <a href={`mailto:${supportEmail}`} className="break-all">
        {supportEmail}
      </a>
    </p>
  );

  return (
    <>
      <PageHeader title={t("terms.header.title")} lead={t("terms.header.lead")}>
        <p className="text-slate-700">{t("updated", { date: date(LEGAL_UPDATED.terms) })}</p>
      </PageHeader>
      <Container className="pb-16">
        <Prose>
          <nav
            aria-labelledby="terms-contents"
            className="rounded-xl border border-slate-200 bg-slate-50 p-5"
          >
            <p id="terms-contents" className="font-semibold text-brand-900">
              {t("toc")}
            </p>
            <ol className="mt-2 list-decimal space-y-1">
              {SECTIONS.map((id) => (
                <li key={id}>
                  <a href={`#${id}`}>{t(`terms.${id}.title`)}</a>
                </li>
              ))}
            </ol>
          </nav>

          {heading("about")}
          <p>{t("terms.about.body")}</p>
          <OperatorIdentity />
          <p>{t("terms.about.accept")}</p>

          {heading("application")}
          {list("terms.application.items", APPLICATION)}

          {heading("prices")}
          <ul>
            {PRICES.map((id) => (
              <li key={id}>
                {id === "payment"
                  ? t(`terms.prices.items.payment${paymentTerms.suffix}`, { percent: paymentTerms.percent })
                  : t(`terms.prices.items.${id}`, { context: id === "currency" ? vatCtx : undefined })}
              </li>
            ))}
          </ul>

          {heading("codes")}
          {list("terms.codes.items", CODES)}

          {heading("cancellation")}
          <p>{t("terms.cancellation.how")}</p>
          {mail}
          <h3>{t("terms.cancellation.refundsTitle")}</h3>
          {list("terms.cancellation.refunds", REFUNDS)}
          {list("terms.cancellation.items", CANCELLATION)}

          {heading("schoolCancellation")}
          <p>{t("terms.schoolCancellation.full")}</p>
          <p>{t("terms.schoolCancellation.costs")}</p>
          <p>{t("terms.schoolCancellation.changes")}</p>

          {heading("visa")}
          <p>{t("terms.visa.body")}</p>
          <p>{t("terms.visa.refund")}</p>
          <p>
            <Link to="/resources#visa">{t("terms.visa.guide")}</Link>
          </p>

          {heading("insurance")}
          <p>{t("terms.insurance.body")}</p>
          <p>{t("terms.insurance.proof")}</p>

          {heading("conduct")}
          <p>{t("terms.conduct.intro")}</p>
          {list("terms.conduct.items", CONDUCT)}
          <p>{t("terms.conduct.breach")}</p>

          {heading("liability")}
          {list("terms.liability.items", LIABILITY)}

          {heading("photos")}
          <p>{t("terms.photos.body")}</p>
          <p>{t("terms.photos.optOut")}</p>

          {heading("complaints")}
          <p>{t("terms.complaints.body")}</p>
          {mail}
          <p>{t("terms.complaints.court")}</p>

          {heading("law")}
          <p>{t("terms.law.body")}</p>
          <p>{t("terms.law.invalid")}</p>
          <p>{t("terms.law.changes")}</p>
          <p>
            <Link to="/privacy-policy">{t("terms.law.privacy")}</Link>
          </p>
          <p>{t("updated", { date: date(LEGAL_UPDATED.terms) })}</p>
        </Prose>
      </Container>
    </>
  );
}
