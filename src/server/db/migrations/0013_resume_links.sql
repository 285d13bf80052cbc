CREATE TABLE "resume_links" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"applicant_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "resume_links_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "applicants" ADD COLUMN "remind_me" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "applicants" ADD COLUMN "resume_reminder_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applicants" ADD COLUMN "reminder_opt_out_hash" text;--> statement-breakpoint
ALTER TABLE "resume_links" ADD CONSTRAINT "resume_links_applicant_id_applicants_id_fk" FOREIGN KEY ("applicant_id") REFERENCES "public"."applicants"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "resume_links_applicant_idx" ON "resume_links" USING btree ("applicant_id");--> statement-breakpoint
ALTER TABLE "applicants" ADD CONSTRAINT "applicants_reminder_opt_out_hash_unique" UNIQUE("reminder_opt_out_hash");