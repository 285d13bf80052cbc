import { createCipheriv, createDecipheriv, createHash, type Hash, randomBytes } from "node:crypto";
import type { FileKey } from "./keys";

/** Plaintext bytes per chunk: every chunk but the last holds exactly this much (decision 012). */
export const CHUNK_BYTES = 256 * 1024;
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Size of a sealed chunk of CHUNK_BYTES: IV, ciphertext, tag. */
export const SEALED_CHUNK_BYTES = IV_BYTES + CHUNK_BYTES + TAG_BYTES;

/** Additional data of a chunk: a chunk cannot be moved to another file or another place. */
const aad = (fileId: string, index: number) => Buffer.from(`hss-file-chunk\0${fileId}\0${index}`);

/**
 * Seals one chunk of file `fileId` at position `index` (decision 012, docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs): AES-256-GCM
 * with a random 12-byte IV; layout IV, ciphertext, 16-byte tag. Each chunk is authenticated on
 * its own; the file id and the index are authenticated with it.
 */
export function sealChunk(key: Buffer, fileId: string, index: number, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad(fileId, index));
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** Opens a chunk sealed by `sealChunk`; throws when it was altered, moved or sealed with another key. */
export function openChunk(key: Buffer, fileId: string, index: number, sealed: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error("sealed chunk too short");
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(aad(fileId, index));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)),
    decipher.final(),
  ]);
}

/**
 * Opens a file written before key ids and chunks: one AES-256-GCM message, laid out as 12-byte
 * IV, 16-byte tag, ciphertext. Throws when `key` is not the one it was written with.
 */
export function openLegacy(key: Buffer, data: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, data.subarray(0, IV_BYTES));
  decipher.setAuthTag(data.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(data.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

/** Splits the sealed chunks of a file laid end to end (the disk layout) into its chunks. */
export function splitSealed(data: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < data.length; at += SEALED_CHUNK_BYTES) {
    chunks.push(data.subarray(at, Math.min(at + SEALED_CHUNK_BYTES, data.length)));
  }
  return chunks;
}

/**
 * Encrypts a file as it streams in: `push` takes plaintext of any size and returns the chunks it
 * completed, sealed; `finish` seals what is left. At most one chunk of plaintext (256 KB) is held.
 * Counts the bytes and the SHA-256 of the plaintext on the way.
 */
export class ChunkSealer {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private index = 0;
  private readonly hash: Hash = createHash("sha256");
  /** Plaintext bytes pushed so far. */
  size = 0;

  constructor(
    private readonly key: FileKey,
    private readonly fileId: string,
  ) {}

  /** Takes the next piece of plaintext; returns the chunks it completed, sealed, in order. */
  push(data: Buffer): Buffer[] {
    this.hash.update(data);
    this.size += data.length;
    const sealed: Buffer[] = [];
    let rest = data;
    while (rest.length > 0) {
      const part = rest.subarray(0, CHUNK_BYTES - this.pendingBytes);
      this.pending.push(part);
      this.pendingBytes += part.length;
      rest = rest.subarray(part.length);
      if (this.pendingBytes === CHUNK_BYTES) sealed.push(this.seal());
    }
    return sealed;
  }

  /** The last chunk (the only one of an empty file), or null when the file ended on a chunk border. */
  finish(): Buffer | null {
    return this.pendingBytes > 0 || this.index === 0 ? this.seal() : null;
  }

  /** Hex SHA-256 of the plaintext (after `finish`). */
  sha256(): string {
    return this.hash.digest("hex");
  }

  private seal(): Buffer {
    const plain = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return sealChunk(this.key.key, this.fileId, this.index++, plain);
  }
}
