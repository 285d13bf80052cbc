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
