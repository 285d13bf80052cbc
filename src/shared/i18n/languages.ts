/**
 * The site's languages and how a visitor's language is chosen.
 * Rule: docs/product/languages.md#language-on-load — the stored choice (`language` key: en, zh, fr) wins;
 * an invalid or absent value falls back to the browser's language when it is zh or fr, else en.
 */
export const LANGUAGES = ["en", "zh", "fr"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";

/** Storage key (localStorage) and cookie name that hold the visitor's choice (docs/product/privacy.md#cookies, docs/product/portals.md#public-site). */
export const LANGUAGE_KEY = "language";

/** Locale used for numbers, money and dates in each UI language (docs/product/languages.md#numbers-dates-and-money). */
export const LOCALE_OF: Record<Language, string> = { en: "en-GB", fr: "fr-FR", zh: "zh-CN" };

/** Native names, shown in the language switcher. */
export const LANGUAGE_NAMES: Record<Language, string> = { en: "English", zh: "中文", fr: "Français" };

/** True when `value` is one of the three supported language codes (docs/product/languages.md#supported-languages). */
export function isLanguage(value: unknown): value is Language {
  return typeof value === "string" && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Picks the UI language.
 * @param stored the stored choice (localStorage `language` or the `language` cookie), any value
 * @param browserLanguages the browser's preferred languages, best first (navigator.languages or
 *   the parsed Accept-Language header), e.g. ["zh-CN", "en"]
 * @returns `stored` when valid; else the first browser language whose primary subtag is zh or fr,
 *   provided no English preference comes before it; else "en".
 */
export function resolveLanguage(stored: unknown, browserLanguages: readonly string[]): Language {
  if (isLanguage(stored)) return stored;
  for (const tag of browserLanguages) {
    const primary = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (primary === "zh" || primary === "fr") return primary;
    if (primary === "en") return "en";
  }
  return DEFAULT_LANGUAGE;
}

/**
 * Parses an HTTP Accept-Language header into language tags ordered by quality, best first.
 * Malformed parts are skipped; `*` is ignored. Example: "fr-CH, fr;q=0.9, en;q=0.8" → ["fr-CH","fr","en"].
 */
export function parseAcceptLanguage(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
      const quality = q ? Number.parseFloat(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== "*" && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}
