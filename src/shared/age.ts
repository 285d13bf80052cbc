/**
 * Age rule of enrolment: 18 to 40 years old on the day of applying (docs/product/catalogue-and-pricing.md#applicant-age).
 * Dates are ISO yyyy-mm-dd strings, compared as calendar dates (no time zone drift).
 */
export const MIN_AGE = 18;
export const MAX_AGE = 40;

/** Whole years between a date of birth and `today` (both yyyy-mm-dd). */
export function ageOn(dateOfBirth: string, today: string): number {
  const [by, bm, bd] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  let age = ty - by;
  if (tm < bm || (tm === bm && td < bd)) age -= 1;
  return age;
}

/**
 * Checks the enrolment age. A person is "over 40" from their 41st birthday on, so the oldest
 * allowed birth date is 41 years before today plus one day.
 * @returns null when allowed, "tooYoung" under 18, "tooOld" at 41 and above.
 */
export function checkAge(dateOfBirth: string, today: string): null | "tooYoung" | "tooOld" {
  const age = ageOn(dateOfBirth, today);
  if (age < MIN_AGE) return "tooYoung";
  if (age > MAX_AGE) return "tooOld";
  return null;
}

/** Today's date as yyyy-mm-dd in UTC. */
export function todayIso(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

/**
 * A clock of the current date (yyyy-mm-dd, UTC, as `todayIso`) that formats the date only when the
 * day changes: the public pages read it on every request (docs/product/portals.md#public-site: the date is part of
 * their content version). Follows `now` wherever it goes, backwards too (tests move their clock).
 */
export function dayClock(now: () => Date): () => string {
  let day = "";
  let from = 0;
  let until = 0;
  return () => {
    const time = now().getTime();
    if (time < from || time >= until) {
      const date = new Date(time);
      day = todayIso(date);
      from = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
      until = from + 86_400_000;
    }
    return day;
  };
}

/** Bounds for the date-of-birth picker (yyyy-mm-dd): min is the earliest allowed birth date. */
export function dateOfBirthBounds(today: string): { min: string; max: string } {
  const [y, m, d] = today.split("-").map(Number) as [number, number, number];
  // Same day and month `years` earlier; 29 February becomes 28 February in a common year (ageOn
  // counts a 29 February birthday on 1 March in common years, so 28 February is the last day to be
  // still one year younger).
  const yearsBefore = (years: number) => {
    const lastDayOfMonth = new Date(Date.UTC(y - years, m, 0)).getUTCDate();
    return new Date(Date.UTC(y - years, m - 1, Math.min(d, lastDayOfMonth)));
  };
  const max = yearsBefore(MIN_AGE);
  const min = yearsBefore(MAX_AGE + 1);
  min.setUTCDate(min.getUTCDate() + 1);
  return { min: min.toISOString().slice(0, 10), max: max.toISOString().slice(0, 10) };
}
