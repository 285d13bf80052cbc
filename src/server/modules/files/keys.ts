import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

/** An AES-256 key and its id. */
export interface FileKey {
  /** 16 hex characters: the start of SHA-256 over a label and the key (reveals nothing of it). */
  id: string;
  key: Buffer;
}

/**
 * The id of a file key (decision 012): derived from the key itself, so that it cannot be
 * misconfigured, stays the same on every machine, and a rotated key is recognised by its id.
 */
export function keyIdOf(key: Buffer): string {
  return createHash("sha256").update("hss-file-key\0").update(key).digest("hex").slice(0, 16);
}

/**
 * The keys of the file encryption (decision 012): `current` encrypts every new file; every key,
 * the old ones included, decrypts the files that name its id. Throws when a key is not 32 bytes.
 */
export class FileKeyRing {
  readonly current: FileKey;
  private readonly byId = new Map<string, Buffer>();

  constructor(current: Buffer, old: Buffer[] = []) {
    for (const key of [current, ...old]) {
      if (key.length !== 32) throw new Error("a file encryption key must be 32 bytes (base64)");
      this.byId.set(keyIdOf(key), key);
    }
    this.current = { id: keyIdOf(current), key: current };
  }

  /** The key of `id`; throws (naming the id only) when it is not configured. */
  get(id: string): Buffer {
    const key = this.byId.get(id);
    if (!key) throw new Error(`file key ${id} is not configured (FILE_ENCRYPTION_KEYS_OLD)`);
    return key;
  }

  /** Every key, the current one first (for files written before key ids). */
  all(): Buffer[] {
    return [this.current.key, ...[...this.byId.values()].filter((k) => k !== this.current.key)];
  }
}

/**
 * The current file key: FILE_ENCRYPTION_KEY (base64, 32 bytes) when set, else a key generated
 * once into `<dataDir>/secrets/file-key` (mode 600) so a fresh machine works without set-up. The
 * configuration requires the variable with DATABASE_URL (decision 012), since a generated key is
 * one machine's.
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

/**
 * The key ring of the configuration: FILE_ENCRYPTION_KEY (or the generated key) as the current
 * key, FILE_ENCRYPTION_KEYS_OLD (base64, already split and checked by `env.ts`) as old keys.
 */
export function loadFileKeys(env: {
  FILE_ENCRYPTION_KEY?: string;
  FILE_ENCRYPTION_KEYS_OLD: string[];
  DATA_DIR: string;
}): FileKeyRing {
  return new FileKeyRing(
    loadFileKey(env.FILE_ENCRYPTION_KEY, env.DATA_DIR),
    env.FILE_ENCRYPTION_KEYS_OLD.map((k) => Buffer.from(k, "base64")),
  );
}
