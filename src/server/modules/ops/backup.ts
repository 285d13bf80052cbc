import { randomBytes } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { chmod, mkdir, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { pipeline as pipe, Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { type BackupManifest, backupManifestSchema } from "../../../shared/ops";
import { type DbHandle, PGLITE_MEMORY_OPTIONS } from "../../db/client";
import { type TarEntry, tar, untar } from "../../lib/tar";

/**
 * Backups of the embedded database (decision 013). An archive is a gzipped tar of:
 * `manifest.json` (`BackupManifest`), `pglite.tar` (PGlite's dump of its data folder, taken
 * between two transactions), `files/*` (the encrypted uploads of DATA_DIR/files) and
 * `secrets/*` (DATA_DIR/secrets: the generated file key, unless FILE_ENCRYPTION_KEY is set).
 * PostgreSQL is backed up with pg_dump instead (README).
 */

/** Folders of DATA_DIR that a backup holds, besides the database. */
const FOLDERS = ["files", "secrets"] as const;

/** The PGlite instance behind an embedded database handle (drizzle keeps it as `$client`). */
export function pgliteOf(database: DbHandle): PGlite {
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (database.kind !== "pglite" || !(client instanceof PGlite)) {
    throw new Error("only the embedded database is backed up this way; use pg_dump for PostgreSQL");
  }
  return client;
}

/**
 * PGlite's uncompressed tar of its data folder, taken while no transaction is open (queries wait
 * meanwhile: about a second for a small school's database), so it holds whole transactions only.
 */
export async function dumpDatabase(client: PGlite): Promise<Buffer> {
  // Opening the database takes the transaction lock itself: wait for it outside the lock.
  await client.waitReady;
  const dump = await client._runExclusiveTransaction(() => client.dumpDataDir("none"));
  return Buffer.from(await dump.arrayBuffer());
}

/** The files of `<dataDir>/<folder>` (plain names only; sub-folders are not part of a backup). */
async function folderEntries(dataDir: string, folder: string): Promise<TarEntry[]> {
  const dir = path.join(dataDir, folder);
  if (!existsSync(dir)) return [];
  const entries: TarEntry[] = [];
  for (const item of await readdir(dir, { withFileTypes: true })) {
    if (!item.isFile() || item.name.startsWith(".")) continue;
    const file = path.join(dir, item.name);
    entries.push({
      name: `${folder}/${item.name}`,
      data: await readFile(file),
      mtime: (await stat(file)).mtime,
    });
  }
  return entries.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * The entries of a backup of `client`'s database and of `dataDir`'s files and secrets, manifest
 * first. `fileKeyConfigured`: FILE_ENCRYPTION_KEY is set, so the key is not among the secrets.
 * Uploads are read into memory (each at most 5 MB) as the archive is written.
 */
export async function backupEntries(options: {
  client: PGlite;
  dataDir: string;
  fileKeyConfigured: boolean;
  now?: Date;
}): Promise<{ manifest: BackupManifest; entries: AsyncIterable<TarEntry> }> {
  const now = options.now ?? new Date();
  const database = await dumpDatabase(options.client);
  const [files, secrets] = await Promise.all(FOLDERS.map((folder) => folderEntries(options.dataDir, folder)));
  const listed = (entries: TarEntry[]) =>
    entries.map((e) => ({ name: e.name.slice(e.name.indexOf("/") + 1), bytes: e.data.length }));
  const manifest: BackupManifest = {
    format: "hague-summer-school-backup",
    version: 1,
    createdAt: now.toISOString(),
    database: "pglite",
    databaseBytes: database.length,
    files: listed(files!),
    secrets: listed(secrets!),
    fileKey: options.fileKeyConfigured ? "configured" : "included",
  };
  async function* entries(): AsyncGenerator<TarEntry> {
    yield { name: "manifest.json", data: Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), mtime: now };
    yield { name: "pglite.tar", data: database, mtime: now };
    yield* files!;
    yield* secrets!;
  }
  return { manifest, entries: entries() };
}

/** A backup archive as a gzipped tar stream (see `backupEntries`). */
export async function backupStream(options: Parameters<typeof backupEntries>[0]): Promise<{
  manifest: BackupManifest;
  stream: Readable;
}> {
  const { manifest, entries } = await backupEntries(options);
  return { manifest, stream: Readable.from(tar(entries)).pipe(createGzip()) };
}

/** Name of a backup file made at `date`: `hss-backup-2026-11-24T03-00-00Z.tar.gz`. */
export function backupFileName(date: Date): string {
  return `hss-backup-${date.toISOString().slice(0, 19).replaceAll(":", "-")}Z.tar.gz`;
}

/**
 * Backs up a stopped server's data folder into `outFile` (created, mode 600; an existing file is
 * not overwritten). Refuses when `<dataDir>/pglite/postmaster.pid` exists: a server has the
 * database open (or stopped without closing it), and two processes on one PGlite folder corrupt
 * it; `force` skips that check. Returns the manifest.
 */
export async function backupDataDir(options: {
  dataDir: string;
  outFile: string;
  fileKeyConfigured: boolean;
  force?: boolean;
}): Promise<BackupManifest> {
  const databaseDir = path.join(options.dataDir, "pglite");
  if (!existsSync(path.join(databaseDir, "PG_VERSION"))) {
    throw new Error(`no embedded database in ${databaseDir}`);
  }
  if (!options.force && existsSync(path.join(databaseDir, "postmaster.pid"))) {
    throw new Error(
      "the database is in use by a running server (pglite/postmaster.pid exists): stop the server, or take the backup through it (POST /api/admin/backup). If no server runs (it was killed), use --force",
    );
  }
  const client = new PGlite(databaseDir, PGLITE_MEMORY_OPTIONS);
  try {
    const { manifest, stream } = await backupStream({
      client,
      dataDir: options.dataDir,
      fileKeyConfigured: options.fileKeyConfigured,
    });
    await pipeline(stream, createWriteStream(options.outFile, { flags: "wx", mode: 0o600 }));
    return manifest;
  } finally {
    await client.close();
  }
}

/** True when `dir` does not exist or is an empty folder. */
async function absentOrEmpty(dir: string): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (await readdir(dir)).length === 0;
}

/**
 * Restores a backup archive (a gzipped tar from `backupStream`) into `dataDir`, which must not
 * exist or be empty. Everything is written to a folder next to it first and renamed into place
 * at the end, so a damaged archive leaves nothing half-restored. Checks every entry against the
 * manifest (names, sizes, nothing missing, nothing else), loads the database dump into
 * `<dataDir>/pglite` with PGlite, and opens it once to check it. Returns the manifest and the
 * number of applications in the restored database.
 */
export async function restoreBackup(
  archive: AsyncIterable<Buffer> | Readable,
  dataDir: string,
): Promise<{ manifest: BackupManifest; applications: number }> {
  const target = path.resolve(dataDir);
  if (!(await absentOrEmpty(target))) {
    throw new Error(`${target} is not empty: restore into a new or empty DATA_DIR`);
  }
  const staging = `${target}.restoring-${randomBytes(4).toString("hex")}`;
  await mkdir(staging, { mode: 0o700 });
  try {
    let manifest: BackupManifest | null = null;
    let database: Buffer | null = null;
    const seen = new Set<string>();
    const source = archive instanceof Readable ? archive : Readable.from(archive);
    // An error of the source (a missing file) reaches the loop through the unzipped stream.
    const unzipped = pipe(source, createGunzip(), () => {});
    for await (const entry of untar(unzipped)) {
      if (!manifest) {
        if (entry.name !== "manifest.json")
          throw new Error("not a backup of this application (no manifest first)");
        manifest = backupManifestSchema.parse(JSON.parse(entry.data.toString("utf8")));
        continue;
      }
      if (seen.has(entry.name)) throw new Error(`${entry.name} appears twice in the archive`);
      seen.add(entry.name);
      if (entry.name === "pglite.tar") {
        if (entry.data.length !== manifest.databaseBytes)
          throw new Error("pglite.tar is not the size listed");
        database = entry.data;
        continue;
      }
      const [folder, name, ...rest] = entry.name.split("/");
      const listed = folder === "files" ? manifest.files : folder === "secrets" ? manifest.secrets : null;
      const item = listed?.find((f) => f.name === name);
      if (!item || rest.length) throw new Error(`${entry.name} is not listed in the manifest`);
      if (item.bytes !== entry.data.length) throw new Error(`${entry.name} is not the size listed`);
      await mkdir(path.join(staging, folder!), { recursive: true, mode: 0o700 });
      await writeFile(path.join(staging, folder!, name!), entry.data, { mode: 0o600 });
    }
    if (!manifest || !database) throw new Error("the archive ends before the database");
    for (const [folder, listed] of [
      ["files", manifest.files],
      ["secrets", manifest.secrets],
    ] as const) {
      const missing = listed.find((f) => !seen.has(`${folder}/${f.name}`));
      if (missing) throw new Error(`${folder}/${missing.name} is missing from the archive`);
    }
    await mkdir(path.join(staging, "files"), { recursive: true, mode: 0o700 });

    const client = new PGlite(path.join(staging, "pglite"), {
      ...PGLITE_MEMORY_OPTIONS,
      loadDataDir: new Blob([new Uint8Array(database)]),
    });
    let applications: number;
    try {
      const result = await client.query<{ n: number }>("select count(*)::int as n from applications");
      applications = result.rows[0]?.n ?? 0;
    } finally {
      await client.close();
    }
    if (existsSync(target)) await rmdir(target);
    await rename(staging, target);
    await chmod(target, 0o700);
    return { manifest, applications };
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/** `restoreBackup` from a file. */
export function restoreBackupFile(file: string, dataDir: string) {
  return restoreBackup(createReadStream(file), dataDir);
}
