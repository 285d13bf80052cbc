CREATE TABLE "application_trips" (
	"application_id" uuid PRIMARY KEY NOT NULL,
	"emergency_name" text DEFAULT '' NOT NULL,
	"emergency_relationship" text DEFAULT '' NOT NULL,
	"emergency_phone" text DEFAULT '' NOT NULL,
	"insurance_file_id" uuid,
	"insurance_type" text,
	"insurance_uploaded_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cohort_guides" (
	"summer_school_id" uuid PRIMARY KEY NOT NULL,
	"days" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"what_to_bring" jsonb DEFAULT '{"en":""}'::jsonb NOT NULL,
	"arrival_date" date,
	"arrival_info" jsonb DEFAULT '{"en":""}'::jsonb NOT NULL,
	"arrival_address" text DEFAULT '' NOT NULL,
	"housing_address" text DEFAULT '' NOT NULL,
	"airport_pickup_add_on_id" uuid,
	"insurance_proof_required" boolean DEFAULT false NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "application_trips" ADD CONSTRAINT "application_trips_application_id_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohort_guides" ADD CONSTRAINT "cohort_guides_summer_school_id_summer_schools_id_fk" FOREIGN KEY ("summer_school_id") REFERENCES "public"."summer_schools"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cohort_guides" ADD CONSTRAINT "cohort_guides_airport_pickup_add_on_id_add_on_options_id_fk" FOREIGN KEY ("airport_pickup_add_on_id") REFERENCES "public"."add_on_options"("id") ON DELETE no action ON UPDATE no action;