/**
 * A rule of the glossary of terms and typography (`docs/glossary.md`): a pattern that must not occur in a text of its language. The same rules
 * check the translation files (`typography.test.ts`), the e-mails and the PDF documents as rendered
 * (`src/server/testing/rendered-emails.test.ts`, `rendered-documents.test.ts`), so a text joined in code is held to the rule its
 * translation is held to.
 */
export interface TextRule {
  /** What the rule asks for, as a reader of the failure needs it ("say 班期 for a cohort"). */
  says: string;
  /** A match is a fault. Matched against the readable text (placeholders as "X", no addresses). */
  fault: RegExp;
  /** Only for the translation files (e.g. a rule about how a placeholder is written). */
  localeFilesOnly?: boolean;
  /**
   * How this rule reads a placeholder of the translation files: a typical value for the
   * placeholder's name (without any ", format" part), for a rule about the characters next to it,
   * e.g. zh "某" for {{name}} (a name in Chinese characters) or "2027年8月17日" for {{date}}.
   * `undefined` for a name: "X", as for every placeholder of a rule without this field.
   */
  placeholder?: (name: string) => string | undefined;
}

/**
 * The text as a reader sees it around the rules: placeholders as "X" (or as `placeholder` reads
 * them, by name), web and mail addresses removed.
 */
export const readable = (text: string, placeholder?: TextRule["placeholder"]) =>
  text
    .replace(/\{\{([^}]*)\}\}/g, (_, inner: string) => placeholder?.(inner.split(",")[0]!.trim()) ?? "X")
    .replace(/(?:https?:\/\/|mailto:)[^\s"'<>)）]*/g, "");

/** `where: …context…` for each fault of `rule` in `text` (already readable). */
export function faultsIn(where: string, text: string, rule: TextRule): string[] {
  const global = new RegExp(rule.fault.source, `${rule.fault.flags.replace("g", "")}g`);
  return [...text.matchAll(global)].map((m) => {
    const at = m.index ?? 0;
    return `${where}: …${text.slice(Math.max(0, at - 12), at + m[0].length + 12)}…`;
  });
}

/** Chinese characters (CJK unified ideographs and extension A). */
export const CJK = "[\\u3400-\\u9fff]";
