-- When an admin marked an inquiry answered: its retention period counts from there
-- (docs/product/privacy.md#retention-periods). Answered or archived ones take their last change.
ALTER TABLE "inquiries" ADD COLUMN "answered_at" timestamp with time zone;--> statement-breakpoint
UPDATE "inquiries" SET "answered_at" = "updated_at" WHERE "status" IN ('answered', 'archived');
