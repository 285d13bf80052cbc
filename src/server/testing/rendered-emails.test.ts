/**
 * Every e-mail as its reader gets it, in English, Chinese and French (docs/glossary.md): each
 * template of `email-specimens.ts`, rendered and queued (head and school footer), is held to the
 * glossary's rules for its language (the rules the translation files are held to, now on the text
 * joined in code too), to the e-mail rules below, and to an HTML validator.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FileSystemConfigLoader, HtmlValidate } from "html-validate";
import { describe, expect, it } from "vitest";
import { LANGUAGES, type Language } from "../../shared/i18n/languages";
import { faultsIn, readable, TEXT_RULES, type TextRule } from "../../shared/i18n/typography";
import { EMAIL_SPECIMENS, queuedSpecimen } from "./email-specimens";

/** What no e-mail may show, in any language. */
const EMAIL_RULES: Record<Language | "all", TextRule[]> = {
  all: [
    { says: "dates written for people, never ISO (2027-07-05)", fault: /\b\d{4}-\d{2}-\d{2}\b/ },
    { says: "no missing value or translation key", fault: /\bundefined\b|\bnull\b|\bNaN\b|\bemails\.\w/ },
  ],
  en: [],
  zh: [
    { says: "「您好：」 without a first name, never 「申请人同学」", fault: /申请人同学/ },
    { says: "a range of dates joined with 至", fault: /日 ?[–—-] ?\d/ },
  ],
  fr: [
    {
      says: "«\u00a0Bonjour,\u00a0» without a first name, never «\u00a0Bonjour candidat\u00a0»",
      fault: /Bonjour candidat/,
    },
    {
      says: "the school's French name, not the English brand",
      fault: /The Hague Summer School(?! Foundation)/,
    },
    {
      says: "an article before the school's name after a preposition (« à l’Université d’été »)",
      fault: /\b(?:à|de|pour|par) Université d’été/,
    },
  ],
};

/** No e-mail shows a placeholder: read on the text as sent. */
const UNFILLED: TextRule = { says: "no placeholder left unfilled", fault: /\{\{|\}\}/ };

/** The words a reader sees in an HTML body: no head, no tags, entities decoded. */
function visibleText(html: string): string {
  return html
    .replace(/<head>[\s\S]*?<\/head>/, "")
    .replace(/<br>/g, "\n")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#(\d+);/g, (_, code) => String.fromCharCode(Number(code)))
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"');
}

const cases = EMAIL_SPECIMENS.flatMap((specimen) =>
  LANGUAGES.map((language) => ({ specimen, language, name: `${specimen.name} [${language}]` })),
);

describe("every e-mail in every language follows the glossary", () => {
  it.each(cases)("$name", ({ specimen, language }) => {
    const email = specimen.render(language);
    // The notification to the school is in English whatever the sender's language.
    const lang = /<html[^>]*\blang="([^"]+)"/.exec(email.html)?.[1] as Language;
    const rules = [
      ...TEXT_RULES[lang].filter((r) => !r.localeFilesOnly),
      ...EMAIL_RULES.all,
      ...EMAIL_RULES[lang],
    ];
    const texts = { subject: email.subject, text: email.text, html: visibleText(email.html) };
    const faults = Object.entries(texts).flatMap(([part, text]) => [
      ...rules.flatMap((rule) => faultsIn(`${part}: ${rule.says}`, readable(text), rule)),
      // As sent: `readable` would make a placeholder left unfilled ("{{name}}") an "X".
      ...faultsIn(`${part}: ${UNFILLED.says}`, text, UNFILLED),
    ]);
    expect(faults).toEqual([]);
  });
});

describe("every e-mail in every language, as a mail program and an HTML validator read it", () => {
  const validator = new HtmlValidate(new FileSystemConfigLoader());

  it.each(cases)("$name", async ({ specimen, language }) => {
    const email = queuedSpecimen(specimen, language);
    const problems: string[] = [];
    const report = await validator.validateString(email.html, "email.html");
    for (const result of report.results)
      for (const m of result.messages) problems.push(`${m.ruleId}: ${m.message}`);
    if (!/<title>[^<]+<\/title>/.test(email.html)) problems.push("no <title>");
    // Links to the site's pages go to the page in the e-mail's language.
    const lang = /<html[^>]*\blang="([^"]+)"/.exec(email.html)?.[1];
    for (const [, href] of email.html.matchAll(/href="https:\/\/summerschool\.example([^"]*)"/g))
      if (
        !/^\/(en|zh|fr)\/|^\/(partner|admin|api)\//.test(href!) ||
        (!href!.startsWith(`/${lang}/`) && !/^\/(partner|admin|api)\//.test(href!))
      )
        problems.push(`${href} is not a page in ${lang}`);
    // Every address in the text is a link in the HTML.
    const outsideLinks = email.html
      .replace(/<head>[\s\S]*?<\/head>/, "")
      .replace(/<a\b[\s\S]*?<\/a>/g, "")
      .replace(/<[^>]+>/g, " ");
    for (const address of outsideLinks.match(/https?:\/\/\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [])
      problems.push(`${address} is not a link`);
    // The text part carries the same links as the HTML.
    for (const [, href] of email.html.matchAll(/href="(https?:[^"]+)"/g))
      if (!email.text.includes(href!.replace(/&amp;/g, "&")))
        problems.push(`${href} is missing from the text part`);
    expect(problems).toEqual([]);
  });
});

describe("the specimens cover every e-mail template", () => {
  it("builds every template the server queues", () => {
    // Each exported `…Email(` builder of the modules is called by a specimen.
    const modules = fileURLToPath(new URL("../modules/", import.meta.url));
    const source = readFileSync(fileURLToPath(new URL("./email-specimens.ts", import.meta.url)), "utf8");
    const builders = readdirSync(modules, { recursive: true, encoding: "utf8" })
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.endsWith("layout.ts"))
      .flatMap((f) => [
        ...readFileSync(path.join(modules, f), "utf8").matchAll(/export function (\w+Email)\(/g),
      ])
      .map((m) => m[1]!);
    expect(builders.length).toBeGreaterThan(15);
    expect(builders.filter((name) => !source.includes(`${name}(`))).toEqual([]);
  });
});
