ALTER TABLE "payments" ADD COLUMN "quote" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "paid_before_cents" integer;--> statement-breakpoint
CREATE TABLE "fulfilment_steps" (
	"payment_id" uuid NOT NULL,
	"step" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error_code" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fulfilment_steps_payment_id_step_pk" PRIMARY KEY("payment_id","step")
);
--> statement-breakpoint
ALTER TABLE "fulfilment_steps" ADD CONSTRAINT "fulfilment_steps_payment_id_payments_id_fk" FOREIGN KEY ("payment_id") REFERENCES "public"."payments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Payments accepted before this migration were fulfilled in one transaction: they have no step to retry.
CREATE INDEX "fulfilment_steps_open_idx" ON "fulfilment_steps" USING btree ("status") WHERE "fulfilment_steps"."status" <> 'done';
