import { localizedPath, splitLanguagePath } from "../../shared/i18n/addresses";
import { LANGUAGE_KEY, type Language } from "../../shared/i18n/languages";
import { readCookie, writeCookie } from "./cookies";

/**
 * Stores the language of the page being read as the visitor's choice: localStorage and the
 * `language` cookie, so API answers (error messages) and the redirect of unprefixed addresses use it
 * (docs/product/languages.md#language-on-load; decision 029). Writes only when it changed. Without
 * React: the public pages' islands use it too.
 */
export function rememberLanguage(language: Language): void {
  try {
    if (localStorage.getItem(LANGUAGE_KEY) !== language) localStorage.setItem(LANGUAGE_KEY, language);
  } catch {
    /* storage unavailable: the cookie still carries the choice */
  }
  if (readCookie(LANGUAGE_KEY) !== language) writeCookie(LANGUAGE_KEY, language, 365 * 24 * 3600);
}

/**
 * Loads the page being read at its address in another language (decision 029):
 * `/zh/program?x#y` → `/fr/program?x#y`, a new history entry. Outside the app's router (the public
 * pages' islands, the prerenderer's default), where a page is a document of its own.
 */
export function openPageInLanguage(language: Language): void {
  const { pathname, search, hash } = window.location;
  window.location.assign(
    localizedPath(language, splitLanguagePath(pathname)?.rest ?? pathname) + search + hash,
  );
}
