import { COMMISSION_ENTRY_KINDS, COMMISSION_STATES } from "../commissions";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * The commission ledger as the affiliate's dashboard and the admin's affiliate detail both show it
 * (docs/product/codes-and-partners.md#partner-figures: "The affiliate's dashboard and the admin affiliate detail show the same ledger and
 * balance"; decision 022). Amounts are signed integer euro cents; instants ISO 8601 UTC.
 */

/** The rate an entry was computed with. */
export const commissionRateSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("percentage"), percent: z.number().int() }),
  z.object({ type: z.literal("fixed"), fixedCents: z.number().int() }),
]);

/** One entry of the ledger. Students are named by first name and initial only (GDPR; docs/product/portals.md#referred-students). */
export const commissionEntrySchema = z.object({
  id: line(),
  kind: z.enum(COMMISSION_ENTRY_KINDS),
  state: z.enum(COMMISSION_STATES),
  /** Signed: positive earned, negative clawed back. */
  amount: z.number().int(),
  /** What the entry was computed on, excluding VAT (the payment or the refund); 0 for an adjustment. */
  base: z.number().int(),
  rate: commissionRateSchema.nullable(),
  /**
   * For an adjustment, the admin's reason; otherwise empty. Several lines, as the adjustment's
   * input allows (docs/product/codes-and-partners.md#manual-adjustments: a reason with a line break was saved, then refused by this answer).
   */
  reason: lines(),
  createdAt: line(),
  /** End of the hold. */
  availableAt: line(),
  payoutId: line().nullable(),
  /** For an adjustment reversing another entry (docs/product/codes-and-partners.md#manual-adjustments), that entry's id; else null. */
  reversesEntryId: line().nullable(),
  application: z
    .object({
      id: line(),
      /** "Amara O." */
      studentName: line(),
      cohortName: line(),
    })
    .nullable(),
});
export type CommissionEntryDto = z.infer<typeof commissionEntrySchema>;

/** The sums of the ledger, by state. `approved` is what the next payout run would pay (if ≥ the minimum). */
export const commissionTotalsSchema = z.object({
  pending: z.number().int(),
  approved: z.number().int(),
  inPayout: z.number().int(),
  paid: z.number().int(),
  /** Everything earned by payments and adjustments above zero. */
  earned: z.number().int(),
  /** Everything taken back by refunds and adjustments below zero (a negative number or 0). */
  clawedBack: z.number().int(),
});
export type CommissionTotals = z.infer<typeof commissionTotalsSchema>;

/** `GET /api/affiliate/commissions` and the `ledger` of `GET /api/admin/affiliates/:id/commissions`. */
export const commissionLedgerSchema = z.object({
  rate: commissionRateSchema,
  minimumPayout: z.number().int(),
  totals: commissionTotalsSchema,
  /** Newest first. */
  entries: z.array(commissionEntrySchema),
});
export type CommissionLedgerDto = z.infer<typeof commissionLedgerSchema>;
