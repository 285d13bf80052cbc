/**
 * Every PDF document as its reader reads it, in each language it is issued in (docs/glossary.md):
 * each specimen of `document-specimens.ts`, rendered and read back as a viewer's copy and paste
 * gives it (`pdftotext -layout`) with the Title its window shows (`pdfinfo`), is held to the
 * glossary's rules for its language (the rules the translation files are held to, now on the text
 * joined in code too) and to the document rules below: no ISO date, no placeholder, no missing
 * value or translation key, no date or e-mail address cut by a line break, every name as written.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { Language } from "../../shared/i18n/languages";
import { localeTexts } from "../../shared/i18n/locale-files";
import { faultsIn, readable, TEXT_RULES, type TextRule } from "../../shared/i18n/typography";
import { DOCUMENT_SPECIMENS } from "./document-specimens";
import { pdfDrawnTextOf, pdfTextOf, pdfTitleOf } from "./pdf";

/** What no document may show, in any language. */
const DOCUMENT_RULES: TextRule[] = [
  { says: "dates written for people, never ISO (2027-07-05)", fault: /\b\d{4}-\d{2}-\d{2}\b/ },
  { says: "no placeholder left unfilled", fault: /\{\{|\}\}/ },
  { says: "no missing value", fault: /\bundefined\b|\bnull\b|\bNaN\b/ },
];

const MONTHS = {
  en: "January|February|March|April|May|June|July|August|September|October|November|December",
  fr: "janvier|février|mars|avril|mai|juin|juillet|août|septembre|octobre|novembre|décembre",
};

/**
 * What a line break may not cut, read in the order the text was drawn (`pdfDrawnTextOf`): a date
 * (its day from its month, a Chinese date inside) and an e-mail address (at its hyphen, its dot or
 * its @), which a reader copies as printed.
 */
const UNBROKEN_RULES: Record<Language, TextRule[]> = {
  en: [{ says: "a date on one line", fault: new RegExp(`\\b\\d{1,2}\\n(?:${MONTHS.en})\\b`) }],
  zh: [{ says: "a date on one line", fault: /\d[年月]\n\d/ }],
  fr: [{ says: "a date on one line", fault: new RegExp(`\\b(?:1er|\\d{1,2})\\n(?:${MONTHS.fr})\\b`, "i") }],
};
const UNBROKEN_ADDRESS: TextRule = {
  says: "an e-mail address on one line",
  fault: /[\w.+-]+@[\w.-]*-\n|[\w.+-]+@[\w-]+(?:\.[\w-]+)*\.\n[a-z]|\w\n@[\w-]/,
};

/**
 * The first part of every key of the translation files (`statement`, `emails`, `errors`…): a
 * word of the text that starts with one of them and a dot (`statement.title`) is a key the
 * translator printed for want of its text, whether or not the key exists.
 */
const KEY_ROOTS = new Set(localeTexts("en").map((t) => t.key.split(".")[0]!));

/** Raw translation keys in `text` ("statement.title", "payouts:statement.kinds.refund"). */
function rawKeys(text: string): string[] {
  return (
    [...text.matchAll(/(?<![\w@./:-])(?:\w+:)?([a-z]\w*)(?:\.[A-Za-z]\w*)+(?![\w@/-])/g)]
      // A domain (hague-summer-school.example) is not a key.
      .filter((m) => KEY_ROOTS.has(m[1]!) && !/\.(?:example|com|org|net|edu|nl|cn|fr|eu)$/.test(m[0]))
      .map((m) => `a translation key instead of its text: ${m[0]}`)
  );
}

/**
 * The text as it was printed, for the French rules. A known limit of the reading: pdftotext gives
 * the narrow no-break space (U+202F) the documents print before : ; ! ? » and after « back as a
 * plain space, so one plain space between a word and the mark is taken for the narrow one before
 * the rules apply. The rule still catches a missing space («Date:», «remboursé·e;») and a line
 * that starts with the mark (a plain space let the line break before it).
 */
function asPrinted(text: string, language: Language): string {
  if (language !== "fr") return text;
  return text.replace(/(?<=\S) (?=[:;!?»])/g, "\u202f").replace(/(?<=«) (?=\S)/g, "\u202f");
}

const cases = DOCUMENT_SPECIMENS.flatMap((specimen) =>
  specimen.languages.map((language) => ({ specimen, language, name: `${specimen.name} [${language}]` })),
);

describe("every PDF document in its languages follows the glossary, as a reader reads it", () => {
  it.each(cases)("$name", { timeout: 30_000 }, async ({ specimen, language }) => {
    const pdf = await specimen.render(language);
    const text = asPrinted(pdfTextOf(pdf), language);
    const title = pdfTitleOf(pdf);
    const rules = TEXT_RULES[language].filter((r) => !r.localeFilesOnly);
    // The document rules read the text as printed: `readable` would make "{{x}}" an "X".
    const texts = { text, title: asPrinted(title, language) };
    const faults = Object.entries(texts).flatMap(([part, t]) => [
      ...rules.flatMap((rule) => faultsIn(`${part}: ${rule.says}`, readable(t), rule)),
      ...DOCUMENT_RULES.flatMap((rule) => faultsIn(`${part}: ${rule.says}`, t, rule)),
      ...rawKeys(t).map((fault) => `${part}: ${fault}`),
    ]);
    const drawn = pdfDrawnTextOf(pdf);
    for (const rule of [...UNBROKEN_RULES[language], UNBROKEN_ADDRESS])
      faults.push(...faultsIn(`wrapped text: ${rule.says}`, drawn, rule));
    if (!title) faults.push("title: no Title");
    // Every name prints as written (a letter no font has would print as "?").
    for (const name of specimen.names(language))
      if (!text.includes(name)) faults.push(`text: ${name} is not printed as written`);
    expect(faults).toEqual([]);
  });
});

describe("the specimens cover every PDF document", () => {
  it("renders with every PDF renderer of the server", () => {
    // Each exported `render…` function of a module that draws a PDF (through lib/pdf.ts's
    // renderPdf, the one set-up) is called by a specimen.
    const modules = fileURLToPath(new URL("../modules/", import.meta.url));
    const source = readFileSync(fileURLToPath(new URL("./document-specimens.ts", import.meta.url)), "utf8");
    const drawing = readdirSync(modules, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
      .map((f) => readFileSync(path.join(modules, f), "utf8"))
      .filter((code) => /from "pdfkit"|new PDFDocument\(|renderPdf\(/.test(code));
    const renderers = drawing
      .flatMap((code) => [...code.matchAll(/export (?:async )?function (render\w*)\(/g)])
      .map((m) => m[1]!);
    expect(drawing.length).toBeGreaterThanOrEqual(3);
    expect(renderers).toEqual(expect.arrayContaining(["renderInvoicePdf", "renderStatementPdf"]));
    expect(renderers.filter((name) => !source.includes(`${name}(`))).toEqual([]);
  });
});
