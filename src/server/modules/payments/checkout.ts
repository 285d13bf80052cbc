import { and, eq, ne } from "drizzle-orm";
import type { ApplicationQuoteDto } from "../../../shared/application";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import type { Tx } from "../../db/client";
import { type applicants, applications, checkoutSessions } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { applicationForOwner, currentQuote, quoteKey } from "../applications";
import { claimCode, HOLD_MINUTES, releaseHolds } from "../codes";
import { PaymentsCompletion } from "./completion";
import {
  assertPlaceFor,
  type ClientAmounts,
  dropDeadReferral,
  hasAcceptedPayment,
  reserveSession,
  reusableSession,
} from "./core";
import type { CheckoutLineItem, CheckoutSessionState } from "./providers/types";

/** Checkout sessions of an application's quote: creation (P1, P3, P4, P13), a quote's change, cancellation and the ending of open sessions. */
export class PaymentsCheckout extends PaymentsCompletion {
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
        const open = await reusableSession(tx, applicationId, key, started);
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
        const reservation =
          open ??
          (await reserveSession(tx, {
            applicationId,
            provider: provider.name,
            key,
            kind: "deposit",
            quote,
            amountCents: quote.depositAmount,
            started,
          }));
        return { application, applicant, rows, quote, key, reservation, stale: [] };
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
  protected async openAtProvider(
    applicationId: string,
    language: Language,
    prepared: {
      applicant: typeof applicants.$inferSelect;
      rows: Awaited<ReturnType<typeof currentQuote>>["rows"];
      quote: ApplicationQuoteDto;
      reservation: typeof checkoutSessions.$inferSelect;
    },
  ) {
    const { now } = this.deps;
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
    const origin = this.deps.env.APP_ORIGIN;
    return this.openReserved(
      reservation,
      {
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
        // The early discount is named as such, not after a referral code that came with it (docs/product/catalogue-and-pricing.md#pricing-rules).
        discountLabel:
          quote.discountSource === "automatic"
            ? t(language, "pricing.earlyDiscount")
            : quote.appliedCode
              ? t(language, "pricing.codeLine", { code: quote.appliedCode.code })
              : null,
        amountCents: quote.depositAmount,
        customerEmail: applicant.email,
        successUrl: pageUrl(origin, language, "/payment-success?session_id={CHECKOUT_SESSION_ID}"),
        cancelUrl: pageUrl(origin, language, "/apply/payment?checkout=cancelled"),
        language,
        schoolName,
      },
      {
        message: "checkout session creation failed",
        release: (tx) => releaseHolds(tx, applicationId, now()),
      },
    );
  }

  /**
   * Ends open checkout sessions at the provider and acts on the state each one reports (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p4-a-code-held-by-an-open-checkout): expired → marked expired and the application's code hold released; paid before the
   * expiry reached it → fulfilled (a valid sale at that session's quote, its code kept) and 409
   * `errors.alreadyPaid`; completed with a delayed method → recorded as pending, the hold kept, and
   * 409 `errors.paymentPending`; provider unreachable → 503 `errors.checkoutNotClosed`, the hold
   * kept. A reservation whose provider call is still under way (less than a minute old) → 409
   * `errors.checkoutBusy`; an older one never reached the applicant and is dropped.
   */
  protected async endSessions(sessions: Array<typeof checkoutSessions.$inferSelect>): Promise<void> {
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

  protected openSessionsOf(tx: Tx, applicationId: string) {
    return tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.applicationId, applicationId), eq(checkoutSessions.status, "open")));
  }

  /**
   * Changes what an application's quote is made of (programme, housing, add-ons, code; docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p4-a-code-held-by-an-open-checkout): every open checkout session of the application is ended at the provider first
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
   * `POST /api/applications/:id/checkout/cancel` (docs/product/security.md#p4-a-code-held-by-an-open-checkout, docs/product/security.md#s3-cross-site-requests-change-nothing): the applicant came back from
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
}
