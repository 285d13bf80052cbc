/**
 * Register, terms and typography of the Chinese and French translation files (docs/glossary.md):
 * every rule of `typography/` against every text of every namespace. Interpolation placeholders
 * ({{x}}) read as "X", or as the rule's `placeholder` reads them, and addresses (https://…,
 * mailto:…) are left out. Failures name the file, the key and the text around the fault. The
 * same rules check the rendered e-mails and PDF documents (src/server/testing/rendered-emails.test.ts,
 * rendered-documents.test.ts).
 */
import { describe, expect, it } from "vitest";
import { localeTexts } from "./locale-files";
import { faultsIn, readable, TEXT_RULES } from "./typography";

describe.each(["zh", "fr"] as const)("%s translation files follow the glossary", (language) => {
  const texts = localeTexts(language).map(
    ({ namespace, key, text }) => [`${language}/${namespace}.json ${key}`, text] as const,
  );
  it.each(TEXT_RULES[language].map((rule) => [rule.says, rule] as const))("%s", (_says, rule) => {
    expect(texts.flatMap(([where, text]) => faultsIn(where, readable(text, rule.placeholder), rule))).toEqual(
      [],
    );
  });
});
