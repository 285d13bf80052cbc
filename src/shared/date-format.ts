import { formatForPeople } from "./dates";
import { type Language, LOCALE_OF } from "./i18n/languages";

/**
 * A date formatter of one's own (a style, a time, a time zone) in `language` whose French dates
 * on the first of the month read «1er» (`formatForPeople`), for pages that show a moment rather
 * than a calendar day. `format` takes a Date or milliseconds since the epoch.
 */
export function dateFormatFor(
  language: Language,
  options: Intl.DateTimeFormatOptions,
): { format: (at: Date | number) => string } {
  const format = new Intl.DateTimeFormat(LOCALE_OF[language], options);
  return { format: (at) => formatForPeople(format, typeof at === "number" ? new Date(at) : at, language) };
}
