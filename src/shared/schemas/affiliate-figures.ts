import { z } from "./zod";

/**
 * An affiliate's figures over a period (or since the start), as both the affiliate's dashboard and
 * the back office show them (docs/product/codes-and-partners.md#partner-figures; definitions in src/shared/affiliate-figures.ts,
 * decision 036). Counts are whole numbers; amounts are signed integer euro cents.
 */
export const affiliateFiguresSchema = z.object({
  /** Clicks: one per code, visitor and day in The Hague. */
  clicks: z.number().int(),
  /** Applications credited to the affiliate. */
  applications: z.number().int(),
  /** Paid, not fully refunded, not cancelled, not self-referred applications. */
  paidEnrolments: z.number().int(),
  /** Commission entries above zero. */
  commissionEarned: z.number().int(),
  /** Commission entries below zero (clawbacks of refunds, negative adjustments): negative or 0. */
  commissionClawedBack: z.number().int(),
  /** Earned plus clawed back: what the affiliate has earned, net. */
  commissionNet: z.number().int(),
});
export type AffiliateFigures = z.output<typeof affiliateFiguresSchema>;
