CREATE TABLE "visa_letters" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"application_id" uuid NOT NULL,
	"token" text NOT NULL,
	"issued_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	CONSTRAINT "visa_letters_token_unique" UNIQUE("token")
);
--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "summer_schools" ADD COLUMN "visa_letter_requires_acceptance" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "visa_letters" ADD CONSTRAINT "visa_letters_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visa_letters_application_idx" ON "visa_letters" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "visa_letters_live_uq" ON "visa_letters" USING btree ("application_id") WHERE "visa_letters"."revoked_at" is null;