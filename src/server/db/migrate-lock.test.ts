import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { TEST_FILE_KEY } from "../testing/harness";
import { MIGRATIONS_FOLDER } from "./client";

/**
 * See docs/product/back-office.md#operations: two machines started at once on an empty PostgreSQL database. Each runs the
 * migrations at start-up; one holds the advisory lock and applies them, the other waits and then
 * finds nothing to do. Before the lock, one of them failed on `CREATE TABLE` (2 of 3 tries).
 * Two real processes (`npm run db:migrate`'s command), three rounds. Needs TEST_DATABASE_URL.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const ROOT = path.resolve(__dirname, "../../..");
const TSX = path.join(ROOT, "node_modules", ".bin", "tsx");

function migrateProcess(
  databaseUrl: string,
  dataDir: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(TSX, ["src/server/cli/migrate.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        FILE_ENCRYPTION_KEY: TEST_FILE_KEY,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output }));
  });
}

async function admin(sql: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(!adminUrl)(
  "migrations of two servers started at once (docs/product/back-office.md#operations)",
  () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hss-migrate-"));
    const names: string[] = [];
    afterAll(async () => {
      for (const name of names) await admin(`drop database if exists ${name} with (force)`);
      rmSync(dataDir, { recursive: true, force: true });
    });

    it("applies each migration once and both processes exit 0, three times in a row", async () => {
      const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta", "_journal.json"), "utf8"));
      for (let round = 0; round < 3; round++) {
        const name = `t_migrate_${Date.now().toString(36)}_${round}`;
        names.push(name);
        await admin(`create database ${name}`);
        const url = new URL(adminUrl!);
        url.pathname = `/${name}`;
        const results = await Promise.all([
          migrateProcess(url.toString(), dataDir),
          migrateProcess(url.toString(), dataDir),
        ]);
        for (const result of results) expect(result.code, result.output).toBe(0);
        const client = new pg.Client({ connectionString: url.toString() });
        await client.connect();
        const applied = await client.query("select count(*)::int as n from drizzle.__drizzle_migrations");
        await client.end();
        expect(applied.rows[0].n).toBe(journal.entries.length);
      }
    }, 120_000);
  },
);
