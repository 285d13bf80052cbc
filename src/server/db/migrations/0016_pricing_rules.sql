CREATE TABLE "pricing_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"summer_school_id" uuid NOT NULL,
	"kind" text DEFAULT 'early_application' NOT NULL,
	"percent" integer NOT NULL,
	"ends_on" date NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "pricing_rules" ADD CONSTRAINT "pricing_rules_summer_school_id_summer_schools_id_fk" FOREIGN KEY ("summer_school_id") REFERENCES "public"."summer_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pricing_rules_school_kind" ON "pricing_rules" USING btree ("summer_school_id","kind");