import { describe, expect, it } from "vitest";
import {
  computeQuote,
  type DiscountRule,
  depositPercentOn,
  discountFor,
  includedVat,
  type QuoteInput,
  remainingDueDate,
  splitDeposit,
} from "./pricing";

/** Demo catalogue (docs/product/catalogue-and-pricing.md#deposit-percent): Standard package 2,950.00 EUR, shared room 0, full payment. */
const base: QuoteInput = {
  packagePriceCents: 295_000,
  housingAdjustmentCents: 0,
  addOns: [],
  depositPercent: 100,
};

const percent = (p: number): DiscountRule => ({
  codeType: "discount",
  discountType: "percentage",
  percent: p,
});
const fixed = (amountCents: number): DiscountRule => ({
  codeType: "discount",
  discountType: "fixed",
  amountCents,
});

describe("computeQuote: totals (docs/product/catalogue-and-pricing.md#quote)", () => {
  it("is the package price alone with the standard housing and no add-ons", () => {
    const quote = computeQuote(base);
    expect(quote).toMatchObject({
      currency: "EUR",
      originalAmount: 295_000,
      discountAmount: 0,
      totalAmount: 295_000,
      depositAmount: 295_000,
      remainingAmount: 0,
      depositPercent: 100,
      addOnsAmount: 0,
    });
  });

  it("adds the housing surcharge and the chargeable add-ons; included add-ons cost 0", () => {
    const quote = computeQuote({
      ...base,
      housingAdjustmentCents: 80_000,
      addOns: [
        { id: "pickup", priceCents: 3_000, includedInPackage: false },
        { id: "insurance", priceCents: 12_500, includedInPackage: false },
        { id: "excursion", priceCents: 25_000, includedInPackage: true },
      ],
    });
    expect(quote.addOnsAmount).toBe(15_500);
    expect(quote.originalAmount).toBe(295_000 + 80_000 + 3_000 + 12_500);
    expect(quote.totalAmount).toBe(390_500);
  });

  it("subtracts a negative housing adjustment (group room discount)", () => {
    const quote = computeQuote({ ...base, housingAdjustmentCents: -30_000 });
    expect(quote.originalAmount).toBe(265_000);
    expect(quote.totalAmount).toBe(265_000);
  });

  it("never goes below 0, even when a housing discount exceeds the package price", () => {
    const quote = computeQuote({ ...base, packagePriceCents: 10_000, housingAdjustmentCents: -30_000 });
    expect(quote.originalAmount).toBe(0);
    expect(quote.totalAmount).toBe(0);
    expect(quote.depositAmount).toBe(0);
    expect(quote.vatAmount).toBe(0);
  });
});

describe("computeQuote: codes (docs/product/catalogue-and-pricing.md#code-discounts, docs/product/payments.md#vat)", () => {
  it("takes 10% of 304,550 cents exactly", () => {
    const quote = computeQuote({ ...base, packagePriceCents: 304_550, discount: percent(10) });
    expect(quote.discountAmount).toBe(30_455);
    expect(quote.totalAmount).toBe(274_095);
    expect(quote.originalAmount).toBe(304_550);
  });

  it("rounds a percentage of an odd amount to the cent, halves up", () => {
    expect(computeQuote({ ...base, packagePriceCents: 304_555, discount: percent(10) }).discountAmount).toBe(
      30_456, // 30,455.5
    );
    expect(computeQuote({ ...base, packagePriceCents: 10_010, discount: percent(15) }).discountAmount).toBe(
      1_502, // 1,501.5
    );
    expect(computeQuote({ ...base, packagePriceCents: 100_001, discount: percent(33) }).discountAmount).toBe(
      33_000, // 33,000.33
    );
    expect(computeQuote({ ...base, packagePriceCents: 299_999, discount: percent(25) }).discountAmount).toBe(
      75_000, // 74,999.75
    );
  });

  it("applies a percentage to the whole original amount, add-ons and housing included", () => {
    const quote = computeQuote({
      ...base,
      housingAdjustmentCents: 80_000,
      addOns: [{ id: "pickup", priceCents: 3_000, includedInPackage: false }],
      discount: percent(10),
    });
    expect(quote.originalAmount).toBe(378_000);
    expect(quote.discountAmount).toBe(37_800);
    expect(quote.totalAmount).toBe(340_200);
  });

  it("gives a total of 0 with a 100% code", () => {
    const quote = computeQuote({ ...base, discount: percent(100) });
    expect(quote.discountAmount).toBe(295_000);
    expect(quote.totalAmount).toBe(0);
    expect(quote.depositAmount).toBe(0);
    expect(quote.remainingAmount).toBe(0);
    expect(quote.vatAmount).toBe(0);
  });

  it("clamps percentages outside 0-100", () => {
    expect(computeQuote({ ...base, discount: percent(150) }).totalAmount).toBe(0);
    expect(computeQuote({ ...base, discount: percent(-10) }).totalAmount).toBe(295_000);
  });

  it("subtracts a fixed code, capped at the total", () => {
    expect(computeQuote({ ...base, discount: fixed(50_000) })).toMatchObject({
      discountAmount: 50_000,
      totalAmount: 245_000,
    });
    expect(computeQuote({ ...base, discount: fixed(500_000) })).toMatchObject({
      originalAmount: 295_000,
      discountAmount: 295_000,
      totalAmount: 0,
    });
    expect(computeQuote({ ...base, discount: fixed(295_000) }).totalAmount).toBe(0);
  });

  it("ignores a negative fixed amount (never increases the price)", () => {
    expect(computeQuote({ ...base, discount: fixed(-10_000) })).toMatchObject({
      discountAmount: 0,
      totalAmount: 295_000,
    });
  });

  it("gives no discount for a referral code or no code", () => {
    expect(computeQuote({ ...base, discount: { codeType: "referral" } })).toMatchObject({
      discountAmount: 0,
      totalAmount: 295_000,
    });
    expect(computeQuote({ ...base, discount: null }).discountAmount).toBe(0);
    expect(discountFor(295_000, undefined)).toBe(0);
  });

  it("never discounts more than the original amount", () => {
    expect(discountFor(0, percent(50))).toBe(0);
    expect(discountFor(0, fixed(1_000))).toBe(0);
    expect(discountFor(999, fixed(1_000))).toBe(999);
  });
});

describe("computeQuote: deposit (docs/product/catalogue-and-pricing.md#deposit-percent)", () => {
  it("asks for the whole total at 100%", () => {
    expect(computeQuote({ ...base, depositPercent: 100 })).toMatchObject({
      depositAmount: 295_000,
      remainingAmount: 0,
    });
    expect(splitDeposit(295_000, 120)).toEqual({ deposit: 295_000, remaining: 0 });
  });

  it("splits below 100%: deposit = round(total × percent), remaining = the rest", () => {
    expect(computeQuote({ ...base, depositPercent: 30 })).toMatchObject({
      depositAmount: 88_500,
      remainingAmount: 206_500,
      depositPercent: 30,
    });
    expect(splitDeposit(100_001, 33)).toEqual({ deposit: 33_000, remaining: 67_001 });
    expect(splitDeposit(100_003, 50)).toEqual({ deposit: 50_002, remaining: 50_001 }); // 50,001.5
    expect(splitDeposit(0, 30)).toEqual({ deposit: 0, remaining: 0 });
  });

  it("splits the discounted total, not the original", () => {
    const quote = computeQuote({ ...base, depositPercent: 50, discount: percent(10) });
    expect(quote.totalAmount).toBe(265_500);
    expect(quote.depositAmount).toBe(132_750);
    expect(quote.remainingAmount).toBe(132_750);
  });

  it("always has deposit + remaining = total", () => {
    for (const total of [0, 1, 99, 295_000, 304_555, 1_234_567]) {
      for (const pct of [1, 10, 25, 33, 50, 66, 99, 100]) {
        const { deposit, remaining } = splitDeposit(total, pct);
        expect(deposit + remaining).toBe(total);
        expect(deposit).toBeGreaterThanOrEqual(0);
        expect(remaining).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe("VAT (docs/product/payments.md#vat: 21% included, VAT = round(total − total/1.21))", () => {
  it("is 51,198 cents of 295,000", () => {
    expect(includedVat(295_000)).toBe(51_198);
    expect(computeQuote(base).vatAmount).toBe(51_198);
  });

  it("is computed on the total after the discount", () => {
    // 265,500 − 265,500 / 1.21 = 46,078.51
    expect(computeQuote({ ...base, discount: percent(10) }).vatAmount).toBe(46_079);
  });

  it("is 21 cents of 121 cents and 0 of 0", () => {
    expect(includedVat(121)).toBe(21);
    expect(includedVat(0)).toBe(0);
  });
});

describe("remainingDueDate (docs/product/payments.md#refund-policy: 28 days before the start)", () => {
  it("is 28 days before the start within a month", () => {
    expect(remainingDueDate("2026-08-30")).toBe("2026-08-02");
  });

  it("crosses a month boundary", () => {
    expect(remainingDueDate("2026-07-20")).toBe("2026-06-22");
    expect(remainingDueDate("2026-06-15")).toBe("2026-05-18");
  });

  it("crosses a year boundary and a leap February", () => {
    expect(remainingDueDate("2027-01-10")).toBe("2026-12-13");
    expect(remainingDueDate("2028-03-10")).toBe("2028-02-11");
    expect(remainingDueDate("2027-03-10")).toBe("2027-02-10");
  });

  it("is not shifted by the summer time change (dates are UTC calendar dates)", () => {
    expect(remainingDueDate("2026-04-20")).toBe("2026-03-23");
  });
});

describe("the deposit once the balance is due (docs/product/payments.md#deposit-and-balance)", () => {
  it("is the cohort's deposit until the balance's due date, then the whole amount", () => {
    // Start 7 September 2027: the balance is due 28 days before, on 10 August.
    expect(depositPercentOn(30, "2027-09-07", "2027-08-09")).toBe(30);
    expect(depositPercentOn(30, "2027-09-07", "2027-08-10")).toBe(100);
    expect(depositPercentOn(30, "2027-09-07", "2027-08-11")).toBe(100);
    expect(depositPercentOn(100, "2027-09-07", "2027-01-01")).toBe(100);
  });
});
