import { and, eq, inArray } from "drizzle-orm";
import type { ApplicationQuoteDto } from "../../../shared/application";
import { paymentStatusAfterPayment } from "../../../shared/balance";
import type { Language } from "../../../shared/i18n/languages";
import { isLanguage } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import { applicants, applications, checkoutSessions, payments, refunds } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { applicationForOwner, currentQuote } from "../applications";
import { claimCode, releaseHolds } from "../codes";
import { assertPlaceFor, type ClientAmounts, hasAcceptedPayment } from "./core";
import { PaymentsFulfilment } from "./fulfil";

/** Payments completed without the provider: the zero payment, and a flagged payment an admin accepts. */
export class PaymentsCompletion extends PaymentsFulfilment {
  /**
   * `POST /api/admin/applications/:id/payments/:paymentId/accept` (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): an admin
   * accepts a flagged payment as the application's payment at the price paid. The application
   * takes the choices and code of the quote that session was opened for (so its code, discount
   * and what the provider took agree), the code's use is redeemed (422 when it has no use left:
   * refund instead), the total is the quote's (for a full payment of another amount: the amount
   * paid, the difference recorded as discount) and the application is paid as by `fulfil`.
   * 409 when the application is already paid, the payment is not flagged, or part of it was
   * refunded. Returns the payment's id.
   */
  async acceptFlaggedPayment(
    applicationId: string,
    paymentId: string,
    admin: AdminUser,
  ): Promise<{ paymentId: string }> {
    const { db, now } = this.deps;
    await db.transaction(async (tx) => {
      const [application] = await tx
        .select()
        .from(applications)
        .where(eq(applications.id, applicationId))
        .for("update");
      const [payment] = await tx
        .select()
        .from(payments)
        .where(and(eq(payments.id, paymentId), eq(payments.applicationId, applicationId)));
      if (!application || !payment) throw new HttpError(404, "errors.notFound");
      if (!payment.flag) throw new HttpError(409, "errors.paymentNotFlagged");
      const [paidSession] = await tx
        .select({ kind: checkoutSessions.kind })
        .from(checkoutSessions)
        .where(eq(checkoutSessions.providerSessionId, payment.providerSessionId));
      if (paidSession?.kind === "balance") {
        // Money of a balance session that did not match what was owed: accepted as (part of) the
        // balance when it is not more than what is owed now; more must be refunded (decision 016).
        const owed = await this.owedNow(tx, application);
        if (payment.amountCents > owed || payment.currency !== "EUR")
          throw new HttpError(409, "errors.paymentExceedsBalance");
        await tx.update(payments).set({ flag: null, kind: "balance" }).where(eq(payments.id, payment.id));
        await this.recordBalancePayment(tx, application, {
          amount: payment.amountCents,
          currency: payment.currency,
          provider: payment.provider,
          sessionId: payment.providerSessionId,
          reference: payment.providerReference,
          existingPayment: true,
        });
        await tx.update(applications).set({ flag: null }).where(eq(applications.id, applicationId));
        await recordAudit(tx, {
          actor: admin,
          action: "payment.accept",
          entityType: "application",
          entityId: applicationId,
          before: { paymentStatus: application.paymentStatus, flag: payment.flag },
          after: { paymentId, kind: "balance", amountCents: payment.amountCents },
        });
        return;
      }
      if (hasAcceptedPayment(application.paymentStatus)) throw new HttpError(409, "errors.alreadyPaid");
      const [refunded] = await tx
        .select({ id: refunds.id })
        .from(refunds)
        .where(and(eq(refunds.paymentId, payment.id), inArray(refunds.status, ["pending", "succeeded"])))
        .limit(1);
      if (refunded) throw new HttpError(409, "errors.paymentRefunded");
      const [session] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.providerSessionId, payment.providerSessionId));
      const [applicant] = await tx
        .select()
        .from(applicants)
        .where(eq(applicants.id, application.applicantId));
      const language = isLanguage(applicant!.language) ? applicant!.language : "en";
      const paidQuote =
        session?.quote ?? (await currentQuote(tx, application, language, undefined, schoolDate(now()))).quote;
      const full = paidQuote.depositAmount >= paidQuote.totalAmount;
      const total = full ? payment.amountCents : paidQuote.totalAmount;
      const quote: ApplicationQuoteDto = {
        ...paidQuote,
        totalAmount: total,
        discountAmount: paidQuote.discountAmount + (paidQuote.totalAmount - total),
        depositAmount: payment.amountCents,
        remainingAmount: Math.max(0, total - payment.amountCents),
      };
      const chosen = {
        packageId: paidQuote.lineItems.find((l) => l.kind === "package")?.id ?? application.packageId,
        housingOptionId:
          paidQuote.lineItems.find((l) => l.kind === "housing")?.id ?? application.housingOptionId,
        addOnIds: paidQuote.lineItems.filter((l) => l.kind === "addOn" && !l.included).map((l) => l.id),
        appliedCodeId: paidQuote.appliedCode?.codeId ?? null,
      };
      const at = now();
      await releaseHolds(tx, applicationId, at);
      if (chosen.appliedCodeId)
        await claimCode(tx, chosen.appliedCodeId, {
          now: at,
          summerSchoolId: application.summerSchoolId,
          applicationId,
          status: "redeemed",
        });
      await tx
        .update(applications)
        .set({ ...chosen, quoteKey: session?.quoteKey ?? null })
        .where(eq(applications.id, applicationId));
      await tx.update(payments).set({ flag: null }).where(eq(payments.id, payment.id));
      const overCapacity = (await this.isFull(tx, application.summerSchoolId))
        ? "over capacity: paid after the cohort filled; refund or admit"
        : null;
      await this.markPaid(tx, {
        application: { ...application, ...chosen },
        quote,
        amount: payment.amountCents,
        currency: payment.currency,
        provider: payment.provider,
        sessionId: payment.providerSessionId,
        reference: payment.providerReference,
        at,
        flag: overCapacity,
        paymentId,
      });
      await tx.update(applications).set({ flag: overCapacity }).where(eq(applications.id, applicationId));
      await recordAudit(tx, {
        actor: admin,
        action: "payment.accept",
        entityType: "application",
        entityId: applicationId,
        before: { paymentStatus: application.paymentStatus, flag: payment.flag },
        after: {
          paymentStatus: paymentStatusAfterPayment(total, application.amountPaidCents + payment.amountCents),
          paymentId,
          amountCents: payment.amountCents,
          totalAmountCents: total,
        },
      });
    });
    await this.finishFulfilment(paymentId);
    return { paymentId };
  }

  /**
   * `POST /api/process-zero-payment` (docs/product/payments.md#zero-payment, docs/product/security.md#p2-zero-payment-only-for-a-zero-quote): completes an application
   * without payment only when the server's quote is 0, consuming the code's use atomically.
   * Returns `{ paymentIntentId }` (a `zero_…` reference).
   */
  async completeZeroPayment(
    applicationId: string,
    token: string | undefined,
    client: ClientAmounts,
    language: Language,
  ) {
    const { db, now } = this.deps;
    const at = now();
    const reference = `zero_${applicationId.replace(/-/g, "").slice(0, 16)}`;
    let paymentId: string | undefined;
    await db.transaction(async (tx) => {
      const { application } = await applicationForOwner(tx, applicationId, token, { lock: true });
      if (hasAcceptedPayment(application.paymentStatus)) throw new HttpError(409, "errors.alreadyPaid");
      const { rows, code, quote } = await currentQuote(tx, application, language, undefined, schoolDate(at));
      this.assertConsistent(quote, client);
      // Zero by a code (a full scholarship) or by an automatic rule of 100 % (decision 030).
      if (quote.totalAmount !== 0) throw new HttpError(422, "errors.notZero", { quote });
      await assertPlaceFor(tx, application, at);
      if (code)
        await claimCode(tx, code.id, {
          now: at,
          summerSchoolId: rows.school.id,
          applicationId,
          status: "redeemed",
        });
      paymentId = await this.markPaid(tx, {
        application,
        quote,
        amount: 0,
        currency: "EUR",
        provider: "none",
        sessionId: `zero:${applicationId}`,
        reference,
        at,
      });
    });
    await this.finishFulfilment(paymentId);
    return { paymentIntentId: reference };
  }
}
