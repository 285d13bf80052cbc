import { useTranslation } from "react-i18next";
import { Card, PageHeader, Section } from "../../../components/ui/Layout";
import { NewsletterForm } from "../forms/NewsletterForm";

/** /newsletter (docs/product/portals.md#newsletter): what the newsletter is and the sign-up form (double opt-in). */
export default function NewsletterPage() {
  const { t } = useTranslation("forms");
  return (
    <>
      <PageHeader title={t("newsletter.title")} lead={t("newsletter.lead")} />
      <Section>
        <div className="mx-auto max-w-xl">
          <Card>
            <NewsletterForm />
          </Card>
        </div>
      </Section>
    </>
  );
}
