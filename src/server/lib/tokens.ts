import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A random token of 32 bytes (256 bits), base64url: for capabilities and sessions (ASVS 7.2.3). */
export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

/** SHA-256 of a token, hex: what the database stores instead of the token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** Constant-time comparison of a presented token with a stored hash. */
export function tokenMatches(token: string | undefined, storedHash: string): boolean {
  if (!token) return false;
  const a = Buffer.from(hashToken(token), "hex");
  const b = Buffer.from(storedHash, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
