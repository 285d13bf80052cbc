import { Mail } from "lucide-react";
import { useTranslation } from "react-i18next";
import { buttonClass } from "../../../components/ui/Button";
import { Container, PageHeader, Prose } from "../../../components/ui/Layout";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";

/** Date of this statement (yyyy-mm-dd), shown in the visitor's language. */
const STATEMENT_DATE = "2026-11-21";

const MEASURES = ["keyboard", "screenReaders", "contrast", "zoom", "slow", "languages", "plain"] as const;
const REPORT = ["page", "task", "problem", "setup"] as const;

/** /accessibility (docs/product/portals.md#public-site): the standard we aim for, what we do, how to report a problem. */
export default function AccessibilityPage() {
  const { t } = useTranslation("accessibility");
  const { supportEmail } = useSite();
  const { date } = useFormat();
  const reportLink = `mailto:${supportEmail}?subject=${encodeURIComponent(t("report.subject"))}`;

  return (
    <>
      <PageHeader title={t("header.title")} lead={t("header.lead")} />
      <Container className="pb-16">
        <Prose>
          <h2>{t("standard.title")}</h2>
          <p>{t("standard.body")}</p>
          <p>{t("standard.wcag")}</p>

          <h2>{t("measures.title")}</h2>
          <p>{t("measures.intro")}</p>
          <ul>
            {MEASURES.map((item) => (
              <li key={item}>{t(`measures.items.${item}`)}</li>
            ))}
          </ul>

          <h2>{t("limitations.title")}</h2>
          <p>{t("limitations.body")}</p>
          <p>{t("limitations.help")}</p>

          <h2>{t("report.title")}</h2>
          <p>{t("report.intro")}</p>
          <ul>
            {REPORT.map((item) => (
              <li key={item}>{t(`report.items.${item}`)}</li>
            ))}
          </ul>
          <p>{t("report.answer")}</p>

          <h2>{t("contact.title")}</h2>
          <p>{t("contact.body")}</p>
          <p>
            <a href={`mailto:${supportEmail}`} className="break-all">
              {supportEmail}
            </a>
          </p>
        </Prose>
        <p className="mt-6">
          <a href={reportLink} className={buttonClass("primary", "md")}>
            <Mail aria-hidden="true" className="h-5 w-5" />
            {t("report.button")}
          </a>
        </p>
        <Prose>
          <h2>{t("about.title")}</h2>
          <p>{t("about.date", { date: date(STATEMENT_DATE) })}</p>
          <p>{t("about.review")}</p>
        </Prose>
      </Container>
    </>
  );
}
