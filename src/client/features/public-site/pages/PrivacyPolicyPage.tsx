import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { CONFIRM_LINK_HOURS } from "../../../../shared/inquiries";
import { LEGAL_UPDATED } from "../../../../shared/legal-documents";
import { Container, PageHeader, Prose } from "../../../components/ui/Layout";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";
import { OperatorIdentity } from "./legal/OperatorIdentity";

const AP_URL = "https://autoriteitpersoonsgegevens.nl";

const SECTIONS = [
  "controller",
  "data",
  "purposes",
  "recipients",
  "transfers",
  "retention",
  "security",
  "rights",
  "cookies",
  "changes",
] as const;

const DATA = [
  "identity",
  "birth",
  "passport",
  "academic",
  "choices",
  "payment",
  "messages",
  "waitingList",
  "technical",
] as const;
const PURPOSES = [
  "application",
  "organise",
  "payment",
  "communication",
  "referral",
  "security",
  "law",
] as const;
const RECIPIENTS = ["payment", "email", "insurer", "hosts", "partner", "authorities"] as const;
const RETENTION = [
  "applications",
  "waitingList",
  "financial",
  "inquiries",
  "newsletter",
  "emails",
  "other",
] as const;
const SECURITY = ["https", "passport", "access", "cards", "passwords", "breach"] as const;
const RIGHTS = [
  "access",
  "rectification",
  "erasure",
  "restriction",
  "portability",
  "objection",
  "consent",
] as const;

/** /privacy-policy (docs/product/portals.md#legal-pages, aliases /privacy): what personal data we process, why, and your rights under the GDPR. */
export default function PrivacyPolicyPage() {
  const { t } = useTranslation("legal");
  const { supportEmail, retention } = useSite();
  // The periods are the server's settings, the ones its retention job applies (docs/product/privacy.md#retention-periods).
  const periods = { ...retention, confirmHours: CONFIRM_LINK_HOURS };
  const { date } = useFormat();
  const list = (prefix: string, ids: readonly string[]) => (
    <ul>
      {ids.map((id) => (
        <li key={id}>{t(`${prefix}.${id}`, periods)}</li>
      ))}
    </ul>
  );
  const heading = (id: (typeof SECTIONS)[number]) => <h2 id={id}>{t(`privacy.${id}.title`)}</h2>;
  const mail = (
    <p>
      <a href={`mailto:${supportEmail}`} className="break-all">
        {supportEmail}
      </a>
    </p>
  );

  return (
    <>
      <PageHeader title={t("privacy.header.title")} lead={t("privacy.header.lead")}>
        <p className="text-slate-700">{t("updated", { date: date(LEGAL_UPDATED.privacy) })}</p>
      </PageHeader>
      <Container className="pb-16">
        <Prose>
          <nav
            aria-labelledby="privacy-contents"
            className="rounded-xl border border-slate-200 bg-slate-50 p-5"
          >
            <p id="privacy-contents" className="font-semibold text-brand-900">
              {t("toc")}
            </p>
            <ol className="mt-2 list-decimal space-y-1">
              {SECTIONS.map((id) => (
                <li key={id}>
                  <a href={`#${id}`}>{t(`privacy.${id}.title`)}</a>
                </li>
              ))}
            </ol>
          </nav>

          {heading("controller")}
          <p>{t("privacy.controller.body")}</p>
          <OperatorIdentity />
          <p>{t("privacy.controller.contact")}</p>
          {mail}

          {heading("data")}
          <p>{t("privacy.data.intro")}</p>
          {list("privacy.data.items", DATA)}
          <p>{t("privacy.data.cards")}</p>
          <p>{t("privacy.data.age")}</p>

          {heading("purposes")}
          <p>{t("privacy.purposes.intro")}</p>
          {PURPOSES.map((id) => (
            <div key={id}>
              <h3>{t(`privacy.purposes.items.${id}.title`)}</h3>
              <p className="mt-2">{t(`privacy.purposes.items.${id}.body`)}</p>
              <p className="mt-1">
                <strong className="font-semibold text-brand-900">{t("privacy.purposes.basisLabel")}</strong>{" "}
                {t(`privacy.purposes.items.${id}.basis`)}
              </p>
            </div>
          ))}
          <p>{t("privacy.purposes.required")}</p>
          <p>{t("privacy.purposes.noSale")}</p>

          {heading("recipients")}
          <p>{t("privacy.recipients.intro")}</p>
          {list("privacy.recipients.items", RECIPIENTS)}
          <p>{t("privacy.recipients.processors")}</p>

          {heading("transfers")}
          <p>{t("privacy.transfers.body")}</p>
          <p>{t("privacy.transfers.ask")}</p>

          {heading("retention")}
          <p>{t("privacy.retention.intro")}</p>
          {list("privacy.retention.items", RETENTION)}
          <p>{t("privacy.retention.earlier")}</p>

          {heading("security")}
          <p>{t("privacy.security.intro")}</p>
          {list("privacy.security.items", SECURITY)}

          {heading("rights")}
          <p>{t("privacy.rights.intro")}</p>
          {list("privacy.rights.items", RIGHTS)}
          <p>{t("privacy.rights.how")}</p>
          {mail}
          <p>{t("privacy.rights.answer")}</p>
          <h3>{t("privacy.rights.complaint.title")}</h3>
          <p className="mt-2">{t("privacy.rights.complaint.body")}</p>
          <p>
            <a href={AP_URL}>{t("privacy.rights.complaint.link")}</a>
          </p>
          <p>
            <Link to="/gdpr">{t("privacy.rights.summary")}</Link>
          </p>

          {heading("cookies")}
          <p>{t("privacy.cookies.body")}</p>
          <p>
            <Link to="/cookie-policy">{t("privacy.cookies.link")}</Link>
          </p>

          {heading("changes")}
          <p>{t("privacy.changes.body")}</p>
          <p>{t("updated", { date: date(LEGAL_UPDATED.privacy) })}</p>
        </Prose>
      </Container>
    </>
  );
}
