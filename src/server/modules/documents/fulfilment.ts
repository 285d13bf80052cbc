import { eq } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { payments } from "../../db/schema";
import type { Env } from "../../env";
import { issueInvoiceForPayment } from "./invoices";

/**
 * Fulfilment step `invoice` of an accepted payment (docs/product/admissions.md#documents-and-letters): issues the payment's
 * invoice from the quote stored with the payment (`payments.quote`; a balance payment has none and
 * takes its session's, as `issueInvoiceForPayment` does), dated `at`. None for an amount of 0 or a
 * flagged payment. Idempotent: a payment has one invoice, a second call finds it. Throws what the
 * database throws (the caller records the failure and retries).
 */
export async function invoiceStep(tx: Tx, p: { paymentId: string; env: Env; at: Date }): Promise<void> {
  const [payment] = await tx
    .select({ quote: payments.quote })
    .from(payments)
    .where(eq(payments.id, p.paymentId));
  if (!payment) return;
  await issueInvoiceForPayment(tx, { paymentId: p.paymentId, env: p.env, at: p.at, quote: payment.quote });
}
