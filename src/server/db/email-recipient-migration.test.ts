/**
 * Migration 0019 (docs/product/privacy.md#data-export; decision 037) gives the outbox the account and application
 * each e-mail was written for, and attributes the e-mails queued before it from their dedupe keys:
 * the e-mails about an application (to that application and its account), the student account's
 * own e-mails (to the account), and nothing else. Runs the migrations before it on an empty
 * embedded database, fills in rows, then runs the rest.
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, expect, it } from "vitest";
import { migrationsBefore } from "../testing/migrations";
import { MIGRATIONS_FOLDER } from "./client";

const { folder: earlier, index: recipientIndex, remove } = migrationsBefore("_email_recipient_ids");
afterAll(remove);

it("attributes the e-mails queued before it to their application and student account, and nothing else", async () => {
  expect(recipientIndex).toBeGreaterThan(0);
  const client = new PGlite();
  const db = drizzle(client);
  await migrate(db, { migrationsFolder: earlier });
  const one = async (sql: string, params: unknown[] = []) =>
    (await client.query<{ id: string }>(sql, params)).rows[0]!.id;
  const school = await one(
    `insert into summer_schools (slug, name, description, location, start_date, end_date)
     values ('s', '{"en":"S"}', '{"en":"S"}', 'The Hague', '2027-07-01', '2027-07-14') returning id`,
  );
  const pkg = await one(
    `insert into packages (summer_school_id, name, description, price_cents) values ($1, '{"en":"P"}', '{"en":"P"}', 295000) returning id`,
    [school],
  );
  const housing = await one(
    `insert into housing_options (summer_school_id, name, description) values ($1, '{"en":"H"}', '{"en":"H"}') returning id`,
    [school],
  );
  const student = await one(
    `insert into students (email, first_name, last_name, email_verified_at) values ('moved@example.com', 'A', 'B', now()) returning id`,
  );
  const application = async (email: string, studentId: string | null) => {
    const applicant = await one(
      `insert into applicants (first_name, last_name, email, phone, address, city, postal_code, country_of_residence,
         nationality, date_of_birth, passport_number, university, field_of_study, student_status, access_token_hash)
       values ('A', 'B', $1, '1', 'a', 'c', 'p', 'NG', 'NG', '2000-01-01', 'X', 'U', 'f', 's', 'h') returning id`,
      [email],
    );
    return one(
      `insert into applications (applicant_id, summer_school_id, package_id, housing_option_id, student_id)
       values ($1, $2, $3, $4, $5) returning id`,
      [applicant, school, pkg, housing, studentId],
    );
  };
  const linked = await application("old@example.com", student);
  const unlinked = await application("someone@example.com", null);
  const token = await one(
    `insert into account_tokens (token_hash, purpose, role, account_id, expires_at)
     values ('h', 'email_verification', 'student', $1, now()) returning id`,
    [student],
  );
  const mail = (key: string, to = "old@example.com") =>
    client.query(
      `insert into email_outbox (dedupe_key, to_address, subject, text_body, html_body) values ($1, $2, 's', 't', 'h')`,
      [key, to],
    );
  const keys = {
    confirmation: `confirmation:${linked}`,
    status: `status:${linked}:2`,
    reminder: `balance:${linked}:overdue`,
    letter: `visa-letter-ready:${linked}`,
    other: `confirmation:${unlinked}`,
    verify: `verify-email:${token}`,
    changed: `password-changed:${student}:1795868170405`,
    attempt: `register-attempt:student:${student}:2026-11-28T10`,
    inquiry: `inquiry-receipt:${student}`,
    invite: "student-invite:old@example.com",
  };
  for (const key of Object.values(keys)) await mail(key);

  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  const rows = await client.query<{
    dedupe_key: string;
    student_id: string | null;
    application_id: string | null;
  }>("select dedupe_key, student_id, application_id from email_outbox");
  const byKey = Object.fromEntries(
    rows.rows.map((r) => [r.dedupe_key, { studentId: r.student_id, applicationId: r.application_id }]),
  );
  const about = { studentId: student, applicationId: linked };
  const account = { studentId: student, applicationId: null };
  const none = { studentId: null, applicationId: null };
  expect(byKey).toEqual({
    [keys.confirmation]: about,
    [keys.status]: about,
    [keys.reminder]: about,
    [keys.letter]: about,
    [keys.other]: { studentId: null, applicationId: unlinked },
    [keys.verify]: account,
    [keys.changed]: account,
    [keys.attempt]: account,
    [keys.inquiry]: none,
    [keys.invite]: none,
  });
  await client.close();
});
