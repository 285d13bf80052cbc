import { useTranslation } from "react-i18next";
import { LanguageSelect } from "../../../components/ui/LanguageSelect";

/** The public site's language choice (see `LanguageSelect`; docs/product/languages.md#language-on-load, decision 029). */
export function LanguageSwitcher({ className = "" }: { className?: string }) {
  const { t } = useTranslation("common");
  return <LanguageSelect label={t("nav.language")} className={className} />;
}
