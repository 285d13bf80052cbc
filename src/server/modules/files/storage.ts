import { createHash, randomUUID } from "node:crypto";
import { existsSync, mkdirSync } from "node:fs";
import { type FileHandle, open, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, sql } from "drizzle-orm";
import { byteaAsBase64, byteaValue } from "../../db/bytea";
import type { Db, Tx } from "../../db/client";
import { type FileStorageKind, fileChunks, storedFiles } from "../../db/schema";
import type { Env } from "../../env";
import { type FileKeyRing, loadFileKeys } from "./keys";
import { ChunkSealer, openChunk, openLegacy, splitSealed } from "./sealed";

/** Where new files go (decision 012): PostgreSQL chunks, or files in DATA_DIR/files (one machine). */
export type StorageMode = "disk" | "database";

/** A file that no row references is removed by the sweeper once it is this old (by mtime). */
export const SWEEP_AFTER_MS = 60 * 60 * 1000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Encrypted file under its final name, and under its name while it is being written. */
const FINAL = /^([0-9a-f-]{36})\.bin$/;
const PARTIAL = /^([0-9a-f-]{36})\.part$/;

/** Inserts the sealed chunks of file `fileId`, one statement per chunk (each 256 KB). */
async function insertChunks(tx: Tx, fileId: string, chunks: Buffer[]): Promise<void> {
  for (const [idx, data] of chunks.entries()) {
    await tx.insert(fileChunks).values({ fileId, idx, data: byteaValue(data) });
  }
}

/** What the row of a new file records besides its content. */
export interface NewFileRow {
  applicantId: string;
  kind: "passport" | "insurance";
}

/** Where the sealed chunks of a file being stored go until its row is inserted. */
interface ChunkWriter {
  write(sealed: Buffer): Promise<void>;
  /** Every chunk is written: make them durable (disk: sync, then rename to the final name). */
  close(): Promise<void>;
  /** Inside the transaction that inserts the row: make the chunks part of it (database). */
  commit(tx: Tx): Promise<void>;
  /** Throws away what was written: the upload failed, or its row was not inserted. */
  discard(): Promise<void>;
}

/** Disk: `<id>.part` while written, `<id>.bin` once complete, each chunk end to end. */
class DiskWriter implements ChunkWriter {
  private handle: FileHandle | null = null;

  constructor(
    private readonly partPath: string,
    private readonly finalPath: string,
  ) {}

  async open(): Promise<this> {
    this.handle = await open(this.partPath, "wx", 0o600);
    return this;
  }

  async write(sealed: Buffer): Promise<void> {
    let at = 0;
    while (at < sealed.length) at += (await this.handle!.write(sealed, at)).bytesWritten;
  }

  async close(): Promise<void> {
    const handle = this.handle!;
    this.handle = null;
    await handle.sync();
    await handle.close();
    await rename(this.partPath, this.finalPath);
    // The rename itself is durable once the folder is synced.
    const dir = await open(path.dirname(this.finalPath), "r");
    await dir.sync().finally(() => dir.close());
  }

  async commit(): Promise<void> {}

  async discard(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = null;
    await rm(this.partPath, { force: true });
    await rm(this.finalPath, { force: true });
  }
}

/**
 * Database: the sealed chunks wait in memory (at most one file's ciphertext, 5 MB for a
 * passport), then go into `file_chunks` in the transaction that inserts the row. Holding a
 * transaction open for as long as a client takes to send would let slow clients take every
 * database connection.
 */
class DatabaseWriter implements ChunkWriter {
  private chunks: Buffer[] = [];

  constructor(private readonly fileId: string) {}

  async write(sealed: Buffer): Promise<void> {
    this.chunks.push(sealed);
  }

  async close(): Promise<void> {}

  async commit(tx: Tx): Promise<void> {
    await insertChunks(tx, this.fileId, this.chunks);
    this.chunks = [];
  }

  async discard(): Promise<void> {
    this.chunks = [];
  }
}

/** A file whose content is encrypted and written, waiting for its row (`commit`) or `discard`. */
export interface StagedFile {
  readonly id: string;
  /** Plaintext size in bytes. */
  readonly sizeBytes: number;
  /** Hex SHA-256 of the plaintext. */
  readonly sha256: string;
  readonly keyId: string;
  /**
   * One transaction: inserts the `stored_files` row (and, on the database, the chunks), then runs
   * `link` (e.g. the applicant's passportFileId). Disk: the file was renamed to its final name
   * before; if the transaction fails it is removed. Returns what `link` returns.
   */
  commit<T>(row: NewFileRow, link: (tx: Tx, fileId: string) => Promise<T>): Promise<T>;
  /** Removes the content unless it was committed. Safe to call more than once. */
  discard(): Promise<void>;
}

/**
 * Private storage of uploaded files (docs/product/admissions.md#passport-upload; docs/product/security.md#i1-uploads, docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs, docs/product/security.md#d3-export-and-erasure, docs/product/security.md#d4-crash-safety; decision 012).
 * Files are encrypted as they stream in (AES-256-GCM, 256 KB chunks each sealed with its index and
 * the file's id, under the current key of the key ring, whose id the row records) and stored in
 * one of two places, chosen at start-up (`mode`):
 * - `database`: chunk rows in `file_chunks`, inserted in the same transaction as the
 *   `stored_files` row that references them, so a crash leaves nothing behind and every machine
 *   on the database reads them;
 * - `disk`: `DATA_DIR/files/<id>.bin` (never a public folder), written as `<id>.part`, renamed,
 *   then the row inserted; what a crash leaves between the two the sweeper removes (`sweep`).
 * Readers follow the row (`stored_files.storage`), whatever the mode: files written before a
 * change of mode stay readable.
 */
export class FileStorage {
  readonly mode: StorageMode;
  private readonly db: Db;
  private readonly dir: string;
  private readonly keys: FileKeyRing;

  constructor(options: {
    db: Db;
    dataDir: string;
    keys: FileKeyRing;
    mode: StorageMode;
  }) {
    this.db = options.db;
    this.mode = options.mode;
    this.keys = options.keys;
    this.dir = path.join(options.dataDir, "files");
    if (this.mode === "disk") mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Id of the key that encrypts new files. */
  get currentKeyId(): string {
    return this.keys.current.id;
  }

  /**
   * Encrypts `content` as it arrives into a new file (a random UUID) without a row yet. At most
   * one 256 KB chunk of plaintext is held; disk writes each sealed chunk at once, the database
   * keeps the sealed chunks until `commit`. If `content` throws (too large, wrong type, the
   * client went away), what was written is removed and the error passes on.
   */
  async stage(content: AsyncIterable<Buffer>): Promise<StagedFile> {
    const id = randomUUID();
    const key = this.keys.current;
    const writer: ChunkWriter =
      this.mode === "disk"
        ? await new DiskWriter(path.join(this.dir, `${id}.part`), this.pathOf(id)).open()
        : new DatabaseWriter(id);
    const sealer = new ChunkSealer(key, id);
    try {
      for await (const piece of content) {
        for (const sealed of sealer.push(piece)) await writer.write(sealed);
      }
      const last = sealer.finish();
      if (last) await writer.write(last);
      await writer.close();
    } catch (err) {
      await writer.discard();
      throw err;
    }
    const staged = { id, sizeBytes: sealer.size, sha256: sealer.sha256(), keyId: key.id };
    let settled = false;
    return {
      ...staged,
      commit: async <T>(row: NewFileRow, link: (tx: Tx, fileId: string) => Promise<T>): Promise<T> => {
        if (settled) throw new Error("staged file already committed or discarded");
        try {
          const result = await this.db.transaction(async (tx) => {
            await tx.insert(storedFiles).values({
              id,
              applicantId: row.applicantId,
              kind: row.kind,
              sizeBytes: staged.sizeBytes,
              sha256: staged.sha256,
              storage: this.mode,
              keyId: staged.keyId,
            });
            await writer.commit(tx);
            return link(tx, id);
          });
          settled = true;
          return result;
        } catch (err) {
          settled = true;
          await writer.discard();
          throw err;
        }
      },
      discard: async () => {
        if (settled) return;
        settled = true;
        await writer.discard();
      },
    };
  }

  /**
   * The decrypted content of stored file `id`, checked against its row's size and SHA-256.
   * Throws (naming the id only) when the row or the content is missing, a key is not configured,
   * or anything was altered.
   */
  async read(id: string): Promise<Buffer> {
    const [row] = await this.db.select().from(storedFiles).where(eq(storedFiles.id, id));
    if (!row) throw new Error(`stored file ${id}: no row`);
    return this.contentOf(row);
  }

  private async contentOf(row: typeof storedFiles.$inferSelect): Promise<Buffer> {
    let content: Buffer;
    if (row.storage === "none") throw new Error(`stored file ${row.id}: content removed`);
    if (row.keyId === null) {
      content = this.openLegacy(row.id, await readFile(this.pathOf(row.id)));
    } else {
      const key = this.keys.get(row.keyId);
      const sealed =
        row.storage === "database"
          ? await this.chunksOf(row.id)
          : splitSealed(await readFile(this.pathOf(row.id)));
      content = Buffer.concat(sealed.map((chunk, index) => openChunk(key, row.id, index, chunk)));
    }
    if (
      content.length !== row.sizeBytes ||
      createHash("sha256").update(content).digest("hex") !== row.sha256
    ) {
      throw new Error(`stored file ${row.id}: content does not match its row`);
    }
    return content;
  }

  /**
   * The sealed chunks of a file kept in the database, read one by one (a query per 256 KB, so
   * that PGlite, which runs on the event loop, never holds it for long).
   */
  private async chunksOf(fileId: string): Promise<Buffer[]> {
    const [{ count } = { count: 0 }] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(fileChunks)
      .where(eq(fileChunks.fileId, fileId));
    const chunks: Buffer[] = [];
    for (let idx = 0; idx < count; idx++) {
      const [chunk] = await this.db
        .select({ data: byteaAsBase64(fileChunks.data) })
        .from(fileChunks)
        .where(and(eq(fileChunks.fileId, fileId), eq(fileChunks.idx, idx)));
      if (!chunk) throw new Error(`stored file ${fileId}: chunk ${idx} missing`);
      chunks.push(Buffer.from(chunk.data, "base64"));
    }
    return chunks;
  }

  /** A file written before key ids: tried with every key, the current one first. */
  private openLegacy(id: string, data: Buffer): Buffer {
    for (const key of this.keys.all()) {
      try {
        return openLegacy(key, data);
      } catch {
        // Not this key.
      }
    }
    throw new Error(`stored file ${id}: no configured key opens it`);
  }

  /**
   * Removes the content of files `ids` as part of `tx` (docs/product/security.md#d3-export-and-erasure): their chunks are deleted
   * and their rows (if kept, e.g. a replaced passport) marked `none`. Files on disk cannot join a
   * transaction: the returned function deletes them and is to be called after the commit; if it
   * fails, no row references them any more and the sweeper removes them.
   */
  async removeContent(tx: Tx, ids: string[]): Promise<() => Promise<void>> {
    if (ids.length === 0) return async () => undefined;
    await tx.delete(fileChunks).where(inArray(fileChunks.fileId, ids));
    await tx.update(storedFiles).set({ storage: "none" }).where(inArray(storedFiles.id, ids));
    return async () => {
      for (const id of ids) await rm(this.pathOf(id), { force: true });
    };
  }

  /**
   * Removes from `DATA_DIR/files` what a crash or a failed removal left (docs/product/security.md#d4-crash-safety): files that
   * no `stored_files` row with storage `disk` references, and unfinished `.part` files, once their
   * mtime is SWEEP_AFTER_MS (1 hour) older than `now` (an upload in progress is never that old:
   * Node ends a request after 5 minutes). Returns how many it removed and kept. Runs in the
   * process that runs the background jobs.
   */
  async sweep(now: Date = new Date()): Promise<{ removed: number; kept: number }> {
    if (!existsSync(this.dir)) return { removed: 0, kept: 0 };
    const cutoff = now.getTime() - SWEEP_AFTER_MS;
    const old: Array<{ name: string; id: string; partial: boolean }> = [];
    let kept = 0;
    for (const name of await readdir(this.dir)) {
      const match = FINAL.exec(name) ?? PARTIAL.exec(name);
      if (!match) continue;
      const info = await stat(path.join(this.dir, name)).catch(() => null);
      if (!info) continue;
      if (info.mtimeMs > cutoff) kept += 1;
      else old.push({ name, id: match[1]!, partial: name.endsWith(".part") });
    }
    const referenced = new Set<string>();
    const candidates = old.filter((f) => !f.partial && UUID.test(f.id)).map((f) => f.id);
    for (let at = 0; at < candidates.length; at += 500) {
      const rows = await this.db
        .select({ id: storedFiles.id })
        .from(storedFiles)
        .where(and(inArray(storedFiles.id, candidates.slice(at, at + 500)), eq(storedFiles.storage, "disk")));
      for (const row of rows) referenced.add(row.id);
    }
    let removed = 0;
    for (const file of old) {
      if (!file.partial && referenced.has(file.id)) {
        kept += 1;
        continue;
      }
      await rm(path.join(this.dir, file.name), { force: true });
      removed += 1;
    }
    return { removed, kept };
  }

  /**
   * Moves the files kept on disk into the database (decision 012), when the database mode is on:
   * each is read, checked, sealed again with the current key and written as chunks in a
   * transaction that switches its row to `database` (only if it still says `disk`, so two
   * machines starting together move it once). The disk file is deleted after the commit; a crash
   * before that leaves a file the sweeper removes. Runs once at start-up, before the server
   * processes start; running it again moves nothing twice. Returns the ids moved, and those whose
   * disk file is missing or unreadable (they stay on disk, and are logged by the caller).
   */
  async moveToDatabase(): Promise<{ moved: string[]; missing: string[]; unreadable: string[] }> {
    const result = { moved: [] as string[], missing: [] as string[], unreadable: [] as string[] };
    if (this.mode !== "database") return result;
    const rows = await this.db.select().from(storedFiles).where(eq(storedFiles.storage, "disk"));
    const key = this.keys.current;
    for (const row of rows) {
      if (!existsSync(this.pathOf(row.id))) {
        result.missing.push(row.id);
        continue;
      }
      let content: Buffer;
      try {
        content = await this.contentOf(row);
      } catch {
        result.unreadable.push(row.id);
        continue;
      }
      const sealer = new ChunkSealer(key, row.id);
      const chunks = sealer.push(content);
      const last = sealer.finish();
      if (last) chunks.push(last);
      const moved = await this.db.transaction(async (tx) => {
        const switched = await tx
          .update(storedFiles)
          .set({ storage: "database", keyId: key.id })
          .where(and(eq(storedFiles.id, row.id), eq(storedFiles.storage, "disk" satisfies FileStorageKind)))
          .returning({ id: storedFiles.id });
        if (switched.length === 0) return false;
        await insertChunks(tx, row.id, chunks);
        return true;
      });
      if (moved) {
        await rm(this.pathOf(row.id), { force: true });
        result.moved.push(row.id);
      }
    }
    return result;
  }

  /** Where file `id` is (or would be) kept on disk. Ids are UUIDs, so no path leaves the folder. */
  pathOf(id: string): string {
    if (!UUID.test(id)) throw new Error("invalid file id");
    return path.join(this.dir, `${id}.bin`);
  }
}

/**
 * The file storage of the configuration: FILE_STORAGE's mode (`database` by default with
 * DATABASE_URL, else `disk`) and the key ring of FILE_ENCRYPTION_KEY (or the key generated into
 * DATA_DIR) and FILE_ENCRYPTION_KEYS_OLD (decision 012).
 */
export function createFileStorage(db: Db, env: Env): FileStorage {
  return new FileStorage({ db, dataDir: env.DATA_DIR, keys: loadFileKeys(env), mode: env.FILE_STORAGE });
}

/**
 * The start-up step of the file storage (decision 012), run once before the server processes
 * start: in the database mode, files still on disk move into the database. Logs how many moved,
 * and the id (nothing else) of each file that could not be moved.
 */
export async function prepareFileStorage(
  files: FileStorage,
  log: { info(msg: string): void; error(msg: string): void },
): Promise<void> {
  const { moved, missing, unreadable } = await files.moveToDatabase();
  if (moved.length > 0) log.info(`moved ${moved.length} stored files from disk into the database`);
  for (const id of missing)
    log.error(`stored file ${id} is not in DATA_DIR/files: not moved into the database`);
  for (const id of unreadable) {
    log.error(
      `stored file ${id} could not be decrypted or does not match its row: not moved into the database`,
    );
  }
}
