/**
 * The refund policy of spec §9: "Refunds: more than 60 days before start 70%; 30-60 days 50%;
 * under 30 days none." (decisions.md §6: used by the admin's refund action). Shared by the server
 * (`GET /api/admin/applications/:id/refund-quote`) and the refund panel of the back office.
 *
 * Boundaries, decided here and tested at the exact days (refunds.test.ts):
 * - "days before start" counts whole calendar days from the day of the refund request to the
 *   cohort's start date, both as calendar dates in The Hague (Europe/Amsterdam): the day before
 *   the start is 1, the start day itself 0, a day after the start −1;
 * - 61 days or more → 70 % ("more than 60");
 * - 30 to 60 days, both included → 50 % ("30-60 days" names both ends);
 * - 29 days or fewer, the start day and after → 0 % ("under 30 days").
 */

/** Timezone of the school: the day a refund is asked counts in The Hague. */
export const SCHOOL_TIME_ZONE = "Europe/Amsterdam";

import { REFUND_POLICY } from "./policy";
import type { refundQuoteSchema } from "./schemas/finance";
import type { z } from "./schemas/zod";

export { REFUND_POLICY, type RefundPolicyStep } from "./policy";

/** The calendar date `yyyy-mm-dd` of an instant in The Hague. */
export function schoolDate(at: Date): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone: SCHOOL_TIME_ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** Whole calendar days from `today` to `startDate` (both `yyyy-mm-dd`); negative once started. */
export function daysBeforeStart(startDate: string, today: string): number {
  const day = (iso: string) =>
    Date.UTC(Number(iso.slice(0, 4)), Number(iso.slice(5, 7)) - 1, Number(iso.slice(8, 10)));
  return Math.round((day(startDate) - day(today)) / 86_400_000);
}

/** The percent of the amount paid that the policy refunds `days` before the start (70, 50 or 0). */
export function refundPercent(days: number): number {
  return REFUND_POLICY.find((step) => days >= step.minDays)?.percent ?? 0;
}

/**
 * What `GET /api/admin/applications/:id/refund-quote` answers of the policy (amounts in euro
 * cents): the start date, the days before it, the percent, what was paid and refunded, what is
 * refundable and the suggestion. Derived from `refundQuoteSchema` (src/shared/schemas/finance.ts,
 * where the fields are documented); a type import only, so this module stays free of zod.
 */
export type RefundQuote = z.output<typeof refundQuoteSchema>;

/**
 * Applies the policy to an application: `paidCents` paid in total, `refundedCents` already
 * refunded or pending, cohort `startDate`, and `today` (`yyyy-mm-dd` in The Hague). Pure; no I/O.
 */
export function refundQuote(input: {
  startDate: string;
  today: string;
  paidCents: number;
  refundedCents: number;
}): RefundQuote {
  const days = daysBeforeStart(input.startDate, input.today);
  const percent = refundPercent(days);
  const refundableCents = Math.max(0, input.paidCents - input.refundedCents);
  const entitled = Math.floor((input.paidCents * percent) / 100);
  const suggestedAmountCents = Math.max(0, Math.min(refundableCents, entitled - input.refundedCents));
  return {
    startDate: input.startDate,
    daysBeforeStart: days,
    percent,
    paidCents: input.paidCents,
    refundedCents: input.refundedCents,
    refundableCents,
    suggestedAmountCents,
  };
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
