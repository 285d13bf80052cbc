/**
 * The one VAT rounding rule of the school (docs/product/payments.md#invoice-lines, decision 034), used by the invoices and
 * credit notes the server issues, by the quote's `vatAmount` (`includedVat` in pricing.ts), and so
 * by every page and report that shows them. Prices include VAT and are integer euro cents.
 *
 * Rule:
 * 1. The document's VAT is computed once, from its gross total G: VAT = round(|G| × r / (100 + r)),
 *    with G's sign (docs/product/payments.md#credit-notes: "rounded total minus total/1.21"; a credit note mirrors an invoice).
 * 2. That VAT is allocated to the lines by largest remainder: each line first gets the whole cents
 *    of its exact share (g × r / (100 + r), rounded down), then the cents still missing go one each
 *    to the lines with the largest dropped fraction (the earlier line first on a tie).
 * 3. A line's amount excluding VAT is its gross minus its VAT.
 * So the lines' VAT adds up to the document's VAT, their amounts excluding VAT to its net total,
 * and the document's VAT is the same as the one computed from its total alone. A line of 0 (an
 * item included in the package) gets no VAT. Legal basis: Dutch VAT Act (Wet OB 1968) art. 35a(1)
 * and directive 2006/112/EC art. 226(6)-(10) ask for the unit price excluding VAT, the rate, the
 * taxable amount per rate and the VAT payable; how to round is left to national rules (CJEU
 * C-484/06, Koninklijke Ahold), and ours is ordinary rounding to the cent of the VAT payable.
 */

import { VAT_RATE_PERCENT } from "./policy";

/** One line of a breakdown, cents: the amount including VAT, its VAT and its amount excluding it. */
export interface VatLine {
  gross: number;
  vat: number;
  net: number;
}

/** The VAT of a document and of each of its lines (cents), at `ratePercent`. */
export interface VatBreakdown {
  ratePercent: number;
  lines: VatLine[];
  gross: number;
  vat: number;
  net: number;
}

/** Floor division of integers with the remainder, exact for any |n| below 2^53. */
function divFloor(n: number, d: number): { q: number; r: number } {
  const q = Math.floor(n / d);
  let r = n - q * d;
  let qq = q;
  // Guard against a float quotient one off at the boundary.
  if (r < 0) {
    qq -= 1;
    r += d;
  } else if (r >= d) {
    qq += 1;
    r -= d;
  }
  return { q: qq, r };
}

/**
 * VAT included in a gross amount (cents, any sign) at `ratePercent` (an integer, default the Dutch
 * 21 %): |G| × r / (100 + r) rounded to the nearest cent, with G's sign. Step 1 of the rule.
 */
export function vatOfGross(grossCents: number, ratePercent: number = VAT_RATE_PERCENT): number {
  assertCents(grossCents);
  const d = 100 + ratePercent;
  const { q, r } = divFloor(Math.abs(grossCents) * ratePercent, d);
  const rounded = 2 * r >= d ? q + 1 : q;
  return grossCents < 0 && rounded > 0 ? -rounded : rounded;
}

/**
 * The VAT breakdown of a document whose lines are `grossLines` (cents including VAT, negative for a
 * discount or on a credit note) at `ratePercent` (integer, default 21): the document's VAT from its
 * total, allocated to the lines by largest remainder (decision 034). The result's lines are in the
 * same order; Σ lines.vat = vat, Σ lines.net = net, Σ lines.gross = gross. Throws a RangeError for
 * an amount that is not an integer number of cents (a programming error, never user input).
 */
export function vatBreakdown(
  grossLines: readonly number[],
  ratePercent: number = VAT_RATE_PERCENT,
): VatBreakdown {
  if (!Number.isInteger(ratePercent) || ratePercent < 0)
    throw new RangeError("VAT rate must be a whole percent");
  for (const g of grossLines) assertCents(g);
  const d = 100 + ratePercent;
  const gross = grossLines.reduce((s, g) => s + g, 0);
  const vat = vatOfGross(gross, ratePercent);
  const shares = grossLines.map((g) => divFloor(g * ratePercent, d));
  let missing = vat - shares.reduce((s, x) => s + x.q, 0);
  // 0 ≤ missing ≤ the number of lines with a dropped fraction (decision 034).
  const order = shares
    .map((s, i) => ({ i, r: s.r }))
    .filter((x) => x.r > 0)
    .sort((a, b) => b.r - a.r || a.i - b.i);
  const extra = new Array<number>(grossLines.length).fill(0);
  for (const { i } of order) {
    if (missing <= 0) break;
    extra[i] = 1;
    missing -= 1;
  }
  if (missing !== 0) throw new Error("VAT allocation did not add up");
  const lines = grossLines.map((g, i) => {
    const lineVat = shares[i]!.q + extra[i]!;
    return { gross: g, vat: lineVat, net: g - lineVat };
  });
  return { ratePercent, lines, gross, vat, net: gross - vat };
}

function assertCents(n: number) {
  if (!Number.isSafeInteger(n)) throw new RangeError("amounts are integer cents");
}
