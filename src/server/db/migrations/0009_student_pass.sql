CREATE TABLE "student_passes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"token" text NOT NULL,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "student_passes" ADD CONSTRAINT "student_passes_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "student_passes_token_idx" ON "student_passes" USING btree ("token");--> statement-breakpoint
CREATE UNIQUE INDEX "student_passes_active_idx" ON "student_passes" USING btree ("application_id") WHERE "student_passes"."revoked_at" is null;