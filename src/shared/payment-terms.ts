import { canApply, type SummerSchoolDto } from "./catalogue";

/**
 * What the public pages say about when to pay (docs/product/payments.md#deposit-and-balance: "the copy on the public pages
 * that promises 'full payment on applying' follows the schools' data"; docs/product/catalogue-and-pricing.md#deposit-percent
 * row). Read from the schools' `depositPercent`: the schools open for applications, or, when none
 * is open, every upcoming school listed.
 * - `full`: every such school takes 100 % when applying (the default);
 * - `deposit`: every such school takes the same deposit below 100 % (`percent`);
 * - `mixed`: some take a deposit, others not, or deposits differ (`percent`: the lowest deposit).
 * The translation keys end in `Full`, `Deposit` or `Mixed` (`paymentTermsSuffix`).
 */
export type PaymentTerms =
  | { kind: "full" }
  | { kind: "deposit"; percent: number }
  | { kind: "mixed"; percent: number };

export function paymentTermsOf(
  schools: ReadonlyArray<Pick<SummerSchoolDto, "depositPercent" | "status">>,
): PaymentTerms {
  const open = schools.filter((s) => canApply(s.status));
  const considered = open.length ? open : schools;
  const percents = [...new Set(considered.map((s) => s.depositPercent))];
  const deposits = percents.filter((p) => p < 100);
  if (deposits.length === 0) return { kind: "full" };
  const percent = Math.min(...deposits);
  return percents.length === 1 ? { kind: "deposit", percent } : { kind: "mixed", percent };
}

/** The suffix of the translation keys of `terms`: `Full`, `Deposit` or `Mixed`. */
export const paymentTermsSuffix = (terms: PaymentTerms) =>
  terms.kind === "full" ? "Full" : terms.kind === "deposit" ? "Deposit" : "Mixed";
