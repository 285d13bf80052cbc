import { createHmac, randomBytes } from "node:crypto";

/**
 * The key of one visitor's visit on one code on one day, for counting clicks (docs/product/codes-and-partners.md#partner-figures;
 * decision 036): `<day>:<HMAC-SHA256 of the code's id, the network address and the browser's
 * user agent>`, keyed with a random secret made for that day and kept only in this process's
 * memory (dropped when the day changes). One visitor counts once per code and day with or without
 * cookie consent, nothing is written on the visitor's device, the address is never stored, and
 * the keys of two days (or of a restarted server) cannot be linked, nor turned back into an address.
 * A restart or a second server process makes a new secret: a visitor may then count once more that day.
 */
const secrets = new Map<string, Buffer>();

export function visitKey(day: string, codeId: string, address: string, userAgent: string): string {
  for (const known of secrets.keys()) if (known !== day) secrets.delete(known);
  let secret = secrets.get(day);
  if (!secret) {
    secret = randomBytes(32);
    secrets.set(day, secret);
  }
  const hash = createHmac("sha256", secret).update(`${codeId}\n${address}\n${userAgent}`).digest("hex");
  return `${day}:${hash.slice(0, 32)}`;
}
