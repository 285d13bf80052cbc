import { startTransition } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { splitLanguagePath } from "../../shared/i18n/addresses";
import { isLanguage, LANGUAGE_KEY, type Language, resolveLanguage } from "../../shared/i18n/languages";
import { rememberLanguage } from "../lib/address";
import { setFailureWords } from "../lib/api";
import { seedCatalogue } from "../lib/catalogue";
import { createI18n } from "../lib/i18n";
import {
  DEFAULT_PARTNER_RULES,
  DEFAULT_RETENTION,
  DEFAULT_VAT,
  NO_SCHOOL_FACTS,
  type SiteConfig,
} from "../lib/site";
import { App, preloadRoute } from "./App";
import { LanguageRouter } from "./LanguageRouter";
import { createQueryClient } from "./query";
import { type InitialState, STATE_ELEMENT_ID } from "./state";

/** Lets the browser run what waits (input, painting) before the next step of the start-up. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Browser start-up: reads the state the server rendered into the page, takes the language from the
 * address (`/zh/...`, decision 029; without one: stored choice, else browser, else en, docs/product/languages.md#language-on-load), loads the current page's module, then
 * hydrates the server's HTML (or renders from scratch when the stored language differs from it).
 * Each step runs in a task of its own, none of them long on a slow phone (decision 010): the
 * application's modules have just been evaluated when this is called.
 */
export async function start() {
  await nextTask();
  const address = splitLanguagePath(window.location.pathname);
  const page = preloadRoute(address?.rest ?? window.location.pathname);
  await nextTask();
  const element = document.getElementById(STATE_ELEMENT_ID);
  const state = element ? (JSON.parse(element.textContent || "{}") as InitialState) : null;
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(LANGUAGE_KEY);
  } catch {
    stored = null;
  }
  const language =
    address?.language ??
    (isLanguage(stored) ? stored : (state?.language ?? resolveLanguage(null, navigator.languages)));
  const sameLanguage = state && state.language === language;
  const i18n = createI18n(language, sameLanguage ? { [language]: state.resources } : {});
  setFailureWords((kind) => i18n.t(`common:errors.${kind}`));
  const queryClient = createQueryClient();
  if (state && sameLanguage) seedCatalogue(queryClient, language, state);
  const site: SiteConfig = state?.site ?? {
    supportEmail: "",
    paymentProvider: "offline" as const,
    vat: DEFAULT_VAT,
    today: new Date().toISOString().slice(0, 10),
    school: NO_SCHOOL_FACTS,
    partners: DEFAULT_PARTNER_RULES,
    retention: DEFAULT_RETENTION,
  };
  const preloaded = await page;
  const root = document.getElementById("root")!;
  const onLanguage = (next: Language) => {
    rememberLanguage(next);
    if (i18n.language !== next) void i18n.changeLanguage(next);
  };
  const app = (
    <LanguageRouter onLanguage={onLanguage}>
      <App i18n={i18n} queryClient={queryClient} site={site} preloaded={preloaded} />
    </LanguageRouter>
  );
  // Hydration as a transition is rendered in slices that yield to the browser every few
  // milliseconds, so a slow phone never sees one long task (docs/product/portals.md#public-site: Lighthouse "total
  // blocking time"); the server's HTML stays visible and readable meanwhile.
  if (sameLanguage && root.firstElementChild)
    startTransition(() => {
      hydrateRoot(root, app);
    });
  else createRoot(root).render(app);
}
