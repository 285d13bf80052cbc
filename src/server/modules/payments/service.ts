import { and, desc, eq, gt, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { FlaggedPaymentReason } from "../../../shared/admin";
import type { ApplicationQuoteDto, CheckoutVerificationDto } from "../../../shared/application";
import { balanceFactsOf, balanceOf, paymentStatusAfterPayment } from "../../../shared/balance";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { isLanguage } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import {
  applicants,
  applications,
  checkoutSessions,
  type PaymentStatus,
  payments,
  refunds,
  summerSchools,
  waitingListEntries,
  webhookEvents,
} from "../../db/schema";
import type { Env } from "../../env";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { applicationDto, applicationForOwner, currentQuote, quoteKey } from "../applications";
import { queueStudentInvite } from "../auth";
import { refundedCentsOfOne } from "../balances";
import type { CatalogueService } from "../catalogue";
import { claimCode, findCodeById, HOLD_MINUTES, mayCredit, redeemHeldCode, releaseHolds } from "../codes";
import { accrueCommissionForPayment } from "../commissions";
import { issueInvoiceForPayment } from "../documents";
import { queueVisaLetterReady } from "../letters";
import { addressedTo, balancePaidEmail, confirmationEmail, type MailService, recipientFor } from "../mail";
import { cohortPlaces, openOfferSql, placesFor } from "../waiting-list";
import { type CheckoutSessionLike, normaliseCheckoutSession, refundOfEvent } from "./providers/stripe";
import {
  type CheckoutLineItem,
  type CheckoutSessionState,
  type PaymentProvider,
  PaymentProviderError,
  type ProviderEvent,
  type RefundState,
} from "./providers/types";

/** How long a claim on a webhook event holds before another process may take the event again. */
const LEASE_MS = 2 * 60_000;

/** Events no process has finished whose claim (if any) is older than the lease. */
const claimable = (now: Date) =>
  and(
    sql`${webhookEvents.processedAt} is null`,
    or(
      sql`${webhookEvents.claimedAt} is null`,
      lt(webhookEvents.claimedAt, new Date(now.getTime() - LEASE_MS)),
    ),
  );

/** Rebuilds the provider event from a stored webhook row (replay and recovery). */
function eventOfRow(row: typeof webhookEvents.$inferSelect): ProviderEvent {
  const payload = (row.payload ?? {}) as { data?: { object?: unknown } };
  const object = payload.data?.object;
  const isSession =
    row.type.startsWith("checkout.session.") &&
    !!object &&
    typeof object === "object" &&
    (object as { object?: unknown }).object === "checkout.session";
  return {
    id: row.id,
    type: row.type,
    session: isSession ? normaliseCheckoutSession(object as CheckoutSessionLike) : null,
    refund: refundOfEvent(row.type, object),
    raw: row.payload,
  };
}

/**
 * The key of a balance session: the total and the amount paid when it was opened. Any payment in
 * between changes it, so the session no longer pays what is owed (checklist P10).
 */
function balanceKey(application: typeof applications.$inferSelect): string {
  return `balance:${application.totalAmountCents ?? 0}:${application.amountPaidCents}`;
}

/** Whether the application has an accepted payment (in full or a deposit): it cannot be bought again. */
function hasAcceptedPayment(status: PaymentStatus): boolean {
  return status === "paid" || status === "deposit_paid";
}

/**
 * Checklist P14, issue 13 (decision 027): an application may start paying only into a place of its
 * cohort that nobody else takes or holds (paid places, open waiting-list offers, other open
 * checkouts: `waiting-list/places.ts`), nor one owed to the people in line on the waiting list unless
 * it holds an offer (`placesFor`); its own open checkout and its own offer do not count. Locks
 * the cohort's row, so two applicants racing for the last place never both get a checkout. 409
 * `errors.schoolFull` otherwise.
 */
async function assertPlaceFor(tx: Tx, application: typeof applications.$inferSelect, now: Date) {
  const places = await cohortPlaces(tx, application.summerSchoolId, now, {
    lock: true,
    except: { applicationId: application.id },
  });
  if (!places) return;
  const [offer] = await tx
    .select({ id: waitingListEntries.id })
    .from(waitingListEntries)
    .where(and(eq(waitingListEntries.applicationId, application.id), openOfferSql(now)));
  if (placesFor(places, Boolean(offer)) <= 0) throw new HttpError(409, "errors.schoolFull");
}

/**
 * A referral code without a discount that can no longer credit anyone (its agent was suspended and
 * its codes switched off since the student applied it) is taken off the application before it
 * pays, instead of blocking the payment until the student removes it (issue 22 item 11). The price
 * does not change; the agent earns nothing (`noCommissionReason`). Returns the application as it
 * now is. A code that gives a discount is left alone: losing it changes the price, which the
 * student must see (409 with the new quote).
 */
async function dropDeadReferral(
  tx: Tx,
  application: typeof applications.$inferSelect,
  now: Date,
): Promise<typeof applications.$inferSelect> {
  if (!application.appliedCodeId) return application;
  const code = await findCodeById(tx, application.appliedCodeId);
  if (code?.codeType !== "referral" || code.discountValue !== 0) return application;
  if (await mayCredit(tx, code, application.summerSchoolId, now)) return application;
  const [updated] = await tx
    .update(applications)
    .set({ appliedCodeId: null, updatedAt: now })
    .where(eq(applications.id, application.id))
    .returning();
  return updated ?? application;
}

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
  /**
   * Settles a refund whose state the provider reported (the finance module's `settleRefund`,
   * wired by app.ts): in one transaction, the refund's status, the application's payment status,
   * the credit note, the commission's clawback and the "refund made" e-mail (`notice`: its links).
   * Returns what happened, for the webhook log: the payment status after a succeeded refund
   * ("refunded" once everything paid came back, "partially_refunded"), "refund failed",
   * "already succeeded", "ignored: unknown refund", ….
   */
  settleRefund: (
    db: Db,
    refund: RefundState,
    now: Date,
    notice: { origin: string; supportEmail: string; mail: Pick<MailService, "enqueue"> },
  ) => Promise<string>;
  now: () => Date;
  /** Counters of the operations metrics (payments fulfilled and flagged), when metrics are on. */
  metrics?: { paymentsFulfilled: Counter; paymentsFlagged: Counter };
  log: {
    info: (obj: object, msg: string) => void;
    warn: (obj: object, msg: string) => void;
    error: (obj: object, msg: string) => void;
  };
}

/** A counter of the metrics registry (prom-client's `Counter` has this method). */
interface Counter {
  inc(): void;
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
    for (let attempt = 0; ; attempt++) {
      const started = now();
      const prepared = await db.transaction(async (tx) => {
        const owned = await applicationForOwner(tx, applicationId, token, { lock: true });
        const { applicant } = owned;
        const application = await dropDeadReferral(tx, owned.application, started);
        if (hasAcceptedPayment(application.paymentStatus)) throw new HttpError(409, "errors.alreadyPaid");
        if (application.paymentStatus === "pending") throw new HttpError(409, "errors.paymentPending");
        if (application.status !== "pending_payment") throw new HttpError(409, "errors.applicationClosed");
        const { rows, code, quote } = await currentQuote(
          tx,
          application,
          language,
          undefined,
          schoolDate(started),
        );
        this.assertConsistent(quote, client);
        if (quote.depositAmount === 0) throw new HttpError(409, "errors.quoteChanged", { quote });
        await assertPlaceFor(tx, application, started);
        const key = quoteKey(quote);
        // A session opened for another quote (the catalogue changed since) is ended at the
        // provider first, outside this transaction, and the whole step is then done again (P1).
        const stale = await tx
          .select()
          .from(checkoutSessions)
          .where(
            and(
              eq(checkoutSessions.applicationId, applicationId),
              eq(checkoutSessions.status, "open"),
              ne(checkoutSessions.quoteKey, key),
            ),
          );
        if (stale.length > 0) return { stale };
        const holdUntil = new Date(started.getTime() + HOLD_MINUTES * 60_000);
        if (code)
          await claimCode(tx, code.id, {
            now: started,
            summerSchoolId: rows.school.id,
            applicationId,
            status: "held",
            holdUntil,
          });
        // One row per attempt, reserved before the provider is called: a double click or a retry
        // finds it and reuses its idempotency key and expiry, so the provider returns the same
        // session (P13).
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
        await tx
          .update(applications)
          .set({
            originalAmountCents: quote.originalAmount,
            discountAmountCents: quote.discountAmount,
            totalAmountCents: quote.totalAmount,
            depositAmountCents: quote.depositAmount,
            quoteKey: key,
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
              quote,
              amountCents: quote.depositAmount,
              currency: "EUR",
              url: "",
              expiresAt: new Date(started.getTime() + CHECKOUT_MINUTES * 60_000 + 60_000),
            })
            .returning();
        }
        return { application, applicant, rows, quote, key, reservation: reservation!, stale: [] };
      });
      if (prepared.stale.length > 0) {
        if (attempt >= 2) throw new HttpError(409, "errors.checkoutBusy");
        await this.endSessions(prepared.stale);
        continue;
      }
      return this.openAtProvider(applicationId, language, prepared as Required<typeof prepared>);
    }
  }

  /** Second half of `createCheckout`: asks the provider for the reserved session (or returns it). */
  private async openAtProvider(
    applicationId: string,
    language: Language,
    prepared: {
      applicant: typeof applicants.$inferSelect;
      rows: Awaited<ReturnType<typeof currentQuote>>["rows"];
      quote: ApplicationQuoteDto;
      reservation: typeof checkoutSessions.$inferSelect;
    },
  ) {
    const { db, provider, now } = this.deps;
    const { reservation } = prepared;
    if (reservation.url) return { url: reservation.url, sessionId: reservation.providerSessionId };

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
          ? [
              {
                name: t(language, "pricing.depositLine", {
                  program: schoolName,
                  percent: quote.depositPercent,
                }),
                amountCents: quote.depositAmount,
              },
            ]
          : lineItems,
        discountCents: deposit ? 0 : quote.discountAmount,
        // The early discount is named as such, not after a referral code that came with it (issue 22 item 13).
        discountLabel:
          quote.discountSource === "automatic"
            ? t(language, "pricing.earlyDiscount")
            : quote.appliedCode
              ? t(language, "pricing.codeLine", { code: quote.appliedCode.code })
              : null,
        amountCents: quote.depositAmount,
        currency: "EUR",
        customerEmail: applicant.email,
        successUrl: pageUrl(origin, language, "/payment-success?session_id={CHECKOUT_SESSION_ID}"),
        cancelUrl: pageUrl(origin, language, "/apply/payment?checkout=cancelled"),
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
   * Ends open checkout sessions at the provider and acts on the state each one reports (checklist
   * P1, P4): expired → marked expired and the application's code hold released; paid before the
   * expiry reached it → fulfilled (a valid sale at that session's quote, its code kept) and 409
   * `errors.alreadyPaid`; completed with a delayed method → recorded as pending, the hold kept, and
   * 409 `errors.paymentPending`; provider unreachable → 503 `errors.checkoutNotClosed`, the hold
   * kept. A reservation whose provider call is still under way (less than a minute old) → 409
   * `errors.checkoutBusy`; an older one never reached the applicant and is dropped.
   */
  private async endSessions(sessions: Array<typeof checkoutSessions.$inferSelect>): Promise<void> {
    const { db, provider, now, log } = this.deps;
    for (const s of sessions) {
      if (!s.url) {
        if (now().getTime() - s.createdAt.getTime() < 60_000) throw new HttpError(409, "errors.checkoutBusy");
        await db
          .update(checkoutSessions)
          .set({ status: "expired", updatedAt: now() })
          .where(and(eq(checkoutSessions.id, s.id), eq(checkoutSessions.url, "")));
        continue;
      }
      let state: CheckoutSessionState;
      try {
        state = await provider.expireCheckoutSession(s.providerSessionId);
      } catch (err) {
        log.warn({ err, sessionId: s.providerSessionId }, "could not end an open checkout session");
        throw new HttpError(503, "errors.checkoutNotClosed");
      }
      if (state.paymentStatus === "paid") {
        await this.fulfil(state);
        throw new HttpError(409, "errors.alreadyPaid");
      }
      if (state.status === "complete") {
        await this.fulfil(state);
        throw new HttpError(409, "errors.paymentPending");
      }
      if (state.status !== "expired") throw new HttpError(503, "errors.checkoutNotClosed");
      await this.expire(state);
    }
  }

  private openSessionsOf(tx: Tx, applicationId: string) {
    return tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.applicationId, applicationId), eq(checkoutSessions.status, "open")));
  }

  /**
   * Changes what an application's quote is made of (programme, housing, add-ons, code; checklist
   * P1, P4): every open checkout session of the application is ended at the provider first
   * (`endSessions`, whose 409 and 503 answers pass through and leave everything unchanged), then
   * `change` runs in a transaction with the application row locked, and the application's quote
   * key is cleared, so a payment that still arrives for an earlier session is flagged, not taken.
   * A session opened meanwhile (another tab) is ended in turn; after three rounds 409
   * `errors.checkoutBusy`. Paid or pending applications: 409. The caller has checked the
   * applicant's capability for `applicationId` (no one else may end its sessions).
   */
  async changeQuote<T>(
    applicationId: string,
    change: (tx: Tx, application: typeof applications.$inferSelect) => Promise<T>,
  ): Promise<T> {
    const { db, now } = this.deps;
    for (let attempt = 0; attempt < 3; attempt++) {
      await this.endSessions(await this.openSessionsOf(db, applicationId));
      const outcome = await db.transaction(async (tx) => {
        const [application] = await tx
          .select()
          .from(applications)
          .where(eq(applications.id, applicationId))
          .for("update");
        if (!application) throw new HttpError(404, "errors.applicationNotFound");
        if ((await this.openSessionsOf(tx, applicationId)).length > 0) return { again: true as const };
        if (hasAcceptedPayment(application.paymentStatus)) throw new HttpError(409, "errors.alreadyPaid");
        if (application.paymentStatus === "pending") throw new HttpError(409, "errors.paymentPending");
        const value = await change(tx, application);
        await tx
          .update(applications)
          .set({ quoteKey: null, updatedAt: now() })
          .where(eq(applications.id, applicationId));
        return { again: false as const, value };
      });
      if (!outcome.again) return outcome.value;
    }
    throw new HttpError(409, "errors.checkoutBusy");
  }

  /**
   * `POST /api/applications/:id/checkout/cancel` (checklist P4, S3): the applicant came back from
   * the hosted checkout with "Cancel": its open sessions are ended at the provider and the code's
   * hold is released, as `endSessions` describes (a session paid meanwhile is fulfilled: 409
   * `errors.alreadyPaid`). Capability-checked; returns how many sessions were ended.
   */
  async cancelCheckout(applicationId: string, token: string | undefined): Promise<{ ended: number }> {
    const { db } = this.deps;
    await db.transaction((tx) => applicationForOwner(tx, applicationId, token));
    const open = await this.openSessionsOf(db, applicationId);
    await this.endSessions(open);
    return { ended: open.length };
  }

  /**
   * `POST /api/admin/applications/:id/payments/:paymentId/accept` (checklist P1, P10): an admin
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
        applicant: applicant!,
        language,
        quote,
        amount: payment.amountCents,
        currency: payment.currency,
        provider: payment.provider,
        sessionId: payment.providerSessionId,
        reference: payment.providerReference,
        at,
        flag: overCapacity,
        existingPayment: true,
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
    this.afterFulfilment();
    return { paymentId };
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
      /** The payment row exists already (an accepted flagged payment): not inserted again. */
      existingPayment?: boolean;
      /** With `existingPayment`: that payment's id (its invoice is issued now). */
      paymentId?: string;
    },
  ) {
    const paymentId = p.existingPayment
      ? p.paymentId
      : (
          await tx
            .insert(payments)
            .values({
              applicationId: p.application.id,
              provider: p.provider,
              providerSessionId: p.sessionId,
              providerReference: p.reference,
              amountCents: p.amount,
              currency: p.currency,
              paidAt: p.at,
            })
            .returning({ id: payments.id })
        )[0]?.id;
    // The payment's invoice (issue 11 "Documents"), in this transaction; none for an amount of 0.
    const invoice =
      paymentId && p.amount > 0
        ? await issueInvoiceForPayment(tx, { paymentId, env: this.deps.env, at: p.at, quote: p.quote })
        : null;
    // The affiliate's commission on it (issue 12, decision 022), in this transaction, from the invoice.
    if (paymentId && invoice)
      await accrueCommissionForPayment(tx, {
        paymentId,
        paidBefore: p.application.amountPaidCents,
        total: p.quote.totalAmount,
        env: this.deps.env,
        at: p.at,
      });
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
        // on the attribution never changes (issue 12 "Attribution": frozen at the first payment).
        attributionFrozenAt: p.application.attributionFrozenAt ?? p.at,
        updatedAt: p.at,
      })
      .where(eq(applications.id, p.application.id));
    await redeemHeldCode(tx, p.application.id, p.at);
    const fresh = {
      ...p.application,
      status,
      paymentStatus,
      amountPaidCents: amountPaid,
      totalAmountCents: p.quote.totalAmount,
      originalAmountCents: p.quote.originalAmount,
      discountAmountCents: p.quote.discountAmount,
      depositAmountCents: p.quote.depositAmount,
      submittedAt: p.application.submittedAt ?? p.at,
    };
    // The e-mail states the quote the payment was made at (the one stored with its checkout
    // session), not one priced again under rules changed since (issue 22 item 13).
    // To the student's current address, in the profile's e-mail language (issue 22 item 14).
    const recipient = await recipientFor(tx, { applicationId: p.application.id });
    const language = recipient?.language ?? p.language;
    const dto = {
      ...(await applicationDto(tx, fresh, p.applicant, language, schoolDate(p.at))),
      quote: p.quote,
    };
    const email = confirmationEmail(
      dto,
      language,
      this.deps.env.SUPPORT_EMAIL,
      this.deps.env.APP_ORIGIN,
      invoice,
    );
    if (recipient)
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `confirmation:${p.application.id}`,
        ...addressedTo(recipient),
        ...email,
      });
    await queueStudentInvite(
      tx,
      this.deps.mail,
      this.deps.env.APP_ORIGIN,
      { email: p.applicant.email, firstName: p.applicant.firstName, language: p.language },
      { noPayment: p.quote.totalAmount === 0 },
    );
    // Issue 11: "visa letter ready" once the deposit makes the letter available (deduped per application).
    await queueVisaLetterReady(tx, this.deps.mail, this.deps.env, p.application.id, schoolDate(p.at));
  }

  private afterFulfilment() {
    this.deps.catalogue.invalidate();
    void this.deps.mail.flush().catch((err) => this.deps.log.error({ err }, "mail flush failed"));
  }

  /**
   * The one fulfilment function (issue "Payments"; checklist P1, P6-P10, P12, P14), called by the
   * webhook, the success page's verification, reconciliation and the ending of open sessions with
   * the provider's view of a session. In one transaction with the application row locked: marks
   * the application paid exactly once, records the payment, redeems the code and queues the
   * confirmation e-mail. Unpaid completed sessions (delayed methods) leave it pending. Money that
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
    if (result === "paid") this.deps.metrics?.paymentsFulfilled.inc();
    if (result === "flagged") this.deps.metrics?.paymentsFlagged.inc();
    return result;
  }

  /**
   * Fulfilment of a balance session (decision 016; checklist P6, P10), inside `fulfil`'s transaction
   * with the application locked. The money is taken as the balance only when the session was opened
   * for exactly what is owed now (its key names the amount paid and the total at opening) and the
   * provider took that amount in EUR; otherwise it is recorded as a flagged payment for an admin
   * (`amount_mismatch`, or `second_payment` when nothing is owed any more). An unpaid completed
   * session (a delayed method) is pending and leaves the application as it is.
   */
  private async fulfilBalance(
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

  /** What `application` owes today by the shared rule (decision 016), cents. */
  private async owedNow(tx: Tx, application: typeof applications.$inferSelect): Promise<number> {
    const [school] = await tx
      .select({ startDate: summerSchools.startDate })
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    return balanceOf(
      balanceFactsOf(application, await refundedCentsOfOne(tx, application.id), school!.startDate),
      schoolDate(this.deps.now()),
    ).balanceDue;
  }

  /**
   * Records an accepted payment of the balance: a `balance` payments row (unless it exists: an
   * accepted flagged payment), the amount added to what the application paid, the payment status
   * from the shared rule (a partially refunded application stays so), and the receipt e-mail in
   * the student's language (once per payment: outbox dedupe key).
   */
  private async recordBalancePayment(
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
  ) {
    const at = this.deps.now();
    const [payment] = p.existingPayment
      ? await tx.select({ id: payments.id }).from(payments).where(eq(payments.providerSessionId, p.sessionId))
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
          })
          .returning({ id: payments.id });
    // The balance's invoice (issue 11 "Documents"), in this transaction, from the quote that was paid.
    const invoice = payment
      ? await issueInvoiceForPayment(tx, { paymentId: payment.id, env: this.deps.env, at })
      : null;
    const amountPaid = application.amountPaidCents + p.amount;
    const total = application.totalAmountCents ?? amountPaid;
    // The affiliate's commission on the balance (issue 12, decision 022), from its invoice.
    if (payment && invoice)
      await accrueCommissionForPayment(tx, {
        paymentId: payment.id,
        paidBefore: application.amountPaidCents,
        total,
        env: this.deps.env,
        at,
      });
    const paymentStatus =
      application.paymentStatus === "partially_refunded"
        ? "partially_refunded"
        : paymentStatusAfterPayment(total, amountPaid);
    await tx
      .update(applications)
      .set({ amountPaidCents: amountPaid, paymentStatus, paidAt: at, updatedAt: at })
      .where(eq(applications.id, application.id));
    const [applicant] = await tx.select().from(applicants).where(eq(applicants.id, application.applicantId));
    const [school] = await tx
      .select()
      .from(summerSchools)
      .where(eq(summerSchools.id, application.summerSchoolId));
    const recipient = await recipientFor(tx, { applicationId: application.id });
    const language = recipient?.language ?? (isLanguage(applicant!.language) ? applicant!.language : "en");
    const email = balancePaidEmail(
      {
        firstName: applicant!.firstName,
        program: localize(school!.name, language),
        amount: p.amount,
        total,
        paid: amountPaid,
        reference: p.reference,
        paidOn: schoolDate(at),
      },
      language,
      this.deps.env.SUPPORT_EMAIL,
      this.deps.env.APP_ORIGIN,
      invoice,
    );
    if (recipient)
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `balance-paid:${p.sessionId}`,
        ...addressedTo(recipient),
        ...email,
      });
  }

  /**
   * `POST /api/student/applications/:id/balance-checkout` (issue "Student portal in full",
   * Balances; decision 016): opens a checkout session at the provider for exactly what the
   * application owes now (`balanceOf`), never priced again from the catalogue and with no code's
   * discount applied a second time. A second call while that session is open returns it (P13).
   * The caller has checked that the application is the signed-in student's. 409
   * `errors.nothingOwed` when nothing is owed; 502 `errors.paymentUnavailable` when the provider
   * fails (nothing is kept). Returns `{ url, sessionId }`.
   */
  async createBalanceCheckout(applicationId: string, language: Language) {
    const { db, provider, now } = this.deps;
    const started = now();
    const prepared = await db.transaction(async (tx) => {
      const [application] = await tx
        .select()
        .from(applications)
        .where(eq(applications.id, applicationId))
        .for("update");
      if (!application) throw new HttpError(404, "errors.notFound");
      const [school] = await tx
        .select()
        .from(summerSchools)
        .where(eq(summerSchools.id, application.summerSchoolId));
      const [applicant] = await tx
        .select()
        .from(applicants)
        .where(eq(applicants.id, application.applicantId));
      const owed = balanceOf(
        balanceFactsOf(application, await refundedCentsOfOne(tx, application.id), school!.startDate),
        schoolDate(started),
      ).balanceDue;
      if (owed === 0) throw new HttpError(409, "errors.nothingOwed");
      const key = balanceKey(application);
      const [processing] = await tx
        .select({ id: checkoutSessions.id })
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.applicationId, applicationId),
            eq(checkoutSessions.kind, "balance"),
            eq(checkoutSessions.status, "complete"),
            eq(checkoutSessions.paymentStatus, "unpaid"),
          ),
        )
        .limit(1);
      if (processing) throw new HttpError(409, "errors.paymentPending");
      const [open] = await tx
        .select()
        .from(checkoutSessions)
        .where(
          and(
            eq(checkoutSessions.applicationId, applicationId),
            eq(checkoutSessions.kind, "balance"),
            eq(checkoutSessions.quoteKey, key),
            eq(checkoutSessions.status, "open"),
            gt(checkoutSessions.expiresAt, new Date(started.getTime() + 2 * 60_000)),
          ),
        )
        .orderBy(desc(checkoutSessions.createdAt))
        .limit(1);
      if (open) return { reservation: open, school: school!, applicant: applicant!, owed };
      // The quote the deposit paid, kept with the session: the balance's invoice lists its lines.
      const [depositSession] = await tx
        .select({ quote: checkoutSessions.quote })
        .from(checkoutSessions)
        .innerJoin(payments, eq(payments.providerSessionId, checkoutSessions.providerSessionId))
        .where(
          and(
            eq(checkoutSessions.applicationId, applicationId),
            eq(checkoutSessions.kind, "deposit"),
            isNull(payments.flag),
          ),
        )
        .limit(1);
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(checkoutSessions)
        .where(eq(checkoutSessions.applicationId, applicationId));
      const idempotencyKey = `checkout:${applicationId}:${key}:${Number(n)}`;
      const [reservation] = await tx
        .insert(checkoutSessions)
        .values({
          applicationId,
          provider: provider.name,
          providerSessionId: `pending:${idempotencyKey}`,
          idempotencyKey,
          quoteKey: key,
          kind: "balance",
          quote: depositSession?.quote ?? null,
          amountCents: owed,
          currency: "EUR",
          url: "",
          expiresAt: new Date(started.getTime() + CHECKOUT_MINUTES * 60_000 + 60_000),
        })
        .returning();
      return { reservation: reservation!, school: school!, applicant: applicant!, owed };
    });
    const { reservation, school, applicant, owed } = prepared;
    if (reservation.url) return { url: reservation.url, sessionId: reservation.providerSessionId };
    const schoolName = localize(school.name, language);
    const origin = this.deps.env.APP_ORIGIN;
    let created: { id: string; url: string };
    try {
      created = await provider.createCheckoutSession({
        applicationId,
        idempotencyKey: reservation.idempotencyKey,
        lineItems: [{ name: t(language, "pricing.balanceLine", { program: schoolName }), amountCents: owed }],
        discountCents: 0,
        discountLabel: null,
        amountCents: owed,
        currency: "EUR",
        customerEmail: applicant.email,
        successUrl: pageUrl(origin, language, "/student/payment-success?session_id={CHECKOUT_SESSION_ID}"),
        cancelUrl: pageUrl(origin, language, "/student/payment?checkout=cancelled"),
        expiresAt: reservation.expiresAt,
        language,
        schoolName,
      });
    } catch (err) {
      this.deps.log.error({ err, applicationId }, "balance checkout session creation failed");
      await db
        .delete(checkoutSessions)
        .where(and(eq(checkoutSessions.id, reservation.id), eq(checkoutSessions.url, "")));
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
   * The student portal's success page (`/student/payment-success`, P12): asks the provider for a
   * balance session of `applicationIds` (the signed-in student's) and fulfils it through the same
   * function as the webhook. 404 for a session of anyone else. Returns the state and application.
   */
  async verifyBalance(
    sessionId: string,
    applicationIds: readonly string[],
  ): Promise<{ state: CheckoutVerificationDto["state"]; applicationId: string }> {
    const { db, provider } = this.deps;
    const [stored] = await db
      .select()
      .from(checkoutSessions)
      .where(eq(checkoutSessions.providerSessionId, sessionId));
    if (stored?.kind !== "balance" || !applicationIds.includes(stored.applicationId))
      throw new HttpError(404, "errors.notFound");
    let remote: CheckoutSessionState | null;
    try {
      remote = await provider.retrieveCheckoutSession(sessionId);
    } catch (err) {
      if (err instanceof PaymentProviderError) throw new HttpError(502, "errors.paymentUnavailable");
      throw err;
    }
    if (remote?.paymentStatus === "paid" || remote?.status === "complete") await this.fulfil(remote);
    else if (remote?.status === "expired") await this.expire(remote);
    const [after] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, stored.id));
    const [payment] = await db
      .select({ flag: payments.flag })
      .from(payments)
      .where(eq(payments.providerSessionId, sessionId));
    const state: CheckoutVerificationDto["state"] =
      payment && !payment.flag
        ? "confirmed"
        : after?.paymentStatus === "failed"
          ? "failed"
          : after?.status === "complete"
            ? "pending"
            : after?.status === "expired" || remote?.status === "expired"
              ? "expired"
              : "open";
    return { state, applicationId: stored.applicationId };
  }

  /** True when the paid places of the cohort reach its capacity; locks the cohort's row. */
  private async isFull(tx: Tx, summerSchoolId: string): Promise<boolean> {
    const [school] = await tx
      .select()
      .from(summerSchools)
      .where(eq(summerSchools.id, summerSchoolId))
      .for("update");
    const [{ n } = { n: 0 }] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(applications)
      .where(
        and(
          eq(applications.summerSchoolId, summerSchoolId),
          inArray(applications.paymentStatus, ["paid", "deposit_paid", "partially_refunded"]),
        ),
      );
    return Boolean(school && Number(n) >= school.capacity);
  }

  /**
   * Records money the provider took that is not a payment of the application's current quote
   * (checklist P1, P10): a payments row with `flag` (what the provider took, in its currency), the
   * session marked paid, and the application flagged for an admin, who accepts the payment
   * (`acceptFlaggedPayment`) or refunds it in full. The application's status, code redemptions and
   * amounts do not change.
   */
  private async recordFlaggedPayment(
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
      if (application && stored.kind === "deposit" && !hasAcceptedPayment(application.paymentStatus))
        await releaseHolds(tx, application.id, now());
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
    // Serialise processing of one event id: only the delivery that claims it applies it. A claim
    // older than the lease was left by a crashed process and may be taken again (D4).
    const claimed = await db
      .update(webhookEvents)
      .set({ result: "processing", claimedAt: now() })
      .where(and(eq(webhookEvents.id, event.id), claimable(now())))
      .returning({ id: webhookEvents.id });
    if (claimed.length === 0) return "duplicate";
    await this.applyClaimed(event);
    return "processed";
  }

  /** Applies a claimed event and records its result; on failure the claim is released (P11). */
  private async applyClaimed(event: ProviderEvent): Promise<string> {
    const { db, now } = this.deps;
    let result: string;
    try {
      result = await this.apply(event);
    } catch (err) {
      await db
        .update(webhookEvents)
        .set({ result: null, claimedAt: null })
        .where(eq(webhookEvents.id, event.id));
      throw err;
    }
    await db.update(webhookEvents).set({ processedAt: now(), result }).where(eq(webhookEvents.id, event.id));
    return result;
  }

  /**
   * Recovery of stuck work (checklist D4, P11): stored events that no process finished — left in
   * "processing" by a crash, or whose processing failed — are taken again once their claim is older
   * than the lease (two minutes), and applied from their stored payload exactly as a delivery would
   * be. Run at start-up and with the periodic reconciliation. Returns how many it processed.
   */
  async recoverStuckEvents(): Promise<number> {
    const { db, now, log } = this.deps;
    const stuck = await db
      .select({ id: webhookEvents.id })
      .from(webhookEvents)
      .where(and(claimable(now()), lt(webhookEvents.receivedAt, new Date(now().getTime() - LEASE_MS))))
      .limit(100);
    let processed = 0;
    for (const { id } of stuck) {
      const [row] = await db
        .update(webhookEvents)
        .set({ result: "processing", claimedAt: now() })
        .where(and(eq(webhookEvents.id, id), claimable(now())))
        .returning();
      if (!row) continue;
      try {
        await this.applyClaimed(eventOfRow(row));
        processed++;
      } catch (err) {
        log.warn({ err, eventId: id }, "a stuck webhook event failed again");
      }
    }
    return processed;
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
    const result = await this.apply(eventOfRow(row));
    await db.update(webhookEvents).set({ processedAt: now(), result }).where(eq(webhookEvents.id, eventId));
    return result;
  }

  private async apply(event: ProviderEvent): Promise<string> {
    // Refund events (`refund.created` / `refund.updated` / `refund.failed`, issue "Finances"):
    // settled once by the finance module; a refund that is no longer pending never changes.
    if (event.refund) {
      const result = await this.deps.settleRefund(this.deps.db, event.refund, this.deps.now(), {
        origin: this.deps.env.APP_ORIGIN,
        supportEmail: this.deps.env.SUPPORT_EMAIL,
        mail: this.deps.mail,
      });
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
        application && hasAcceptedPayment(application.paymentStatus)
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
        dto = await applicationDto(
          tx,
          owned.application,
          owned.applicant,
          language,
          schoolDate(this.deps.now()),
        );
      } catch {
        dto = null;
      }
      return { state, applicationId: dto ? stored.applicationId : null, application: dto };
    });
  }

  /**
   * The payment-recovery job (every 5 minutes and at start-up, decision 039): `recoverStuckEvents`
   * first, then `reconcile`, which runs even when the first failed (a crash may have left events
   * half-processed or checkouts unapplied). Resolves to `{ recovered, reconciled }`; rejects with
   * the first failure once both ran.
   */
  async recoverAndReconcile(): Promise<{ recovered: number; reconciled: number }> {
    let failure: { err: unknown } | null = null;
    const recovered = await this.recoverStuckEvents().catch((err: unknown) => {
      failure = { err };
      return 0;
    });
    const reconciled = await this.reconcile();
    if (failure) throw (failure as { err: unknown }).err;
    return { recovered, reconciled };
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
