import { and, eq, isNull } from "drizzle-orm";
import type { CheckoutVerificationDto } from "../../../shared/application";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { schoolDate } from "../../../shared/time";
import { applicants, applications, checkoutSessions, payments, summerSchools } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import { refundedCentsOfOne } from "../balances";
import { PaymentsCheckout } from "./checkout";
import { balanceKey, reserveSession, reusableSession } from "./core";
import { type CheckoutSessionState, PaymentProviderError } from "./providers/types";

/** Balance sessions (decision 016): a checkout of what an application owes, and its verification. */
export class PaymentsBalance extends PaymentsCheckout {
  /**
   * `POST /api/student/applications/:id/balance-checkout` (docs/product/portals.md#student-portal,
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
      const open = await reusableSession(tx, applicationId, key, started, "balance");
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
      const reservation = await reserveSession(tx, {
        applicationId,
        provider: provider.name,
        key,
        kind: "balance",
        quote: depositSession?.quote ?? null,
        amountCents: owed,
        started,
      });
      return { reservation, school: school!, applicant: applicant!, owed };
    });
    const { reservation, school, applicant, owed } = prepared;
    if (reservation.url) return { url: reservation.url, sessionId: reservation.providerSessionId };
    const schoolName = localize(school.name, language);
    const origin = this.deps.env.APP_ORIGIN;
    return this.openReserved(
      reservation,
      {
        lineItems: [{ name: t(language, "pricing.balanceLine", { program: schoolName }), amountCents: owed }],
        discountCents: 0,
        discountLabel: null,
        amountCents: owed,
        customerEmail: applicant.email,
        successUrl: pageUrl(origin, language, "/student/payment-success?session_id={CHECKOUT_SESSION_ID}"),
        cancelUrl: pageUrl(origin, language, "/student/payment?checkout=cancelled"),
        language,
        schoolName,
      },
      { message: "balance checkout session creation failed" },
    );
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
}
