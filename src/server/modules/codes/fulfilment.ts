import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { payments } from "../../db/schema";
import { redeemHeldCode } from "./service";

/**
 * Fulfilment step `codeRedemption` of an accepted payment (docs/product/security.md#p3-the-last-use-of-a-code-goes-to-one-applicant, docs/product/security.md#p4-a-code-held-by-an-open-checkout): the code the
 * application holds for its checkout becomes a redeemed use. Idempotent (a redeemed use stays
 * redeemed; nothing held, nothing done).
 */
export async function codeRedemptionStep(tx: Tx, p: { paymentId: string; at: Date }): Promise<void> {
  const [payment] = await tx
    .select({ applicationId: payments.applicationId })
    .from(payments)
    .where(eq(payments.id, p.paymentId));
  if (payment) await redeemHeldCode(tx, payment.applicationId, p.at);
}
