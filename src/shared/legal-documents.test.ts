/**
 * A legal page's "Last updated" date moves with its wording (docs/product/portals.md#legal-pages: the terms' date had not
 * changed with their text). Each page's texts in en, zh and fr, as readers see them (the rules'
 * variables of POLICY_TEXT_VARIABLES filled in: a new refund policy or VAT rate is a new wording),
 * are fingerprinted; the record below pairs each fingerprint with the date LEGAL_UPDATED shows.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { LANGUAGES } from "./i18n/languages";
import { type Json, localeFiles } from "./i18n/locale-files";
import { POLICY_TEXT_VARIABLES } from "./i18n/policy-variables";
import { interpolate } from "./i18n/translate";
import { LEGAL_UPDATED, type LegalDocument } from "./legal-documents";

/**
 * The wording each date stands for. When a page's texts change on purpose: set its date in
 * src/shared/legal-documents.ts to the day the new wording takes effect and copy the new
 * fingerprint the failure prints here, with that date.
 */
const RECORD: Record<LegalDocument, { updated: string; fingerprint: string }> = {
  terms: { updated: "2026-11-28", fingerprint: "84cf129f8f43996c" },
  privacy: { updated: "2026-11-28", fingerprint: "035a2029b88dd08d" },
  cookies: { updated: "2026-11-28", fingerprint: "ebb876ad08b1f861" },
  gdpr: { updated: "2026-11-28", fingerprint: "80b53d95689a876a" },
};

/** The pages that print the school's legal facts (`operator`) besides their own texts. */
const WITH_OPERATOR = new Set<LegalDocument>(["terms", "privacy"]);

const rendered = (node: Json): Json =>
  typeof node === "string"
    ? interpolate(node, POLICY_TEXT_VARIABLES)
    : Array.isArray(node)
      ? node.map(rendered)
      : node !== null && typeof node === "object"
        ? Object.fromEntries(Object.entries(node).map(([k, v]) => [k, rendered(v)]))
        : node;

function fingerprint(document: LegalDocument): string {
  const hash = createHash("sha256");
  for (const language of LANGUAGES) {
    const legal = localeFiles(language).legal as Record<string, Json>;
    const texts = {
      page: legal[document] ?? null,
      operator: WITH_OPERATOR.has(document) ? legal.operator : null,
    };
    hash.update(JSON.stringify(rendered(texts as Json)));
  }
  return hash.digest("hex").slice(0, 16);
}

describe("the legal pages' “Last updated” dates", () => {
  it.each(Object.keys(LEGAL_UPDATED) as LegalDocument[])(
    "%s: the date shown is the date of its wording",
    (document) => {
      const now = { updated: LEGAL_UPDATED[document], fingerprint: fingerprint(document) };
      expect(
        now,
        `${document}: its texts or date changed; if the wording is new, set LEGAL_UPDATED.${document} to the day it takes effect and record ${JSON.stringify(now)}`,
      ).toEqual(RECORD[document]);
    },
  );
});
