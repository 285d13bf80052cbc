import { readFileSync } from "node:fs";
import { hash, verify } from "@node-rs/argon2";
import { passwordLengthIssue } from "../../../shared/schemas/password";
import { HttpError } from "../../lib/errors";

/**
 * argon2id parameters of the OWASP Password Storage Cheat Sheet (m=19 MiB, t=2, p=1; ASVS 11.4.2).
 * `@node-rs/argon2` uses argon2id by default; every hash starts with `$argon2id$v=19$m=19456,t=2,p=1$`.
 */
const ARGON2_OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, outputLen: 32 } as const;

/** The list of common passwords (one per line, lower-case), loaded once. */
const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line.length > 0),
);

/** True when `password` is on the shipped list of common passwords (compared case-insensitively). */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

/**
 * The password policy of docs/product/security.md#s4-password-storage-and-policy / ASVS 6.2: 8 to 128 characters, no composition rules, not a
 * common password. Returns the message key of the first broken rule (`errors.passwordTooShort`,
 * `errors.passwordTooLong`, `errors.passwordCommon`), or null when the password is acceptable.
 * The length rule (ASVS 6.2.1, 6.2.9) is the one every form checks (src/shared/schemas/password.ts).
 */
export function passwordPolicyIssue(password: string): string | null {
  const lengthIssue = passwordLengthIssue(password);
  if (lengthIssue) return lengthIssue;
  if (isCommonPassword(password)) return "errors.passwordCommon";
  return null;
}

/** Throws 400 `{ message, fieldErrors: { password } }` when `password` breaks the policy (see `passwordPolicyIssue`). */
export function assertPasswordPolicy(password: string): void {
  const issue = passwordPolicyIssue(password);
  if (issue) throw new HttpError(400, issue, { fieldErrors: { password: issue } });
}

/** Hashes a password with argon2id (PHC string, random 16-byte salt). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS);
}

/** A hash of the same parameters, computed once at start-up, for accounts that do not exist. */
const DUMMY_HASH: Promise<string> = hashPassword("dummy password for unknown accounts");

/**
 * Verifies a password against a stored hash. With no stored hash (unknown e-mail, account without
 * a password) it verifies against a dummy hash of the same parameters and returns false, so the
 * answer takes as long whether or not the account exists (ASVS 6.3.8: no user enumeration by timing).
 */
export async function verifyPassword(
  storedHash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!storedHash) {
    await verify(await DUMMY_HASH, password).catch(() => false);
    return false;
  }
  try {
    return await verify(storedHash, password);
  } catch {
    return false;
  }
}
