import { createContext, useContext } from "react";
import { localizedPath, splitLanguagePath } from "../../shared/i18n/addresses";
import { LANGUAGE_KEY, type Language } from "../../shared/i18n/languages";
import { readCookie, writeCookie } from "./cookies";

/**
 * Moves the visitor to the same page in another language (docs/product/languages.md#language-in-the-address,
 * decision 029): `/zh/program?x#y` → `/fr/program?x#y`, a new history entry. The app's router
 * (app/LanguageRouter.tsx) provides it; outside it (prerendering) it loads the page.
 */
export const SwitchLanguageContext = createContext<(language: Language) => void>((language) => {
  const { pathname, search, hash } = window.location;
  window.location.assign(
    localizedPath(language, splitLanguagePath(pathname)?.rest ?? pathname) + search + hash,
  );
});

/** The function that opens the current page in another language (see `SwitchLanguageContext`). */
export const useSwitchLanguage = () => useContext(SwitchLanguageContext);

/**
 * Stores the language of the page being read as the visitor's choice: localStorage and the
 * `language` cookie, so API answers (error messages) and the redirect of unprefixed addresses use it
 * (docs/product/languages.md#language-on-load; decision 029). Writes only when it changed.
 */
export function rememberLanguage(language: Language): void {
  try {
    if (localStorage.getItem(LANGUAGE_KEY) !== language) localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    /* storage unavailable: the cookie still carries the choice */
  }
  if (readCookie(LANGUAGE_KEY) !== language) writeCookie(LANGUAGE_KEY, language, 365 * 24 * 3600);
}
