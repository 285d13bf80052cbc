import { createContext, useContext } from "react";
import type { Language } from "../../shared/i18n/languages";
import { openPageInLanguage } from "./language-choice";

/**
 * Moves the visitor to the same page in another language (docs/product/languages.md#language-in-the-address,
 * decision 029): `/zh/program?x#y` → `/fr/program?x#y`, a new history entry. The app's router
 * (app/LanguageRouter.tsx) provides it; outside it (prerendering) it loads the page.
 */
export const SwitchLanguageContext = createContext<(language: Language) => void>(openPageInLanguage);

/** The function that opens the current page in another language (see `SwitchLanguageContext`). */
export const useSwitchLanguage = () => useContext(SwitchLanguageContext);

export { rememberLanguage } from "./language-choice";
