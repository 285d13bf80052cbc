import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { MIGRATIONS_FOLDER } from "../db/client";

/**
 * For the test of one data migration: a migrations folder holding the real migrations before the
 * one whose tag ends with `tagSuffix` (e.g. `_affiliate_figures`), so a test can migrate an empty
 * database up to it, store rows the old way, then run the real folder. `index` is that migration's
 * place in the journal (the test asserts it was found); `remove` deletes the folder.
 */
export function migrationsBefore(tagSuffix: string): { folder: string; index: number; remove: () => void } {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8")) as {
    entries: Array<{ tag: string }>;
  };
  const index = journal.entries.findIndex((e) => e.tag.endsWith(tagSuffix));
  const folder = mkdtempSync(path.join(tmpdir(), "hss-migrations-"));
  mkdirSync(path.join(folder, "meta"));
  const entries = journal.entries.slice(0, Math.max(0, index));
  writeFileSync(path.join(folder, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const name of readdirSync(MIGRATIONS_FOLDER))
    if (entries.some((e) => name === `${e.tag}.sql`))
      copyFileSync(path.join(MIGRATIONS_FOLDER, name), path.join(folder, name));
  return { folder, index, remove: () => rmSync(folder, { recursive: true, force: true }) };
}
