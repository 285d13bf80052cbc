import { type Language, LOCALE_OF } from "./i18n/languages";

/** The only currency the school charges in (docs/product/languages.md#numbers-dates-and-money). */
export const CURRENCY = "EUR";

const formatters = new Map<Language, Intl.NumberFormat>();

/**
 * Formats an amount of integer euro cents as EUR with two decimals in the UI language's locale
 * (docs/product/languages.md#numbers-dates-and-money: en → en-GB, fr → fr-FR, zh → zh-CN). Example: formatMoney(295000, "en") → "€2,950.00".
 */
export function formatMoney(cents: number, language: Language): string {
  let formatter = formatters.get(language);
  if (!formatter) {
    formatter = new Intl.NumberFormat(LOCALE_OF[language], {
      style: "currency",
      currency: CURRENCY,
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    formatters.set(language, formatter);
  }
  return formatter.format(cents / 100);
}

/** Converts a euro amount typed in a form (e.g. 29.5) to integer cents, rounding half away from zero. */
export function eurosToCents(euros: number): number {
  return Math.sign(euros) * Math.round(Math.abs(euros) * 100);
}
