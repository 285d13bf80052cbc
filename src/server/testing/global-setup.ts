import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { MIGRATIONS_FOLDER, openDatabase } from "../db/client";

declare module "vitest" {
  interface ProvidedContext {
    /** A file holding an uncompressed PGlite data folder with every migration applied (`dumpDataDir`). */
    pgliteTemplate: string;
    /** On PostgreSQL (TEST_DATABASE_URL): a migrated database each test database is copied from. */
    postgresTemplate: string | null;
  }
}

/**
 * Runs once before the database test files of a run: migrates one database and hands it to every
 * `createTestApp` as a template, instead of each test file migrating its own (docs/decisions/032-test-suite-time.md):
 * - embedded: a PGlite data folder dumped to a file in the temp folder; each app loads it
 *   (`loadDataDir`), which skips PGlite's initdb as well as the migrations (about 0.4 s instead of 1.5 s);
 * - with TEST_DATABASE_URL: a database `hss_tpl_…` that each test database is created from with
 *   `CREATE DATABASE … TEMPLATE`.
 * Returns the teardown, which removes both.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = mkdtempSync(path.join(tmpdir(), "hss-template-"));
  const client = new PGlite();
  await migratePglite(drizzlePglite(client), { migrationsFolder: MIGRATIONS_FOLDER });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const file = path.join(dir, "pglite.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplate", file);

  const adminUrl = process.env.TEST_DATABASE_URL;
  let templateName: string | null = null;
  if (adminUrl) {
    templateName = `hss_tpl_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    await adminQuery(adminUrl, `create database ${templateName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${templateName}`;
    const handle = await openDatabase({ databaseUrl: url.toString(), dataDir: null });
    await handle.close();
  }
  project.provide("postgresTemplate", templateName);

  return async () => {
    rmSync(dir, { recursive: true, force: true });
    if (adminUrl && templateName)
      await adminQuery(adminUrl, `drop database if exists ${templateName} with (force)`);
  };
}

async function adminQuery(url: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
