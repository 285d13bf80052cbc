import { and, eq, lt } from "drizzle-orm";
import type { CheckoutVerificationDto } from "../../../shared/application";
import type { Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import { applications, checkoutSessions } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { applicationDto, applicationForOwner } from "../applications";
import { hasAcceptedPayment } from "./core";
import { retryFulfilmentSteps } from "./fulfilment";
import { type CheckoutSessionState, PaymentProviderError } from "./providers/types";
import { PaymentsWebhooks } from "./webhooks";

export { CHECKOUT_MINUTES, type ClientAmounts, type FulfilmentResult, type PaymentsDeps } from "./core";

/**
 * Money-moving flows of the application (docs/product/catalogue-and-pricing.md#quote): checkout creation from the server's
 * quote, zero-payment completion, webhook processing and the one fulfilment function.
 *
 * Split by use case: `core.ts`, `fulfil.ts`, `completion.ts`, `checkout.ts`, `balance.ts`,
 * `webhooks.ts`; this file adds the success page's verification and the recovery job.
 */
export class PaymentsService extends PaymentsWebhooks {
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
    await this.retryFulfilment().catch((err: unknown) => {
      failure ??= { err };
    });
    if (failure) throw (failure as { err: unknown }).err;
    return { recovered, reconciled };
  }

  /**
   * The fulfilment steps left failed (or pending by a process that stopped) are run again, each
   * once more, at the app's clock (`retryFulfilmentSteps`); then the outbox is sent. Returns how
   * many payments had steps to retry.
   */
  async retryFulfilment(): Promise<number> {
    const { db, env, mail, now, log } = this.deps;
    const retried = await retryFulfilmentSteps(db, { env, mail, now: now(), log });
    if (retried > 0) this.afterFulfilment();
    return retried;
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
