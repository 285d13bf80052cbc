import { LANGUAGES, type Language } from "./i18n/languages";

/**
 * Shapes and rules of the translation editor (docs/product/back-office.md#translations: "Translations: every UI string and page text
 * in en/zh/fr, editable, with a missing-translation view"). A text is addressed by namespace, key
 * (dotted path inside the namespace file, e.g. `hero.title`) and language; an override stored in
 * `translation_overrides` replaces the text of the file until it is reverted.
 */

/** Per-language value of a translation row. */
export type PerLanguage<T> = Record<Language, T>;

/**
 * The `{{placeholders}}` of a text, sorted and without duplicates. Same pattern as the
 * completeness test (src/shared/i18n/completeness.test.ts), so `{{count, number}}` counts as `count`.
 */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{\{\s*([\w.-]+)[^}]*\}\}/g)].map((m) => m[1]!))].sort();
}

/** True when `value` uses exactly the placeholders of `english` (none missing, none added). */
export function samePlaceholders(english: string, value: string): boolean {
  const a = placeholdersOf(english);
  const b = placeholdersOf(value);
  return a.length === b.length && a.every((name, i) => name === b[i]);
}

/**
 * The languages in which a text counts as missing, for the "missing only" view: zh or fr absent
 * or blank, or identical to a multi-word English text (a copied sentence that nobody translated).
 * A single word identical to English (a brand, "WeChat", "Email", a language's own name) is
 * normal and not reported. English is missing only when blank.
 */
export function missingLanguages(texts: PerLanguage<string>): Language[] {
  const english = texts.en.trim();
  return LANGUAGES.filter((language) => {
    const text = texts[language].trim();
    if (text === "") return true;
    if (language === "en") return false;
    return text === english && /\p{L}\s+\p{L}/u.test(english);
  });
}
