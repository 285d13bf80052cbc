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

/** Server-side translator of the `common` namespace: `t(language, "errors.notFound")`. */
export const t = makeTranslator(
  Object.fromEntries(LANGUAGES.map((l) => [l, resources[l].common ?? {}])) as Record<
    Language,
    Record<string, unknown>
  >,
);

/**
 * The language of a request: the `language` cookie (the visitor's stored choice), else the
 * Accept-Language header, else English (decisions.md §1, §5).
 */
export function requestLanguage(
  cookies: Record<string, string | undefined>,
  acceptLanguage: string | undefined,
): Language {
  return resolveLanguage(cookies[LANGUAGE_KEY], parseAcceptLanguage(acceptLanguage));
}
