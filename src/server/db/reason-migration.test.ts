/**
 * Migration 0018 (docs/product/codes-and-partners.md#manual-adjustments): a commission adjustment whose reason was stored with a
 * carriage return, a control character or white space around (before the input normalised it)
 * made the affiliate's ledger answer 500. The migration brings every stored reason to the form the
 * input now stores (`normaliseReason`), which the ledger's answer accepts; no entry is deleted and
 * amounts and dates stay. Runs the migrations before it on an empty embedded database, stores rows
 * the old way, then runs the rest.
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, expect, it } from "vitest";
import { normaliseReason } from "../../shared/schemas/affiliates-admin";
import { commissionEntrySchema } from "../../shared/schemas/commissions";
import { migrationsBefore } from "../testing/migrations";
import { MIGRATIONS_FOLDER } from "./client";

const { folder: earlier, index, remove } = migrationsBefore("_affiliate_figures");
afterAll(remove);

it("normalises the reasons stored the old way so the ledger can answer again, and keeps every entry", async () => {
  expect(index).toBeGreaterThan(0);
  const client = new PGlite();
  const db = drizzle(client);
  await migrate(db, { migrationsFolder: earlier });
  const affiliate = (
    await client.query<{ id: string }>(
      `insert into affiliates (name, email, password_hash) values ('Ann', 'ann@example.com', 'x') returning id`,
    )
  ).rows[0]!.id;
  const stored = [
    "Double payment of March\r\nreversed by finance",
    "  Bonus for the fair\r\n",
    "Old\rMac line end",
    "Tab\tinside, vertical tab\u000b and bell\u0007 removed\u007f",
    "Already fine\nas it is",
  ];
  for (const [i, reason] of stored.entries()) {
    await client.query(
      `insert into commission_entries (affiliate_id, kind, amount_cents, available_at, reason, created_at)
       values ($1, 'adjustment', $2, now(), $3, now())`,
      [affiliate, 1000 + i, reason],
    );
  }
  // What the ledger's answer sends for a reason: refused (the 500 of docs/product/codes-and-partners.md#manual-adjustments) or changed.
  const answered = (reason: string) => {
    const parsed = commissionEntrySchema.shape.reason.safeParse(reason);
    return parsed.success ? parsed.data : null;
  };
  // As stored, a control character makes the answer fail, and white space around is not what is stored.
  expect(answered(stored[3]!)).toBeNull();
  expect(answered(stored[1]!)).not.toBe(stored[1]);

  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  const rows = (
    await client.query<{ reason: string; amount_cents: number }>(
      "select reason, amount_cents from commission_entries order by amount_cents",
    )
  ).rows;
  expect(rows.map((r) => r.amount_cents)).toEqual([1000, 1001, 1002, 1003, 1004]);
  expect(rows.map((r) => r.reason)).toEqual([
    "Double payment of March\nreversed by finance",
    "Bonus for the fair",
    "Old\nMac line end",
    "Tab\tinside, vertical tab and bell removed",
    "Already fine\nas it is",
  ]);
  // The same form as the input stores now, and what the ledger's answer accepts as it is.
  expect(rows.map((r) => r.reason)).toEqual(stored.map(normaliseReason));
  for (const r of rows) expect(answered(r.reason)).toBe(r.reason);
  await client.close();
});
