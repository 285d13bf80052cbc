import { Globe } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from "../../../shared/i18n/languages";
import { useSwitchLanguage } from "../../lib/address";

/**
 * The language choice (en, zh, fr) of the public site, the student portal and the partner area:
 * opens the same page at its address in the chosen language (`/zh/program` → `/fr/program`;
 * docs/product/portals.md#partner-area, decision 029), which then becomes the stored choice (docs/product/languages.md#language-on-load, docs/product/portals.md#public-site). In the
 * portals it changes the pages' language only: the language of the school's e-mails is a setting of
 * the account.
 * @param label the select's name for screen readers
 */
export function LanguageSelect({
  label,
  className = "",
  selectClassName = "",
  testId,
}: {
  label: string;
  className?: string;
  selectClassName?: string;
  testId?: string;
}) {
  const { i18n } = useTranslation();
  const switchLanguage = useSwitchLanguage();
  const id = useId();
  return (
    <div className={`flex items-center gap-1.5 ${className}`}>
      <Globe aria-hidden="true" className="h-4 w-4 text-brand-800" />
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        data-testid={testId}
        data-language-select=""
        value={i18n.language}
        onChange={(event) => {
          const language = event.target.value;
          if (isLanguage(language)) switchLanguage(language);
        }}
        className={`rounded-md border border-slate-300 bg-white py-1 pr-2 pl-1 text-sm text-slate-800 ${selectClassName}`}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
