/**
 * Completeness of the translations (docs/product/languages.md#supported-languages: en, zh, fr). English is the reference: for every
 * `locales/en/<namespace>.json`, the zh and fr files exist and have exactly the same keys (plural
 * forms included), no empty text, and the same `{{placeholders}}` per key. Every namespace a route
 * uses has a file in every language, and every page namespace has `meta.title` and `meta.description`.
 * Failures name the file and the keys, e.g. `zh/home.json: missing keys ["hero.title"]`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { metaKeys, ROUTES } from "../../client/app/routes";
import { DEFAULT_LANGUAGE, LANGUAGES } from "./languages";
import { NAMESPACES } from "./namespaces";
import { lookup } from "./translate";

const LOCALES = fileURLToPath(new URL("./locales/", import.meta.url));
const OTHER_LANGUAGES = LANGUAGES.filter((language) => language !== DEFAULT_LANGUAGE);
/** Namespaces that are not one page: no `meta` of their own (legal has one per page). */
const WITHOUT_META = new Set(["common", "legal"]);

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const fileOf = (language: string, namespace: string) => `${LOCALES}${language}/${namespace}.json`;
const label = (language: string, namespace: string) => `${language}/${namespace}.json`;

function read(language: string, namespace: string): Record<string, Json> | undefined {
  const file = fileOf(language, namespace);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, "utf8")) as Record<string, Json>;
}

/** Leaves of a JSON tree as dotted key → value (array items by index). */
function flatten(node: Json, prefix = "", out = new Map<string, Json>()): Map<string, Json> {
  if (node !== null && typeof node === "object") {
    const entries = Array.isArray(node) ? node.map((v, i) => [String(i), v] as const) : Object.entries(node);
    if (entries.length === 0) out.set(prefix, node);
    for (const [key, value] of entries) flatten(value, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, node);
  }
  return out;
}

const placeholders = (text: Json) =>
  typeof text === "string"
    ? [...new Set([...text.matchAll(/\{\{\s*([\w.-]+)[^}]*\}\}/g)].map((m) => m[1]))].sort()
    : [];

/** Problems of one leaf: not a string, or empty. */
const emptyOrNotText = (leaves: Map<string, Json>) =>
  [...leaves].filter(([, value]) => typeof value !== "string" || value.trim() === "").map(([key]) => key);

const namespacesIn = (language: string) =>
  existsSync(`${LOCALES}${language}`)
    ? readdirSync(`${LOCALES}${language}`)
        .filter((name) => name.endsWith(".json"))
        .map((name) => name.slice(0, -".json".length))
        .sort()
    : [];

const englishNamespaces = namespacesIn(DEFAULT_LANGUAGE);
const routeNamespaces: string[] = [...new Set(ROUTES.flatMap((route) => route.namespaces))].sort();
/** Namespaces every language must have: those of a route, and those English has. */
const requiredNamespaces = [...new Set([...routeNamespaces, ...englishNamespaces])].sort();

describe("translation files", () => {
  it("the English folder has namespace files", () => {
    expect(englishNamespaces).toContain("common");
  });

  it.each(LANGUAGES)("%s: every file is a namespace of namespaces.ts", (language) => {
    const unknown = namespacesIn(language).filter((ns) => !(NAMESPACES as readonly string[]).includes(ns));
    expect(unknown, `${language}/: files not listed in NAMESPACES`).toEqual([]);
  });

  it.each(
    LANGUAGES.flatMap((language) =>
      requiredNamespaces.map((ns) => [label(language, ns), language, ns] as const),
    ),
  )("%s exists", (_label, language, namespace) => {
    const why = routeNamespaces.includes(namespace) ? "a route uses it" : "en has it";
    expect(existsSync(fileOf(language, namespace)), `${label(language, namespace)} is missing (${why})`).toBe(
      true,
    );
  });
});

describe.each(englishNamespaces)("namespace %s", (namespace) => {
  const english = flatten(read(DEFAULT_LANGUAGE, namespace) ?? {});

  it(`${label(DEFAULT_LANGUAGE, namespace)} has no empty text`, () => {
    expect(
      emptyOrNotText(english),
      `${label(DEFAULT_LANGUAGE, namespace)}: empty or non-text values`,
    ).toEqual([]);
  });

  if (!WITHOUT_META.has(namespace)) {
    it.each(LANGUAGES)(`%s/${namespace}.json has meta.title and meta.description`, (language) => {
      const tree = read(language, namespace);
      if (!tree) return; // reported by "exists"
      const missing = ["meta.title", "meta.description"].filter((key) => !lookup(tree, key)?.trim());
      expect(missing, `${label(language, namespace)}: missing`).toEqual([]);
    });
  }

  describe.each(OTHER_LANGUAGES)("%s", (language) => {
    const file = label(language, namespace);
    const tree = read(language, namespace);
    const leaves = flatten(tree ?? {});

    // A missing file is reported once, by "exists" above.
    it.skipIf(!tree)(`${file} has the same keys as English`, () => {
      const missing = [...english.keys()].filter((key) => !leaves.has(key));
      const extra = [...leaves.keys()].filter((key) => !english.has(key));
      expect({ file, missing, extra }).toEqual({ file, missing: [], extra: [] });
    });

    it.skipIf(!tree)(`${file} has no empty text`, () => {
      expect(emptyOrNotText(leaves), `${file}: empty or non-text values`).toEqual([]);
    });

    it.skipIf(!tree)(`${file} keeps the {{placeholders}} of each key`, () => {
      const wrong = [...english]
        .filter(([key]) => leaves.has(key))
        .map(([key, text]) => ({
          key,
          en: placeholders(text),
          [language]: placeholders(leaves.get(key) ?? ""),
        }))
        .filter((entry) => entry.en.join() !== (entry[language] as string[]).join());
      expect(wrong, `${file}: placeholders differ from English`).toEqual([]);
    });
  });
});

describe("route titles and descriptions", () => {
  const keys = [...new Set(ROUTES.flatMap((route) => Object.values(metaKeys(route))))].sort();

  it.each(LANGUAGES.flatMap((language) => keys.map((key) => [language, key] as const)))(
    "%s has %s",
    (language, key) => {
      const [namespace = "", path = ""] = key.split(":");
      const tree = read(language, namespace);
      if (!tree) return; // reported by "exists"
      expect(lookup(tree, path)?.trim(), `${label(language, namespace)}: missing ${path}`).toBeTruthy();
    },
  );
});
