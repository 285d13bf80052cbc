import type { Language } from "./languages";

/**
 * Text that code joins from translated pieces, with each language's own punctuation (glossary,
 * docs/glossary.md "Typography"): a label and its value, a list, a note in brackets, a range.
 * E-mails, documents and pages use these instead of writing ": ", ", " or " (…)" themselves, so a
 * Chinese e-mail reads 「确认我的电子邮箱地址：https://…」 and a French one «Numéro de candidature : …».
 */

/** French puts a narrow no-break space (U+202F) before a colon, and inside « ». */
const NNBSP = "\u202f";

/** "Label: value": 「标签：值」 (full-width colon, no space), «Libellé : valeur» (U+202F before the colon). */
export function labelled(language: Language, label: string, value: string): string {
  return `${labelOf(language, label)}${value}`;
}

/** "Label: " ready for a value: 「标签：」, «Libellé : », "Label: ". */
export function labelOf(language: Language, label: string): string {
  if (language === "zh") return `${label}：`;
  if (language === "fr") return `${label}${NNBSP}: `;
  return `${label}: `;
}

/** A label that ends a line (the value on the next line): 「标签：」, «Libellé :», "Label:". */
export function labelLine(language: Language, label: string): string {
  return labelOf(language, label).trimEnd();
}

/** Items in a row: 「甲、乙、丙」 (the enumeration comma), "a, b, c". */
export function listOf(language: Language, items: readonly string[]): string {
  return items.join(language === "zh" ? "、" : ", ");
}

/** A note after a text, in brackets: 「公共交通卡（已包含）」 (full-width), "Transport card (included)". */
export function withNote(language: Language, text: string, note: string): string {
  return language === "zh" ? `${text}（${note}）` : `${text} (${note})`;
}

/** A quoted title: 「《名称》」 in Chinese, «« nom »» in French, “name” in English. */
export function quoted(language: Language, text: string): string {
  if (language === "zh") return `“${text}”`;
  if (language === "fr") return `«${NNBSP}${text}${NNBSP}»`;
  return `“${text}”`;
}

/** A range of two texts already written for people: 「2027年7月5日至2027年7月18日」, "5 July 2027 – 18 July 2027". */
export function rangeOf(language: Language, from: string, to: string): string {
  return language === "zh" ? `${from}至${to}` : `${from} – ${to}`;
}
