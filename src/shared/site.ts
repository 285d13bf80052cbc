import { VAT_RATE_PERCENT } from "./policy";
import type { RetentionPeriods } from "./retention";

/**
 * Facts about this deployment that pages show, sent by the server inside each rendered page
 * (docs/product/portals.md#legal-pages: "the school's legal name, address, registration and VAT numbers,
 * phone and emergency number come from configuration"). One shape for the server's renderer and
 * the browser.
 */

/** The school as a legal entity and how to reach it (configuration: SCHOOL_*). */
export interface SchoolFacts {
  legalName: string;
  /** One line, e.g. "Lange Voorhout 1, 2514 EA Den Haag, the Netherlands". */
  address: string;
  /** Chamber of Commerce (KvK) registration number. */
  kvkNumber: string;
  vatNumber: string;
  /** The office's phone number, as people dial it (e.g. "+31 70 …"). */
  phone: string;
  /** The number answered day and night during the programme. */
  emergencyPhone: string;
}

/**
 * How the school's prices stand towards VAT (configuration `INVOICE_VAT`, docs/product/payments.md#vat-setting,
 * decision 034): included at `ratePercent`, or exempt. Every page and back-office screen that states
 * VAT reads it: a text about VAT has an `_exempt` variant, chosen with `vatContext` (client/lib/vat.ts).
 */
export type VatSetting = { mode: "included"; ratePercent: number } | { mode: "exempt" };

/** The default: 21 % included (docs/product/payments.md#vat), until the server's configuration says otherwise. */
export const DEFAULT_VAT: VatSetting = { mode: "included", ratePercent: VAT_RATE_PERCENT };

export interface SiteConfig {
  supportEmail: string;
  /** VAT included in the prices (at which rate) or exempt. */
  vat: VatSetting;
  /** "offline" shows the test-mode note on the payment step. */
  paymentProvider: "stripe" | "offline";
  /** Today's date on the server (yyyy-mm-dd), so a prerendered page and its hydration agree. */
  today: string;
  school: SchoolFacts;
  /** The partner programme's payout rules, from the settings (stated on /affiliate-program). */
  partners: PartnerRules;
  /** The retention periods, from the settings (stated on the privacy page and the forms' consent lines). */
  retention: RetentionPeriods;
}

/**
 * The rules of the partner programme that the public page states (docs/product/languages.md#copy-states-the-rules), from
 * `COMMISSION_RELEASE_DAYS_BEFORE_START` and `MINIMUM_PAYOUT_CENTS`.
 */
export interface PartnerRules {
  /** A commission is pending until this many days before its cohort starts, then approved. */
  releaseDaysBeforeStart: number;
  /** Approved commission is paid out once the partner's balance reaches this, in euro cents. */
  minimumPayoutCents: number;
}

/** The partner rules where no server gave them (the client's start without prerendered state). */
export const DEFAULT_PARTNER_RULES: PartnerRules = { releaseDaysBeforeStart: 29, minimumPayoutCents: 5000 };

/** What the server's configuration gives (the renderer adds `today`). */
export type SiteFacts = Omit<SiteConfig, "today">;

/** A phone number as a `tel:` address (digits and a leading +). */
export const telHref = (phone: string) => `tel:${phone.replace(/[^0-9+]/g, "")}`;
