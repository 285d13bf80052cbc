import type { Language } from "./languages";
import { POLICY_TEXT_VARIABLES } from "./policy-variables";

type Tree = Record<string, unknown>;

/** Reads a dotted key (`validation.required`) from a nested object. */
export function lookup(tree: Tree | undefined, key: string): string | undefined {
  let node: unknown = tree;
  for (const part of key.split(".")) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Tree)[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Replaces `{{name}}` placeholders (i18next syntax) with values. */
export function interpolate(template: string, vars: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in vars ? String(vars[name]) : whole,
  );
}

/**
 * Minimal translator over one namespace of every language, for code outside React (server error
 * messages, e-mails): the language's text, else English, else the key itself (docs/product/languages.md#supported-languages). Every text
 * may also use the rules' variables (`POLICY_TEXT_VARIABLES`), as on the pages; `vars` win.
 */
export function makeTranslator(byLanguage: Partial<Record<Language, Tree>>) {
  return (language: Language, key: string, vars?: Record<string, string | number>): string => {
    const text = lookup(byLanguage[language], key) ?? lookup(byLanguage.en, key) ?? key;
    return interpolate(text, { ...POLICY_TEXT_VARIABLES, ...vars });
  };
}
