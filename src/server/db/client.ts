import { spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import pg from "pg";
import * as schema from "./schema";

/** The Drizzle database, whichever driver is behind it. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A transaction or the database: repository functions accept either. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0] | Db;

export interface DbHandle {
  db: Db;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
}

/** The PostgreSQL advisory lock held while migrating (any 64-bit number no other code uses). */
const MIGRATION_LOCK = 7_305_202_611;

/**
 * The embedded database's memory settings (budget: README.md#performance). initdb gives
 * PostgreSQL 128 MB of shared buffers; PGlite's WebAssembly memory holds them, zero-filled (so
 * resident from the start), and never shrinks: it reached 189 MB. 16 MB of buffers (2,048 pages
 * of 8 KB) hold a summer school's tables several times over, and a page not in them is read from
 * the data folder through the operating system's cache. `startParams` sets them at every start,
 * whatever the folder's postgresql.conf says (initdb wrote 128 MB in the folders it created
 * without them); `initDbStartParams` writes them into the postgresql.conf of a new folder, and
 * keeps initdb's own run, on a first start, from growing its memory past PGlite's initial 128 MB.
 */
export const PGLITE_MEMORY_OPTIONS = {
  startParams: [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"],
  initDbStartParams: ["-c", "shared_buffers=16MB"],
};

/** The child process that creates an embedded database's cluster: `node -e` with PGlite's path, the folder and the options. */
const INITDB_CHILD = `const [entry, dir, options] = process.argv.slice(1);
require(entry).PGlite.create(dir, JSON.parse(options)).then((db) => db.close()).then(
  () => process.exit(0),
  (err) => { console.error(err instanceof Error ? err.message : err); process.exit(1); },
);`;

/**
 * Creates the PostgreSQL cluster of a new embedded database in `dir` (PGlite's initdb), in a child
 * process that exits when it is done, unless `dir` already holds one. PGlite's initdb runs a second
 * PGlite, with a copy of its 128 MB of memory, and a tar of the new folder: in the server's own
 * process, what they left kept it at 530-600 MB resident under load after a first start, against
 * 410-480 MB with the child (README.md#performance). Throws with the child's error output when it
 * fails.
 */
async function createEmbeddedCluster(dir: string): Promise<void> {
  if (existsSync(path.join(dir, "PG_VERSION"))) return;
  const entry = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  const child = spawn(
    process.execPath,
    ["-e", INITDB_CHILD, entry, dir, JSON.stringify(PGLITE_MEMORY_OPTIONS)],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("close", resolve);
  });
  if (code !== 0)
    throw new Error(`creating the embedded database in ${dir} failed: ${stderr.trim() || `exit ${code}`}`);
}

export const MIGRATIONS_FOLDER = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Opens the database: PostgreSQL through `pg` when `databaseUrl` is set, otherwise embedded PGlite
 * stored in `<dataDir>/pglite` (created by `createEmbeddedCluster` on the first start; in memory
 * when `dataDir` is null, for tests) with `PGLITE_MEMORY_OPTIONS`, then applies the
 * pending migrations. Migrations are recorded by drizzle, so running this twice changes nothing.
 * `pgliteTemplate` (in memory only): a data folder dumped by PGlite's `dumpDataDir` to start from
 * instead of an empty cluster, as the test harness does with one migrated template per run (docs/decisions/032-test-suite-time.md).
 */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string | null;
  pgliteTemplate?: Blob;
}): Promise<DbHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection can be closed by the server (restart, failover, an administrator): pg then
    // emits 'error' on the pool, which would crash the process without a listener. The pool drops
    // that connection and opens a new one on the next query.
    pool.on("error", (err) => {
      console.error(`database connection closed: ${err.message}`);
    });
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    // Several servers may start at once on one database: the first to take the advisory lock
    // migrates, the others wait for it and then find nothing left to do (docs/product/back-office.md#operations).
    const connection = await pool.connect();
    try {
      await connection.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
      try {
        await migratePg(drizzlePg(connection, { schema }), { migrationsFolder: MIGRATIONS_FOLDER });
      } finally {
        await connection.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK]);
      }
    } finally {
      connection.release();
    }
    return { db, kind: "postgres", close: () => pool.end() };
  }
  let client: PGlite;
  if (options.dataDir) {
    const dir = path.join(options.dataDir, "pglite");
    mkdirSync(dir, { recursive: true });
    await createEmbeddedCluster(dir);
    client = new PGlite(dir, PGLITE_MEMORY_OPTIONS);
  } else {
    client = new PGlite({
      ...PGLITE_MEMORY_OPTIONS,
      ...(options.pgliteTemplate ? { loadDataDir: options.pgliteTemplate } : {}),
    });
  }
  const pgliteDb = drizzlePglite(client, { schema });
  await migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_FOLDER });
  return { db: pgliteDb as unknown as Db, kind: "pglite", close: () => client.close() };
}
