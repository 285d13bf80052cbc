ALTER TABLE "email_outbox" ADD COLUMN "student_id" uuid;--> statement-breakpoint
ALTER TABLE "email_outbox" ADD COLUMN "application_id" uuid;--> statement-breakpoint
-- E-mails queued before this migration: their application, read from the dedupe key (decision 037).
UPDATE "email_outbox" e SET "application_id" = a."id" FROM "applications" a
WHERE split_part(e."dedupe_key", ':', 1) IN ('confirmation', 'status', 'balance', 'visa-letter-ready')
  AND a."id"::text = split_part(e."dedupe_key", ':', 2);--> statement-breakpoint
UPDATE "email_outbox" e SET "application_id" = r."application_id" FROM "refunds" r
WHERE e."dedupe_key" = 'refund:' || r."id"::text;--> statement-breakpoint
UPDATE "email_outbox" e SET "application_id" = p."application_id" FROM "payments" p
WHERE e."dedupe_key" = 'balance-paid:' || p."provider_session_id";--> statement-breakpoint
UPDATE "email_outbox" e SET "student_id" = a."student_id" FROM "applications" a
WHERE e."application_id" = a."id";--> statement-breakpoint
-- The student account's own e-mails: by its one-time link, or by the account id in the key.
UPDATE "email_outbox" e SET "student_id" = t."account_id" FROM "account_tokens" t
WHERE t."role" = 'student'
  AND split_part(e."dedupe_key", ':', 1) IN ('verify-email', 'password-reset', 'student-set-password', 'email-change')
  AND t."id"::text = split_part(e."dedupe_key", ':', 2);--> statement-breakpoint
UPDATE "email_outbox" e SET "student_id" = s."id" FROM "students" s
WHERE (split_part(e."dedupe_key", ':', 1) IN ('password-changed', 'email-changed') AND s."id"::text = split_part(e."dedupe_key", ':', 2))
   OR (e."dedupe_key" LIKE 'register-attempt:student:%' AND s."id"::text = split_part(e."dedupe_key", ':', 3));
