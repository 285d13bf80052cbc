/**
 * The file storage of decision 012: encryption in sealed chunks under a key id, key rotation,
 * files from before key ids, the sweeper of DATA_DIR/files (docs/product/security.md#d4-crash-safety), the move of files from
 * disk into the database at start-up, and export and erasure through the storage on both places
 * (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs, docs/product/security.md#d3-export-and-erasure). The database storage runs on PGlite here too (built directly; the
 * configuration allows it only with DATABASE_URL), and on PostgreSQL with TEST_DATABASE_URL.
 */
import { createCipheriv, createHash, randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applicants, fileChunks, storedFiles } from "../../db/schema";
import { loginAsAdmin } from "../../testing/accounts";
import {
  applicantFixture,
  createPaidReadyApplication,
  createTestApp,
  fileContentExists,
  PDF_BYTES,
  passportUpload,
  type TestApp,
} from "../../testing/harness";
import { FileKeyRing, keyIdOf } from "./keys";
import { CHUNK_BYTES, SEALED_CHUNK_BYTES } from "./sealed";
import { FileStorage, type StorageMode, SWEEP_AFTER_MS } from "./storage";

const KEY_2025 = Buffer.alloc(32, 0x25);
const KEY_2026 = Buffer.alloc(32, 0x26);
const HOUR = 60 * 60 * 1000;

/** A PDF of `size` bytes whose content is not repetitive. */
function pdfOf(size: number): Buffer {
  return Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(size - 9)]);
}

/** `content` as an upload streams it: pieces of 64 KB. */
async function* streamed(content: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < content.length; at += 64 * 1024) yield content.subarray(at, at + 64 * 1024);
}

let t: TestApp;
let applicantId: string;

beforeAll(async () => {
  t = await createTestApp();
  const [row] = await t.database.db
    .insert(applicants)
    .values({ ...applicantFixture(), accessTokenHash: "0".repeat(64) })
    .returning({ id: applicants.id });
  applicantId = row!.id;
});
afterAll(async () => {
  await t?.close();
});

/** A storage on the test app's database and data folder, with its own keys. */
const storageOf = (mode: StorageMode, keys: FileKeyRing) =>
  new FileStorage({ db: t.database.db, dataDir: t.dataDir, keys, mode });

/** Stores `content` as a passport of the test applicant; returns the file id. */
async function store(files: FileStorage, content: Buffer): Promise<string> {
  const staged = await files.stage(streamed(content));
  await staged.commit({ applicantId, kind: "passport" }, async () => undefined);
  return staged.id;
}

async function rowOf(id: string) {
  const [row] = await t.database.db.select().from(storedFiles).where(eq(storedFiles.id, id));
  return row;
}

describe.each(["disk", "database"] as const)("D2 encryption on the %s storage", (mode) => {
  it("D2 stores 256 KB chunks sealed under the current key's id, and reads them back byte for byte", async () => {
    const files = storageOf(mode, new FileKeyRing(KEY_2026));
    const content = pdfOf(5 * 1024 * 1024);
    const id = await store(files, content);
    expect(await rowOf(id)).toMatchObject({
      storage: mode,
      keyId: keyIdOf(KEY_2026),
      sizeBytes: content.length,
      sha256: createHash("sha256").update(content).digest("hex"),
    });
    const chunks = Math.ceil(content.length / CHUNK_BYTES);
    if (mode === "disk") {
      expect(existsSync(files.pathOf(id))).toBe(true);
      const sealed = readFileSync(files.pathOf(id));
      expect(sealed.length).toBe(content.length + chunks * (SEALED_CHUNK_BYTES - CHUNK_BYTES));
      expect(sealed.includes(content.subarray(0, 64))).toBe(false);
    } else {
      const rows = await t.database.db.select().from(fileChunks).where(eq(fileChunks.fileId, id));
      expect(rows.map((r) => r.idx).sort((a, b) => a - b)).toEqual([...Array(chunks).keys()]);
      expect(rows.every((r) => !r.data.includes(content.subarray(0, 64)))).toBe(true);
    }
    expect((await files.read(id)).equals(content)).toBe(true);
  });

  it("D2 after a key rotation old files still open and new files use the new key", async () => {
    const before = storageOf(mode, new FileKeyRing(KEY_2025));
    const old = await store(before, PDF_BYTES);
    const rotated = storageOf(mode, new FileKeyRing(KEY_2026, [KEY_2025]));
    const fresh = await store(rotated, PDF_BYTES);
    expect((await rowOf(old))!.keyId).toBe(keyIdOf(KEY_2025));
    expect((await rowOf(fresh))!.keyId).toBe(keyIdOf(KEY_2026));
    expect((await rotated.read(old)).equals(PDF_BYTES)).toBe(true);
    expect((await rotated.read(fresh)).equals(PDF_BYTES)).toBe(true);
    // Without the old key, the old file names a key that is not configured (its id, no secret).
    const forgotten = storageOf(mode, new FileKeyRing(KEY_2026));
    await expect(forgotten.read(old)).rejects.toThrow(`file key ${keyIdOf(KEY_2025)} is not configured`);
  });

  it("D2 a chunk altered, swapped or missing is refused", async () => {
    const files = storageOf(mode, new FileKeyRing(KEY_2026));
    const id = await store(files, pdfOf(600 * 1024)); // three chunks
    const alter = async (change: (chunks: Buffer[]) => Buffer[]) => {
      if (mode === "disk") {
        const data = readFileSync(files.pathOf(id));
        const parts = [];
        for (let at = 0; at < data.length; at += SEALED_CHUNK_BYTES) {
          parts.push(Buffer.from(data.subarray(at, at + SEALED_CHUNK_BYTES)));
        }
        writeFileSync(files.pathOf(id), Buffer.concat(change(parts)));
      } else {
        const rows = await t.database.db.select().from(fileChunks).where(eq(fileChunks.fileId, id));
        const parts = rows.sort((a, b) => a.idx - b.idx).map((r) => Buffer.from(r.data));
        await t.database.db.delete(fileChunks).where(eq(fileChunks.fileId, id));
        for (const [idx, data] of change(parts).entries()) {
          await t.database.db.insert(fileChunks).values({ fileId: id, idx, data });
        }
      }
    };
    const original = await files.read(id);
    let saved: Buffer[] = [];
    await alter((chunks) => {
      saved = chunks.map((c) => Buffer.from(c));
      const flipped = Buffer.from(chunks[1]!);
      flipped[100] = flipped[100]! ^ 1;
      return [chunks[0]!, flipped, chunks[2]!];
    });
    await expect(files.read(id)).rejects.toThrow();
    await alter(() => [saved[1]!, saved[0]!, saved[2]!]);
    await expect(files.read(id)).rejects.toThrow();
    await alter(() => [saved[0]!, saved[1]!]);
    await expect(files.read(id)).rejects.toThrow(/does not match its row/);
    await alter(() => saved);
    expect((await files.read(id)).equals(original)).toBe(true);
  });
});

/** Writes a file as the storage did before key ids: one GCM message (IV, tag, ciphertext), and its row. */
async function legacyFile(key: Buffer, content: Buffer): Promise<string> {
  const id = crypto.randomUUID();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const encrypted = Buffer.concat([cipher.update(content), cipher.final()]);
  const files = storageOf("disk", new FileKeyRing(key));
  writeFileSync(files.pathOf(id), Buffer.concat([iv, cipher.getAuthTag(), encrypted]));
  await t.database.db.insert(storedFiles).values({
    id,
    applicantId,
    kind: "passport",
    sizeBytes: content.length,
    sha256: createHash("sha256").update(content).digest("hex"),
  });
  return id;
}

describe("files from before key ids", () => {
  it("D2 open with the current key or an old one; their rows say disk and name no key", async () => {
    const id = await legacyFile(KEY_2025, PDF_BYTES);
    expect(await rowOf(id)).toMatchObject({ storage: "disk", keyId: null });
    expect((await storageOf("disk", new FileKeyRing(KEY_2025)).read(id)).equals(PDF_BYTES)).toBe(true);
    const rotated = storageOf("disk", new FileKeyRing(KEY_2026, [KEY_2025]));
    expect((await rotated.read(id)).equals(PDF_BYTES)).toBe(true);
    await expect(storageOf("disk", new FileKeyRing(KEY_2026)).read(id)).rejects.toThrow(/no configured key/);
  });
});

describe("D4 the sweeper of DATA_DIR/files", () => {
  it("D4 removes files no row references and unfinished .part files after an hour; keeps the rest", async () => {
    const files = storageOf("disk", new FileKeyRing(KEY_2026));
    const referenced = await store(files, PDF_BYTES);
    const dir = path.join(t.dataDir, "files");
    const orphan = crypto.randomUUID();
    const youngOrphan = crypto.randomUUID();
    const partial = crypto.randomUUID();
    writeFileSync(path.join(dir, `${orphan}.bin`), randomBytes(100));
    writeFileSync(path.join(dir, `${youngOrphan}.bin`), randomBytes(100));
    writeFileSync(path.join(dir, `${partial}.part`), randomBytes(100));
    writeFileSync(path.join(dir, "README"), "not ours");
    const now = Date.now();
    const twoHoursAgo = new Date(now - 2 * HOUR);
    for (const name of [`${orphan}.bin`, `${partial}.part`, `${referenced}.bin`]) {
      utimesSync(path.join(dir, name), twoHoursAgo, twoHoursAgo);
    }
    // A file whose content was removed (its row kept, storage "none") counts as unreferenced.
    const replaced = await store(files, PDF_BYTES);
    await t.database.db.update(storedFiles).set({ storage: "none" }).where(eq(storedFiles.id, replaced));
    utimesSync(path.join(dir, `${replaced}.bin`), twoHoursAgo, twoHoursAgo);

    const result = await files.sweep(new Date(now));
    const left = new Set(readdirSync(dir));
    expect(left.has(`${orphan}.bin`)).toBe(false);
    expect(left.has(`${partial}.part`)).toBe(false);
    expect(left.has(`${replaced}.bin`)).toBe(false);
    expect(left.has(`${referenced}.bin`)).toBe(true);
    expect(left.has(`${youngOrphan}.bin`)).toBe(true);
    expect(left.has("README")).toBe(true);
    expect(result.removed).toBe(3);
    // An hour later the young orphan goes too; the referenced file never does.
    await files.sweep(new Date(now + SWEEP_AFTER_MS + 60_000));
    expect(existsSync(path.join(dir, `${youngOrphan}.bin`))).toBe(false);
    expect((await files.read(referenced)).equals(PDF_BYTES)).toBe(true);
  });
});

describe("moving files from disk into the database at start-up", () => {
  it("moves each file once, sealed again with the current key, and deletes it from disk; running again moves nothing", async () => {
    await t.database.db.delete(storedFiles).where(eq(storedFiles.storage, "disk"));
    const disk = storageOf("disk", new FileKeyRing(KEY_2025));
    const content = pdfOf(700 * 1024);
    const chunked = await store(disk, content);
    const legacy = await legacyFile(KEY_2025, PDF_BYTES);
    const lost = await legacyFile(KEY_2025, PDF_BYTES);
    rmSync(disk.pathOf(lost));

    const database = storageOf("database", new FileKeyRing(KEY_2026, [KEY_2025]));
    const first = await database.moveToDatabase();
    expect(first.moved.sort()).toEqual([chunked, legacy].sort());
    expect(first.missing).toEqual([lost]);
    for (const id of [chunked, legacy]) {
      expect(await rowOf(id)).toMatchObject({ storage: "database", keyId: keyIdOf(KEY_2026) });
      expect(existsSync(disk.pathOf(id))).toBe(false);
    }
    expect((await database.read(chunked)).equals(content)).toBe(true);
    expect((await database.read(legacy)).equals(PDF_BYTES)).toBe(true);
    expect(await rowOf(lost)).toMatchObject({ storage: "disk" });

    const again = await database.moveToDatabase();
    expect(again.moved).toEqual([]);
    expect(again.missing).toEqual([lost]);
    // The disk storage moves nothing.
    expect((await disk.moveToDatabase()).moved).toEqual([]);
    await t.database.db.delete(storedFiles).where(eq(storedFiles.id, lost));
  });
});

describe.each(["disk", "database"] as const)("D3 export and erasure on the %s storage", (mode) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await createTestApp({ fileStorage: mode });
  });
  afterAll(async () => {
    await app?.close();
  });

  it("D3 the export carries the passport, and erasure removes its content in the same step", async () => {
    const made = await createPaidReadyApplication(app.app, {}, { remoteAddress: "198.51.100.77" });
    const owner = await loginAsAdmin(app.app, "owner");
    const [row] = await app.database.db.select().from(applicants).where(eq(applicants.id, made.applicantId));
    const fileId = row!.passportFileId!;
    const [file] = await app.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
    expect(file!.storage).toBe(mode);
    expect(await fileContentExists(app, fileId)).toBe(true);

    const headers = { cookie: owner.cookie, origin: "http://localhost:3000" };
    const exported = await app.app.inject({
      url: `/api/admin/applicants/${made.applicantId}/export`,
      headers,
    });
    expect(exported.statusCode).toBe(200);
    const data = exported.json();
    expect(data.files).toEqual([expect.objectContaining({ id: fileId, kind: "passport", current: true })]);
    expect(Buffer.from(data.passport.contentBase64, "base64").equals(PDF_BYTES)).toBe(true);

    const erased = await app.app.inject({
      method: "POST",
      url: `/api/admin/applicants/${made.applicantId}/erase`,
      headers,
      payload: { confirm: "ERASE" },
    });
    expect(erased.statusCode).toBe(200);
    expect(await fileContentExists(app, fileId)).toBe(false);
    expect(await app.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId))).toEqual([]);
    expect(await app.database.db.select().from(fileChunks).where(eq(fileChunks.fileId, fileId))).toEqual([]);
  });

  it("D3 a new passport replaces the old one's content in the transaction that records it", async () => {
    const made = await createPaidReadyApplication(app.app, {}, { remoteAddress: "198.51.100.78" });
    const [before] = await app.database.db
      .select()
      .from(applicants)
      .where(eq(applicants.id, made.applicantId));
    const oldId = before!.passportFileId!;
    const body = passportUpload(made.applicantId, PDF_BYTES);
    const res = await app.app.inject({
      method: "POST",
      url: "/api/upload-passport",
      headers: { ...body.headers, cookie: made.cookie },
      payload: body.payload,
      remoteAddress: "198.51.100.78",
    });
    expect(res.statusCode).toBe(201);
    const [after] = await app.database.db
      .select()
      .from(applicants)
      .where(eq(applicants.id, made.applicantId));
    expect(after!.passportFileId).not.toBe(oldId);
    expect(await fileContentExists(app, oldId)).toBe(false);
    const [oldRow] = await app.database.db.select().from(storedFiles).where(eq(storedFiles.id, oldId));
    expect(oldRow!.storage).toBe("none");
    expect(await fileContentExists(app, after!.passportFileId!)).toBe(true);
  });
});
