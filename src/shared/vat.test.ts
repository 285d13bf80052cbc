/**
 * The one VAT rounding rule (docs/product/payments.md#invoice-lines, decision 034): the lines' VAT adds up to the
 * document's VAT, which is the VAT of its total (docs/product/payments.md#invoice-lines), also with awkward amounts, a discount
 * line, an included item of 0 and a credit note.
 */
import { describe, expect, it } from "vitest";
import { includedVat } from "./pricing";
import { vatBreakdown, vatOfGross } from "./vat";

/** Every sum the invoice prints must agree. */
function expectConsistent(lines: number[]) {
  const b = vatBreakdown(lines);
  const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
  expect(b.lines.map((l) => l.gross)).toEqual(lines);
  expect(sum(b.lines.map((l) => l.vat))).toBe(b.vat);
  expect(sum(b.lines.map((l) => l.net))).toBe(b.net);
  expect(b.gross).toBe(sum(lines));
  expect(b.net + b.vat).toBe(b.gross);
  // The document's VAT is the VAT of its total alone (docs/product/payments.md#vat), as the quote and reports compute it.
  expect(b.vat).toBe(includedVat(b.gross));
  for (const l of b.lines) {
    // Each line is at most one cent from its exact share, and a line of 0 carries no VAT.
    expect(Math.abs(l.vat - (l.gross * 21) / 121)).toBeLessThan(1);
    if (l.gross === 0) expect(l.vat).toBe(0);
  }
  return b;
}

describe("VAT per line and per document (decision 034)", () => {
  it("three lines of €0.05: each rounds down to 0, yet the document's 3 cents go one to each", () => {
    const b = expectConsistent([5, 5, 5]);
    expect(b.vat).toBe(3);
    expect(b.lines.map((l) => l.vat)).toEqual([1, 1, 1]);
    expect(b.lines.map((l) => l.net)).toEqual([4, 4, 4]);
  });

  it("€99.99 alone, and next to €0.05 lines", () => {
    expect(expectConsistent([9_999]).lines[0]).toEqual({ gross: 9_999, vat: 1_735, net: 8_264 });
    const b = expectConsistent([9_999, 5, 5, 5]);
    expect(b.vat).toBe(includedVat(10_014));
  });

  it("a quote with a discount line and an item included in the package", () => {
    const b = expectConsistent([295_000, 60_000, 9_500, 0, -36_450]);
    expect(b.gross).toBe(328_050);
    expect(b.lines[3]).toEqual({ gross: 0, vat: 0, net: 0 });
    // The discount carries negative VAT: it lowers the VAT of the document.
    expect(b.lines[4]!.vat).toBeLessThan(0);
  });

  it("a credit note's single negative line mirrors the invoice", () => {
    const b = expectConsistent([-50_000]);
    expect(b.vat).toBe(-vatOfGross(50_000));
    expect(b.net).toBe(-(50_000 - includedVat(50_000)));
  });

  it("adds up for a thousand random documents of 1 to 8 lines", () => {
    let seed = 22;
    const rand = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let n = 0; n < 1_000; n++) {
      const count = 1 + Math.floor(rand() * 8);
      const lines = Array.from({ length: count }, () => {
        const r = rand();
        if (r < 0.1) return 0;
        if (r < 0.25) return -Math.floor(rand() * 50_000);
        return Math.floor(rand() * (r < 0.5 ? 200 : 500_000));
      });
      expectConsistent(lines);
    }
  });

  it("the document VAT equals the rule of docs/product/payments.md#vat: round(total − total / 1.21) for every amount up to €1,000", () => {
    const differ: number[] = [];
    for (let cents = -100_000; cents <= 100_000; cents++)
      if (vatOfGross(cents) !== (Math.round(cents - cents / 1.21) || 0)) differ.push(cents);
    expect(differ).toEqual([]);
  });

  it("refuses amounts that are not whole cents", () => {
    expect(() => vatBreakdown([10.5])).toThrow(RangeError);
  });
});
