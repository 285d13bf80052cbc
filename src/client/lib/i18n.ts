import i18next, { type BackendModule, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Language } from "../../shared/i18n/languages";
import type { Namespace, Resources } from "../../shared/i18n/namespaces";

/** Loads `locales/<language>/<namespace>.json` as its own small chunk, on demand. */
const loaders = import.meta.glob<{ default: Record<string, unknown> }>("../../shared/i18n/locales/*/*.json");

const lazyBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    const load = loaders[`../../shared/i18n/locales/${language}/${namespace}.json`];
    if (!load) return callback(null, {});
    load().then(
      (mod) => callback(null, mod.default),
      (err: Error) => callback(err, false),
    );
  },
};

/**
 * Creates the i18next instance of one render (server) or of the page (browser).
 * @param language the visitor's language (decisions.md §1)
 * @param resources namespaces already at hand: on the server, all of them; in the browser, the ones
 *   the server put in the page, so hydration needs no request. Others load lazily.
 * Missing keys fall back to English, then to the key itself (spec §8).
 */
export function createI18n(language: Language, resources: Partial<Record<Language, Resources>>): I18n {
  const instance = i18next.createInstance();
  instance.use(initReactI18next);
  if (typeof window !== "undefined") instance.use(lazyBackend);
  void instance.init({
    lng: language,
    fallbackLng: "en",
    supportedLngs: ["en", "zh", "fr"],
    ns: ["common"],
    defaultNS: "common",
    resources: resources as Record<string, Record<Namespace, Record<string, unknown>>>,
    partialBundledLanguages: true,
    interpolation: { escapeValue: false },
    initAsync: false,
    react: { useSuspense: true },
    returnNull: false,
  });
  return instance;
}
