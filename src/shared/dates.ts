import { type Language, LOCALE_OF } from "./i18n/languages";

/**
 * Dates written for people (glossary: never ISO in pages, e-mails or documents): "17 August 2027",
 * "2027年8月17日", "17 août 2027", and in French the first of the month as "1er" ("1er août 2027",
 * which Intl writes "1 août"). Shared by the browser and the server's e-mails and documents.
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

/**
 * `date` as `format` writes it, with the first of the month "1er" in French (glossary: «1er
 * décembre», never «1 décembre», which is what Intl writes); other languages as Intl writes them.
 * For `formatDate`, `formatDayMonth` and any formatter of one's own (a time of day, `dateStyle`).
 * A zero-padded day ("01/12/2027") is a numeric date and stays as it is. `language` is the
 * language `format` was built for.
 */
export function formatForPeople(format: Intl.DateTimeFormat, date: Date, language: Language): string {
  if (language !== "fr") return format.format(date);
  return format
    .formatToParts(date)
    .map((part) => (part.type === "day" && part.value === "1" ? "1er" : part.value))
    .join("");
}

/** Formats a `yyyy-mm-dd` date as day, full month, year in `language` (docs/product/languages.md#numbers-dates-and-money): "1er juillet 2027". */
export function formatDate(iso: string, language: Language): string {
  return formatForPeople(dateFormat(language, "date"), utcDay(iso), language);
}

/** Short day and month ("15 June", "1er juillet"), for cohort tables. */
export function formatDayMonth(iso: string, language: Language): string {
  return formatForPeople(dateFormat(language, "dayMonth"), utcDay(iso), language);
}
