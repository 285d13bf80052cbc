import { and, eq, isNull } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { visaLetters } from "../../db/schema";

/** Why a visa invitation letter was revoked (src/shared/letters.ts `visaLetterRevocation`). */
export type RevocationReason = "withdrawn" | "cancelled" | "rejected" | "refunded" | "erased";

/**
 * Revokes the live visa invitation letter of an application in the caller's transaction (docs/product/admissions.md#visa-letter:
 * "its verification is revoked when the application is withdrawn, cancelled, refunded or
 * erased"; decision 018). Called where those changes happen (status change, erasure); the public
 * verification also derives the same answer from the application's live state, so a change made
 * elsewhere (a full refund) is revoked at the next check. Returns how many letters it revoked.
 */
export async function revokeVisaLetters(
  tx: Tx,
  applicationId: string,
  reason: RevocationReason,
  at: Date,
): Promise<number> {
  const rows = await tx
    .update(visaLetters)
    .set({ revokedAt: at, revokedReason: reason })
    .where(and(eq(visaLetters.applicationId, applicationId), isNull(visaLetters.revokedAt)))
    .returning({ id: visaLetters.id });
  return rows.length;
}
