import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { LEGAL_UPDATED } from "../../../../shared/legal-documents";
import { Container, PageHeader, Prose } from "../../../components/ui/Layout";
import { useFormat } from "../../../lib/format";

const TYPES = ["necessary", "preferences", "analytics", "marketing"] as const;
type CookieType = (typeof TYPES)[number];

/** Every cookie this site sets (lib/consent.ts, lib/referral.ts, the language switcher, the application wizard). */
const COOKIES: ReadonlyArray<{ name: string; key: string; type: CookieType; duration: string }> = [
  { name: "cookieconsent_status", key: "consentStatus", type: "necessary", duration: "days365" },
  { name: "cookieconsent_necessary_only", key: "consentNecessary", type: "necessary", duration: "days365" },
  { name: "applicant_access", key: "applicantAccess", type: "necessary", duration: "days30" },
  { name: "language", key: "language", type: "preferences", duration: "year1" },
  { name: "affiliate_code", key: "affiliateCode", type: "marketing", duration: "days30" },
];

const SECTIONS = ["what", "types", "list", "storage", "thirdParties", "choice"] as const;

/** /cookie-policy (docs/product/portals.md#legal-pages, alias /cookie-policy-new): the four cookie types and the cookies actually set. */
export default function CookiePolicyPage() {
  const { t } = useTranslation("legal");
  const { date } = useFormat();
  const heading = (id: (typeof SECTIONS)[number]) => <h2 id={id}>{t(`cookies.${id}.title`)}</h2>;
  const cell = "border-b border-slate-200 px-3 py-3 align-top";

  return (
    <>
      <PageHeader title={t("cookies.header.title")} lead={t("cookies.header.lead")}>
        <p className="text-slate-700">{t("updated", { date: date(LEGAL_UPDATED.cookies) })}</p>
      </PageHeader>
      <Container className="pb-16">
        <Prose>
          <nav
            aria-labelledby="cookies-contents"
            className="rounded-xl border border-slate-200 bg-slate-50 p-5"
          >
            <p id="cookies-contents" className="font-semibold text-brand-900">
              {t("toc")}
            </p>
            <ol className="mt-2 list-decimal space-y-1">
              {SECTIONS.map((id) => (
                <li key={id}>
                  <a href={`#${id}`}>{t(`cookies.${id}.title`)}</a>
                </li>
              ))}
            </ol>
          </nav>

          {heading("what")}
          <p>{t("cookies.what.body")}</p>

          {heading("types")}
          <p>{t("cookies.types.intro")}</p>
          {TYPES.map((type) => (
            <div key={type}>
              <h3>{t(`cookies.types.${type}.title`)}</h3>
              <p className="mt-2">{t(`cookies.types.${type}.body`)}</p>
            </div>
          ))}

          {heading("list")}
          <p>{t("cookies.list.intro")}</p>
        </Prose>

        {/* Wide screens: one table. */}
        <table className="mt-6 hidden w-full max-w-4xl border-collapse text-left text-slate-700 md:table">
          <caption className="mb-2 text-left font-semibold text-brand-900">
            {t("cookies.list.caption")}
          </caption>
          <thead>
            <tr className="bg-slate-50 text-brand-900">
              <th scope="col" className={cell}>
                {t("cookies.list.columns.name")}
              </th>
              <th scope="col" className={cell}>
                {t("cookies.list.columns.type")}
              </th>
              <th scope="col" className={cell}>
                {t("cookies.list.columns.purpose")}
              </th>
              <th scope="col" className={cell}>
                {t("cookies.list.columns.duration")}
              </th>
            </tr>
          </thead>
          <tbody>
            {COOKIES.map((cookie) => (
              <tr key={cookie.name}>
                <th scope="row" className={`${cell} font-normal`}>
                  <code className="whitespace-nowrap rounded bg-slate-100 px-1.5 py-0.5 text-sm text-slate-900">
                    {cookie.name}
                  </code>
                </th>
                <td className={cell}>{t(`cookies.types.${cookie.type}.short`)}</td>
                <td className={cell}>{t(`cookies.list.items.${cookie.key}`)}</td>
                <td className={`${cell} whitespace-nowrap`}>
                  {t(`cookies.list.durations.${cookie.duration}`)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>

        {/* Narrow screens: one card per cookie. */}
        <ul aria-label={t("cookies.list.caption")} className="mt-6 space-y-4 md:hidden">
          {COOKIES.map((cookie) => (
            <li key={cookie.name} className="rounded-xl border border-slate-200 p-4 text-slate-700">
              <code className="break-all rounded bg-slate-100 px-1.5 py-0.5 text-sm font-semibold text-slate-900">
                {cookie.name}
              </code>
              <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-2">
                <dt className="font-semibold text-brand-900">{t("cookies.list.columns.type")}</dt>
                <dd>{t(`cookies.types.${cookie.type}.short`)}</dd>
                <dt className="font-semibold text-brand-900">{t("cookies.list.columns.purpose")}</dt>
                <dd>{t(`cookies.list.items.${cookie.key}`)}</dd>
                <dt className="font-semibold text-brand-900">{t("cookies.list.columns.duration")}</dt>
                <dd>{t(`cookies.list.durations.${cookie.duration}`)}</dd>
              </dl>
            </li>
          ))}
        </ul>

        <div className="mt-4">
          <Prose>
            <p>{t("cookies.list.session")}</p>
            <p>{t("cookies.list.noAnalytics")}</p>

            {heading("storage")}
            <p>{t("cookies.storage.body")}</p>

            {heading("thirdParties")}
            <p>{t("cookies.thirdParties.body")}</p>

            {heading("choice")}
            <p>{t("cookies.choice.body")}</p>
            <p>{t("cookies.choice.necessary")}</p>
            <p>{t("cookies.choice.block")}</p>
            <p>
              <Link to="/privacy-policy">{t("cookies.choice.privacy")}</Link>
            </p>
            <p>{t("updated", { date: date(LEGAL_UPDATED.cookies) })}</p>
          </Prose>
        </div>
      </Container>
    </>
  );
}
