import { describe, expect, it } from "vitest";
import {
  type AutomaticDiscountRule,
  computeQuote,
  type QuoteInput,
  ruleInEffect,
  withDiscountSource,
} from "./pricing";
import { schoolDate } from "./time";

/**
 * See docs/product/catalogue-and-pricing.md#pricing-rules, decision 030: the early application discount
 * (docs/product/catalogue-and-pricing.md#pricing-rules: 10 % before 15 March) is applied by the one pricing function, ends at midnight in The
 * Hague, and does not add up with a discount code: the larger of the two applies.
 */

/** Standard package 2,950.00 + required insurance 95.00 EUR, paid in full. */
const base: QuoteInput = {
  packagePriceCents: 295_000,
  housingAdjustmentCents: 0,
  addOns: [{ id: "insurance", priceCents: 9_500, includedInPackage: false }],
  depositPercent: 100,
};
const early: AutomaticDiscountRule = {
  ruleId: "00000000-0000-4000-8000-000000000001",
  kind: "early_application",
  percent: 10,
  endsOn: "2027-03-15",
};
const rule = { active: true, endsOn: "2027-03-15" };

describe("the early application discount's last day, in The Hague", () => {
  it("applies until 23:59:59 on 14 March in The Hague and no longer from midnight (winter time, UTC+1)", () => {
    // 14 March 23:59:59 in The Hague is 22:59:59 UTC; midnight is 23:00 UTC on the 14th.
    expect(ruleInEffect(rule, schoolDate(new Date("2027-03-14T22:59:59Z")))).toBe(true);
    expect(ruleInEffect(rule, schoolDate(new Date("2027-03-14T23:00:00Z")))).toBe(false);
    // A UTC date would still say 14 March at 23:30 UTC; The Hague is already on the 15th.
    expect(schoolDate(new Date("2027-03-14T23:30:00Z"))).toBe("2027-03-15");
  });

  it("ends with the day before its end date in summer time too (UTC+2)", () => {
    const june = { active: true, endsOn: "2027-06-01" };
    expect(ruleInEffect(june, schoolDate(new Date("2027-05-31T21:59:59Z")))).toBe(true);
    expect(ruleInEffect(june, schoolDate(new Date("2027-05-31T22:00:00Z")))).toBe(false);
  });

  it("does not apply when switched off by the school", () => {
    expect(ruleInEffect({ ...rule, active: false }, "2027-01-10")).toBe(false);
  });
});

describe("the quote with the early application discount", () => {
  it("takes 10 % off the original amount and says the discount is the automatic one", () => {
    const q = computeQuote({ ...base, automaticDiscount: early });
    expect(q).toMatchObject({
      originalAmount: 304_500,
      discountAmount: 30_450,
      discountSource: "automatic",
      totalAmount: 274_050,
      depositAmount: 274_050,
      automaticDiscount: { percent: 10, endsOn: "2027-03-15", amount: 30_450 },
    });
    expect(q.vatAmount).toBe(Math.round(274_050 - 274_050 / 1.21));
  });

  it("does not add up with a smaller percentage code: the early discount applies, not both", () => {
    const q = computeQuote({
      ...base,
      automaticDiscount: early,
      discount: { codeType: "discount", discountType: "percentage", percent: 5 },
    });
    expect(q.discountAmount).toBe(30_450);
    expect(q.discountSource).toBe("automatic");
  });

  it("gives the larger discount when the code's is larger (percentage and fixed)", () => {
    const bigPercent = computeQuote({
      ...base,
      automaticDiscount: early,
      discount: { codeType: "discount", discountType: "percentage", percent: 20 },
    });
    expect(bigPercent).toMatchObject({
      discountAmount: 60_900,
      discountSource: "code",
      totalAmount: 243_600,
    });
    const bigFixed = computeQuote({
      ...base,
      automaticDiscount: early,
      discount: { codeType: "discount", discountType: "fixed", amountCents: 50_000 },
    });
    expect(bigFixed).toMatchObject({ discountAmount: 50_000, discountSource: "code" });
    // The early discount's amount is still reported, so the page can say which one applied.
    expect(bigFixed.automaticDiscount?.amount).toBe(30_450);
  });

  it("gives the code's discount on a tie, so a code typed is never ignored for nothing", () => {
    const q = computeQuote({
      ...base,
      automaticDiscount: early,
      discount: { codeType: "discount", discountType: "percentage", percent: 10 },
    });
    expect(q).toMatchObject({ discountAmount: 30_450, discountSource: "code" });
  });

  it("combines with a referral code, which gives no discount of its own", () => {
    const q = computeQuote({ ...base, automaticDiscount: early, discount: { codeType: "referral" } });
    expect(q).toMatchObject({ discountAmount: 30_450, discountSource: "automatic", totalAmount: 274_050 });
  });

  it("never goes below 0, with a 100 % rule or a fixed code larger than the price", () => {
    const full = computeQuote({ ...base, automaticDiscount: { ...early, percent: 100 } });
    expect(full).toMatchObject({ totalAmount: 0, discountAmount: 304_500, depositAmount: 0, vatAmount: 0 });
    const huge = computeQuote({
      ...base,
      automaticDiscount: early,
      discount: { codeType: "discount", discountType: "fixed", amountCents: 10_000_000 },
    });
    expect(huge).toMatchObject({ totalAmount: 0, discountAmount: 304_500, discountSource: "code" });
  });

  it("splits the discounted total into deposit and balance", () => {
    const q = computeQuote({ ...base, depositPercent: 30, automaticDiscount: early });
    expect(q.depositAmount).toBe(Math.round(274_050 * 0.3));
    expect(q.depositAmount + q.remainingAmount).toBe(274_050);
  });

  it("without a rule in effect the quote is the catalogue's price", () => {
    const q = computeQuote(base);
    expect(q).toMatchObject({
      discountAmount: 0,
      discountSource: null,
      automaticDiscount: null,
      totalAmount: 304_500,
    });
  });

  it("reads a quote stored before pricing rules existed as a code's discount", () => {
    const { discountSource, automaticDiscount, ...old } = computeQuote({
      ...base,
      discount: { codeType: "discount", discountType: "fixed", amountCents: 20_000 },
    });
    expect(withDiscountSource(old)).toMatchObject({ discountSource: "code", automaticDiscount: null });
    expect(discountSource).toBe("code");
    expect(automaticDiscount).toBeNull();
  });
});
