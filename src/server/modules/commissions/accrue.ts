import { and, eq, ne, sql } from "drizzle-orm";
import { clawbackForRefund, commissionForPayment } from "../../../shared/commissions";
import { sameMailbox } from "../../../shared/email-address";
import type { Tx } from "../../db/client";
import {
  affiliates,
  applicants,
  applications,
  commissionEntries,
  invoices,
  payments,
  refunds,
  students,
  summerSchools,
} from "../../db/schema";
import type { Env } from "../../env";
import { rateOf, releaseAt } from "./ledger";

/**
 * Why an application's payment earns no commission although an affiliate is credited with it
 * (docs/product/codes-and-partners.md#self-referral: "No commission for self-referral, for suspended or pending affiliates"), or null when it
 * earns one. A self-referral: the applicant's or the paying student account's address delivers to
 * the affiliate's own mailbox (`sameMailbox`).
 */
export function noCommissionReason(
  affiliate: { status: string; email: string },
  applicantEmail: string,
  studentEmail: string | null,
): "not_approved" | "self_referral" | null {
  if (affiliate.status !== "approved") return "not_approved";
  // One mailbox, however the address is written: `ann+self@` and `a.nn@gmail.com` are Ann's (docs/product/codes-and-partners.md#self-referral).
  if (sameMailbox(applicantEmail, affiliate.email)) return "self_referral";
  if (studentEmail && sameMailbox(studentEmail, affiliate.email)) return "self_referral";
  return null;
}

/**
 * Writes the commission entry of one accepted payment of a referred application, in the payment's
 * transaction (docs/product/codes-and-partners.md#commissions: "Each payment of a referred application (deposit and balance) creates a
 * commission entry on the amount paid excluding VAT"; decision 022). Called right after the
 * payment's invoice is issued, so the amount excluding VAT is the invoice's; a payment without an
 * invoice (flagged, or of 0) earns nothing until it is accepted.
 *
 * - `paidBefore`: what the application had paid (accepted, gross cents) before this payment;
 *   `total`: the application's total, cents. They spread a fixed rate over deposit and balance.
 * - The entry is held until `releaseAt(start, COMMISSION_RELEASE_DAYS_BEFORE_START)`, or available at
 *   once when the payment comes after that.
 * - Nothing is written for an application no affiliate is credited with, for a pending, rejected or
 *   suspended affiliate, for a self-referral, or twice for one payment (a redelivered webhook: the
 *   unique index on `payment_id` and `on conflict do nothing`).
 *
 * Returns the entry's amount in cents, or null when no entry was written.
 */
export async function accrueCommissionForPayment(
  tx: Tx,
  p: { paymentId: string; paidBefore: number; total: number; env: Env; at: Date },
): Promise<number | null> {
  const [row] = await tx
    .select({
      payment: payments,
      application: applications,
      applicantEmail: applicants.email,
      studentEmail: students.email,
      startDate: summerSchools.startDate,
    })
    .from(payments)
    .innerJoin(applications, eq(applications.id, payments.applicationId))
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .leftJoin(students, eq(students.id, applications.studentId))
    .where(eq(payments.id, p.paymentId));
  if (!row?.application.affiliateId || row.payment.flag || row.payment.amountCents <= 0) return null;
  const [affiliate] = await tx
    .select()
    .from(affiliates)
    .where(eq(affiliates.id, row.application.affiliateId));
  if (!affiliate || noCommissionReason(affiliate, row.applicantEmail, row.studentEmail)) return null;
  const [invoice] = await tx
    .select({ snapshot: invoices.snapshot })
    .from(invoices)
    .where(and(eq(invoices.paymentId, p.paymentId), eq(invoices.kind, "invoice")));
  if (!invoice) return null;
  const vat = invoice.snapshot.vat;
  const netPaid = vat.mode === "included" ? vat.netAmount : row.payment.amountCents;
  const rate = rateOf(affiliate);
  const amount = commissionForPayment(rate, {
    netPaid,
    paidBefore: p.paidBefore,
    paidAfter: p.paidBefore + row.payment.amountCents,
    total: p.total,
  });
  if (amount === 0) return null;
  const release = releaseAt(row.startDate, p.env.COMMISSION_RELEASE_DAYS_BEFORE_START);
  const inserted = await tx
    .insert(commissionEntries)
    .values({
      affiliateId: affiliate.id,
      applicationId: row.application.id,
      paymentId: p.paymentId,
      kind: "payment",
      amountCents: amount,
      baseCents: netPaid,
      rate,
      availableAt: new Date(Math.max(release.getTime(), p.at.getTime())),
      createdAt: p.at,
    })
    .onConflictDoNothing()
    .returning({ amount: commissionEntries.amountCents });
  return inserted[0]?.amount ?? null;
}

/**
 * Writes the clawback of one succeeded refund, in the refund's transaction (docs/product/payments.md#refunds: "A refund
 * creates a negative entry in proportion (clawback), also after payout, netted in the next payout;
 * rounding is done so that a full refund claws back exactly what was earned"; decision 022).
 *
 * The share is computed on the payment's cumulative refunds (`clawbackForRefund`), so refunds in
 * parts add up to the whole commission. A clawback of a commission still on hold shares its hold
 * (they net out in the same state); otherwise it is available at once and the next payout nets it.
 * Nothing is written when the refunded payment earned no commission, or twice for one refund (the
 * unique index on `refund_id`). Returns the (negative) amount in cents, or null.
 */
export async function clawBackCommissionForRefund(
  tx: Tx,
  p: { refundId: string; at: Date },
): Promise<number | null> {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, p.refundId));
  if (refund?.status !== "succeeded" || refund.amountCents <= 0) return null;
  const [earned] = await tx
    .select()
    .from(commissionEntries)
    .where(and(eq(commissionEntries.paymentId, refund.paymentId), eq(commissionEntries.kind, "payment")));
  if (!earned) return null;
  const [payment] = await tx.select().from(payments).where(eq(payments.id, refund.paymentId));
  if (!payment) return null;
  const [before] = await tx
    .select({ sum: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(
      and(eq(refunds.paymentId, payment.id), eq(refunds.status, "succeeded"), ne(refunds.id, refund.id)),
    );
  const refundedBefore = Number(before?.sum ?? 0);
  const amount = clawbackForRefund(earned.amountCents, {
    paymentAmount: payment.amountCents,
    refundedBefore,
    refundedAfter: refundedBefore + refund.amountCents,
  });
  if (amount === 0) return null;
  const [creditNote] = await tx
    .select({ snapshot: invoices.snapshot })
    .from(invoices)
    .where(eq(invoices.refundId, refund.id));
  const vat = creditNote?.snapshot.vat;
  const base = vat?.mode === "included" ? vat.netAmount : -refund.amountCents;
  const stillHeld = !earned.payoutId && earned.availableAt > p.at;
  const inserted = await tx
    .insert(commissionEntries)
    .values({
      affiliateId: earned.affiliateId,
      applicationId: earned.applicationId,
      paymentId: payment.id,
      refundId: refund.id,
      kind: "refund",
      amountCents: amount,
      baseCents: base,
      rate: earned.rate,
      availableAt: stillHeld ? earned.availableAt : p.at,
      createdAt: p.at,
    })
    .onConflictDoNothing()
    .returning({ amount: commissionEntries.amountCents });
  return inserted[0]?.amount ?? null;
}
