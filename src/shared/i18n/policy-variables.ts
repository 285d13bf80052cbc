import { VISA_WINDOW_WEEKS } from "../letters";
import {
  BALANCE_DUE_DAYS_BEFORE_START,
  BALANCE_REMINDER_DAYS_BEFORE_DUE,
  REFERRAL_COOKIE_DAYS,
  REFUND_POLICY,
  type RefundPolicyStep,
  VAT_RATE_PERCENT,
} from "../policy";

// The copy (terms, parents, FAQ, home, back office) names two refund steps and "nothing" below
// them; policy-variables.test.ts fails if the policy has another shape.
const [higher, lower] = REFUND_POLICY as readonly [RefundPolicyStep, RefundPolicyStep];

/**
 * The rules of the code that the texts state, as `{{variables}}` every translated text may use in
 * every language, on pages (i18next's `interpolation.defaultVariables`) and in e-mails and PDFs
 * (`makeTranslator`): the copy reads them instead of repeating the numbers (docs/product/languages.md#copy-states-the-rules: "every amount
 * or date the copy mentions is read from the data"). Changing a constant changes every text.
 *
 * - `balanceDueDays`: the balance is due this many days before the start (`remainingDueDate`);
 * - `reminderFirstDays`, `reminderLastDays`: the balance reminders, days before the due date;
 * - refund policy (`REFUND_POLICY`, docs/product/payments.md#refund-policy): `refundHighPercent` back when cancelling more than
 *   `refundHighAfterDays` days before the start; `refundLowPercent` from `refundLowFromDays` to
 *   `refundLowToDays` days, both included; nothing under `refundLowFromDays` days;
 * - `referralCookieDays`: the partner code's cookie lifetime, with consent (docs/product/payments.md#refunds);
 * - `vatPercent`: the Dutch VAT rate included in the prices (docs/product/payments.md#vat);
 * - `visaOpensWeeks`, `visaClosesWeeks`: the visa application window, weeks before the start
 *   (`visaWindow`, docs/product/payments.md#vat).
 */
export const POLICY_TEXT_VARIABLES = {
  balanceDueDays: BALANCE_DUE_DAYS_BEFORE_START,
  reminderFirstDays: BALANCE_REMINDER_DAYS_BEFORE_DUE.first,
  reminderLastDays: BALANCE_REMINDER_DAYS_BEFORE_DUE.last,
  refundHighPercent: higher.percent,
  refundHighAfterDays: higher.minDays - 1,
  refundLowPercent: lower.percent,
  refundLowFromDays: lower.minDays,
  refundLowToDays: higher.minDays - 1,
  referralCookieDays: REFERRAL_COOKIE_DAYS,
  vatPercent: VAT_RATE_PERCENT,
  visaOpensWeeks: VISA_WINDOW_WEEKS.opens,
  visaClosesWeeks: VISA_WINDOW_WEEKS.closes,
} as const satisfies Record<string, number>;

export type PolicyTextVariable = keyof typeof POLICY_TEXT_VARIABLES;
