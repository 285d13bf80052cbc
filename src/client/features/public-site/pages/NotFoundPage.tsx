import { useTranslation } from "react-i18next";
import { ButtonLink } from "../../../components/ui/Button";
import { Container } from "../../../components/ui/Layout";
import { useSite } from "../../../lib/site";

/** The page for any unknown path (spec §2, §8): "404 Page Not Found". */
export default function NotFoundPage() {
  const { t } = useTranslation("common");
  const { supportEmail } = useSite();
  return (
    <Container className="py-24 text-center">
      <h1 className="text-3xl font-bold text-brand-900">{t("notFound.title")}</h1>
      <p className="mt-4 text-slate-700">{t("notFound.help")}</p>
      <p className="mt-2 text-sm text-slate-600">{t("notFound.body", { email: supportEmail })}</p>
      <ButtonLink to="/" className="mt-8">
        {t("notFound.home")}
      </ButtonLink>
    </Container>
  );
}
