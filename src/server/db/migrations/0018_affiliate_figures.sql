-- Issue 22 items 8 and 10 (decision 036).
-- A click is counted once per code, visitor and day: the key of that visit (a keyed hash that
-- cannot be linked to an address or across days), unique while set; older clicks have none.
ALTER TABLE "code_clicks" ADD COLUMN "visit_key" text;
--> statement-breakpoint
CREATE UNIQUE INDEX "code_clicks_visit_uq" ON "code_clicks" USING btree ("visit_key") WHERE "visit_key" IS NOT NULL;
--> statement-breakpoint
-- Reasons of commission entries stored before the input was normalised: line endings as LF, no
-- other control character, no white space around (as normaliseReason in
-- src/shared/schemas/affiliates-admin.ts). Only the text changes; no entry is deleted or re-dated.
UPDATE "commission_entries"
SET "reason" = btrim(
  regexp_replace(
    regexp_replace("reason", E'\r\n?', E'\n', 'g'),
    E'[\\x01-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F]', '', 'g'
  ),
  E' \t\n'
)
WHERE "reason" ~ E'[\\x01-\\x08\\x0B-\\x1F\\x7F]' OR "reason" ~ E'^[ \t\n]' OR "reason" ~ E'[ \t\n]$';
--> statement-breakpoint
-- A finance admin reverses a duplicate adjustment by a new adjustment of the opposite amount that
-- names the original (never by deleting or changing it); an entry is reversed at most once.
ALTER TABLE "commission_entries" ADD COLUMN "reverses_entry_id" uuid;
--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_reverses_entry_id_commission_entries_id_fk" FOREIGN KEY ("reverses_entry_id") REFERENCES "public"."commission_entries"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "commission_entries_reverses_uq" ON "commission_entries" USING btree ("reverses_entry_id") WHERE "reverses_entry_id" IS NOT NULL;
