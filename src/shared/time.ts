/**
 * The school's clock: every calendar day the school counts (a refund's days before the start, a
 * balance's due date, an early-application discount's last day, a letter's date) is a day in The
 * Hague, and every moment written for people is The Hague's time. Shared by the server and the
 * browser; the one place the time zone is named.
 */

/** The school's time zone (The Hague). */
export const SCHOOL_TIME_ZONE = "Europe/Amsterdam";

const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * An Intl formatter of `locale` (a BCP 47 tag, e.g. `LOCALE_OF[language]`, "en-GB") that writes
 * instants in The Hague's time with `options` (any but `timeZone`). Built once per locale and
 * options and kept: building an Intl formatter costs far more than using it.
 */
export function schoolTimeFormat(
  locale: string,
  options: Omit<Intl.DateTimeFormatOptions, "timeZone">,
): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { ...options, timeZone: SCHOOL_TIME_ZONE });
    formats.set(key, format);
  }
  return format;
}

/** The calendar date `yyyy-mm-dd` of an instant in The Hague. */
export function schoolDate(at: Date): string {
  const parts = schoolTimeFormat("en-CA", {
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/**
 * A clock of the school's calendar date (`schoolDate` of `now()`), formatted at most once a
 * minute and never across a whole UTC hour (The Hague's midnight is one): the public pages read it on every request (the early application discount ends at
 * midnight in The Hague, decision 030), and building the date costs more than comparing numbers.
 * Follows `now` backwards too (tests move their clock).
 */
export function schoolDayClock(now: () => Date): () => string {
  let day = "";
  let from = 0;
  let until = 0;
  return () => {
    const time = now().getTime();
    if (time < from || time >= until) {
      day = schoolDate(new Date(time));
      from = time;
      // The Hague's midnight is a whole hour in UTC: never cache across one.
      until = Math.min(time + 60_000, Math.floor(time / 3_600_000 + 1) * 3_600_000);
    }
    return day;
  };
}
