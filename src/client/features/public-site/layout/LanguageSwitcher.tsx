import { useTranslation } from "react-i18next";
import { LanguageSelect } from "../../../components/ui/LanguageSelect";

/** The public site's language choice (see `LanguageSelect`; decisions.md §1, decision 029). */
export function LanguageSwitcher({ className = "" }: { className?: string }) {
  const { t } = useTranslation("common");
  return <LanguageSelect label={t("nav.language")} className={className} />;
}
