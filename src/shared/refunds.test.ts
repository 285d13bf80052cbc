import { describe, expect, it } from "vitest";
import { daysBeforeStart, refundPercent, refundQuote } from "./refunds";
import { schoolDate } from "./time";

/** The July cohort of the demo catalogue starts on 20 July 2027. */
const START = "2027-07-20";
/** The day that is `days` calendar days before START. */
const daysBefore = (days: number) => {
  const d = new Date(Date.UTC(2027, 6, 20));
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
};

describe("refund policy (docs/product/payments.md#refund-policy): 70 % more than 60 days before the start, 50 % for 30-60 days, none under 30", () => {
  it("counts whole calendar days to the start, across month ends", () => {
    expect(daysBeforeStart(START, "2027-05-21")).toBe(60);
    expect(daysBeforeStart(START, "2027-05-20")).toBe(61);
    expect(daysBeforeStart(START, "2027-06-20")).toBe(30);
    expect(daysBeforeStart(START, START)).toBe(0);
    expect(daysBeforeStart(START, "2027-07-21")).toBe(-1);
  });

  it.each([
    [365, 70],
    [61, 70],
    [60, 50],
    [45, 50],
    [30, 50],
    [29, 0],
    [1, 0],
    [0, 0],
    [-5, 0],
  ])("%i days before the start refunds %i %%", (days, percent) => {
    expect(refundPercent(days)).toBe(percent);
    expect(
      refundQuote({ startDate: START, today: daysBefore(days), paidCents: 100_000, refundedCents: 0 }),
    ).toMatchObject({ daysBeforeStart: days, percent, suggestedAmountCents: percent * 1000 });
  });

  it("suggests 70 % of a full Standard payment (2,950.00 EUR) 61 days ahead, 50 % at 60 days", () => {
    const at61 = refundQuote({
      startDate: START,
      today: daysBefore(61),
      paidCents: 295_000,
      refundedCents: 0,
    });
    expect(at61).toMatchObject({ percent: 70, suggestedAmountCents: 206_500, refundableCents: 295_000 });
    const at60 = refundQuote({
      startDate: START,
      today: daysBefore(60),
      paidCents: 295_000,
      refundedCents: 0,
    });
    expect(at60).toMatchObject({ percent: 50, suggestedAmountCents: 147_500 });
  });

  it("rounds the suggestion down to the cent, so it never exceeds the policy", () => {
    const quote = refundQuote({ startDate: START, today: daysBefore(90), paidCents: 333, refundedCents: 0 });
    expect(quote.suggestedAmountCents).toBe(233);
  });

  it.each([
    { paidCents: 100_000, refundedCents: 20_000, refundableCents: 80_000, suggestedAmountCents: 50_000 },
    { paidCents: 100_000, refundedCents: 90_000, refundableCents: 10_000, suggestedAmountCents: 0 },
    { paidCents: 0, refundedCents: 0, refundableCents: 0, suggestedAmountCents: 0 },
  ])(
    "subtracts what was already refunded and never suggests more than is refundable or below zero (paid $paidCents, refunded $refundedCents)",
    ({ paidCents, refundedCents, refundableCents, suggestedAmountCents }) => {
      const quote = refundQuote({ startDate: START, today: daysBefore(90), paidCents, refundedCents });
      expect(quote).toMatchObject({ refundableCents, suggestedAmountCents });
    },
  );

  it("takes the day in The Hague: 23:30 UTC on 20 May is already 21 May there (60 days, 50 %)", () => {
    const today = schoolDate(new Date("2027-05-20T23:30:00Z"));
    expect(today).toBe("2027-05-21");
    expect(refundPercent(daysBeforeStart(START, today))).toBe(50);
    expect(schoolDate(new Date("2027-05-20T21:30:00Z"))).toBe("2027-05-20");
  });
});
