import { describe, expect, it } from "vitest";
import { paymentTermsOf } from "./payment-terms";

describe("what the public pages say about paying (docs/product/payments.md#checkout-session)", () => {
  it("says full payment only when every school open for applications takes 100 %", () => {
    expect(
      paymentTermsOf([
        { depositPercent: 100, status: "open" },
        { depositPercent: 30, status: "full" },
      ]),
    ).toEqual({
      kind: "full",
    });
    expect(paymentTermsOf([])).toEqual({ kind: "full" });
  });

  it("names the deposit when every open school takes the same one", () => {
    expect(
      paymentTermsOf([
        { depositPercent: 30, status: "open" },
        { depositPercent: 30, status: "fewSpotsLeft" },
      ]),
    ).toEqual({ kind: "deposit", percent: 30 });
  });

  it("says deposit or full amount, from the lowest deposit, when schools differ", () => {
    expect(
      paymentTermsOf([
        { depositPercent: 100, status: "open" },
        { depositPercent: 50, status: "open" },
        { depositPercent: 30, status: "open" },
      ]),
    ).toEqual({ kind: "mixed", percent: 30 });
  });

  it("reads the upcoming schools when none is open yet", () => {
    expect(paymentTermsOf([{ depositPercent: 40, status: "openingSoon" }])).toEqual({
      kind: "deposit",
      percent: 40,
    });
  });
});
