/**
 * Payout details: validation and masking rules shared by the affiliate's form and the server
 * (docs/product/codes-and-partners.md#payout-runs: "Validated (IBAN checksum) … shown masked"). Pure functions, no I/O.
 */

/**
 * IBAN length by country (ISO 13616 registry, SWIFT IBAN Registry release 2024): every country of
 * the SEPA scheme and the other countries that issue IBANs. An IBAN of a country not listed is
 * refused.
 */
export const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BI: 27,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DJ: 27,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FK: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  LY: 25,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MN: 20,
  MR: 27,
  MT: 31,
  MU: 30,
  NI: 28,
  NL: 18,
  NO: 15,
  OM: 23,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  RU: 33,
  SA: 24,
  SC: 31,
  SD: 18,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  SO: 23,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20,
  YE: 30,
};

/**
 * Countries of the SEPA schemes (EPC "List of countries in the SEPA schemes' geographical scope",
 * 2025): the EU, the EEA, Switzerland, the United Kingdom, Monaco, San Marino, the Vatican,
 * Andorra, Gibraltar, Albania, Moldova, Montenegro and North Macedonia. An IBAN elsewhere (e.g.
 * Turkey, Brazil) is paid by international transfer (SWIFT).
 */
export const SEPA_COUNTRIES: ReadonlySet<string> = new Set(
  (
    "AT BE BG HR CY CZ DK EE FI FR DE GR HU IE IT LV LT LU MT NL PL PT RO SK SI ES SE " +
    "IS LI NO CH GB MC SM VA AD GI AL MD ME MK"
  ).split(" "),
);

/** True when a (valid) IBAN belongs to a country of the SEPA schemes. */
export function isSepaIban(value: string): boolean {
  return SEPA_COUNTRIES.has(normalizeIban(value).slice(0, 2));
}

/** An IBAN as typed ("nl91 abna 0417 1643 00") in its electronic form: upper case, no spaces. */
export function normalizeIban(value: string): string {
  return value.replace(/[\s-]+/g, "").toUpperCase();
}

/** The ISO 7064 mod 97-10 remainder of an IBAN (country and check digits moved to the end). */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const ch of rearranged) {
    const digits = ch >= "A" && ch <= "Z" ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of digits) remainder = (remainder * 10 + Number(d)) % 97;
  }
  return remainder;
}

/**
 * True for a valid IBAN (ISO 13616): known country, that country's length, letters and digits
 * only, and the mod-97 checksum equal to 1. Spaces and case are ignored.
 */
export function isValidIban(value: string): boolean {
  const iban = normalizeIban(value);
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(iban)) return false;
  const length = IBAN_LENGTHS[iban.slice(0, 2)];
  if (length === undefined || iban.length !== length) return false;
  return mod97(iban) === 1;
}

/**
 * True for a BIC / SWIFT code (ISO 9362): 4 letters (bank), 2 letters (country), 2 letters or
 * digits (location), optionally 3 letters or digits (branch). Spaces and case are ignored.
 */
export function isValidBic(value: string): boolean {
  return /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(value.replace(/\s+/g, "").toUpperCase());
}

/**
 * An IBAN as it may be shown: the country and the last 4 characters kept, everything else hidden
 * in groups of 4 ("NL91ABNA0417164300" → "NL** **** **** **** 4300").
 */
export function maskIban(value: string): string {
  const iban = normalizeIban(value);
  if (iban.length < 8) return "*".repeat(iban.length);
  const middle = Array.from({ length: Math.ceil((iban.length - 8) / 4) }, () => "****");
  return [`${iban.slice(0, 2)}**`, ...middle, iban.slice(-4)].join(" ");
}

/** Any identifier (account number) with all but its last 4 characters hidden: "**** 6789". */
export function maskTail(value: string): string {
  const compact = value.replace(/\s+/g, "");
  return compact.length <= 4 ? "*".repeat(compact.length) : `**** ${compact.slice(-4)}`;
}

/** An e-mail address with the local part hidden but its first letter: "a***@example.com". */
export function maskEmail(value: string): string {
  const at = value.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${value[0]}***${value.slice(at)}`;
}
