/**
 * The demo catalogue's Chinese (the `zh` of every `L(en, zh, fr)` in seed.ts and seed-programme.ts:
 * cohort names, packages, housing, add-ons, the day-by-day programme, what to bring, arrival) is
 * held to the glossary's rules for Chinese, as the translation files are (typography.test.ts):
 * it is what a fresh install shows on the site, in the wizard, in e-mails and in the portal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { faultsIn, readable, TEXT_RULES } from "../../shared/i18n/typography";
import { type DbHandle, openDatabase } from "./client";
import { addOnOptions, cohortGuides, housingOptions, packages, summerSchools } from "./schema";
import { seedDemoCatalogue } from "./seed";

/** `[where, zh text]` for every object with a `zh` string inside `value` (rows, arrays, JSON). */
function chineseTexts(where: string, value: unknown): Array<[string, string]> {
  if (value === null || typeof value !== "object" || value instanceof Date) return [];
  const own: Array<[string, string]> =
    "zh" in value && typeof value.zh === "string" ? [[where, value.zh]] : [];
  return [...own, ...Object.entries(value).flatMap(([key, inner]) => chineseTexts(`${where}.${key}`, inner))];
}

describe("the demo catalogue's Chinese follows the glossary", () => {
  let database: DbHandle;
  let texts: Array<[string, string]>;

  beforeAll(async () => {
    database = await openDatabase({ dataDir: null });
    await seedDemoCatalogue(database.db, "2027-01-10");
    const tables = { summerSchools, addOnOptions, packages, housingOptions, cohortGuides };
    texts = [];
    for (const [name, table] of Object.entries(tables))
      for (const [i, row] of (await database.db.select().from(table)).entries())
        texts.push(...chineseTexts(`${name}[${i}]`, row));
  });
  afterAll(() => database?.close());

  it("has Chinese texts to check", () => {
    // Names and descriptions of five cohorts, their add-ons, packages and housing, and the guide.
    expect(texts.length).toBeGreaterThan(100);
  });

  it.each(TEXT_RULES.zh.filter((rule) => !rule.localeFilesOnly).map((rule) => [rule.says, rule] as const))(
    "%s",
    (_says, rule) => {
      expect(texts.flatMap(([where, text]) => faultsIn(where, readable(text), rule))).toEqual([]);
    },
  );
});
