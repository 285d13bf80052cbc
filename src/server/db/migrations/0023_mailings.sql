-- Messages to people from the back office (docs/product/back-office.md#messages) and the outbox's throttle.
CREATE TABLE "mailing_recipients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"mailing_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"email" text NOT NULL,
	"language" text NOT NULL,
	"student_id" uuid,
	"application_id" uuid,
	"unsubscribe_token" text,
	"outbox_id" uuid
);
--> statement-breakpoint
CREATE TABLE "mailings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"audience" jsonb NOT NULL,
	"subject" jsonb NOT NULL,
	"body" jsonb NOT NULL,
	"created_by" uuid NOT NULL,
	"recipient_count" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"queued_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "not_before" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "mailing_recipients" ADD CONSTRAINT "mailing_recipients_mailing_id_mailings_id_fk" FOREIGN KEY ("mailing_id") REFERENCES "public"."mailings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailings" ADD CONSTRAINT "mailings_created_by_admins_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mailing_recipients_address_uq" ON "mailing_recipients" USING btree ("mailing_id","email");--> statement-breakpoint
CREATE INDEX "mailing_recipients_waiting_idx" ON "mailing_recipients" USING btree ("mailing_id","position") WHERE "mailing_recipients"."outbox_id" is null;