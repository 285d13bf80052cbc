/**
 * Option lists of the application form (spec §3 "Option lists"). Values are stable keys stored in
 * the database; labels come from the `common` translations (`options.<list>.<value>`), and country
 * names from the runtime's CLDR data via Intl.DisplayNames, so every language is covered without a
 * hand-kept list of 195 names per language.
 */
export const FIELDS_OF_STUDY = [
  "businessAdministration",
  "computerScience",
  "economics",
  "engineering",
  "law",
  "liberalArts",
  "mathematics",
  "medicine",
  "naturalSciences",
  "socialSciences",
  "other",
] as const;

export const STUDENT_STATUSES = ["prospective", "undergraduate", "graduate", "postGraduate", "alumni"] as const;

export const REFERRAL_SOURCES = [
  "searchEngine",
  "wechat",
  "socialMedia",
  "university",
  "referral",
  "flyer",
  "travelAgency",
  "other",
] as const;

/** ISO 3166-1 alpha-2 codes: the 193 UN member states, the two observer states, and Hong Kong, Macao, Taiwan and Kosovo. */
export const COUNTRY_CODES = [
  "AF", "AL", "DZ", "AD", "AO", "AG", "AR", "AM", "AU", "AT", "AZ", "BS", "BH", "BD", "BB", "BY", "BE", "BZ",
  "BJ", "BT", "BO", "BA", "BW", "BR", "BN", "BG", "BF", "BI", "CV", "KH", "CM", "CA", "CF", "TD", "CL", "CN",
  "CO", "KM", "CG", "CD", "CR", "CI", "HR", "CU", "CY", "CZ", "DK", "DJ", "DM", "DO", "EC", "EG", "SV", "GQ",
  "ER", "EE", "SZ", "ET", "FJ", "FI", "FR", "GA", "GM", "GE", "DE", "GH", "GR", "GD", "GT", "GN", "GW", "GY",
  "HT", "HN", "HK", "HU", "IS", "IN", "ID", "IR", "IQ", "IE", "IL", "IT", "JM", "JP", "JO", "KZ", "KE", "KI",
  "XK", "KW", "KG", "LA", "LV", "LB", "LS", "LR", "LY", "LI", "LT", "LU", "MO", "MG", "MW", "MY", "MV", "ML",
  "MT", "MH", "MR", "MU", "MX", "FM", "MD", "MC", "MN", "ME", "MA", "MZ", "MM", "NA", "NR", "NP", "NL", "NZ",
  "NI", "NE", "NG", "KP", "MK", "NO", "OM", "PK", "PW", "PS", "PA", "PG", "PY", "PE", "PH", "PL", "PT", "QA",
  "RO", "RU", "RW", "KN", "LC", "VC", "WS", "SM", "ST", "SA", "SN", "RS", "SC", "SL", "SG", "SK", "SI", "SB",
  "SO", "ZA", "KR", "SS", "ES", "LK", "SD", "SR", "SE", "CH", "SY", "TW", "TJ", "TZ", "TH", "TL", "TG", "TO",
  "TT", "TN", "TR", "TM", "TV", "UG", "UA", "AE", "GB", "US", "UY", "UZ", "VU", "VA", "VE", "VN", "YE", "ZM",
  "ZW",
] as const;

export type FieldOfStudy = (typeof FIELDS_OF_STUDY)[number];
export type StudentStatus = (typeof STUDENT_STATUSES)[number];
export type ReferralSource = (typeof REFERRAL_SOURCES)[number];
export type CountryCode = (typeof COUNTRY_CODES)[number];

/**
 * Countries as { code, name } sorted by name in the given locale (e.g. "zh-CN").
 * Uses Intl.DisplayNames (CLDR), available in Node and every current browser.
 */
export function countryOptions(locale: string): Array<{ code: CountryCode; name: string }> {
  const names = new Intl.DisplayNames([locale], { type: "region" });
  const collator = new Intl.Collator(locale);
  return COUNTRY_CODES.map((code) => ({ code, name: names.of(code) ?? code })).sort((a, b) =>
    collator.compare(a.name, b.name),
  );
}
