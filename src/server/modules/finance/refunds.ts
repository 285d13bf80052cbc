import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type {
  AdminRefundablePaymentDto,
  AdminRefundDto,
  AdminRefundQuoteDto,
  AdminRefundResult,
} from "../../../shared/finance";
import type { Language } from "../../../shared/i18n/languages";
import { formatMoney } from "../../../shared/money";
import { refundQuote } from "../../../shared/refunds";
import type { RefundRequestInput } from "../../../shared/schemas/finance";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import { admins, payments, refunds, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, HttpError } from "../../lib/errors";
import { findApplication } from "../admin";
import { type PaymentProvider, PaymentProviderError } from "../payments";
import { type RefundNotice, settleRefund } from "./settle";

type RefundRow = typeof refunds.$inferSelect;
type PaymentRow = typeof payments.$inferSelect;

/** Refund statuses that hold money of a payment: what is refunded or on its way back. */
const HOLDING = ["succeeded", "pending"] as const;

/** A reservation younger than this whose provider call has not answered yet is in progress. */
const IN_PROGRESS_MS = 60_000;

export interface FinanceDeps {
  db: Db;
  /** Links of the "refund made" e-mail (APP_ORIGIN, SUPPORT_EMAIL). */
  notice: RefundNotice;
  provider: PaymentProvider;
  now: () => Date;
  log: { error: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

function refundDto(row: RefundRow, by?: { id: string; name: string; email: string } | null): AdminRefundDto {
  return {
    id: row.id,
    paymentId: row.paymentId,
    amount: row.amountCents,
    currency: row.currency,
    status: row.status,
    reason: row.reason,
    suggestedAmount: row.suggestedAmountCents,
    provider: row.provider,
    providerRefundId: row.providerRefundId,
    requestedBy: by ?? null,
    createdAt: row.createdAt.toISOString(),
    succeededAt: row.succeededAt?.toISOString() ?? null,
  };
}

/** The application's refunds, oldest first, with the admin who asked. */
async function refundsOf(tx: Tx, applicationId: string): Promise<AdminRefundDto[]> {
  const rows = await tx
    .select({ refund: refunds, id: admins.id, name: admins.name, email: admins.email })
    .from(refunds)
    .leftJoin(admins, eq(admins.id, refunds.requestedByAdminId))
    .where(eq(refunds.applicationId, applicationId))
    .orderBy(asc(refunds.createdAt), asc(refunds.id));
  return rows.map((r) =>
    refundDto(r.refund, r.id ? { id: r.id, name: r.name ?? "", email: r.email ?? "" } : null),
  );
}

/** Payments of an application with what each still holds (zero payments hold nothing to refund). */
async function refundablePayments(
  tx: Tx,
  applicationId: string,
): Promise<Array<AdminRefundablePaymentDto & { row: PaymentRow }>> {
  const rows = await tx
    .select()
    .from(payments)
    .where(eq(payments.applicationId, applicationId))
    .orderBy(asc(payments.paidAt), asc(payments.id));
  const held = await tx
    .select({
      paymentId: refunds.paymentId,
      total: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int`,
    })
    .from(refunds)
    .where(and(eq(refunds.applicationId, applicationId), inArray(refunds.status, [...HOLDING])))
    .groupBy(refunds.paymentId);
  const heldBy = new Map(held.map((h) => [h.paymentId, Number(h.total)]));
  return rows.map((row) => {
    const refunded = heldBy.get(row.id) ?? 0;
    return {
      row,
      id: row.id,
      amount: row.amountCents,
      currency: row.currency,
      provider: row.provider,
      reference: row.providerReference,
      paidAt: row.paidAt.toISOString(),
      refunded,
      refundable: row.provider === "none" ? 0 : Math.max(0, row.amountCents - refunded),
    };
  });
}

/**
 * `GET /api/admin/applications/:id/refund-quote`: the refund policy's suggestion (docs/product/payments.md#refund-policy, pure
 * rule in src/shared/refunds.ts, today taken in The Hague) for the application, with its payments
 * (and what each still holds) and refunds. 404 for an unknown application.
 */
export async function refundQuoteFor(db: Db, applicationId: string, now: Date): Promise<AdminRefundQuoteDto> {
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, applicationId);
    const [school] = await tx
      .select({ startDate: summerSchools.startDate })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const paymentList = await refundablePayments(tx, applicationId);
    const paid = paymentList.filter((p) => p.provider !== "none").reduce((sum, p) => sum + p.amount, 0);
    const refunded = paymentList.reduce((sum, p) => sum + p.refunded, 0);
    const quote = refundQuote({
      startDate: school!.startDate,
      today: schoolDate(now),
      paidCents: paid,
      refundedCents: refunded,
    });
    return {
      ...quote,
      applicationId,
      paymentStatus: application.paymentStatus,
      payments: paymentList.map(({ row: _row, ...p }) => p),
      refunds: await refundsOf(tx, applicationId),
    };
  });
}

/**
 * `POST /api/admin/applications/:id/refunds` (docs/product/back-office.md#finance): refunds part or all of a payment
 * through the provider, once.
 *
 * 1. In a transaction with the application row locked: a request whose idempotency key was seen
 *    before returns that refund (`replayed`; the same key with another amount or payment is 409);
 *    an amount ≤ 0, or above what the payment still holds (paid − succeeded − pending refunds), is
 *    422 with a plain message; otherwise a `pending` refunds row is reserved with the policy's
 *    suggestion (docs/product/payments.md#refunds) and an audit entry "refund.create".
 * 2. The provider is called with the reserved row's key, so a retry after a lost answer never
 *    refunds twice. A refused or unreachable provider marks the refund `failed` (audit
 *    "refund.failed") and answers 502; nothing else changes.
 * 3. The provider's answer goes through `settleRefund`, like its webhook events: a succeeded refund
 *    makes the application `partially_refunded` or `refunded`, exactly once.
 * `paymentId` picks the payment; by default the one that still holds the most. 404 for an unknown
 * application or a payment of another application.
 */
export async function requestRefund(
  deps: FinanceDeps,
  admin: AdminUser,
  applicationId: string,
  input: RefundRequestInput,
  language: Language,
): Promise<{ status: 200 | 201; result: AdminRefundResult }> {
  const { db, provider, now } = deps;
  const key = `refund:${applicationId}:${input.idempotencyKey}`;
  const reserved = await db.transaction(async (tx) => {
    const application = await findApplication(tx, applicationId, true);
    const [existing] = await tx.select().from(refunds).where(eq(refunds.idempotencyKey, key));
    if (existing) {
      if (
        existing.amountCents !== input.amountCents ||
        (input.paymentId && input.paymentId !== existing.paymentId)
      )
        throw new HttpError(409, "errors.finance.keyReused");
      const [payment] = await tx.select().from(payments).where(eq(payments.id, existing.paymentId));
      return { refund: existing, payment: payment!, replayed: true };
    }
    if (input.amountCents <= 0) throw new HttpError(422, "errors.finance.amountNotPositive");
    const list = await refundablePayments(tx, applicationId);
    let chosen: (typeof list)[number] | undefined;
    if (input.paymentId) {
      chosen = list.find((p) => p.id === input.paymentId);
      if (!chosen) throw adminNotFound();
    } else {
      chosen = [...list].sort((a, b) => b.refundable - a.refundable)[0];
    }
    if (!chosen || chosen.refundable <= 0) throw new HttpError(422, "errors.finance.nothingToRefund");
    if (input.amountCents > chosen.refundable)
      throw new HttpError(
        422,
        "errors.finance.amountTooHigh",
        {},
        { amount: formatMoney(chosen.refundable, language) },
      );
    const [school] = await tx
      .select({ startDate: summerSchools.startDate })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const paid = list.filter((p) => p.provider !== "none").reduce((sum, p) => sum + p.amount, 0);
    const suggestion = refundQuote({
      startDate: school!.startDate,
      today: schoolDate(now()),
      paidCents: paid,
      refundedCents: list.reduce((sum, p) => sum + p.refunded, 0),
    });
    const at = now();
    const [refund] = await tx
      .insert(refunds)
      .values({
        paymentId: chosen.id,
        applicationId,
        amountCents: input.amountCents,
        currency: chosen.currency,
        provider: chosen.provider,
        idempotencyKey: key,
        status: "pending",
        reason: input.reason,
        suggestedAmountCents: suggestion.suggestedAmountCents,
        requestedByAdminId: admin.id,
        createdAt: at,
        updatedAt: at,
      })
      .returning();
    await recordAudit(tx, {
      actor: admin,
      action: "refund.create",
      entityType: "refund",
      entityId: refund!.id,
      after: {
        applicationId,
        paymentId: chosen.id,
        amountCents: input.amountCents,
        reason: input.reason,
        suggestedAmountCents: suggestion.suggestedAmountCents,
        percent: suggestion.percent,
        daysBeforeStart: suggestion.daysBeforeStart,
      },
    });
    return { refund: refund!, payment: chosen.row, replayed: false };
  });

  const { refund, payment, replayed } = reserved;
  const inProgress = now().getTime() - refund.createdAt.getTime() < IN_PROGRESS_MS;
  const mustCall = refund.status === "pending" && !refund.providerRefundId && (!replayed || !inProgress);
  if (mustCall) {
    let answer: Awaited<ReturnType<PaymentProvider["createRefund"]>>;
    try {
      answer = await provider.createRefund({
        paymentIntentId: payment.providerReference,
        amountCents: refund.amountCents,
        idempotencyKey: refund.idempotencyKey,
        metadata: { applicationId, refundId: refund.id },
      });
    } catch (err) {
      if (!(err instanceof PaymentProviderError)) throw err;
      deps.log.error({ err, applicationId, refundId: refund.id }, "refund refused by the payment provider");
      await db.transaction(async (tx) => {
        const failed = await tx
          .update(refunds)
          .set({ status: "failed", updatedAt: now() })
          .where(and(eq(refunds.id, refund.id), eq(refunds.status, "pending")))
          .returning({ id: refunds.id });
        if (failed.length)
          await recordAudit(tx, {
            actor: admin,
            action: "refund.failed",
            entityType: "refund",
            entityId: refund.id,
            before: { status: "pending" },
            after: { status: "failed", error: err.message.slice(0, 500) },
          });
      });
      throw new HttpError(502, "errors.finance.providerFailed");
    }
    await settleRefund(
      db,
      {
        id: answer.id,
        status: answer.status,
        amountCents: refund.amountCents,
        currency: refund.currency,
        paymentIntentId: payment.providerReference,
        applicationId,
        refundId: refund.id,
      },
      now(),
      deps.notice,
    );
  }
  return db.transaction(async (tx) => {
    const application = await findApplication(tx, applicationId);
    const dto = (await refundsOf(tx, applicationId)).find((r) => r.id === refund.id)!;
    return {
      status: replayed ? 200 : 201,
      result: { refund: dto, paymentStatus: application.paymentStatus, replayed },
    };
  });
}
