import { createCipheriv, createDecipheriv, randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Private file storage for passports (decisions.md §3, checklist I1 and D2): files live under
 * `<dataDir>/files` (never a public folder) under a random id, encrypted with AES-256-GCM.
 * Layout of a stored file: 12-byte IV, 16-byte auth tag, ciphertext.
 */
export class FileStorage {
  private readonly dir: string;

  constructor(
    dataDir: string,
    private readonly key: Buffer,
  ) {
    if (key.length !== 32) throw new Error("FILE_ENCRYPTION_KEY must be 32 bytes (base64)");
    this.dir = path.join(dataDir, "files");
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  /** Encrypts and writes `content`; returns the new storage id (a UUID). */
  async save(content: Buffer, id: string = randomUUID()): Promise<string> {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const encrypted = Buffer.concat([cipher.update(content), cipher.final()]);
    await writeFile(this.pathOf(id), Buffer.concat([iv, cipher.getAuthTag(), encrypted]), { mode: 0o600 });
    return id;
  }

  /** Reads and decrypts a file; throws when it is missing or was tampered with. */
  async read(id: string): Promise<Buffer> {
    const data = await readFile(this.pathOf(id));
    const decipher = createDecipheriv("aes-256-gcm", this.key, data.subarray(0, IV_BYTES));
    decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
  }

  async remove(id: string): Promise<void> {
    await rm(this.pathOf(id), { force: true });
  }

  /** Where a file is stored (ids are UUIDs, so no path can escape the folder). */
  pathOf(id: string): string {
    if (!/^[0-9a-f-]{36}$/.test(id)) throw new Error("invalid file id");
    return path.join(this.dir, `${id}.bin`);
  }
}

/**
 * The file encryption key: FILE_ENCRYPTION_KEY (base64, 32 bytes) when set, else a key generated
 * once into `<dataDir>/secrets/file-key` (mode 600) so a fresh machine works without set-up.
 */
export function loadFileKey(configured: string | undefined, dataDir: string): Buffer {
  if (configured) return Buffer.from(configured, "base64");
  const dir = path.join(dataDir, "secrets");
  const file = path.join(dir, "file-key");
  if (existsSync(file)) return Buffer.from(readFileSync(file, "utf8").trim(), "base64");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const key = randomBytes(32);
  writeFileSync(file, key.toString("base64"), { mode: 0o600 });
  return key;
}
