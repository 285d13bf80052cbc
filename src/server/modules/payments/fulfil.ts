import { and, eq, inArray } from "drizzle-orm";
import type { FlaggedPaymentReason } from "../../../shared/admin";
import type { ApplicationQuoteDto } from "../../../shared/application";
import { paymentStatusAfterPayment } from "../../../shared/balance";
import { isLanguage } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import type { Tx } from "../../db/client";
import { applicants, applications, checkoutSessions, payments } from "../../db/schema";
import { currentQuote } from "../applications";
import { releaseHolds } from "../codes";
import { balanceKey, type FulfilmentResult, hasAcceptedPayment, PaymentsBase } from "./core";
import { type FulfilmentContext, paymentOfSession, runFulfilmentSteps, startFulfilment } from "./fulfilment";
import type { CheckoutSessionState } from "./providers/types";

/**
 * Fulfilment (docs/product/payments.md#fulfilment; docs/product/catalogue-and-pricing.md#quote): the one `fulfil` function that applies the
 * provider's view of a checkout session, the recording of first and balance payments and their
 * fulfilment steps, flagged payments, and the ending of sessions (expired, failed).
 */
export class PaymentsFulfilment extends PaymentsBase {
  /**
   * Records a first payment (deposit, in full, or the zero completion) and marks the application
   * paid and submitted, then starts its fulfilment (`startFulfilment`: the invoice, the code's
   * redemption and the commission in this transaction; the e-mails and the invitation once it
   * committed, by `finishFulfilment`). The quote paid is stored with the payment. Returns the
   * payment's id.
   */
  protected async markPaid(
    tx: Tx,
    p: {
      application: typeof applications.$inferSelect;
      quote: ApplicationQuoteDto;
      amount: number;
      currency: string;
      provider: "stripe" | "offline" | "none";
      sessionId: string;
      reference: string;
      at: Date;
      flag?: string | null;
      /** With `paymentId`: the payment row exists already (an accepted flagged payment). */
      paymentId?: string;
    },
  ): Promise<string | undefined> {
    // The quote paid and what was paid before, stored with the payment: the steps (and their
    // retries) read them from there, never from a new pricing.
    const stored = { quote: p.quote, paidBeforeCents: p.application.amountPaidCents };
    const [payment] = p.paymentId
      ? await tx
          .update(payments)
          .set(stored)
          .where(eq(payments.id, p.paymentId))
          .returning({ id: payments.id })
      : await tx
          .insert(payments)
          .values({
            applicationId: p.application.id,
            provider: p.provider,
            providerSessionId: p.sessionId,
            providerReference: p.reference,
            amountCents: p.amount,
            currency: p.currency,
            paidAt: p.at,
            ...stored,
          })
          .returning({ id: payments.id });
    // The first accepted payment submits the application; the rule of decision 016 decides whether
    // it is paid in full or a deposit with a balance owed.
    const amountPaid = p.application.amountPaidCents + p.amount;
    const paymentStatus = paymentStatusAfterPayment(p.quote.totalAmount, amountPaid);
    const status = p.application.status === "pending_payment" ? "submitted" : p.application.status;
    await tx
      .update(applications)
      .set({
        status,
        paymentStatus,
        amountPaidCents: amountPaid,
        originalAmountCents: p.quote.originalAmount,
        discountAmountCents: p.quote.discountAmount,
        totalAmountCents: p.quote.totalAmount,
        depositAmountCents: p.quote.depositAmount,
        submittedAt: p.application.submittedAt ?? p.at,
        paidAt: p.at,
        flag: p.flag ?? p.application.flag,
        // The affiliate credited is the one attributed when the first payment arrives; from then
        // on the attribution never changes (docs/product/codes-and-partners.md#attribution: frozen at the first payment).
        attributionFrozenAt: p.application.attributionFrozenAt ?? p.at,
        updatedAt: p.at,
      })
      .where(eq(applications.id, p.application.id));
    if (payment) await startFulfilment(tx, "deposit", this.stepContext(payment.id, p.at), this.deps.log);
    return payment?.id;
  }

  /** What the fulfilment steps of `paymentId` need, run at `at`. */
  protected stepContext(paymentId: string, at: Date): FulfilmentContext {
    return { paymentId, env: this.deps.env, mail: this.deps.mail, at };
  }

  /**
   * Once the payment's transaction committed: runs the payment's steps not done yet (the e-mails,
   * the invitation, and any step that failed in the transaction), then refreshes the catalogue's
   * places and sends the outbox. A failing step is recorded for the recovery job, never thrown.
   */
  protected async finishFulfilment(paymentId: string | null | undefined) {
    if (paymentId)
      await runFulfilmentSteps(
        this.deps.db,
        this.stepContext(paymentId, this.deps.now()),
        this.deps.log,
      ).catch((err: unknown) => this.deps.log.error({ err, paymentId }, "fulfilment steps failed"));
    this.afterFulfilment();
  }

  protected afterFulfilment() {
    this.deps.catalogue.invalidate();
    void this.deps.mail.flush().catch((err) => this.deps.log.error({ err }, "mail flush failed"));
  }

  /**
   * The one fulfilment function (docs/product/payments.md#fulfilment; docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#payments, docs/product/security.md#p12-the-webhook-never-arrives, docs/product/security.md#p14-a-full-cohort-is-never-over-enrolled), called by the
   * webhook, the success page's verification, reconciliation and the ending of open sessions with
   * the provider's view of a session. In one transaction with the application row locked: marks
   * the application paid exactly once, records the payment and runs the steps that belong with it
   * (invoice, code redemption, commission); the e-mails and the invitation follow once it committed
   * (`finishFulfilment`, fulfilment.ts). Unpaid completed sessions (delayed methods) leave it pending. Money that
   * arrives for anything but the application's current quote (a superseded quote, another amount
   * or currency, an application already paid) is recorded on the ledger as a flagged payment and
   * the application is not paid by it (`flagged`); an admin accepts or refunds it. A payment for a
   * cohort that filled up meanwhile is taken and flagged for an admin's decision.
   */
  async fulfil(session: CheckoutSessionState): Promise<FulfilmentResult> {
    const { db, now, log } = this.deps;
    const result = await db.transaction(async (tx): Promise<FulfilmentResult> => {
      const [stored] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.providerSessionId, session.id));
      const applicationId = stored?.applicationId ?? session.applicationId;
      if (
        !stored ||
        !applicationId ||
        (session.applicationId && session.applicationId !== stored.applicationId)
      ) {
        log.warn({ sessionId: session.id }, "fulfilment: unknown checkout session");
        return "ignored";
      }
      const [application] = await tx
        .select()
        .from(applications)
        .where(eq(applications.id, applicationId))
        .for("update");
      if (!application) return "ignored";
      if (session.paymentStatus === "paid") {
        const [existing] = await tx
          .select({ flag: payments.flag })
          .from(payments)
          .where(eq(payments.providerSessionId, session.id));
        if (existing) return existing.flag ? "flagged" : "already_paid";
      }
      if (stored.kind === "balance") return this.fulfilBalance(tx, application, stored, session);
      if (hasAcceptedPayment(application.paymentStatus)) {
        if (session.paymentStatus !== "paid") return "already_paid";
        // A second, different session paid for an already-paid application: keep the money visible.
        await this.recordFlaggedPayment(tx, application, stored, session, "second_payment");
        return "flagged";
      }
      if (session.paymentStatus !== "paid") {
        if (session.status === "complete" && stored.paymentStatus === "failed") {
          // Stripe keeps a failed delayed payment's session `complete`/`unpaid`: it stays failed (P9).
          log.warn({ applicationId, sessionId: session.id }, "fulfilment: session already failed; ignored");
          return "ignored";
        }
        if (session.status === "complete") {
          await tx
            .update(applications)
            .set({ paymentStatus: "pending", updatedAt: now() })
            .where(eq(applications.id, applicationId));
          await tx
            .update(checkoutSessions)
            .set({ status: "complete", updatedAt: now() })
            .where(eq(checkoutSessions.id, stored.id));
          return "pending";
        }
        return "ignored";
      }
      if (stored.quoteKey !== application.quoteKey) {
        await this.recordFlaggedPayment(tx, application, stored, session, "superseded_quote");
        return "flagged";
      }
      if (
        session.amountTotal !== stored.amountCents ||
        (session.currency ?? "").toUpperCase() !== stored.currency
      ) {
        await this.recordFlaggedPayment(tx, application, stored, session, "amount_mismatch");
        return "flagged";
      }
      const [applicant] = await tx
        .select()
        .from(applicants)
        .where(eq(applicants.id, application.applicantId));
      const overCapacity = (await this.isFull(tx, application.summerSchoolId))
        ? "over capacity: paid after the cohort filled; refund or admit"
        : null;
      const language = isLanguage(applicant!.language) ? applicant!.language : "en";
      const quote =
        stored.quote ?? (await currentQuote(tx, application, language, undefined, schoolDate(now()))).quote;
      const at = now();
      await this.markPaid(tx, {
        application,
        quote: { ...quote, depositAmount: stored.amountCents },
        amount: stored.amountCents,
        currency: stored.currency,
        provider: stored.provider,
        sessionId: session.id,
        reference: session.paymentIntentId ?? session.id,
        at,
        flag: overCapacity,
      });
      await tx
        .update(checkoutSessions)
        .set({ status: "complete", paymentStatus: "paid", updatedAt: at })
        .where(eq(checkoutSessions.id, stored.id));
      if (overCapacity) log.warn({ applicationId }, overCapacity);
      return "paid";
    });
    if (result === "paid") await this.finishFulfilment(await paymentOfSession(db, session.id));
    if (result === "paid") this.deps.metrics?.paymentsFulfilled.inc();
    if (result === "flagged") this.deps.metrics?.paymentsFlagged.inc();
    return result;
  }

  /**
   * Fulfilment of a balance session (decision 016; docs/product/security.md#p6-an-event-delivered-twice-counts-once, docs/product/security.md#p10-amount-or-currency-mismatch), inside `fulfil`'s transaction
   * with the application locked. The money is taken as the balance only when the session was opened
   * for exactly what is owed now (its key names the amount paid and the total at opening) and the
   * provider took that amount in EUR; otherwise it is recorded as a flagged payment for an admin
   * (`amount_mismatch`, or `second_payment` when nothing is owed any more). An unpaid completed
   * session (a delayed method) is pending and leaves the application as it is.
   */
  protected async fulfilBalance(
    tx: Tx,
    application: typeof applications.$inferSelect,
    stored: typeof checkoutSessions.$inferSelect,
    session: CheckoutSessionState,
  ): Promise<FulfilmentResult> {
    const { now } = this.deps;
    if (session.paymentStatus !== "paid") {
      if (session.status === "complete" && stored.paymentStatus !== "failed") {
        await tx
          .update(checkoutSessions)
          .set({ status: "complete", updatedAt: now() })
          .where(eq(checkoutSessions.id, stored.id));
        return "pending";
      }
      return "ignored";
    }
    const owed = await this.owedNow(tx, application);
    if (owed === 0) {
      await this.recordFlaggedPayment(tx, application, stored, session, "second_payment");
      return "flagged";
    }
    if (
      stored.quoteKey !== balanceKey(application) ||
      stored.amountCents !== owed ||
      session.amountTotal !== stored.amountCents ||
      (session.currency ?? "").toUpperCase() !== stored.currency
    ) {
      await this.recordFlaggedPayment(tx, application, stored, session, "amount_mismatch");
      return "flagged";
    }
    await this.recordBalancePayment(tx, application, {
      amount: stored.amountCents,
      currency: stored.currency,
      provider: stored.provider,
      sessionId: session.id,
      reference: session.paymentIntentId ?? session.id,
    });
    await tx
      .update(checkoutSessions)
      .set({ status: "complete", paymentStatus: "paid", updatedAt: now() })
      .where(eq(checkoutSessions.id, stored.id));
    return "paid";
  }

  /**
   * Records an accepted payment of the balance: a `balance` payments row (unless it exists: an
   * accepted flagged payment), the amount added to what the application paid, the payment status
   * from the shared rule (a partially refunded application stays so), then starts its fulfilment
   * (`startFulfilment`: its invoice and commission in this transaction, the receipt e-mail in the
   * student's language once it committed, once per payment: outbox dedupe key). Returns the
   * payment's id.
   */
  protected async recordBalancePayment(
    tx: Tx,
    application: typeof applications.$inferSelect,
    p: {
      amount: number;
      currency: string;
      provider: "stripe" | "offline" | "none";
      sessionId: string;
      reference: string;
      existingPayment?: boolean;
    },
  ): Promise<string | undefined> {
    const at = this.deps.now();
    const paidBeforeCents = application.amountPaidCents;
    const [payment] = p.existingPayment
      ? await tx
          .update(payments)
          .set({ paidBeforeCents })
          .where(eq(payments.providerSessionId, p.sessionId))
          .returning({ id: payments.id })
      : await tx
          .insert(payments)
          .values({
            applicationId: application.id,
            provider: p.provider,
            providerSessionId: p.sessionId,
            providerReference: p.reference,
            amountCents: p.amount,
            currency: p.currency,
            kind: "balance",
            paidAt: at,
            paidBeforeCents,
          })
          .returning({ id: payments.id });
    const amountPaid = application.amountPaidCents + p.amount;
    const total = application.totalAmountCents ?? amountPaid;
    const paymentStatus =
      application.paymentStatus === "partially_refunded"
        ? "partially_refunded"
        : paymentStatusAfterPayment(total, amountPaid);
    await tx
      .update(applications)
      .set({ amountPaidCents: amountPaid, paymentStatus, paidAt: at, updatedAt: at })
      .where(eq(applications.id, application.id));
    if (payment) await startFulfilment(tx, "balance", this.stepContext(payment.id, at), this.deps.log);
    return payment?.id;
  }

  /**
   * Records money the provider took that is not a payment of the application's current quote
   * (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): a payments row with `flag` (what the provider took, in its currency), the
   * session marked paid, and the application flagged for an admin, who accepts the payment
   * (`acceptFlaggedPayment`) or refunds it in full. The application's status, code redemptions and
   * amounts do not change.
   */
  protected async recordFlaggedPayment(
    tx: Tx,
    application: typeof applications.$inferSelect,
    stored: typeof checkoutSessions.$inferSelect,
    session: CheckoutSessionState,
    reason: FlaggedPaymentReason,
  ) {
    const at = this.deps.now();
    const amount = session.amountTotal ?? stored.amountCents;
    const currency = (session.currency ?? stored.currency).toUpperCase();
    const paid = `${(amount / 100).toFixed(2)} ${currency}`;
    // The application's flag is the team's note of what happened (English, as every flag); the
    // payment carries the reason as a code the back office shows in the admin's language.
    const note =
      reason === "superseded_quote"
        ? `payment for a superseded quote: ${paid} paid in session ${session.id} for choices the applicant changed since; accept it at the price paid or refund it`
        : reason === "amount_mismatch"
          ? `amount mismatch: paid ${paid}, expected ${(stored.amountCents / 100).toFixed(2)} ${stored.currency} in session ${session.id}; accept it or refund it`
          : `second payment received in session ${session.id}; refund it`;
    await tx
      .insert(payments)
      .values({
        applicationId: application.id,
        provider: stored.provider,
        providerSessionId: session.id,
        providerReference: session.paymentIntentId ?? session.id,
        amountCents: amount,
        currency,
        flag: reason,
        paidAt: at,
      })
      .onConflictDoNothing({ target: payments.providerSessionId });
    await tx
      .update(checkoutSessions)
      .set({ status: "complete", paymentStatus: "paid", updatedAt: at })
      .where(eq(checkoutSessions.id, stored.id));
    await tx
      .update(applications)
      .set({ flag: note, updatedAt: at })
      .where(eq(applications.id, application.id));
    this.deps.log.error({ applicationId: application.id, sessionId: session.id, reason }, "flagged payment");
  }

  /** Marks a session expired and releases its code hold, unless the application was paid (P4, P8). */
  protected async expire(session: CheckoutSessionState) {
    const { db, now } = this.deps;
    await db.transaction(async (tx) => {
      const [stored] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.providerSessionId, session.id));
      if (!stored) return;
      await tx
        .update(checkoutSessions)
        .set({ status: "expired", updatedAt: now() })
        .where(and(eq(checkoutSessions.id, stored.id), eq(checkoutSessions.status, "open")));
      const [application] = await tx
        .select()
        .from(applications)
        .where(eq(applications.id, stored.applicationId))
        .for("update");
      if (application && stored.kind === "deposit" && !hasAcceptedPayment(application.paymentStatus))
        await releaseHolds(tx, application.id, now());
    });
  }

  /** `async_payment_failed`: the application's payment failed, unless it is already paid (P8, P9). */
  protected async fail(session: CheckoutSessionState) {
    const { db, now } = this.deps;
    await db.transaction(async (tx) => {
      const [stored] = await tx
        .select()
        .from(checkoutSessions)
        .where(eq(checkoutSessions.providerSessionId, session.id));
      if (!stored) return;
      if (stored.paymentStatus === "paid") {
        // Out of order (P8): the paid state stands.
        this.deps.log.warn({ sessionId: session.id }, "payment failure reported for a paid session; ignored");
        return;
      }
      await tx
        .update(checkoutSessions)
        .set({ paymentStatus: "failed", updatedAt: now() })
        .where(eq(checkoutSessions.id, stored.id));
      // A failed balance payment leaves the application as it was: its deposit stands (decision 016).
      if (stored.kind === "balance") return;
      await tx
        .update(applications)
        .set({ paymentStatus: "failed", updatedAt: now() })
        .where(
          and(
            eq(applications.id, stored.applicationId),
            inArray(applications.paymentStatus, ["unpaid", "pending", "failed"]),
          ),
        );
      await releaseHolds(tx, stored.applicationId, now());
    });
  }
}
