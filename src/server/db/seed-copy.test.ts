/**
 * The demo data's French texts follow the glossary as the translation files do (docs/glossary.md,
 * rules of src/shared/i18n/typography/fr.ts): the French argument of every `L(en, zh, fr)` call in
 * the seed files, read from the source (an interpolation `${…}` reads as "X", like a placeholder).
 * Failures name the file, the line and the text around the fault.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { faultsIn, readable, TEXT_RULES } from "../../shared/i18n/typography";

const SEED_FILES = ["seed.ts", "seed-programme.ts"];

/** `file:line` and text of the third argument of each `L(…)` call of a seed file. */
function frenchTexts(name: string): Array<readonly [string, string]> {
  const path = fileURLToPath(new URL(`./${name}`, import.meta.url));
  const source = ts.createSourceFile(name, readFileSync(path, "utf8"), ts.ScriptTarget.Latest, true);
  const texts: Array<readonly [string, string]> = [];
  const textOf = (node: ts.Node): string | null => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return node.head.text + node.templateSpans.map((span) => `X${span.literal.text}`).join("");
    return null;
  };
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "L") {
      const french = node.arguments[2];
      const text = french ? textOf(french) : null;
      if (french && text !== null) {
        const line = source.getLineAndCharacterOfPosition(french.getStart(source)).line + 1;
        texts.push([`${name}:${line}`, readable(text)]);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return texts;
}

describe("the demo data's French texts follow the glossary", () => {
  const texts = SEED_FILES.flatMap(frenchTexts);

  it("finds the French text of every localized demo text", () => {
    expect(texts.length).toBeGreaterThan(50);
  });

  it.each(TEXT_RULES.fr.map((rule) => [rule.says, rule] as const))("%s", (_says, rule) => {
    expect(texts.flatMap(([where, text]) => faultsIn(where, text, rule))).toEqual([]);
  });
});
