import { useTranslation } from "react-i18next";
import { LanguageSelect } from "../ui/LanguageSelect";

/**
 * The language of the student portal and the partner area (docs/product/languages.md#supported-languages; see `LanguageSelect`,
 * decision 029). It changes the pages' language only: the language of the school's e-mails is a
 * setting of the account (/student/profile).
 */
export function PortalLanguageSwitcher({
  className = "",
  label,
}: {
  className?: string;
  /** The select's name for screen readers; the student portal's ("Language of the portal") by default. */
  label?: string;
}) {
  const { t } = useTranslation("profile");
  return (
    <LanguageSelect
      label={label ?? t("nav.language")}
      className={className}
      selectClassName="min-h-9"
      testId="portal-language"
    />
  );
}
