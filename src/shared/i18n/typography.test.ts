/**
 * Register, terms and typography of the Chinese and French texts (docs glossary, issue 13): Chinese
 * says 您, never 你; a discount or referral code is 优惠码 / 推荐码, never a bare 代码 (a country or
 * SWIFT code keeps its technical name); punctuation after Chinese text is full-width. French puts a
 * narrow (U+202F) or plain no-break space (U+00A0) before ; : ! ? % and inside « », writes the
 * curly apostrophe ’ and says « formule », not « forfait ». Interpolation placeholders ({{x}}) and
 * addresses (https://…, mailto:…) are left out of the checks. Failures name the file, the key and the
 * text around the fault.
 */
import { describe, expect, it } from "vitest";
import { localeTexts } from "./locale-files";

/** Every text of every file of `language`, as `language/file.json key` → text. */
const texts = (language: string): Array<[string, string]> =>
  localeTexts(language).map(({ namespace, key, text }) => [`${language}/${namespace}.json ${key}`, text]);

/** The text as a reader sees it around the rules: placeholders as "X", addresses removed. */
const readable = (text: string) =>
  text.replace(/\{\{[^}]*\}\}/g, "X").replace(/(?:https?:\/\/|mailto:)[^\s"'<>)）]*/g, "");

/** `file key: …context…` for each match of `rule` in the readable texts of `language`. */
function faults(language: string, rule: RegExp): string[] {
  const global = new RegExp(rule.source, `${rule.flags.replace("g", "")}g`);
  return texts(language).flatMap(([where, text]) =>
    [...readable(text).matchAll(global)].map((m) => {
      const at = m.index ?? 0;
      return `${where}: …${readable(text).slice(Math.max(0, at - 12), at + m[0].length + 12)}…`;
    }),
  );
}

const CJK = "[\\u3400-\\u9fff]";

describe("Chinese texts (glossary: 您, 优惠码 / 推荐码, full-width punctuation)", () => {
  it("address the reader as 您, never 你", () => {
    expect(faults("zh", /你/)).toEqual([]);
  });

  it("never say a bare 代码 for a discount or referral code (country and SWIFT codes keep their name)", () => {
    expect(faults("zh", /(?<!国家|地区|SWIFT )代码/)).toEqual([]);
    expect(faults("zh", /折扣码/)).toEqual([]);
  });

  it("use full-width punctuation after Chinese text: no ASCII , : ; ! ? or brackets next to it", () => {
    expect(faults("zh", new RegExp(`${CJK} ?[,:;!?]`))).toEqual([]);
    expect(faults("zh", new RegExp(`${CJK} ?\\(|\\) ?${CJK}`))).toEqual([]);
  });
});

describe("French texts (glossary: typography and terms)", () => {
  it("write the curly apostrophe ’, never the straight one", () => {
    expect(faults("fr", /'/)).toEqual([]);
  });

  it("put a no-break space (U+202F or U+00A0) before ; : ! ? and %, not a plain space or none", () => {
    // A time (18:00) is not punctuation, nor a "%" that follows no number ("Acompte (% payé…").
    expect(faults("fr", /(?<![\u202f\u00a0])[;!?]|(?<![\u202f\u00a0\d]):|(?<=\d):(?!\d)/)).toEqual([]);
    expect(faults("fr", /(?<=[\dX]) ?%/)).toEqual([]);
  });

  it("put a no-break space inside « »", () => {
    expect(faults("fr", /«(?![\u202f\u00a0])|(?<![\u202f\u00a0])»/)).toEqual([]);
  });

  it("say « formule » for a package, never « forfait »", () => {
    expect(faults("fr", /forfait/i)).toEqual([]);
  });
});
