/**
 * The school's rules as numbers, in one module without imports: the code applies them (pricing,
 * balances, refunds, attribution) and the copy states them through POLICY_TEXT_VARIABLES
 * (src/shared/i18n/policy-variables.ts). Kept apart from the modules that use them so that the
 * pages' shell, which fills the copy in, does not carry the pricing or refund code (docs/product/portals.md#public-site
 * budget).
 */

/** The Dutch VAT rate included in every price (docs/product/payments.md#vat). */
export const VAT_RATE_PERCENT = 21;

/** Days before the programme starts on which the remainder (balance) is due (docs/product/catalogue-and-pricing.md#quote). */
export const BALANCE_DUE_DAYS_BEFORE_START = 28;

/**
 * The automatic balance reminders (decision 016): the first this many days before the due date,
 * the last this many days before it; a third the day after it (overdue).
 */
export const BALANCE_REMINDER_DAYS_BEFORE_DUE = { first: 14, last: 3 } as const;

/** One step of the refund policy: from `minDays` before the start (inclusive) this percent is refunded. */
export interface RefundPolicyStep {
  minDays: number;
  percent: number;
}

/** See docs/product/payments.md#refund-policy, highest first: ≥ 61 days 70 %, ≥ 30 days 50 %, otherwise 0 % (see src/shared/refunds.ts). */
export const REFUND_POLICY: readonly RefundPolicyStep[] = [
  { minDays: 61, percent: 70 },
  { minDays: 30, percent: 50 },
];

/**
 * How long the browser keeps a partner's code after a visit through their link, with consent
 * (docs/product/codes-and-partners.md#referral-link; the `affiliate_code` cookie's lifetime and the window of attribution).
 */
export const REFERRAL_COOKIE_DAYS = 30;
