import { type Language, LOCALE_OF } from "../../shared/i18n/languages";
import { formatMoney } from "../../shared/money";
import { useLanguage } from "./catalogue";

/** Formats a yyyy-mm-dd date as day, full month, year in the UI language (spec §9). */
export function formatDate(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(LOCALE_OF[language], {
    day: "numeric",
    month: "long",
    year: "numeric",
    timeZone: "UTC",
  }).format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
}

/** Short day and month ("15 June"), for cohort tables. */
export function formatDayMonth(iso: string, language: Language): string {
  return new Intl.DateTimeFormat(LOCALE_OF[language], {
    day: "numeric",
    month: "long",
    timeZone: "UTC",
  }).format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));
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
