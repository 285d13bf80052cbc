CREATE TABLE "erasure_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"student_id" uuid NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"completed_at" timestamp with time zone,
	"completed_by_admin_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "student_id" uuid;--> statement-breakpoint
ALTER TABLE "students" ADD COLUMN "pending_email" text;--> statement-breakpoint
ALTER TABLE "erasure_requests" ADD CONSTRAINT "erasure_requests_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "erasure_requests" ADD CONSTRAINT "erasure_requests_completed_by_admin_id_admins_id_fk" FOREIGN KEY ("completed_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "erasure_requests_open_uq" ON "erasure_requests" USING btree ("student_id") WHERE "erasure_requests"."status" = 'open';--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_student_id_students_id_fk" FOREIGN KEY ("student_id") REFERENCES "public"."students"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applications_student_idx" ON "applications" USING btree ("student_id");--> statement-breakpoint
-- Backfill (decision 021): applications of already verified accounts belong to them.
UPDATE "applications" SET "student_id" = "students"."id"
FROM "applicants", "students"
WHERE "applicants"."id" = "applications"."applicant_id"
  AND lower("applicants"."email") = "students"."email"
  AND "students"."email_verified_at" IS NOT NULL
  AND "applications"."student_id" IS NULL;
