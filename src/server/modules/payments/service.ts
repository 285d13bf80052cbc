import { and, desc, eq, gt, inArray, lt, ne, sql } from "drizzle-orm";
import type { ApplicationQuoteDto, CheckoutVerificationDto } from "../../../shared/application";
import type { Language } from "../../../shared/i18n/languages";
import { isLanguage } from "../../../shared/i18n/languages";
import type { Db, Tx } from "../../db/client";
import {
  applicants,
  applications,
  checkoutSessions,
  payments,
  summerSchools,
  webhookEvents,
} from "../../db/schema";
import type { Env } from "../../env";
import { HttpError } from "../../lib/errors";
import { applicationDto, applicationForOwner, currentQuote, quoteKey } from "../applications/service";
import { queueStudentInvite } from "../auth/service";
import type { CatalogueService } from "../catalogue/service";
import { localize } from "../catalogue/service";
import { claimCode, HOLD_MINUTES, redeemHeldCode, releaseHolds } from "../codes/service";
import { settleRefund } from "../finance/settle";
import type { MailService } from "../mail/service";
import { confirmationEmail } from "../mail/templates";
import { type CheckoutSessionLike, normaliseCheckoutSession, refundOfEvent } from "./providers/stripe";
import {
  type CheckoutLineItem,
  type CheckoutSessionState,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderEvent,
} from "./providers/types";

/** Checkout sessions live 30 minutes (Stripe's minimum), so a held code is not blocked for long (P4). */
export const CHECKOUT_MINUTES = 30;

export interface ClientAmounts {
  totalAmount?: number;
  discountAmount?: number;
  originalAmount?: number;
  appliedCodeId?: string | null;
}

export interface PaymentsDeps {
  db: Db;
  env: Env;
  provider: PaymentProvider;
  mail: MailService;
  catalogue: CatalogueService;
  now: () => Date;
  log: {
    info: (obj: object, msg: string) => void;
    warn: (obj: object, msg: string) => void;
    error: (obj: object, msg: string) => void;
  };
}

export type FulfilmentResult = "paid" | "already_paid" | "pending" | "flagged" | "ignored";

/**
 * Money-moving flows of the application (decisions.md §2): checkout creation from the server's
 * quote, zero-payment completion, webhook processing and the one fulfilment function.
 */
export class PaymentsService {
  constructor(private readonly deps: PaymentsDeps) {}

  /** Refuses client amounts that differ from the server's quote (P1): 409 with the quote. */
  private assertConsistent(quote: ApplicationQuoteDto, client: ClientAmounts) {
    const mismatch =
      (client.totalAmount !== undefined && client.totalAmount !== quote.totalAmount) ||
      (client.discountAmount !== undefined && client.discountAmount !== quote.discountAmount) ||
      (client.originalAmount !== undefined && client.originalAmount !== quote.originalAmount) ||
      (client.appliedCodeId !== undefined &&
        (client.appliedCodeId ?? null) !== (quote.appliedCode?.codeId ?? null));
    if (mismatch) throw new HttpError(409, "errors.quoteChanged", { quote });
  }

  /**
   * `POST /api/create-checkout-session`: charges the server's quote of the application through the
   * provider's hosted checkout. Holds the applied code for the session's life (P3, P4); reuses the
   * open session of the same quote (P13); refuses tampered amounts (P1). Returns `{ url, sessionId }`.
   */
  async createCheckout(
    applicationId: string,
    token: string | undefined,
    client: ClientAmounts,
    language: Language,
  ) {
    const { db, provider, now } = this.deps;
    const started = now();
    const prepared = await db.transaction(async (tx) => {
      const { application, applicant } = await applicationForOwner(tx, applicationId, token, { lock: true });
      if (application.paymentStatus === "paid") throw new HttpError(409, "errors.alreadyPaid");
      if (application.status !== "pending_payment") throw new HttpError(409, "errors.applicationClosed");
      const { rows, code, quote } = await currentQuote(tx, application, language);
      this.assertConsistent(quote, client);
      if (quote.depositAmount === 0) throw new HttpError(409, "errors.quoteChanged", { quote });
      const holdUntil = new Date(started.getTime() + HOLD_MINUTES * 60_000);
      if (code)
        await claimCode(tx, code.id, {
          now: started,
          summerSchoolId: rows.school.id,
          applicationId,
          status: "held",
          holdUntil,
        });
      const key = quoteKey(quote);
      // One row per attempt, reserved before the provider is called: a double click or a retry
      // finds it and reuses its idempotency key and expiry, so the provider returns the same
      // session (P13); a reservation older than a minute whose call never finished is retried.
      const [open] = await tx
        .select()
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.applicationId, applicationId),
            eq(checkoutSessions.quoteKey, key),
            eq(checkoutSessions.status, "open"),
            gt(checkoutSessions.expiresAt, new Date(started.getTime() + 2 * 60_000)),
          ),
        )
        .orderBy(desc(checkoutSessions.createdAt))
        .limit(1);
      const stale = await tx
        .select({ id: checkoutSessions.providerSessionId, url: checkoutSessions.url })
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.applicationId, applicationId),
            eq(checkoutSessions.status, "open"),
            ne(checkoutSessions.quoteKey, key),
          ),
        );
      await tx
        .update(applications)
        .set({
          originalAmountCents: quote.originalAmount,
          discountAmountCents: quote.discountAmount,
          totalAmountCents: quote.totalAmount,
          depositAmountCents: quote.depositAmount,
          updatedAt: started,
        })
        .where(eq(applications.id, applicationId));
      let reservation = open;
      if (!reservation) {
        const [{ n } = { n: 0 }] = await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(checkoutSessions)
          .where(eq(checkoutSessions.applicationId, applicationId));
        const idempotencyKey = `checkout:${applicationId}:${key}:${Number(n)}`;
        [reservation] = await tx
          .insert(checkoutSessions)
          .values({
            applicationId,
            provider: provider.name,
            providerSessionId: `pending:${idempotencyKey}`,
            idempotencyKey,
            quoteKey: key,
            amountCents: quote.depositAmount,
            currency: "EUR",
            url: "",
            expiresAt: new Date(started.getTime() + CHECKOUT_MINUTES * 60_000 + 60_000),
          })
          .returning();
      }
      return { application, applicant, rows, quote, key, reservation: reservation!, stale };
    });

    const { reservation } = prepared;
    if (reservation.url) return { url: reservation.url, sessionId: reservation.providerSessionId };

    for (const old of prepared.stale) {
      if (old.url) await provider.expireCheckoutSession(old.id).catch(() => undefined);
      await db
        .update(checkoutSessions)
        .set({ status: "expired", updatedAt: now() })
        .where(eq(checkoutSessions.providerSessionId, old.id));
    }

    const { quote, rows, applicant } = prepared;
    const schoolName = localize(rows.school.name, language);
    const lineItems: CheckoutLineItem[] = [];
    const packageLine = quote.lineItems.find((l) => l.kind === "package")!;
    const housingLine = quote.lineItems.find((l) => l.kind === "housing")!;
    lineItems.push({
      name: `${packageLine.name}${housingLine.amount < 0 ? ` + ${housingLine.name}` : ""} — ${schoolName}`,
      amountCents: packageLine.amount + Math.min(0, housingLine.amount),
    });
    if (housingLine.amount > 0) lineItems.push({ name: housingLine.name, amountCents: housingLine.amount });
    for (const line of quote.lineItems)
      if (line.kind === "addOn" && line.amount > 0)
        lineItems.push({ name: line.name, amountCents: line.amount });
    // A deposit below 100 % is charged as one line: the deposit of the total.
    const deposit = quote.depositAmount < quote.totalAmount;
    const expiresAt = reservation.expiresAt;
    const origin = this.deps.env.APP_ORIGIN;
    let created: { id: string; url: string };
    try {
      created = await provider.createCheckoutSession({
        applicationId,
        idempotencyKey: reservation.idempotencyKey,
        lineItems: deposit
          ? [{ name: `${schoolName} — deposit ${quote.depositPercent}%`, amountCents: quote.depositAmount }]
          : lineItems,
        discountCents: deposit ? 0 : quote.discountAmount,
        discountLabel: quote.appliedCode ? `Code ${quote.appliedCode.code}` : null,
        amountCents: quote.depositAmount,
        currency: "EUR",
        customerEmail: applicant.email,
        successUrl: `${origin}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
        cancelUrl: `${origin}/apply/payment`,
        expiresAt,
        language,
        schoolName,
      });
    } catch (err) {
      this.deps.log.error({ err, applicationId }, "checkout session creation failed");
      await db.transaction(async (tx) => {
        await tx
          .delete(checkoutSessions)
          .where(and(eq(checkoutSessions.id, reservation.id), eq(checkoutSessions.url, "")));
        await releaseHolds(tx, applicationId, now());
      });
      if (err instanceof PaymentProviderError) throw new HttpError(502, "errors.paymentUnavailable");
      throw err;
    }
    await db
      .update(checkoutSessions)
      .set({ providerSessionId: created.id, url: created.url, updatedAt: now() })
      .where(eq(checkoutSessions.id, reservation.id));
    return { url: created.url, sessionId: created.id };
  }

  /**
   * `POST /api/process-zero-payment` (decisions.md §2, checklist P2): completes an application
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
    await db.transaction(async (tx) => {
      const { application, applicant } = await applicationForOwner(tx, applicationId, token, { lock: true });
      if (application.paymentStatus === "paid") throw new HttpError(409, "errors.alreadyPaid");
      const { rows, code, quote } = await currentQuote(tx, application, language);
      this.assertConsistent(quote, client);
      if (quote.totalAmount !== 0 || !code) throw new HttpError(422, "errors.notZero", { quote });
      await claimCode(tx, code.id, {
        now: at,
        summerSchoolId: rows.school.id,
        applicationId,
        status: "redeemed",
      });
      await this.markPaid(tx, {
        application,
        applicant,
        language,
        quote,
        amount: 0,
        currency: "EUR",
        provider: "none",
        sessionId: `zero:${applicationId}`,
        reference,
        at,
      });
    });
    this.afterFulfilment();
    return { paymentIntentId: reference };
  }

  /** Records a payment and marks the application paid and submitted; queues the confirmation e-mail. */
  private async markPaid(
    tx: Tx,
    p: {
      application: typeof applications.$inferSelect;
      applicant: typeof applicants.$inferSelect;
      language: Language;
      quote: ApplicationQuoteDto;
      amount: number;
      currency: string;
      provider: "stripe" | "offline" | "none";
      sessionId: string;
      reference: string;
      at: Date;
      flag?: string | null;
    },
  ) {
    await tx.insert(payments).values({
      applicationId: p.application.id,
      provider: p.provider,
      providerSessionId: p.sessionId,
      providerReference: p.reference,
      amountCents: p.amount,
      currency: p.currency,
      paidAt: p.at,
    });
    await tx
      .update(applications)
      .set({
        status: "submitted",
        paymentStatus: "paid",
        amountPaidCents: p.amount,
        originalAmountCents: p.quote.originalAmount,
        discountAmountCents: p.quote.discountAmount,
        totalAmountCents: p.quote.totalAmount,
        depositAmountCents: p.quote.depositAmount,
        submittedAt: p.application.submittedAt ?? p.at,
        paidAt: p.at,
        flag: p.flag ?? p.application.flag,
        updatedAt: p.at,
      })
      .where(eq(applications.id, p.application.id));
    await redeemHeldCode(tx, p.application.id, p.at);
    const fresh = {
      ...p.application,
      status: "submitted" as const,
      paymentStatus: "paid" as const,
      totalAmountCents: p.quote.totalAmount,
      originalAmountCents: p.quote.originalAmount,
      discountAmountCents: p.quote.discountAmount,
      depositAmountCents: p.quote.depositAmount,
      submittedAt: p.application.submittedAt ?? p.at,
    };
    const dto = await applicationDto(tx, fresh, p.applicant, p.language);
    const email = confirmationEmail(dto, p.language, this.deps.env.SUPPORT_EMAIL, this.deps.env.APP_ORIGIN);
    await this.deps.mail.enqueue(tx, {
      dedupeKey: `confirmation:${p.application.id}`,
      to: p.applicant.email,
      ...email,
    });
    await queueStudentInvite(tx, this.deps.mail, this.deps.env.APP_ORIGIN, {
      email: p.applicant.email,
      firstName: p.applicant.firstName,
      language: p.language,
    });
  }

  private afterFulfilment() {
    this.deps.catalogue.invalidate();
    void this.deps.mail.flush().catch((err) => this.deps.log.error({ err }, "mail flush failed"));
  }

  /**
   * The one fulfilment function (issue "Payments"; checklist P6-P10, P12, P14), called by the
   * webhook and by the success page's verification with the provider's view of a session. In one
   * transaction with the application row locked: marks it paid exactly once, records the payment,
   * redeems the code and queues the confirmation e-mail. Unpaid completed sessions (delayed
   * methods) leave it pending; a paid amount or currency that differs from the stored quote is
   * flagged, not paid; a payment for a cohort that filled up meanwhile is recorded and flagged for
   * an admin's decision.
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
      if (application.paymentStatus === "paid") {
        if (session.paymentStatus === "paid") {
          const [existing] = await tx
            .select()
            .from(payments)
            .where(eq(payments.providerSessionId, session.id));
          if (!existing) {
            // A second, different session paid for an already-paid application: keep it visible.
            await tx
              .update(applications)
              .set({ flag: `second payment received in session ${session.id}` })
              .where(eq(applications.id, applicationId));
            log.error({ applicationId, sessionId: session.id }, "application paid twice");
          }
        }
        return "already_paid";
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
      if (
        session.amountTotal !== stored.amountCents ||
        (session.currency ?? "").toUpperCase() !== stored.currency
      ) {
        await tx
          .update(applications)
          .set({
            flag: `amount mismatch: paid ${session.amountTotal} ${session.currency}, expected ${stored.amountCents} ${stored.currency}`,
            updatedAt: now(),
          })
          .where(eq(applications.id, applicationId));
        log.error({ applicationId, sessionId: session.id }, "paid amount differs from quote");
        return "flagged";
      }
      const [applicant] = await tx
        .select()
        .from(applicants)
        .where(eq(applicants.id, application.applicantId));
      const [school] = await tx
        .select()
        .from(summerSchools)
        .where(eq(summerSchools.id, application.summerSchoolId))
        .for("update");
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(applications)
        .where(
          and(
            eq(applications.summerSchoolId, application.summerSchoolId),
            inArray(applications.paymentStatus, ["paid", "partially_refunded"]),
          ),
        );
      const overCapacity =
        school && Number(n) >= school.capacity
          ? "over capacity: paid after the cohort filled; refund or admit"
          : null;
      const language = isLanguage(applicant!.language) ? applicant!.language : "en";
      const { quote } = await currentQuote(tx, application, language);
      const at = now();
      await this.markPaid(tx, {
        application,
        applicant: applicant!,
        language,
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
    if (result === "paid") this.afterFulfilment();
    return result;
  }

  /** Marks a session expired and releases its code hold, unless the application was paid (P4, P8). */
  private async expire(session: CheckoutSessionState) {
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
      if (application && application.paymentStatus !== "paid") await releaseHolds(tx, application.id, now());
    });
  }

  /** `async_payment_failed`: the application's payment failed, unless it is already paid (P8, P9). */
  private async fail(session: CheckoutSessionState) {
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
      await tx
        .update(applications)
        .set({ paymentStatus: "failed", updatedAt: now() })
        .where(and(eq(applications.id, stored.applicationId), ne(applications.paymentStatus, "paid")));
      await releaseHolds(tx, stored.applicationId, now());
    });
  }

  /**
   * Handles one verified provider event exactly once (P6, P11): the event id is inserted first
   * (a duplicate waits for the first delivery's transaction and then sees it processed); the
   * state change and the processed mark commit together, so a failure leaves the event
   * unprocessed and the provider's retry applies it once.
   */
  async handleEvent(event: ProviderEvent): Promise<"processed" | "duplicate"> {
    const { db, now } = this.deps;
    const inserted = await db
      .insert(webhookEvents)
      .values({
        id: event.id,
        provider: this.deps.provider.name,
        type: event.type,
        payload: event.raw as object,
      })
      .onConflictDoNothing({ target: webhookEvents.id })
      .returning({ id: webhookEvents.id });
    if (inserted.length === 0) {
      const [existing] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
      if (existing?.processedAt) return "duplicate";
    }
    // Serialise processing of one event id: only the delivery that flips processed_at applies it.
    const claimed = await db
      .update(webhookEvents)
      .set({ result: "processing" })
      .where(
        and(
          eq(webhookEvents.id, event.id),
          sql`${webhookEvents.processedAt} is null`,
          sql`(${webhookEvents.result} is null or ${webhookEvents.result} <> 'processing' or ${webhookEvents.receivedAt} < now() - interval '2 minutes')`,
        ),
      )
      .returning({ id: webhookEvents.id });
    if (claimed.length === 0) return "duplicate";
    let result: string;
    try {
      result = await this.apply(event);
    } catch (err) {
      await db.update(webhookEvents).set({ result: null }).where(eq(webhookEvents.id, event.id));
      throw err;
    }
    await db.update(webhookEvents).set({ processedAt: now(), result }).where(eq(webhookEvents.id, event.id));
    return "processed";
  }

  /**
   * Re-runs a stored webhook event (admin "Replay") through the same processing as a delivery:
   * rebuilds the ProviderEvent from the stored payload and applies it, then records the result.
   * Fulfilment is idempotent, so replaying a processed payment changes nothing. Null for an unknown id.
   */
  async replay(eventId: string): Promise<string | null> {
    const { db, now } = this.deps;
    const [row] = await db.select().from(webhookEvents).where(eq(webhookEvents.id, eventId));
    if (!row) return null;
    const payload = (row.payload ?? {}) as { data?: { object?: unknown } };
    const object = payload.data?.object;
    const isSession =
      row.type.startsWith("checkout.session.") &&
      !!object &&
      typeof object === "object" &&
      (object as { object?: unknown }).object === "checkout.session";
    const result = await this.apply({
      id: row.id,
      type: row.type,
      session: isSession ? normaliseCheckoutSession(object as CheckoutSessionLike) : null,
      refund: refundOfEvent(row.type, object),
      raw: row.payload,
    });
    await db.update(webhookEvents).set({ processedAt: now(), result }).where(eq(webhookEvents.id, eventId));
    return result;
  }

  private async apply(event: ProviderEvent): Promise<string> {
    // Refund events (`refund.created` / `refund.updated` / `refund.failed`, issue "Finances"):
    // settled once by the finance module; a refund that is no longer pending never changes.
    if (event.refund) {
      const result = await settleRefund(this.deps.db, event.refund, this.deps.now());
      // This event refunded everything paid: the place is given back, so the places left change.
      if (result === "refunded") this.deps.catalogue.invalidate();
      return result;
    }
    const session = event.session;
    if (!session) return "ignored: not a checkout session event";
    switch (event.type) {
      case "checkout.session.completed":
      case "checkout.session.async_payment_succeeded":
        return this.fulfil(session);
      case "checkout.session.async_payment_failed":
        await this.fail(session);
        return "failed";
      case "checkout.session.expired":
        await this.expire(session);
        return "expired";
      default:
        return `ignored: ${event.type}`;
    }
  }

  /**
   * The success page's verification (P12): asks the provider for the session and fulfils through
   * the same function. Personal details are returned only to the application's owner.
   */
  async verify(
    sessionId: string,
    token: string | undefined,
    language: Language,
  ): Promise<CheckoutVerificationDto> {
    const { db, provider } = this.deps;
    const [stored] = await db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.providerSessionId, sessionId));
    if (!stored) throw new HttpError(404, "errors.notFound");
    let remote: CheckoutSessionState | null;
    try {
      remote = await provider.retrieveCheckoutSession(sessionId);
    } catch (err) {
      if (err instanceof PaymentProviderError) throw new HttpError(502, "errors.paymentUnavailable");
      throw err;
    }
    if (remote?.paymentStatus === "paid") await this.fulfil(remote);
    else if (remote?.status === "expired") await this.expire(remote);
    else if (remote?.status === "complete") await this.fulfil(remote);
    return db.transaction(async (tx) => {
      const [application] = await tx
        .select()
        .from(applications)
        .where(eq(applications.id, stored.applicationId));
      const state: CheckoutVerificationDto["state"] =
        application?.paymentStatus === "paid"
          ? "confirmed"
          : application?.paymentStatus === "failed"
            ? "failed"
            : application?.paymentStatus === "pending"
              ? "pending"
              : remote?.status === "expired"
                ? "expired"
                : "open";
      let dto = null;
      try {
        const owned = await applicationForOwner(tx, stored.applicationId, token);
        dto = await applicationDto(tx, owned.application, owned.applicant, language);
      } catch {
        dto = null;
      }
      return { state, applicationId: dto ? stored.applicationId : null, application: dto };
    });
  }

  /**
   * Periodic reconciliation (P12): open sessions older than two minutes are read from the provider
   * and fulfilled or expired through the same functions. Returns how many sessions it looked at.
   */
  async reconcile(): Promise<number> {
    const { db, provider, now, log } = this.deps;
    const cutoff = new Date(now().getTime() - 2 * 60_000);
    const open = await db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.status, "open"), lt(checkoutSessions.createdAt, cutoff)))
      .limit(100);
    for (const s of open) {
      try {
        const remote = await provider.retrieveCheckoutSession(s.providerSessionId);
        if (!remote) continue;
        if (remote.paymentStatus === "paid" || remote.status === "complete") await this.fulfil(remote);
        else if (remote.status === "expired" || s.expiresAt < now())
          await this.expire({ ...remote, status: "expired" });
      } catch (err) {
        log.warn({ err, sessionId: s.providerSessionId }, "reconciliation failed for a session");
      }
    }
    return open.length;
  }
}
