ALTER TABLE "applications" ADD COLUMN "quote_key" text;--> statement-breakpoint
ALTER TABLE "checkout_sessions" ADD COLUMN "quote" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "flag" text;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
UPDATE "applications" AS a SET "quote_key" = (SELECT c."quote_key" FROM "checkout_sessions" AS c WHERE c."application_id" = a."id" ORDER BY c."created_at" DESC LIMIT 1) WHERE a."quote_key" IS NULL;
