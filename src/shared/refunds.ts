/**
 * The refund policy of docs/product/payments.md#refund-policy: "Refunds: more than 60 days before start 70%; 30-60 days 50%;
 * under 30 days none." (docs/product/payments.md#refunds: used by the admin's refund action). Shared by the server
 * (`GET /api/admin/applications/:id/refund-quote`) and the refund panel of the back office.
 *
 * Boundaries, decided here and tested at the exact days (refunds.test.ts):
 * - "days before start" counts whole calendar days from the day of the refund request to the
 *   cohort's start date, both as calendar dates in The Hague (`schoolDate`, src/shared/time.ts): the day before
 *   the start is 1, the start day itself 0, a day after the start −1;
 * - 61 days or more → 70 % ("more than 60");
 * - 30 to 60 days, both included → 50 % ("30-60 days" names both ends);
 * - 29 days or fewer, the start day and after → 0 % ("under 30 days").
 */

import { REFUND_POLICY } from "./policy";
import type { refundQuoteSchema } from "./schemas/finance";
import type { z } from "./schemas/zod";

export { REFUND_POLICY, type RefundPolicyStep } from "./policy";
/** The day in The Hague (src/shared/time.ts), for the browser's older imports of it from here. */
export { schoolDate } from "./time";

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
