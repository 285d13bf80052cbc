import { type Language, LOCALE_OF } from "../../shared/i18n/languages";
import { formatMoney } from "../../shared/money";
import { useLanguage } from "./catalogue";

const DATE_STYLES = {
  date: { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" },
  dayMonth: { day: "numeric", month: "long", timeZone: "UTC" },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per language and style: building an Intl formatter costs far more than using it. */
function dateFormat(language: Language, style: keyof typeof DATE_STYLES): Intl.DateTimeFormat {
  const key = `${language}|${style}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(LOCALE_OF[language], DATE_STYLES[style]);
    dateFormats.set(key, format);
  }
  return format;
}

const utcDay = (iso: string) => new Date(`${iso.slice(0, 10)}T00:00:00Z`);

/** Formats a yyyy-mm-dd date as day, full month, year in the UI language (spec §9). */
export function formatDate(iso: string, language: Language): string {
  return dateFormat(language, "date").format(utcDay(iso));
}

/** Short day and month ("15 June"), for cohort tables. */
export function formatDayMonth(iso: string, language: Language): string {
  return dateFormat(language, "dayMonth").format(utcDay(iso));
}

/** Money and date formatters bound to the current UI language. */
export function useFormat() {
  const language = useLanguage();
  return {
    language,
    money: (cents: number) => formatMoney(cents, language),
    date: (iso: string) => formatDate(iso, language),
    dayMonth: (iso: string) => formatDayMonth(iso, language),
  };
}
