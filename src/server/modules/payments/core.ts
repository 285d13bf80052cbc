import { and, desc, eq, gt, inArray, sql } from "drizzle-orm";
import type { ApplicationQuoteDto } from "../../../shared/application";
import { balanceFactsOf, balanceOf } from "../../../shared/balance";
import { schoolDate } from "../../../shared/time";
import type { Db, Tx } from "../../db/client";
import {
  applications,
  checkoutSessions,
  type PaymentStatus,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import type { Env } from "../../env";
import { HttpError } from "../../lib/errors";
import { refundedCentsOfOne } from "../balances";
import type { CatalogueService } from "../catalogue";
import { findCodeById, mayCredit } from "../codes";
import type { MailService } from "../mail";
import { cohortPlaces, openOfferSql, placesFor } from "../waiting-list";
import {
  type CreateCheckoutInput,
  type PaymentProvider,
  PaymentProviderError,
  type RefundState,
} from "./providers/types";

/**
 * The key of a balance session: the total and the amount paid when it was opened. Any payment in
 * between changes it, so the session no longer pays what is owed (docs/product/security.md#p10-amount-or-currency-mismatch).
 */
export function balanceKey(application: typeof applications.$inferSelect): string {
  return `balance:${application.totalAmountCents ?? 0}:${application.amountPaidCents}`;
}

/** Whether the application has an accepted payment (in full or a deposit): it cannot be bought again. */
export function hasAcceptedPayment(status: PaymentStatus): boolean {
  return status === "paid" || status === "deposit_paid";
}

/**
 * Checklist P14, docs/product/payments.md#checkout-session (decision 027): an application may start paying only into a place of its
 * cohort that nobody else takes or holds (paid places, open waiting-list offers, other open
 * checkouts: `waiting-list/places.ts`), nor one owed to the people in line on the waiting list unless
 * it holds an offer (`placesFor`); its own open checkout and its own offer do not count. Locks
 * the cohort's row, so two applicants racing for the last place never both get a checkout. 409
 * `errors.schoolFull` otherwise.
 */
export async function assertPlaceFor(tx: Tx, application: typeof applications.$inferSelect, now: Date) {
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
 * pays, instead of blocking the payment until the student removes it (docs/product/codes-and-partners.md#suspended-partners). The price
 * does not change; the agent earns nothing (`noCommissionReason`). Returns the application as it
 * now is. A code that gives a discount is left alone: losing it changes the price, which the
 * student must see (409 with the new quote).
 */
export async function dropDeadReferral(
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

type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

/**
 * The application's open checkout session of `key` (a quote's key, or a balance's `balanceKey`)
 * that still has more than two minutes to run at `started`, the newest; with `kind`, of that kind
 * only. A double click or a retry reuses it, its idempotency key and expiry, so the provider returns
 * the same session (docs/product/security.md#p13-double-click-on-proceed). `undefined` when none.
 */
export async function reusableSession(
  tx: Tx,
  applicationId: string,
  key: string,
  started: Date,
  kind?: CheckoutSessionRow["kind"],
): Promise<CheckoutSessionRow | undefined> {
  const [open] = await tx
    .select()
    .from(checkoutSessions)
    .where(
      and(
        eq(checkoutSessions.applicationId, applicationId),
        kind ? eq(checkoutSessions.kind, kind) : undefined,
        eq(checkoutSessions.quoteKey, key),
        eq(checkoutSessions.status, "open"),
        gt(checkoutSessions.expiresAt, new Date(started.getTime() + 2 * 60_000)),
      ),
    )
    .orderBy(desc(checkoutSessions.createdAt))
    .limit(1);
  return open;
}

/**
 * Reserves a checkout session's row before the provider is called (docs/product/security.md#p13-double-click-on-proceed):
 * status open, no url yet, a placeholder provider session id, the idempotency key
 * `checkout:<application>:<key>:<number of the application's sessions so far>`, and an expiry of
 * `CHECKOUT_MINUTES` plus one minute from `started`. `amountCents` is what the session charges
 * (the deposit or the whole amount of `quote`, or the balance owed), EUR; `quote` is the quote it
 * charges, kept with the session (docs/product/security.md#p1-the-server-decides-what-is-charged).
 */
export async function reserveSession(
  tx: Tx,
  session: {
    applicationId: string;
    provider: PaymentProvider["name"];
    key: string;
    kind: CheckoutSessionRow["kind"];
    quote: ApplicationQuoteDto | null;
    amountCents: number;
    started: Date;
  },
): Promise<CheckoutSessionRow> {
  const { applicationId, key, started } = session;
  const [{ n } = { n: 0 }] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(checkoutSessions)
    .where(eq(checkoutSessions.applicationId, applicationId));
  const idempotencyKey = `checkout:${applicationId}:${key}:${Number(n)}`;
  const [reservation] = await tx
    .insert(checkoutSessions)
    .values({
      applicationId,
      provider: session.provider,
      providerSessionId: `pending:${idempotencyKey}`,
      idempotencyKey,
      quoteKey: key,
      kind: session.kind,
      quote: session.quote,
      amountCents: session.amountCents,
      currency: "EUR",
      url: "",
      expiresAt: new Date(started.getTime() + CHECKOUT_MINUTES * 60_000 + 60_000),
    })
    .returning();
  return reservation!;
}

/** What a use case says of the session it opens: everything but what its reserved row decides. */
export type SessionRequest = Omit<
  CreateCheckoutInput,
  "applicationId" | "idempotencyKey" | "currency" | "expiresAt"
>;

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
export interface Counter {
  inc(): void;
}

export type FulfilmentResult = "paid" | "already_paid" | "pending" | "flagged" | "ignored";

/** What every use case of the payments module shares: its dependencies, the quote check, the cohort's places and what an application owes. */
export abstract class PaymentsBase {
  constructor(protected readonly deps: PaymentsDeps) {}

  /** Refuses client amounts that differ from the server's quote (P1): 409 with the quote. */
  protected assertConsistent(quote: ApplicationQuoteDto, client: ClientAmounts) {
    const mismatch =
      (client.totalAmount !== undefined && client.totalAmount !== quote.totalAmount) ||
      (client.discountAmount !== undefined && client.discountAmount !== quote.discountAmount) ||
      (client.originalAmount !== undefined && client.originalAmount !== quote.originalAmount) ||
      (client.appliedCodeId !== undefined &&
        (client.appliedCodeId ?? null) !== (quote.appliedCode?.codeId ?? null));
    if (mismatch) throw new HttpError(409, "errors.quoteChanged", { quote });
  }

  /** True when the paid places of the cohort reach its capacity; locks the cohort's row. */
  protected async isFull(tx: Tx, summerSchoolId: string): Promise<boolean> {
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

  /** What `application` owes today by the shared rule (decision 016), cents. */
  protected async owedNow(tx: Tx, application: typeof applications.$inferSelect): Promise<number> {
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
   * Opens a reserved checkout session (`reserveSession`) at the provider, with the reservation's
   * application, idempotency key and expiry, in EUR (docs/product/payments.md#checkout-session), and
   * stores the provider's session id and url on the row. Returns `{ url, sessionId }`. When the
   * provider fails, the failure is logged (`failure.message`), the row is deleted if it still has
   * no url, `failure.release` runs in the same transaction (e.g. the code's hold is released), and
   * a `PaymentProviderError` becomes 502 `errors.paymentUnavailable`; anything else is rethrown.
   */
  protected async openReserved(
    reservation: CheckoutSessionRow,
    request: SessionRequest,
    failure: { message: string; release?: (tx: Tx) => Promise<void> },
  ): Promise<{ url: string; sessionId: string }> {
    const { db, provider, now } = this.deps;
    const { applicationId } = reservation;
    let created: { id: string; url: string };
    try {
      created = await provider.createCheckoutSession({
        ...request,
        applicationId,
        idempotencyKey: reservation.idempotencyKey,
        currency: "EUR",
        expiresAt: reservation.expiresAt,
      });
    } catch (err) {
      this.deps.log.error({ err, applicationId }, failure.message);
      await db.transaction(async (tx) => {
        await tx
          .delete(checkoutSessions)
          .where(and(eq(checkoutSessions.id, reservation.id), eq(checkoutSessions.url, "")));
        await failure.release?.(tx);
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
}
