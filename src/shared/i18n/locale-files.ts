import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The translation files as tests read them (Node only; never imported by the app, which loads
 * them through the server's `loadResources`): `locales/<language>/<namespace>.json`.
 */
const LOCALES = fileURLToPath(new URL("./locales/", import.meta.url));

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/** Every namespace file of `language`, parsed, by namespace (sorted by file name). */
export function localeFiles(language: string): Record<string, Json> {
  return Object.fromEntries(
    readdirSync(`${LOCALES}${language}`)
      .filter((name) => name.endsWith(".json"))
      .sort()
      .map((name) => [
        name.slice(0, -5),
        JSON.parse(readFileSync(`${LOCALES}${language}/${name}`, "utf8")) as Json,
      ]),
  );
}

/** Every text of `language`: its namespace, its dotted key (array items by index) and the text. */
export function localeTexts(language: string): Array<{ namespace: string; key: string; text: string }> {
  const out: Array<{ namespace: string; key: string; text: string }> = [];
  for (const [namespace, tree] of Object.entries(localeFiles(language))) {
    const walk = (node: Json, key: string) => {
      if (typeof node === "string") out.push({ namespace, key, text: node });
      else if (node !== null && typeof node === "object")
        for (const [k, value] of Object.entries(node)) walk(value, key ? `${key}.${k}` : k);
    };
    walk(tree, "");
  }
  return out;
}
