/**
 * Checklist D4 for the file storage (decision 012): a server killed with SIGKILL while it stores
 * an uploaded passport, between writing the file and committing the row that references it,
 * leaves nothing that export and erasure cannot see once it runs again. On disk, the file it
 * wrote has no row: the sweeper of the restarted server removes it once it is an hour old and
 * keeps the files rows reference. In the database (PostgreSQL), the transaction never committed:
 * no row and no chunk of that file exist, and nothing was written to disk. The killed server is a
 * child process (`testing/file-crash-child.ts`) on PGlite in a data folder, or on PostgreSQL with
 * TEST_DATABASE_URL; the test then starts the app again on the same database and folder.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { type DbHandle, openDatabase } from "../../db/client";
import { fileChunks, storedFiles } from "../../db/schema";
import { envSchema } from "../../env";
import { PDF_BYTES } from "../../testing/harness";
import { scratchDatabase } from "../../testing/scratch-database";
import { SWEEP_AFTER_MS } from "./storage";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const KEY = Buffer.alloc(32, 0x44).toString("base64");
const adminUrl = process.env.TEST_DATABASE_URL;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Restarted {
  app: FastifyInstance;
  database: DbHandle;
  filesDir: string;
  applicantId: string;
  cookie: string;
  signal: NodeJS.Signals | null;
}

/**
 * Runs the child server until it kills itself at `at` during an upload on `storage`, then builds
 * the app again on its database and data folder, as a restart would.
 */
async function crashAndRestart(
  storage: "disk" | "database",
  at: "beforeRow" | "beforeCommit",
): Promise<Restarted> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hss-crash-"));
  cleanups.push(async () => rmSync(dataDir, { recursive: true, force: true }));
  let databaseUrl: string | undefined;
  if (adminUrl) {
    const scratch = await scratchDatabase(adminUrl, "t_crash");
    databaseUrl = scratch.url;
    cleanups.push(scratch.drop);
  }
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/testing/file-crash-child.ts"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HSS_CRASH_DIR: dataDir,
      HSS_CRASH_AT: at,
      HSS_CRASH_STORAGE: storage,
      HSS_CRASH_KEY: KEY,
      ...(databaseUrl ? { HSS_CRASH_DATABASE_URL: databaseUrl } : {}),
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const signal = await new Promise<NodeJS.Signals | null>((resolve) =>
    child.once("exit", (_code, exitSignal) => resolve(exitSignal)),
  );
  const kept = /KEPT (\S+) (\S+)/.exec(output);
  if (!kept || !output.includes("CRASH")) throw new Error(`the child did not reach the crash: ${output}`);

  const database = await openDatabase({ databaseUrl, dataDir });
  cleanups.push(() => database.close());
  const env = envSchema.parse({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    APP_ORIGIN: "http://localhost:3000",
    LOG_LEVEL: "silent",
    FILE_ENCRYPTION_KEY: KEY,
    FILE_STORAGE: storage,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const app = await buildApp({ env, database, logger: false, distDir: path.join(dataDir, "no-dist") });
  cleanups.push(() => app.close());
  return {
    app,
    database,
    filesDir: path.join(dataDir, "files"),
    applicantId: kept[1]!,
    cookie: kept[2]!,
    signal,
  };
}

/** Ids of the encrypted files in DATA_DIR/files that no stored_files row references. */
async function orphans(r: Restarted): Promise<string[]> {
  const ids = (existsSync(r.filesDir) ? readdirSync(r.filesDir) : []).map((name) => name.split(".")[0]!);
  if (ids.length === 0) return [];
  const rows = await r.database.db
    .select({ id: storedFiles.id })
    .from(storedFiles)
    .where(inArray(storedFiles.id, ids));
  return ids.filter((id) => !rows.some((row) => row.id === id));
}

/** The first passport, uploaded before the crash, still served to its owner. */
async function expectKeptPassport(r: Restarted) {
  const res = await r.app.inject({
    url: `/api/applicants/${r.applicantId}/passport`,
    headers: { cookie: r.cookie },
  });
  expect(res.statusCode).toBe(200);
  expect(res.rawPayload.subarray(0, PDF_BYTES.length).equals(PDF_BYTES)).toBe(true);
}

describe("D4 a server killed while it stores an uploaded passport", { timeout: 90_000 }, () => {
  for (const at of ["beforeRow", "beforeCommit"] as const) {
    it(`D4 disk storage, killed ${at === "beforeRow" ? "between the file's write and its row" : "before the row's transaction commits"}: after the restart the sweeper removes the orphan an hour later, and the kept passport stays`, async () => {
      const r = await crashAndRestart("disk", at);
      expect(r.signal).toBe("SIGKILL");
      // The kill left an encrypted file without a row: export and erasure cannot see it.
      expect(await orphans(r)).toHaveLength(1);
      const { files } = r.app.services;
      // A sweep now keeps it: it could be an upload whose row is about to be inserted.
      await files.sweep(new Date());
      expect(await orphans(r)).toHaveLength(1);
      await files.sweep(new Date(Date.now() + SWEEP_AFTER_MS + 60_000));
      expect(await orphans(r)).toEqual([]);
      expect(readdirSync(r.filesDir)).toHaveLength(1);
      await expectKeptPassport(r);
    });
  }

  it.skipIf(!adminUrl)(
    "D4 database storage (PostgreSQL), killed before the transaction that writes the chunks commits: no row, no chunk, no file",
    async () => {
      const r = await crashAndRestart("database", "beforeCommit");
      expect(r.signal).toBe("SIGKILL");
      const rows = await r.database.db.select({ id: storedFiles.id }).from(storedFiles);
      expect(rows).toHaveLength(1);
      const chunks = await r.database.db.select({ fileId: fileChunks.fileId }).from(fileChunks);
      expect(new Set(chunks.map((c) => c.fileId))).toEqual(new Set([rows[0]!.id]));
      expect(await orphans(r)).toEqual([]);
      expect(existsSync(r.filesDir) ? readdirSync(r.filesDir) : []).toEqual([]);
      await expectKeptPassport(r);
    },
  );
});
