import { type Language, LOCALE_OF } from "./i18n/languages";

/**
 * Dates written for people (glossary: never ISO in pages, e-mails or documents): "17 August 2027",
 * "2027年8月17日", "17 août 2027". Shared by the browser and the server's e-mails and documents.
 */
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

/** `iso` (`yyyy-mm-dd`) moved by `days` calendar days (negative: earlier); no time zone involved. */
export function addDays(iso: string, days: number): string {
  const d = utcDay(iso);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Formats a `yyyy-mm-dd` date as day, full month, year in `language` (spec §9). */
export function formatDate(iso: string, language: Language): string {
  return dateFormat(language, "date").format(utcDay(iso));
}

/** Short day and month ("15 June"), for cohort tables. */
export function formatDayMonth(iso: string, language: Language): string {
  return dateFormat(language, "dayMonth").format(utcDay(iso));
}
