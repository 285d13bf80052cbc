import { deleteCookie, readCookie, writeCookie } from "./cookies";

/**
 * Cookie consent (docs/product/privacy.md#cookies, docs/product/privacy.md#cookie-consent, docs/product/privacy.md#partner-cookie). Cookies
 * `cookieconsent_status` = accepted and `cookieconsent_necessary_only` = true|false, 365 days.
 * "necessary only" removes the affiliate cookie at once.
 */
export const CONSENT_STATUS = "cookieconsent_status";
export const CONSENT_NECESSARY_ONLY = "cookieconsent_necessary_only";
export const AFFILIATE_COOKIE = "affiliate_code";
const YEAR = 365 * 24 * 3600;

export type Consent = "unknown" | "all" | "necessary";

const listeners = new Set<() => void>();

/** The stored consent: unknown until the visitor chose. */
export function readConsent(): Consent {
  if (readCookie(CONSENT_STATUS) !== "accepted") return "unknown";
  return readCookie(CONSENT_NECESSARY_ONLY) === "true" ? "necessary" : "all";
}

/** Stores the visitor's choice and notifies subscribers. */
export function setConsent(choice: "all" | "necessary"): void {
  writeCookie(CONSENT_NECESSARY_ONLY, choice === "necessary" ? "true" : "false", YEAR);
  writeCookie(CONSENT_STATUS, "accepted", YEAR);
  if (choice === "necessary") deleteCookie(AFFILIATE_COOKIE);
  for (const l of listeners) l();
}

/**
 * Withdraws the stored choice (as easy as giving it: GDPR 7(3)): the consent cookies and the
 * affiliate cookie are removed, and the cookie notice appears again.
 */
export function resetConsent(): void {
  deleteCookie(CONSENT_STATUS);
  deleteCookie(CONSENT_NECESSARY_ONLY);
  deleteCookie(AFFILIATE_COOKIE);
  for (const l of listeners) l();
}

/** True when marketing cookies (the affiliate cookie) may be written: "Accept All" given. */
export const mayStoreReferral = () => readConsent() === "all";

/** Calls `listener` after each change of the stored consent; returns the unsubscribe function. */
export function subscribeConsent(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
