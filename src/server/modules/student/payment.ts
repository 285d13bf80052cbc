import { and, asc, eq, isNull } from "drizzle-orm";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import type { LedgerEntry, StudentPayment } from "../../../shared/schemas/student-payment";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { checkoutSessions, payments, refunds } from "../../db/schema";
import { localize } from "../../lib/localize";
import type { ApplicationRow, SchoolRow } from "./ownership";

/**
 * The payment page of one application (`GET /api/student/applications/:id/payment`; docs/product/payments.md#checkout-session: "Student
 * portal in full", Balances; decision 016): its ledger (each accepted payment and each refund of
 * one, oldest first) and what is owed by the shared rule. Flagged payments (money that did not pay
 * the application, docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch) are left out until an admin accepts them; their refunds too.
 */
export async function studentPayment(
  db: Db,
  row: { application: ApplicationRow; school: SchoolRow },
  language: Language,
  now: Date,
): Promise<StudentPayment> {
  const { application, school } = row;
  const paid = await db
    .select()
    .from(payments)
    .where(and(eq(payments.applicationId, application.id), isNull(payments.flag)))
    .orderBy(asc(payments.paidAt));
  const refundRows = await db
    .select({ refund: refunds })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(and(eq(refunds.applicationId, application.id), isNull(payments.flag)))
    .orderBy(asc(refunds.createdAt));
  const [processing] = await db
    .select({ id: checkoutSessions.id })
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.applicationId, application.id),
        eq(checkoutSessions.kind, "balance"),
        eq(checkoutSessions.status, "complete"),
        eq(checkoutSessions.paymentStatus, "unpaid"),
      ),
    )
    .limit(1);
  const total = application.totalAmountCents;
  const entries: LedgerEntry[] = [
    ...paid.map(
      (p): LedgerEntry => ({
        id: p.id,
        type: "payment",
        paid: p.kind === "balance" ? "balance" : total !== null && p.amountCents < total ? "deposit" : "full",
        amount: p.amountCents,
        currency: p.currency,
        at: p.paidAt.toISOString(),
        reference: p.providerReference,
        status: "succeeded",
      }),
    ),
    ...refundRows.map(
      ({ refund }): LedgerEntry => ({
        id: refund.id,
        type: "refund",
        paid: null,
        amount: refund.amountCents,
        currency: refund.currency,
        at: (refund.succeededAt ?? refund.createdAt).toISOString(),
        reference: refund.providerRefundId ?? "",
        status: refund.status,
      }),
    ),
  ].sort((a, b) => a.at.localeCompare(b.at));
  const refunded = refundRows
    .filter(({ refund }) => refund.status === "succeeded")
    .reduce((sum, { refund }) => sum + refund.amountCents, 0);
  // The one payment-status rule (docs/product/payments.md#payment-status): the balance is the total minus what was paid net of refunds.
  const balance = balanceOf(balanceFactsOf(application, refunded, school.startDate), schoolDate(now));
  return {
    applicationId: application.id,
    programName: localize(school.name, language),
    startDate: school.startDate,
    endDate: school.endDate,
    state: balance.state,
    total,
    depositPercent: school.depositPercent < 100 ? school.depositPercent : null,
    paid: application.amountPaidCents,
    refunded,
    balanceDue: balance.balanceDue,
    dueDate: balance.dueDate,
    overdue: balance.overdue,
    processing: Boolean(processing) && balance.balanceDue > 0,
    entries,
  };
}
