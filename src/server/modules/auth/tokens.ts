import { and, eq, gt, inArray, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { accountTokens } from "../../db/schema";
import { hashToken, newToken } from "../../lib/tokens";
import type { Role } from "./sessions";

/** What a one-time token is for: password reset, e-mail verification, admin invitation, set password, e-mail change. */
export type TokenPurpose = (typeof accountTokens.$inferSelect)["purpose"];

/** Lifetimes of the e-mailed one-time links (contract: reset 1 hour, admin invitation 24 hours). */
export const TOKEN_TTL_MS: Record<TokenPurpose, number> = {
  password_reset: 3600_000,
  email_verification: 24 * 3600_000,
  admin_invite: 24 * 3600_000,
  set_password: 24 * 3600_000,
  email_change: 24 * 3600_000,
};

/** Creates a one-time token (only its SHA-256 stored); earlier unused tokens of the same purpose stop working. */
export async function issueToken(
  tx: Tx,
  at: Date,
  spec: { purpose: TokenPurpose; role: Role; accountId: string; ttlMs?: number },
): Promise<{ token: string; id: string }> {
  await tx
    .update(accountTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(accountTokens.role, spec.role),
        eq(accountTokens.accountId, spec.accountId),
        eq(accountTokens.purpose, spec.purpose),
        isNull(accountTokens.usedAt),
      ),
    );
  const token = newToken();
  const [row] = await tx
    .insert(accountTokens)
    .values({
      tokenHash: hashToken(token),
      purpose: spec.purpose,
      role: spec.role,
      accountId: spec.accountId,
      expiresAt: new Date(at.getTime() + (spec.ttlMs ?? TOKEN_TTL_MS[spec.purpose])),
      createdAt: at,
    })
    .returning({ id: accountTokens.id });
  return { token, id: row!.id };
}

/** Uses up a token atomically: the account id, or null for an unknown, expired, used or other-role token. */
export async function consumeToken(
  tx: Tx,
  at: Date,
  role: Role,
  purposes: TokenPurpose[],
  token: string,
): Promise<string | null> {
  const [row] = await tx
    .update(accountTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(accountTokens.tokenHash, hashToken(token)),
        eq(accountTokens.role, role),
        inArray(accountTokens.purpose, purposes),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, at),
      ),
    )
    .returning({ accountId: accountTokens.accountId });
  return row?.accountId ?? null;
}
