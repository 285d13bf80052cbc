import { Globe } from "lucide-react";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { isLanguage, LANGUAGE_KEY, LANGUAGE_NAMES, LANGUAGES } from "../../../shared/i18n/languages";
import { writeCookie } from "../../lib/cookies";

/**
 * The language of the student portal and the partner area (en, zh, fr; issues 11 and 12), as the
 * public site's switcher: stored in localStorage and in the `language` cookie (decisions.md §1, §5),
 * so the next page and the API answers (portal entries) come in it too. It changes the portal's
 * language only: the language of the school's e-mails is a setting of the account (/student/profile).
 */
export function PortalLanguageSwitcher({
  className = "",
  label,
}: {
  className?: string;
  /** The select's name for screen readers; the student portal's ("Language of the portal") by default. */
  label?: string;
}) {
  const { t, i18n } = useTranslation("profile");
  const id = useId();
  return (
    <div className={`flex items-center gap-1.5 ${className}`}>
      <Globe aria-hidden="true" className="h-4 w-4 text-brand-800" />
      <label htmlFor={id} className="sr-only">
        {label ?? t("nav.language")}
      </label>
      <select
        id={id}
        data-testid="portal-language"
        value={i18n.language}
        onChange={(event) => {
          const language = event.target.value;
          if (!isLanguage(language)) return;
          try {
            localStorage.setItem(LANGUAGE_KEY, language);
          } catch {
            /* storage unavailable: the cookie still carries the choice */
          }
          writeCookie(LANGUAGE_KEY, language, 365 * 24 * 3600);
          document.documentElement.lang = language;
          void i18n.changeLanguage(language);
        }}
        className="min-h-9 rounded-md border border-slate-300 bg-white py-1 pr-2 pl-1 text-sm text-slate-800"
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
