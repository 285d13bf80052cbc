import { and, eq, gt, sql } from "drizzle-orm";
import type { Tx } from "../../db/client";
import { applications, checkoutSessions, summerSchools, waitingListEntries } from "../../db/schema";
import { hashToken } from "../../lib/tokens";
import { takesPlaceOfAlias, takesPlaceSql } from "../balances";

/** The name of the cookie that carries an opened offer's token to the application wizard's calls. */
export const OFFER_COOKIE = "waiting_list_offer";

/**
 * The places of a cohort in the hold model of docs/product/codes-and-partners.md#code-holds (decision 027; docs/product/security.md#p14-a-full-cohort-is-never-over-enrolled): a place is
 * taken by a paid application (in full or its deposit, not withdrawn or cancelled: `takesPlaceSql`), held by an open
 * waiting-list offer, or held by an open checkout session of an unpaid application (like a code's
 * hold, for the session's life). `free` = capacity − paid − offers − checkouts; it is negative when
 * the cohort was filled past its capacity (a payment accepted by an admin, P14).
 */
export interface CohortPlaces {
  capacity: number;
  paid: number;
  offers: number;
  checkouts: number;
  free: number;
  /** People in line on the cohort's waiting list, not offered a place yet. */
  waiting: number;
}

/**
 * The places someone may take now (docs/product/admissions.md#waiting-list-offers): the holder of an open offer, any free place;
 * anyone else, only the free places beyond those owed to the people in line. A place freed by a
 * lapsed offer, a withdrawal or a refund goes to the first in line, not to whoever asks first
 * before the waiting list's next run makes the offer.
 */
export function placesFor(places: CohortPlaces, holdsOffer: boolean): number {
  return holdsOffer ? places.free : places.free - places.waiting;
}

/** What `cohortPlaces` leaves out: the caller's own offer and application do not hold against themselves. */
export interface PlacesExcept {
  applicationId?: string | null;
  entryId?: string | null;
}

/** An application that took its place (paid, or its deposit paid, and not withdrawn or cancelled). */
const takesPlace = (applicationId: unknown) =>
  sql`exists (select 1 from ${applications} a where a.id = ${applicationId} and ${takesPlaceOfAlias("a")})`;

/**
 * Open offers of a cohort at `now` (status `offered`, not lapsed, whose application has not taken
 * its place yet: a paid one counts as paid). Usable in a `where`.
 */
export const openOfferSql = (now: Date) =>
  and(
    eq(waitingListEntries.status, "offered"),
    gt(waitingListEntries.offerExpiresAt, now),
    sql`(${waitingListEntries.applicationId} is null or not ${takesPlace(waitingListEntries.applicationId)})`,
  );

/**
 * Counts the places of `summerSchoolId` at `now` as `CohortPlaces` describes. With `lock`, the
 * cohort's row is locked first (`FOR UPDATE`): every change that takes or frees a place of the
 * cohort (a checkout opened, an offer made) takes the same lock, so two of them never both see the
 * last free place. Returns null for an unknown cohort.
 */
export async function cohortPlaces(
  tx: Tx,
  summerSchoolId: string,
  now: Date,
  options: { lock?: boolean; except?: PlacesExcept } = {},
): Promise<CohortPlaces | null> {
  const base = tx
    .select({ capacity: summerSchools.capacity })
    .from(summerSchools)
    .where(eq(summerSchools.id, summerSchoolId));
  const [school] = options.lock ? await base.for("update") : await base;
  if (!school) return null;
  const except = options.except ?? {};
  const [paid] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(applications)
    .where(and(eq(applications.summerSchoolId, summerSchoolId), takesPlaceSql));
  const [offers] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(waitingListEntries)
    .where(
      and(
        eq(waitingListEntries.summerSchoolId, summerSchoolId),
        openOfferSql(now),
        except.entryId ? sql`${waitingListEntries.id} <> ${except.entryId}` : undefined,
        except.applicationId
          ? sql`${waitingListEntries.applicationId} is distinct from ${except.applicationId}`
          : undefined,
      ),
    );
  // Unpaid applications with an open checkout session, one place each, except those an open offer
  // already holds a place for (counted above).
  const [checkouts] = await tx
    .select({ n: sql<number>`count(distinct ${checkoutSessions.applicationId})::int` })
    .from(checkoutSessions)
    .innerJoin(applications, eq(applications.id, checkoutSessions.applicationId))
    .where(
      and(
        eq(applications.summerSchoolId, summerSchoolId),
        eq(checkoutSessions.status, "open"),
        eq(checkoutSessions.kind, "deposit"),
        gt(checkoutSessions.expiresAt, now),
        sql`${applications.paymentStatus} in ('unpaid', 'pending')`,
        sql`${applications.status} not in ('withdrawn', 'cancelled', 'rejected')`,
        except.applicationId ? sql`${applications.id} <> ${except.applicationId}` : undefined,
        sql`not exists (select 1 from ${waitingListEntries} w where w.application_id = ${applications.id} and w.status = 'offered' and w.offer_expires_at > ${now})`,
      ),
    );
  const [waiting] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(waitingListEntries)
    .where(
      and(eq(waitingListEntries.summerSchoolId, summerSchoolId), eq(waitingListEntries.status, "waiting")),
    );
  const p = Number(paid?.n ?? 0);
  const o = Number(offers?.n ?? 0);
  const c = Number(checkouts?.n ?? 0);
  return {
    capacity: school.capacity,
    paid: p,
    offers: o,
    checkouts: c,
    free: school.capacity - p - o - c,
    waiting: Number(waiting?.n ?? 0),
  };
}

/**
 * The open offer an offer cookie holds for `summerSchoolId` at `now` (docs/product/admissions.md#waiting-list: the link lets the
 * person apply although the cohort is full for everyone else, until it lapses), or null.
 */
export async function openOfferOf(
  tx: Tx,
  token: string | undefined,
  summerSchoolId: string,
  now: Date,
): Promise<typeof waitingListEntries.$inferSelect | null> {
  if (!token) return null;
  const [entry] = await tx
    .select()
    .from(waitingListEntries)
    .where(
      and(
        eq(waitingListEntries.offerTokenHash, hashToken(token)),
        eq(waitingListEntries.summerSchoolId, summerSchoolId),
        openOfferSql(now),
      ),
    );
  return entry ?? null;
}
