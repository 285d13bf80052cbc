/**
 * The waiting-list offer this tab opened (docs/product/catalogue-and-pricing.md#cohorts): which full cohort the visitor may apply for,
 * and until when. The server decides (the httpOnly offer cookie); this only lets the application
 * wizard show that cohort as choosable. Kept in sessionStorage; an offer past its time is ignored.
 */
const KEY = "waitingListOffer";

export interface HeldOffer {
  summerSchoolId: string;
  /** ISO timestamp after which the place is no longer held. */
  expiresAt: string;
}

/** Remembers an opened offer for this tab. */
export function rememberOffer(offer: HeldOffer): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify(offer));
  } catch {
    /* storage unavailable: the wizard then shows the cohort as full; the server still decides */
  }
}

/** The cohort id of the offer this tab holds, while it has not lapsed; null otherwise (or on the server). */
export function heldOfferSchool(now: number = Date.now()): string | null {
  if (typeof sessionStorage === "undefined") return null;
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const offer = JSON.parse(raw) as Partial<HeldOffer>;
    return typeof offer.summerSchoolId === "string" &&
      typeof offer.expiresAt === "string" &&
      Date.parse(offer.expiresAt) > now
      ? offer.summerSchoolId
      : null;
  } catch {
    return null;
  }
}
