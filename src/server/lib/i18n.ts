import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  LANGUAGE_KEY,
  LANGUAGES,
  type Language,
  parseAcceptLanguage,
  resolveLanguage,
} from "../../shared/i18n/languages";
import { NAMESPACES, type Namespace, type Resources } from "../../shared/i18n/namespaces";
import { makeTranslator } from "../../shared/i18n/translate";

const LOCALES_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../shared/i18n/locales");

/** Reads every translation file once: language → namespace → tree. Missing files are empty. */
export function loadResources(): Record<Language, Resources> {
  const out = {} as Record<Language, Resources>;
  for (const language of LANGUAGES) {
    const dir = path.join(LOCALES_DIR, language);
    const files = new Set(readdirSync(dir));
    out[language] = {};
    for (const ns of NAMESPACES) {
      if (files.has(`${ns}.json`)) {
        out[language][ns as Namespace] = JSON.parse(readFileSync(path.join(dir, `${ns}.json`), "utf8"));
      }
    }
  }
  return out;
}

const resources = loadResources();

/** Where `t()` reads the `common` texts of a language: the files, or the translation editor's effective texts. */
type CommonSource = (language: Language) => Record<string, unknown> | undefined;
const fileCommon: CommonSource = (language) => resources[language].common;
let commonSource: CommonSource = fileCommon;

/**
 * Makes `t()` read the texts as edited in the back office (docs/product/back-office.md#translations: e-mails and API
 * messages use edited texts too); `null` goes back to the files. Set by the translations module
 * when an app starts; with several apps in one process (tests), the last one started wins.
 */
export function setCommonSource(source: CommonSource | null): void {
  commonSource = source ?? fileCommon;
}

/** Goes back to the files if `source` is still the one `t()` reads (an app closing). */
export function clearCommonSource(source: CommonSource): void {
  if (commonSource === source) commonSource = fileCommon;
}

/**
 * Server-side translator of the `common` namespace: `t(language, "errors.notFound")`. The
 * language's text, else English, else the key itself (docs/product/languages.md#supported-languages).
 */
export const t = (language: Language, key: string, vars?: Record<string, string | number>): string =>
  makeTranslator({ [language]: commonSource(language), en: commonSource("en") })(language, key, vars);

/**
 * A wait in words for messages such as errors.accountThrottled: under a minute in seconds
 * ("1 second", "45 seconds"), else in whole minutes rounded up ("2 minutes"), in `language`
 * (texts dates.seconds_one/_other, dates.minutes_one/_other).
 */
export function waitText(language: Language, seconds: number): string {
  const [unit, count] =
    seconds < 60 ? ["seconds", Math.max(1, Math.ceil(seconds))] : ["minutes", Math.ceil(seconds / 60)];
  return t(language, `dates.${unit}_${count === 1 ? "one" : "other"}`, { count });
}

/**
 * The language of a request: the `language` cookie (the visitor's stored choice), else the
 * Accept-Language header, else English (docs/product/languages.md#language-on-load).
 */
export function requestLanguage(
  cookies: Record<string, string | undefined>,
  acceptLanguage: string | undefined,
): Language {
  return resolveLanguage(cookies[LANGUAGE_KEY], parseAcceptLanguage(acceptLanguage));
}
