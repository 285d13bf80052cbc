/**
 * Every text that states VAT reads the setting (docs/product/payments.md#vat-setting, decision 034): no text writes a
 * rate as a number next to VAT, TVA or 增值税, and every text that says prices include VAT has an
 * `_exempt` variant, chosen under `INVOICE_VAT=exempt` (`vatContext`), that names no rate. A text
 * may only be without a variant if the page does not show it when the school is exempt.
 */
import { describe, expect, it } from "vitest";
import { createI18n } from "../../client/lib/i18n";
import { vatContext } from "../../client/lib/vat";
import { LANGUAGES } from "./languages";
import { localeFiles, localeTexts } from "./locale-files";
import type { Resources } from "./namespaces";

/** A text about VAT: the tax, in each language. */
const MENTIONS_VAT = /VAT|TVA|增值税/;
/** The school's or a payer's VAT identification number: a fact, not a statement of VAT. */
const VAT_NUMBER = /VAT number|VAT \{\{vat\}\}|num[ée]ro de TVA|TVA \{\{vat\}\}|增值税号/i;
/** A rate: a number or the rate variable next to "%". */
const RATE = /\d\s?[\u00a0\u202f]?%|\{\{vatPercent\}\}/;

/** Texts shown only when VAT is included (the page leaves them out under exempt), with where. */
const SHOWN_ONLY_WHEN_INCLUDED = new Set([
  "adminFinance:summary.cards.vat", // AdminFinancesPage: no VAT card when exempt
  "adminFinance:summary.columns.vat", // AdminFinancesPage: no VAT columns when exempt
  "adminFinance:summary.columns.netExVat",
]);

describe("texts that state VAT (docs/product/payments.md#vat-setting)", () => {
  for (const language of LANGUAGES)
    it(`${language}: no rate written as a number, and an exempt variant of each`, () => {
      const texts = localeTexts(language);
      const byKey = new Map(texts.map((t) => [`${t.namespace}:${t.key}`, t.text]));
      const stating = texts.filter(
        (t) => MENTIONS_VAT.test(t.text) && !VAT_NUMBER.test(t.text) && !t.key.endsWith("_exempt"),
      );
      expect(stating.length).toBeGreaterThan(5);
      const problems: string[] = [];
      for (const { namespace, key, text } of stating) {
        const id = `${namespace}:${key}`;
        // "21%" typed into a text would stay when the setting changes.
        if (/\d\s?[\u00a0\u202f]?%/.test(text.replace(/\{\{[^}]*\}\}/g, "")))
          problems.push(`${id}: a rate written as a number`);
        if (SHOWN_ONLY_WHEN_INCLUDED.has(id)) continue;
        const exempt = byKey.get(`${id}_exempt`);
        if (exempt === undefined) problems.push(`${id}: no ${key}_exempt variant`);
        else if (RATE.test(exempt) || /included|comprise|incluse|(?<!不)含增值税/.test(exempt))
          problems.push(`${id}_exempt: names a rate or VAT included`);
      }
      expect(problems).toEqual([]);
    });

  it("under exempt, i18next gives the variant; under included, the rate from the setting", () => {
    for (const language of LANGUAGES) {
      const i18n = createI18n(language, { [language]: localeFiles(language) as unknown as Resources });
      const exempt = i18n.t("apply:payment.vat", { context: vatContext({ mode: "exempt" }) });
      const included = i18n.t("apply:payment.vat", {
        context: vatContext({ mode: "included", ratePercent: 21 }),
      });
      expect(exempt).not.toMatch(/\d/);
      expect(exempt).toMatch(MENTIONS_VAT);
      expect(included).toMatch(/21\s?[\u202f]?%/);
    }
  });
});
