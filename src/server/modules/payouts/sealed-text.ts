import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import type { FileKeyRing } from "../files";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Additional data of an affiliate's payout details: they open only on that affiliate's row. */
export const affiliateDetailsAad = (affiliateId: string) => `hss-payout-details\0${affiliateId}`;
/** Additional data of the copy of the details on a payout: it opens only on that payout's row. */
export const payoutDetailsAad = (payoutId: string) => `hss-payout-copy\0${payoutId}`;

/**
 * Seals a short text (payout details as JSON) with AES-256-GCM, a random 12-byte IV and `aad` as
 * additional data (docs/product/codes-and-partners.md#payout-details: "stored encrypted and bound to the affiliate"; docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs). The
 * result is `v1.<keyId>.<base64 of IV, ciphertext, tag>`, so a rotated file key (decision 012)
 * still opens older values. The key material is the file encryption key ring's.
 */
export function sealText(keys: FileKeyRing, aad: string, plain: string): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", keys.current.key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1.${keys.current.id}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64")}`;
}

/**
 * Opens a value sealed by `sealText` with the same `aad`. Throws when the value was altered,
 * sealed for another row (another additional data) or with a key that is not configured.
 */
export function openText(keys: FileKeyRing, aad: string, sealed: string): string {
  const [version, keyId, data] = sealed.split(".");
  if (version !== "v1" || !keyId || !data) throw new Error("unknown sealed text format");
  const bytes = Buffer.from(data, "base64");
  if (bytes.length < IV_BYTES + TAG_BYTES) throw new Error("sealed text too short");
  const decipher = createDecipheriv("aes-256-gcm", keys.get(keyId), bytes.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
  return Buffer.concat([
    decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)),
    decipher.final(),
  ]).toString("utf8");
}
