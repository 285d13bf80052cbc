import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db, Tx } from "../../db/client";
import type { PaymentStatus } from "../../db/schema";
import { applications, payments, refunds } from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import { clawBackCommissionForRefund } from "../commissions";
import { issueCreditNoteForRefund, queueRefundEmail } from "../documents";
import type { MailService } from "../mail";
import type { RefundState } from "../payments";

/** What the "refund made" e-mail needs of the configuration (APP_ORIGIN, SUPPORT_EMAIL). */
export interface RefundNotice {
  origin: string;
  supportEmail: string;
  /** Queues the "refund made" e-mail like every other one (head, school footer, outbox). */
  mail: Pick<MailService, "enqueue">;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The payment status an application has once `refundedCents` of `paidCents` came back (docs/product/back-office.md#finance): all of it → `refunded`, part of it → `partially_refunded`, nothing → unchanged.
 */
export function paymentStatusAfterRefunds(
  current: PaymentStatus,
  paidCents: number,
  refundedCents: number,
): PaymentStatus {
  if (refundedCents <= 0) return current;
  return refundedCents >= paidCents ? "refunded" : "partially_refunded";
}

/**
 * Sum of the succeeded refunds of an application's accepted payments, cents. Refunds of flagged
 * payments (money that never paid the application, docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch) are not counted.
 */
export async function succeededRefundsOf(tx: Tx, applicationId: string): Promise<number> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(
      and(eq(refunds.applicationId, applicationId), eq(refunds.status, "succeeded"), isNull(payments.flag)),
    );
  return Number(row?.total ?? 0);
}

/**
 * After a refund of a flagged payment succeeded: once everything that payment took came back, the
 * application's flag about it (the note naming its checkout session) is cleared (the admin's decision is carried out). Its payment status
 * does not change: that money never paid it. Returns the application's payment status.
 */
async function settleFlaggedPayment(
  tx: Tx,
  application: typeof applications.$inferSelect,
  payment: typeof payments.$inferSelect,
  now: Date,
): Promise<PaymentStatus> {
  const [row] = await tx
    .select({ total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.paymentId, payment.id), eq(refunds.status, "succeeded")));
  if (Number(row?.total ?? 0) >= payment.amountCents && application.flag?.includes(payment.providerSessionId))
    await tx
      .update(applications)
      .set({ flag: null, updatedAt: now })
      .where(eq(applications.id, application.id));
  return application.paymentStatus;
}

/**
 * Applies the provider's view of a refund to our `refunds` row, exactly once (docs/product/back-office.md#finance):
 * called by the webhook for `refund.created` / `refund.updated` / `refund.failed` events and by
 * the refund request with the provider's answer, in whichever order they come. In one transaction
 * with the application row locked: records the provider's refund id, and moves a `pending` refund
 * to `succeeded` (the application becomes `partially_refunded`, or `refunded` when everything paid
 * came back) or to `failed` / `canceled`. A refund that is no longer pending never changes again,
 * so a repeated or late event changes nothing. The row is found by `metadata.refundId`, else by the
 * provider's refund id. Returns the result written to the webhook log.
 * A refund that succeeds also issues its credit note, referring to the refunded payment's invoice,
 * and queues the "refund made" e-mail to the student (`notice`: links), in the same transaction
 * (docs/product/admissions.md#documents-and-letters, docs/product/portals.md#who-an-email-is-written-to).
 */
export async function settleRefund(
  db: Db,
  state: RefundState,
  now: Date,
  notice: RefundNotice,
): Promise<string> {
  return db.transaction(async (tx) => {
    const byOurId = state.refundId && UUID.test(state.refundId) ? eq(refunds.id, state.refundId) : null;
    const [found] = await tx
      .select({ id: refunds.id, applicationId: refunds.applicationId })
      .from(refunds)
      .where(byOurId ?? eq(refunds.providerRefundId, state.id));
    if (!found) return "ignored: unknown refund";
    const [application] = await tx
      .select()
      .from(applications)
      .where(eq(applications.id, found.applicationId))
      .for("update");
    const [refund] = await tx.select().from(refunds).where(eq(refunds.id, found.id)).for("update");
    if (!application || !refund) return "ignored: unknown refund";
    if (refund.providerRefundId && state.id && refund.providerRefundId !== state.id)
      return "ignored: another provider refund";
    if (!refund.providerRefundId && state.id)
      await tx
        .update(refunds)
        .set({ providerRefundId: state.id, updatedAt: now })
        .where(eq(refunds.id, refund.id));
    if (refund.status !== "pending") return `already ${refund.status}`;
    if (state.status === "pending") return "refund pending";

    const before = { status: refund.status, paymentStatus: application.paymentStatus };
    if (state.status === "succeeded") {
      await tx
        .update(refunds)
        .set({ status: "succeeded", succeededAt: now, updatedAt: now })
        .where(eq(refunds.id, refund.id));
      const [payment] = await tx.select().from(payments).where(eq(payments.id, refund.paymentId));
      const paymentStatus = payment?.flag
        ? await settleFlaggedPayment(tx, application, payment, now)
        : paymentStatusAfterRefunds(
            application.paymentStatus,
            application.amountPaidCents,
            await succeededRefundsOf(tx, application.id),
          );
      await tx
        .update(applications)
        .set({ paymentStatus, updatedAt: now })
        .where(eq(applications.id, application.id));
      const creditNote = await issueCreditNoteForRefund(tx, { refundId: refund.id, at: now });
      // The affiliate's clawback (docs/product/codes-and-partners.md#clawbacks, decision 022), after the credit note it takes its base from.
      await clawBackCommissionForRefund(tx, { refundId: refund.id, at: now });
      await queueRefundEmail(tx, { refundId: refund.id, creditNote, at: now, ...notice });
      await recordAudit(tx, {
        actor: { actorRole: "system", actorId: null },
        action: "refund.succeeded",
        entityType: "refund",
        entityId: refund.id,
        before,
        after: {
          status: "succeeded",
          paymentStatus,
          amountCents: refund.amountCents,
          providerRefundId: state.id,
        },
      });
      return paymentStatus;
    }
    await tx.update(refunds).set({ status: state.status, updatedAt: now }).where(eq(refunds.id, refund.id));
    await recordAudit(tx, {
      actor: { actorRole: "system", actorId: null },
      action: `refund.${state.status}`,
      entityType: "refund",
      entityId: refund.id,
      before,
      after: { status: state.status, providerRefundId: state.id },
    });
    return `refund ${state.status}`;
  });
}
