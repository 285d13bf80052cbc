import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { applications, payments } from "../../db/schema";
import type { Env } from "../../env";
import { accrueCommissionForPayment } from "./accrue";

/**
 * Fulfilment step `commission` of an accepted payment (docs/product/codes-and-partners.md#commissions, decision 022): the affiliate's
 * commission entry, from the payment's invoice (run it after the `invoice` step). What the
 * application had paid before comes from the payment (`paid_before_cents`), the total from the quote
 * the payment paid (or, for a balance, the application's total), so a retry computes what the first
 * try would have. Idempotent (one entry per payment: `accrueCommissionForPayment`).
 */
export async function commissionStep(tx: Tx, p: { paymentId: string; env: Env; at: Date }): Promise<void> {
  const [row] = await tx
    .select({ payment: payments, total: applications.totalAmountCents })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.applicationId))
    .where(eq(payments.id, p.paymentId));
  if (!row) return;
  const paidBefore = row.payment.paidBeforeCents ?? 0;
  await accrueCommissionForPayment(tx, {
    paymentId: p.paymentId,
    paidBefore,
    total: row.payment.quote?.totalAmount ?? row.total ?? paidBefore + row.payment.amountCents,
    env: p.env,
    at: p.at,
  });
}
