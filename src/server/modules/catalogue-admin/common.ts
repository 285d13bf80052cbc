import { eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import {
  type addOnOptions,
  type housingOptions,
  type LocalizedText,
  type packages,
  summerSchools,
} from "../../db/schema";
import { adminNotFound, HttpError } from "../../lib/errors";
import { likePattern } from "../../lib/lists";

/*
 * What every part of the catalogue editor uses: the row types, cleaned texts, the name search, the
 * errors, and reading a school (an item's create checks its school too).
 */

/** Rows of the catalogue tables: a summer school, a package, a housing option, an add-on. */
export type SchoolRow = typeof summerSchools.$inferSelect;
export type PackageRow = typeof packages.$inferSelect;
export type HousingRow = typeof housingOptions.$inferSelect;
export type AddOnRow = typeof addOnOptions.$inferSelect;

/** A LocalizedText without its empty optional languages (they fall back to English). */
export function cleanText(text: { en?: string; zh?: string; fr?: string }): LocalizedText {
  const out: LocalizedText = { en: text.en?.trim() ?? "" };
  if (text.zh?.trim()) out.zh = text.zh.trim();
  if (text.fr?.trim()) out.fr = text.fr.trim();
  return out;
}

/** Name search in every language (`%`/`_` escaped). */
export const nameMatches = (column: SQL | typeof summerSchools.name, q: string) => {
  const pattern = likePattern(q);
  return or(
    ilike(sql`${column}->>'en'`, pattern),
    ilike(sql`coalesce(${column}->>'zh', '')`, pattern),
    ilike(sql`coalesce(${column}->>'fr', '')`, pattern),
  )!;
};

/** An ISO timestamp, or null. */
export const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The 409 message when the version the admin saw is not the row's (every catalogue record). */
export const STALE = "errors.catalogue.staleVersion";

/** 400 with one field's message (a rule that needs the database, e.g. capacity below paid places). */
export const fieldError = (
  status: number,
  key: string,
  field: string,
  vars: Record<string, string | number> = {},
) => new HttpError(status, key, { fieldErrors: { [field]: key } }, vars);

/** Reads a school (optionally locked); 404 `{ error, message }` when unknown. */
export async function findSchool(tx: Tx, id: string, lock = false): Promise<SchoolRow> {
  const base = tx.select().from(summerSchools).where(eq(summerSchools.id, id));
  const [row] = lock ? await base.for("update") : await base;
  if (!row) throw adminNotFound();
  return row;
}
