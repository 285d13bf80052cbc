CREATE TABLE "commission_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"affiliate_id" uuid NOT NULL,
	"application_id" uuid,
	"payment_id" uuid,
	"refund_id" uuid,
	"kind" text NOT NULL,
	"amount_cents" integer NOT NULL,
	"base_cents" integer DEFAULT 0 NOT NULL,
	"rate" jsonb,
	"available_at" timestamp with time zone NOT NULL,
	"payout_id" uuid,
	"reason" text DEFAULT '' NOT NULL,
	"created_by_admin_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payout_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"idempotency_key" text NOT NULL,
	"created_by_admin_id" uuid,
	"minimum_cents" integer NOT NULL,
	"total_cents" integer DEFAULT 0 NOT NULL,
	"payout_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "payout_runs_idempotency_key_unique" UNIQUE("idempotency_key")
);
--> statement-breakpoint
CREATE TABLE "payouts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"run_id" uuid NOT NULL,
	"affiliate_id" uuid NOT NULL,
	"amount_cents" integer NOT NULL,
	"currency" text DEFAULT 'EUR' NOT NULL,
	"method" text NOT NULL,
	"details_sealed" text NOT NULL,
	"details_masked" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"paid_at" timestamp with time zone,
	"paid_by_admin_id" uuid,
	"statement_sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "rejection_reason" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "commission_type" text DEFAULT 'percentage' NOT NULL;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "commission_fixed_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "payout_method" text;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "payout_details_sealed" text;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "payout_details_masked" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "affiliates" ADD COLUMN "payout_details_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "attribution_code_id" uuid;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "attribution_source" text;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "attributed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "applications" ADD COLUMN "attribution_frozen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "code_clicks" ADD COLUMN "country" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_affiliate_id_affiliates_id_fk" FOREIGN KEY ("affiliate_id") REFERENCES "public"."affiliates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_refund_id_refunds_id_fk" FOREIGN KEY ("refund_id") REFERENCES "public"."refunds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_payout_id_payouts_id_fk" FOREIGN KEY ("payout_id") REFERENCES "public"."payouts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "commission_entries" ADD CONSTRAINT "commission_entries_created_by_admin_id_admins_id_fk" FOREIGN KEY ("created_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payout_runs" ADD CONSTRAINT "payout_runs_created_by_admin_id_admins_id_fk" FOREIGN KEY ("created_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_run_id_payout_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."payout_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_affiliate_id_affiliates_id_fk" FOREIGN KEY ("affiliate_id") REFERENCES "public"."affiliates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payouts" ADD CONSTRAINT "payouts_paid_by_admin_id_admins_id_fk" FOREIGN KEY ("paid_by_admin_id") REFERENCES "public"."admins"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "commission_entries_affiliate_idx" ON "commission_entries" USING btree ("affiliate_id");--> statement-breakpoint
CREATE INDEX "commission_entries_application_idx" ON "commission_entries" USING btree ("application_id");--> statement-breakpoint
CREATE UNIQUE INDEX "commission_entries_payment_uq" ON "commission_entries" USING btree ("payment_id") WHERE "commission_entries"."kind" = 'payment';--> statement-breakpoint
CREATE UNIQUE INDEX "commission_entries_refund_uq" ON "commission_entries" USING btree ("refund_id") WHERE "commission_entries"."kind" = 'refund';--> statement-breakpoint
CREATE UNIQUE INDEX "payouts_run_affiliate_uq" ON "payouts" USING btree ("run_id","affiliate_id");--> statement-breakpoint
CREATE INDEX "payouts_affiliate_idx" ON "payouts" USING btree ("affiliate_id");--> statement-breakpoint
ALTER TABLE "applications" ADD CONSTRAINT "applications_attribution_code_id_codes_id_fk" FOREIGN KEY ("attribution_code_id") REFERENCES "public"."codes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
UPDATE "applications" SET "attribution_code_id" = "applied_code_id", "attribution_source" = 'code', "attributed_at" = "created_at", "attribution_frozen_at" = "paid_at" WHERE "affiliate_id" IS NOT NULL AND "applied_code_id" IS NOT NULL;
