import { describe, expect, it } from "vitest";
import { CURRENCY, eurosToCents, formatMoney } from "./money";

/** Intl uses no-break spaces in French: U+202F between thousands, U+00A0 before the sign. */
const normalizeSpaces = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

describe("formatMoney (docs/product/languages.md#numbers-dates-and-money: one format per language, EUR, 2 decimals)", () => {
  it("formats in en-GB", () => {
    expect(formatMoney(295_000, "en")).toBe("€2,950.00");
    expect(formatMoney(30_455, "en")).toBe("€304.55");
    expect(formatMoney(0, "en")).toBe("€0.00");
    expect(formatMoney(1, "en")).toBe("€0.01");
    expect(formatMoney(123_456_789, "en")).toBe("€1,234,567.89");
  });

  it("formats in fr-FR", () => {
    expect(normalizeSpaces(formatMoney(295_000, "fr"))).toBe("2 950,00 €");
    expect(normalizeSpaces(formatMoney(30_450, "fr"))).toBe("304,50 €");
    expect(normalizeSpaces(formatMoney(0, "fr"))).toBe("0,00 €");
    // the spaces are no-break ones, so the amount never wraps
    expect(formatMoney(295_000, "fr")).not.toContain(" ");
  });

  it("formats in zh-CN", () => {
    expect(formatMoney(295_000, "zh")).toBe("€2,950.00");
    expect(formatMoney(5, "zh")).toBe("€0.05");
  });

  it("always shows two decimals and the euro", () => {
    expect(CURRENCY).toBe("EUR");
    for (const language of ["en", "fr", "zh"] as const) {
      const text = formatMoney(250_000, language);
      expect(text).toContain("€");
      expect(text).toMatch(/2.500[.,]00/);
    }
  });

  it("formats negative amounts (a discount line)", () => {
    expect(formatMoney(-30_000, "en")).toBe("-€300.00");
  });
});

describe("eurosToCents", () => {
  it("converts euros typed in a form to integer cents", () => {
    expect(eurosToCents(29.5)).toBe(2_950);
    expect(eurosToCents(2950)).toBe(295_000);
    expect(eurosToCents(19.99)).toBe(1_999);
    expect(eurosToCents(0.1 + 0.2)).toBe(30);
    expect(eurosToCents(0)).toBe(0);
  });

  it("rounds half away from zero", () => {
    expect(eurosToCents(0.125)).toBe(13);
    expect(eurosToCents(-0.125)).toBe(-13);
    expect(eurosToCents(-300)).toBe(-30_000);
  });
});
