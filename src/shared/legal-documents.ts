/**
 * The day the current wording of each legal page took effect (`yyyy-mm-dd`), shown as its "Last
 * updated" date. `legal-documents.test.ts` records a fingerprint of each page's texts in the three
 * languages as readers see them (the rules' variables filled in, so a change of the refund policy
 * or the VAT rate counts): it fails when a page's texts change and this date is not moved with them.
 * Texts edited at run time in the back office's translations screen are not covered.
 */
export const LEGAL_UPDATED = {
  terms: "2026-11-28",
  privacy: "2026-11-28",
  cookies: "2026-11-28",
  gdpr: "2026-11-28",
} as const;

export type LegalDocument = keyof typeof LEGAL_UPDATED;
