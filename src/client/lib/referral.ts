import { AFFILIATE_COOKIE, mayStoreReferral, subscribeConsent } from "./consent";
import { deleteCookie, readCookie, writeCookie } from "./cookies";

/** Default lifetime of the affiliate cookie: 30 days (docs/product/privacy.md#partner-cookie), unless the server says otherwise. */
export const REFERRAL_COOKIE_DAYS = 30;

/**
 * The referral code of this visit. Before consent it lives only in memory (no cookie, no storage:
 * docs/product/privacy.md#partner-cookie, docs/product/security.md#d1-partner-cookie-only-with-consent); after "Accept All" it is written to the `affiliate_code` cookie
 * for `expiryDays`.
 */
let pending: { code: string; expiryDays: number } | null = null;

/** Remembers a validated referral code; writes the cookie only with consent. */
export function rememberReferral(code: string, expiryDays = REFERRAL_COOKIE_DAYS): void {
  pending = { code, expiryDays };
  if (mayStoreReferral()) writeCookie(AFFILIATE_COOKIE, code, expiryDays * 24 * 3600);
}

/** The referral code to auto-apply: this visit's, else the cookie's. */
export function currentReferral(): string | undefined {
  return pending?.code ?? readCookie(AFFILIATE_COOKIE) ?? undefined;
}

/** Forgets the referral code (docs/product/codes-and-partners.md#referral-link). */
export function clearReferral(): void {
  pending = null;
  deleteCookie(AFFILIATE_COOKIE);
}

if (typeof window !== "undefined") {
  // Consent given after the code was seen: store it now.
  subscribeConsent(() => {
    if (pending && mayStoreReferral())
      writeCookie(AFFILIATE_COOKIE, pending.code, pending.expiryDays * 24 * 3600);
  });
}
