/**
 * The migration that gives applications to student accounts (decision 021) links, on a database
 * that already has data, the applications of verified accounts, and only those: an unverified
 * account's address and an address without an account stay unlinked. Runs the migrations before
 * it on an empty embedded database, fills in rows, then runs the rest.
 */
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, expect, it } from "vitest";
import { migrationsBefore } from "../testing/migrations";
import { MIGRATIONS_FOLDER } from "./client";

const { folder: earlier, index: linkIndex, remove } = migrationsBefore("_student_profile");
afterAll(remove);

it("links the applications of verified accounts to them, case-insensitively, and nothing else", async () => {
  expect(linkIndex).toBeGreaterThan(0);
  const client = new PGlite();
  const db = drizzle(client);
  await migrate(db, { migrationsFolder: earlier });
  const school = (
    await client.query<{ id: string }>(
      `insert into summer_schools (slug, name, description, location, start_date, end_date)
       values ('s', '{"en":"S"}', '{"en":"S"}', 'The Hague', '2027-07-01', '2027-07-14') returning id`,
    )
  ).rows[0]!.id;
  const pkg = (
    await client.query<{ id: string }>(
      `insert into packages (summer_school_id, name, description, price_cents) values ($1, '{"en":"P"}', '{"en":"P"}', 295000) returning id`,
      [school],
    )
  ).rows[0]!.id;
  const housing = (
    await client.query<{ id: string }>(
      `insert into housing_options (summer_school_id, name, description) values ($1, '{"en":"H"}', '{"en":"H"}') returning id`,
      [school],
    )
  ).rows[0]!.id;
  const student = async (email: string, verified: boolean) =>
    (
      await client.query<{ id: string }>(
        `insert into students (email, first_name, last_name, email_verified_at) values ($1, 'A', 'B', $2) returning id`,
        [email, verified ? new Date() : null],
      )
    ).rows[0]!.id;
  const application = async (email: string) => {
    const applicant = (
      await client.query<{ id: string }>(
        `insert into applicants (first_name, last_name, email, phone, address, city, postal_code, country_of_residence,
           nationality, date_of_birth, passport_number, university, field_of_study, student_status, access_token_hash)
         values ('A', 'B', $1, '1', 'a', 'c', 'p', 'NG', 'NG', '2000-01-01', 'X', 'U', 'f', 's', 'h') returning id`,
        [email],
      )
    ).rows[0]!.id;
    return (
      await client.query<{ id: string }>(
        `insert into applications (applicant_id, summer_school_id, package_id, housing_option_id) values ($1, $2, $3, $4) returning id`,
        [applicant, school, pkg, housing],
      )
    ).rows[0]!.id;
  };
  const verified = await student("verified@example.com", true);
  await student("unverified@example.com", false);
  const mine = await application("Verified@Example.com");
  const notYet = await application("unverified@example.com");
  const nobody = await application("nobody@example.com");

  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });
  const rows = await client.query<{ id: string; student_id: string | null }>(
    "select id, student_id from applications",
  );
  const owner = Object.fromEntries(rows.rows.map((r) => [r.id, r.student_id]));
  expect(owner).toEqual({ [mine]: verified, [notYet]: null, [nobody]: null });
  await client.close();
});
