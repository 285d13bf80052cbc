import i18next, { type BackendModule, type i18n as I18n } from "i18next";
import { initReactI18next } from "react-i18next";
import type { Language } from "../../shared/i18n/languages";
import type { Namespace, Resources } from "../../shared/i18n/namespaces";
import { POLICY_TEXT_VARIABLES } from "../../shared/i18n/policy-variables";

/**
 * A namespace that was not in the page: the texts as the site shows them now, edited ones
 * included (`GET /api/i18n/:lang/:ns`, from the server's memory, revalidated by ETag). Never on the
 * first page load's path: the page's own namespaces are embedded in it. The texts are not bundled
 * into the JavaScript (docs/product/portals.md#public-site budget; edits show without a redeploy). A network failure is
 * retried by i18next; an unknown namespace is empty.
 */
const lazyBackend: BackendModule = {
  type: "backend",
  init() {},
  read(language, namespace, callback) {
    fetch(`/api/i18n/${encodeURIComponent(language)}/${encodeURIComponent(namespace)}`, {
      credentials: "omit",
    })
      .then(async (res) => {
        if (res.ok) return callback(null, (await res.json()) as Record<string, unknown>);
        if (res.status === 404) return callback(null, {});
        return callback(new Error(`translations ${language}/${namespace}: HTTP ${res.status}`), true);
      })
      .catch((err: Error) => callback(err, true));
  },
};

/**
 * Creates the i18next instance of one render (server) or of the page (browser).
 * @param language the visitor's language (docs/product/languages.md#language-on-load)
 * @param resources namespaces already at hand: on the server, all of them; in the browser, the ones
 *   the server put in the page, so hydration needs no request. Others load lazily.
 * Missing keys fall back to English, then to the key itself (docs/product/languages.md#supported-languages). Every text may use the
 * rules' variables (`POLICY_TEXT_VARIABLES`: balance due days, refund policy, cookie lifetime).
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
    interpolation: { escapeValue: false, defaultVariables: POLICY_TEXT_VARIABLES },
    initAsync: false,
    react: { useSuspense: true },
    returnNull: false,
  });
  return instance;
}
