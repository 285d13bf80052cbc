/**
 * What a SEPA credit transfer file (pain.001.001.03) asks of names and dates (docs/product/codes-and-partners.md#sepa-file):
 * banks accept the Latin character set of the EPC's implementation guidelines
 * (`a-z A-Z 0-9 / - ? : ( ) . , ' +` and space), and execute on TARGET2 business days.
 */

/**
 * Letters that Unicode's decomposition does not turn into a Latin letter and an accent, written
 * as banks transliterate them (EPC217-08 "SEPA requirements for an extended character set").
 */
const LETTERS: Record<string, string> = {
  Ł: "L",
  ł: "l",
  Ø: "O",
  ø: "o",
  Đ: "D",
  đ: "d",
  Ð: "D",
  ð: "d",
  Þ: "TH",
  þ: "th",
  ß: "ss",
  ẞ: "SS",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  ı: "i",
  Ħ: "H",
  ħ: "h",
  Ŧ: "T",
  ŧ: "t",
  ŀ: "l",
  Ŀ: "L",
  "&": "+",
  "’": "'",
  "‘": "'",
  "–": "-",
  "—": "-",
};

/**
 * `text` in the SEPA character set: letters with accents lose them (é → e, ư → u), the letters
 * above are transliterated (Ł → L, ß → ss), "&" becomes "+", anything else outside the set
 * (Chinese, Cyrillic, emoji) is dropped, spaces are folded, and the result is cut to `max`.
 */
export function sepaLatin(text: string, max = 70): string {
  return text
    .replace(/\s+/g, " ")
    .replace(/[^ -~]|&/g, (c) => LETTERS[c] ?? c)
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9/\-?:().,'+ ]/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}

/**
 * Whether a bank can read `name` as an account holder's name: at least two Latin letters once
 * written in the SEPA character set. "张伟" cannot ("Zhang Wei" can); "Łukasz Nowak" can.
 */
export function isLatinName(name: string): boolean {
  return (sepaLatin(name, 140).match(/[A-Za-z]/g)?.length ?? 0) >= 2;
}

/** Easter Sunday of `year` (Gregorian calendar; the anonymous algorithm), as yyyy-mm-dd. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return `${year}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

const shift = (isoDate: string, days: number) => {
  const date = new Date(`${isoDate}T12:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

/**
 * Whether TARGET2 settles on `isoDate` (yyyy-mm-dd): not on Saturdays and Sundays, New Year's
 * Day, Good Friday, Easter Monday, 1 May, 25 and 26 December (the ECB's TARGET closing days).
 */
export function isTarget2BusinessDay(isoDate: string): boolean {
  const weekday = new Date(`${isoDate}T12:00:00Z`).getUTCDay();
  if (weekday === 0 || weekday === 6) return false;
  const monthDay = isoDate.slice(5);
  if (["01-01", "05-01", "12-25", "12-26"].includes(monthDay)) return false;
  const easter = easterSunday(Number(isoDate.slice(0, 4)));
  return isoDate !== shift(easter, -2) && isoDate !== shift(easter, 1);
}

/** `isoDate` itself when TARGET2 settles on it, else the next day it does (yyyy-mm-dd). */
export function nextTarget2BusinessDay(isoDate: string): string {
  let day = isoDate;
  while (!isTarget2BusinessDay(day)) day = shift(day, 1);
  return day;
}
