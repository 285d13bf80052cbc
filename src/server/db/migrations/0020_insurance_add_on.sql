ALTER TABLE "cohort_guides" ADD COLUMN "insurance_add_on_id" uuid;--> statement-breakpoint
ALTER TABLE "cohort_guides" ADD CONSTRAINT "cohort_guides_insurance_add_on_id_add_on_options_id_fk" FOREIGN KEY ("insurance_add_on_id") REFERENCES "public"."add_on_options"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Cohorts whose guide requires proof and that sell an add-on named as the travel and health
-- insurance get that add-on as the school's insurance (the demo data names it so); owners can
-- change or clear it on /admin/summer-schools/{id}.
UPDATE "cohort_guides" g SET "insurance_add_on_id" = (
	SELECT a."id" FROM "add_on_options" a
	WHERE a."summer_school_id" = g."summer_school_id" AND a."name"->>'en' ILIKE '%insurance%'
	ORDER BY a."sort_order", a."id" LIMIT 1
);
