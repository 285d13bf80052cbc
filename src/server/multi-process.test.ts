/**
 * Two server processes on one PostgreSQL database (decision 011), as `WEB_CONCURRENCY=2` runs
 * them: what one process changes reaches the other's catalogue cache, texts and prerendered pages
 * through the change feed, also after the feed's connection was cut. PostgreSQL only: the
 * embedded database serves one process (run by `npm run test:db` with TEST_DATABASE_URL).
 */
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SummerSchoolDto } from "../shared/catalogue";
import { summerSchools } from "./db/schema";
import { adminRoles, apiOf, SAME_ORIGIN } from "./testing/admin";
import { createTestApp, type TestApp } from "./testing/harness";

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Polls `read` until it returns something `accept` takes, for at most `ms`; returns the last value. */
async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, ms = 5000): Promise<T> {
  const until = Date.now() + ms;
  let value = await read();
  while (!accept(value) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  return value;
}

describe.skipIf(!onPostgres)("two server processes on one database", () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp({ changeFeed: true });
    second = await createTestApp({ peerOf: first, changeFeed: true });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const schoolNames = async (t: TestApp) =>
    (await t.app.inject({ method: "GET", url: "/api/summer-schools" }))
      .json()
      .map((s: SummerSchoolDto) => s.name);

  it("a catalogue change made in one process shows in the other's summer schools at once", async () => {
    const before = await schoolNames(second); // now cached in the second process
    const [school] = await first.database.db.select().from(summerSchools).limit(1);
    const renamed = `Renamed in the first process ${Date.now()}`;
    await first.database.db
      .update(summerSchools)
      .set({ name: { en: renamed, zh: renamed, fr: renamed } })
      .where(eq(summerSchools.id, school!.id));
    first.app.services.catalogue.invalidate();

    const after = await eventually(
      () => schoolNames(second),
      (names) => names.includes(renamed),
    );
    expect(before).not.toContain(renamed);
    expect(after).toContain(renamed);
  });

  it("an admin's text saved in one process is served by the other process", async () => {
    const cookies = await adminRoles(first.app);
    const api = apiOf(() => first.app, SAME_ORIGIN);
    const frenchTitle = async () =>
      (await second.app.inject({ method: "GET", url: "/api/i18n/fr/home" })).json().hero.title as string;
    const original = await frenchTitle();
    const edited = `La Haye, édition ${Date.now()}`;

    const saved = await api("PUT", "/api/admin/translations", cookies.owner, {
      namespace: "home",
      key: "hero.title",
      language: "fr",
      value: edited,
    });
    expect(saved.statusCode).toBe(200);
    expect(await eventually(frenchTitle, (title) => title === edited)).toBe(edited);

    const reverted = await api("DELETE", "/api/admin/translations", cookies.owner, {
      namespace: "home",
      key: "hero.title",
      language: "fr",
    });
    expect(reverted.statusCode).toBe(200);
    expect(await eventually(frenchTitle, (title) => title === original)).toBe(original);
  });

  it("after its feed connection is cut, a process reconnects and drops what it may have missed", async () => {
    await schoolNames(second); // cached
    const databaseName = new URL(second.databaseUrl!).pathname.slice(1);
    // Cut every LISTEN connection to this test's database (both processes' feeds).
    await first.database.db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity
          where datname = ${databaseName} and query ilike 'listen %' and pid <> pg_backend_pid()`,
    );
    // A change nobody announces: only the reconnect's "everything may have changed" can show it.
    const [school] = await first.database.db.select().from(summerSchools).limit(1);
    const renamed = `Renamed while the feed was down ${Date.now()}`;
    await first.database.db
      .update(summerSchools)
      .set({ name: { en: renamed, zh: renamed, fr: renamed } })
      .where(eq(summerSchools.id, school!.id));

    const after = await eventually(
      () => schoolNames(second),
      (names) => names.includes(renamed),
      8000,
    );
    expect(after).toContain(renamed);
  });
});
