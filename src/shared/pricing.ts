/**
 * The one pricing rule of the school, used by the server to decide what is charged and by the
 * browser only to show a preview of step 1 before an application exists.
 * Sources: docs/product/catalogue-and-pricing.md#quote, docs/product/catalogue-and-pricing.md#code-discounts, docs/product/catalogue-and-pricing.md#quote.
 * All amounts are integer euro cents.
 */

import { BALANCE_DUE_DAYS_BEFORE_START, VAT_RATE_PERCENT } from "./policy";
import { vatOfGross } from "./vat";

export { BALANCE_DUE_DAYS_BEFORE_START, VAT_RATE_PERCENT };

export type DiscountRule =
  | { codeType: "discount"; discountType: "percentage"; percent: number }
  | { codeType: "discount"; discountType: "fixed"; amountCents: number }
  | { codeType: "referral" };

/**
 * An automatic discount in effect for a quote (docs/product/catalogue-and-pricing.md#pricing-rules, decision 030): today the
 * early application discount, `percent` off the original amount for quotes made before `endsOn`
 * (yyyy-mm-dd, a day in The Hague). The caller passes only a rule in effect (`ruleInEffect`).
 */
export interface AutomaticDiscountRule {
  ruleId: string;
  kind: "early_application";
  percent: number;
  endsOn: string;
}

/** Which discount a quote applied: a code's, an automatic rule's, or none (docs/product/catalogue-and-pricing.md#code-discounts). */
export type DiscountSource = "code" | "automatic" | null;

export interface QuoteInput {
  packagePriceCents: number;
  housingAdjustmentCents: number;
  /** Selected add-ons (required ones included); `includedInPackage` ones cost nothing. */
  addOns: ReadonlyArray<{ id: string; priceCents: number; includedInPackage: boolean }>;
  /** 1-100; 100 means the full amount is paid on applying. */
  depositPercent: number;
  discount?: DiscountRule | null;
  /** An automatic discount in effect; it does not add up with a code's discount (docs/product/catalogue-and-pricing.md#pricing-rules). */
  automaticDiscount?: AutomaticDiscountRule | null;
}

export interface Quote {
  currency: "EUR";
  /** Package + housing + chargeable add-ons, before any code. */
  originalAmount: number;
  /** The discount applied: the larger of the code's and the automatic rule's, never both. */
  discountAmount: number;
  /** Which of the two `discountAmount` is; null when there is no discount. */
  discountSource: DiscountSource;
  /**
   * The automatic rule in effect for this quote and what it gives (`amount`, cents), whether or not
   * it applied; null when no rule is in effect. Lets the page say "the larger discount applies".
   */
  automaticDiscount: (AutomaticDiscountRule & { amount: number }) | null;
  /** What the applicant owes in all: originalAmount − discountAmount, never below 0. */
  totalAmount: number;
  /** Paid now. */
  depositAmount: number;
  /** Paid later, in the student portal (docs/product/catalogue-and-pricing.md#deposit-percent). */
  remainingAmount: number;
  depositPercent: number;
  /** VAT included in totalAmount: round(total − total / 1.21) (docs/product/payments.md#vat). */
  vatAmount: number;
  addOnsAmount: number;
}

/**
 * Included VAT of a VAT-inclusive amount in cents (docs/product/payments.md#vat: rounded total minus total/1.21), by the
 * school's one VAT rule (`vatOfGross`, src/shared/vat.ts, decision 034).
 */
export function includedVat(totalCents: number): number {
  return vatOfGross(totalCents, VAT_RATE_PERCENT);
}

/**
 * Discount of a code on an original amount in cents: percentage codes round to the cent,
 * fixed codes are capped at the amount, referral codes give nothing (docs/product/catalogue-and-pricing.md#code-discounts).
 */
export function discountFor(originalAmount: number, rule: DiscountRule | null | undefined): number {
  if (!rule || rule.codeType === "referral") return 0;
  if (rule.discountType === "percentage") {
    const percent = Math.min(100, Math.max(0, rule.percent));
    return Math.min(originalAmount, Math.round((originalAmount * percent) / 100));
  }
  return Math.min(originalAmount, Math.max(0, rule.amountCents));
}

/** Splits a total into deposit and remainder (docs/product/catalogue-and-pricing.md#deposit-percent): below 100 %, deposit = round(total × percent). */
export function splitDeposit(
  totalAmount: number,
  depositPercent: number,
): { deposit: number; remaining: number } {
  if (depositPercent >= 100) return { deposit: totalAmount, remaining: 0 };
  const deposit = Math.round((totalAmount * Math.max(0, depositPercent)) / 100);
  return { deposit, remaining: totalAmount - deposit };
}

/**
 * Whether an automatic rule applies to a quote made on `today` (yyyy-mm-dd in The Hague, see
 * `schoolDate`): active and `today` before its end day (docs/product/catalogue-and-pricing.md#pricing-rules).
 */
export function ruleInEffect(rule: { active: boolean; endsOn: string }, today: string): boolean {
  return rule.active && today < rule.endsOn;
}

/**
 * Computes the full quote of an application from catalogue prices, an optional code and an optional
 * automatic rule in effect. Combination (docs/product/catalogue-and-pricing.md#code-discounts): a code's discount and the automatic
 * discount do not add up; the larger applies (the code's on a tie, so a code typed is never
 * ignored for nothing); a referral code gives nothing and so leaves the automatic discount whole.
 */
export function computeQuote(input: QuoteInput): Quote {
  const addOnsAmount = input.addOns.reduce((sum, a) => sum + (a.includedInPackage ? 0 : a.priceCents), 0);
  const originalAmount = Math.max(0, input.packagePriceCents + input.housingAdjustmentCents + addOnsAmount);
  const codeDiscount = discountFor(originalAmount, input.discount);
  const rule = input.automaticDiscount ?? null;
  const automaticAmount = rule
    ? discountFor(originalAmount, { codeType: "discount", discountType: "percentage", percent: rule.percent })
    : 0;
  const discountSource: DiscountSource =
    automaticAmount > codeDiscount ? "automatic" : codeDiscount > 0 ? "code" : null;
  const discountAmount = discountSource === "automatic" ? automaticAmount : codeDiscount;
  const totalAmount = Math.max(0, originalAmount - discountAmount);
  const { deposit, remaining } = splitDeposit(totalAmount, input.depositPercent);
  return {
    currency: "EUR",
    originalAmount,
    discountAmount,
    discountSource,
    automaticDiscount: rule ? { ...rule, amount: automaticAmount } : null,
    totalAmount,
    depositAmount: deposit,
    remainingAmount: remaining,
    depositPercent: input.depositPercent,
    vatAmount: includedVat(totalAmount),
    addOnsAmount,
  };
}

/**
 * The deposit a cohort takes from an applicant on `today` (yyyy-mm-dd, The Hague): its own
 * `depositPercent` while the balance is not yet due, 100 from the balance's due date on (docs/product/payments.md#deposit-and-balance: an applicant after the due date paid only the deposit and was overdue at once). Every
 * quote uses it, so the payment step, the e-mail and the letter follow.
 */
export function depositPercentOn(depositPercent: number, startDate: string, today: string): number {
  return today >= remainingDueDate(startDate) ? 100 : depositPercent;
}

/** Date the remainder is due: BALANCE_DUE_DAYS_BEFORE_START (28) days before the start. ISO yyyy-mm-dd. */
export function remainingDueDate(startDate: string): string {
  const d = new Date(`${startDate}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - BALANCE_DUE_DAYS_BEFORE_START);
  return d.toISOString().slice(0, 10);
}

/**
 * A quote stored before pricing rules existed (a checkout session's JSON) lacks `discountSource`
 * and `automaticDiscount`: its discount, if any, was a code's. Returns the quote with both set.
 */
export function withDiscountSource<Q extends Omit<Quote, "discountSource" | "automaticDiscount">>(
  quote: Q & Partial<Pick<Quote, "discountSource" | "automaticDiscount">>,
): Q & Pick<Quote, "discountSource" | "automaticDiscount"> {
  return {
    ...quote,
    discountSource: quote.discountSource ?? (quote.discountAmount > 0 ? "code" : null),
    automaticDiscount: quote.automaticDiscount ?? null,
  };
}
