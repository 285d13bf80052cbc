/**
 * The embedded database's memory settings (README.md#performance): a new data folder is created by
 * a child process (PGlite's initdb leaves its temporary memory there, not in the server) and runs
 * with 16 MB of shared buffers, written into its postgresql.conf and set again at every start, so
 * a folder created with initdb's 128 MB gets 16 MB too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "./client";

const dataDir = mkdtempSync(path.join(tmpdir(), "hss-embedded-memory-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const sharedBuffers = async () => {
  const database = await openDatabase({ dataDir });
  try {
    const result = (await database.db.execute(sql`show shared_buffers`)) as unknown as {
      rows: Array<{ shared_buffers: string }>;
    };
    return result.rows[0]?.shared_buffers;
  } finally {
    await database.close();
  }
};

it("creates a new data folder with 16 MB of shared buffers, and keeps 16 MB in a folder whose configuration says 128 MB", async () => {
  expect(await sharedBuffers()).toBe("16MB");
  const conf = path.join(dataDir, "pglite", "postgresql.conf");
  expect(readFileSync(conf, "utf8")).toMatch(/^shared_buffers = 16MB/m);

  // A folder created before the setting: initdb's value in its configuration.
  writeFileSync(
    conf,
    readFileSync(conf, "utf8").replace(/^shared_buffers = 16MB/m, "shared_buffers = 128MB"),
  );
  expect(await sharedBuffers()).toBe("16MB");
}, 180_000);
