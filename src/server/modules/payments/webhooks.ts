import { and, eq, lt, or, sql } from "drizzle-orm";
import { webhookEvents } from "../../db/schema";
import { PaymentsBalance } from "./balance";
import { type CheckoutSessionLike, normaliseCheckoutSession, refundOfEvent } from "./providers/stripe";
import type { ProviderEvent } from "./providers/types";

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

/** The provider's webhook events (P5, P6, P11): claimed once, applied, recovered after a crash, replayed by an admin. */
export class PaymentsWebhooks extends PaymentsBalance {
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
  protected async applyClaimed(event: ProviderEvent): Promise<string> {
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
   * Recovery of stuck work (docs/product/security.md#d4-crash-safety, docs/product/security.md#p11-database-error-in-the-webhook-handler): stored events that no process finished — left in
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

  protected async apply(event: ProviderEvent): Promise<string> {
    // Refund events (`refund.created` / `refund.updated` / `refund.failed`, docs/product/back-office.md#finance):
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
}
