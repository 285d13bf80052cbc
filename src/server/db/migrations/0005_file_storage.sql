CREATE TABLE "file_chunks" (
	"file_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "file_chunks_file_id_idx_pk" PRIMARY KEY("file_id","idx")
);
--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "storage" text DEFAULT 'disk' NOT NULL;--> statement-breakpoint
ALTER TABLE "stored_files" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "file_chunks" ADD CONSTRAINT "file_chunks_file_id_stored_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."stored_files"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "applicants_access_token_hash_idx" ON "applicants" USING btree ("access_token_hash");