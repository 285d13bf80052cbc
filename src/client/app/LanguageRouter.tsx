import { type ReactNode, startTransition, useCallback, useEffect, useLayoutEffect, useState } from "react";
import { UNSAFE_createBrowserHistory as createBrowserHistory, Router } from "react-router";
import { localizedPath, splitLanguagePath } from "../../shared/i18n/addresses";
import type { Language } from "../../shared/i18n/languages";
import { SwitchLanguageContext } from "../lib/address";

/**
 * The browser's router (React Router's BrowserRouter, plus per-language addresses: docs/product/languages.md#language-in-the-address,
 * decision 029). The first segment of the address is the language and the router's basename, so
 * every link of the app (`<Link to="/program">`) stays within the page's language
 * (`/zh/program`). Switching language pushes the same page under the other prefix; `onLanguage`
 * is called with the address's language after each change of it (and once at start), to load
 * the texts and remember the choice. Navigation updates render as transitions, as BrowserRouter's.
 */
export function LanguageRouter({
  children,
  onLanguage,
}: {
  children: ReactNode;
  onLanguage: (language: Language) => void;
}) {
  const [history] = useState(() => createBrowserHistory({ window, v5Compat: true }));
  const [state, setState] = useState({ action: history.action, location: history.location });
  useLayoutEffect(() => history.listen((next) => startTransition(() => setState(next))), [history]);
  const language = splitLanguagePath(state.location.pathname)?.language;
  useEffect(() => {
    if (language) onLanguage(language);
  }, [language, onLanguage]);
  const switchLanguage = useCallback(
    (to: Language) => {
      const { pathname, search, hash } = history.location;
      history.push(localizedPath(to, splitLanguagePath(pathname)?.rest ?? pathname) + search + hash);
    },
    [history],
  );
  return (
    <SwitchLanguageContext.Provider value={switchLanguage}>
      <Router
        basename={language ? `/${language}` : "/"}
        location={state.location}
        navigationType={state.action}
        navigator={history}
      >
        {children}
      </Router>
    </SwitchLanguageContext.Provider>
  );
}
