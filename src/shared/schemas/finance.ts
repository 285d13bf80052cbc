import { isoDateParam, optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the finances area of the back office (issue "Finances"): the refund request, the
 * refund form of the application page, and the queries of the ledger and the revenue summary.
 * Shared by the server (parseOrThrow → 400 with a plain message) and the browser.
 */

/** Longest refund reason. */
export const REFUND_REASON_MAX_LENGTH = 500;

/** Largest amount a request may carry, cents (1,000,000.00 EUR): anything above is a typing error. */
export const MAX_AMOUNT_CENTS = 100_000_000;

/**
 * `POST /api/admin/applications/:id/refunds` — `{ paymentId?, amountCents, reason, idempotencyKey }`.
 * `amountCents` is whole euro cents; whether it is > 0 and within what is still refundable is the
 * service's rule (422 with a plain message). `idempotencyKey` is made once per refund form by the
 * browser (a UUID): sending it again returns the same refund and never refunds twice.
 */
export const refundRequestSchema = z.object({
  paymentId: optionalParam(z.uuid()),
  amountCents: z.number().int().min(-MAX_AMOUNT_CENTS).max(MAX_AMOUNT_CENTS),
  reason: lines({ error: V.required })
    .min(1, { error: V.required })
    .max(REFUND_REASON_MAX_LENGTH, { error: V.tooLong }),
  idempotencyKey: line({ trim: false }).regex(/^[A-Za-z0-9_-]{8,100}$/),
});
export type RefundRequestInput = z.output<typeof refundRequestSchema>;

/** Message keys of the refund form (namespace `adminFinance`). */
export const REFUND_FORM_ERRORS = {
  amountFormat: "refund.errors.amountFormat",
  amountPositive: "refund.errors.amountPositive",
  amountTooHigh: "refund.errors.amountTooHigh",
  reasonRequired: "refund.errors.reasonRequired",
  reasonTooLong: "refund.errors.reasonTooLong",
} as const;

/** Euros as typed in the form: digits with at most two decimals, "." or "," as separator. */
const EUROS = /^\d{1,7}(?:[.,]\d{1,2})?$/;

/** "1,234.5" is refused; "1234,5" / "1234.50" → 123450 cents. */
export const eurosTextToCents = (text: string) => Math.round(Number(text.trim().replace(",", ".")) * 100);

/**
 * The refund form (amount in euros as typed, reason), checked against `refundableCents`. Its
 * messages are keys of the `adminFinance` namespace (REFUND_FORM_ERRORS).
 */
export function refundFormSchema(refundableCents: number) {
  return z.object({
    amount: line()
      .regex(EUROS, { error: REFUND_FORM_ERRORS.amountFormat })
      .refine((text) => eurosTextToCents(text) > 0, { error: REFUND_FORM_ERRORS.amountPositive })
      .refine((text) => eurosTextToCents(text) <= refundableCents, {
        error: REFUND_FORM_ERRORS.amountTooHigh,
      }),
    reason: lines()
      .min(1, { error: REFUND_FORM_ERRORS.reasonRequired })
      .max(REFUND_REASON_MAX_LENGTH, { error: REFUND_FORM_ERRORS.reasonTooLong }),
  });
}
export type RefundFormValues = z.input<ReturnType<typeof refundFormSchema>>;

/** Kinds of ledger entries: money in (payment) and money out (refund). */
export const LEDGER_KINDS = ["payment", "refund"] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/** Sort keys of the ledger; a sort is `<key>:<asc|desc>`. */
export const LEDGER_SORT_KEYS = ["date", "amount", "applicant"] as const;
export type LedgerSortKey = (typeof LEDGER_SORT_KEYS)[number];

/**
 * Filters of `GET /api/admin/finances/ledger` and `.csv`: schoolId, kind, from/to (yyyy-mm-dd of
 * the entry's date, inclusive, UTC) and q (part of the applicant's first name, last name, full name
 * or e-mail, the payment reference or the provider's refund id).
 */
export const ledgerFiltersSchema = z.object({
  schoolId: optionalParam(z.uuid()),
  kind: optionalParam(z.enum(LEDGER_KINDS)),
  from: optionalParam(isoDateParam),
  to: optionalParam(isoDateParam),
  q: searchParam,
});
export type LedgerFilters = z.output<typeof ledgerFiltersSchema>;

/** Query of `GET /api/admin/finances/ledger`: the filters, page, pageSize (≤ 100), sort (default newest first). */
export const ledgerQuerySchema = ledgerFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(LEDGER_SORT_KEYS, { key: "date", direction: "desc" }),
});
export type LedgerQuery = z.output<typeof ledgerQuerySchema>;

/** Query of `GET /api/admin/finances/summary` and `.csv`: from/to (yyyy-mm-dd, inclusive, UTC). */
export const financeSummaryQuerySchema = z.object({
  from: optionalParam(isoDateParam),
  to: optionalParam(isoDateParam),
});
export type FinanceSummaryQuery = z.output<typeof financeSummaryQuerySchema>;

/**
 * Answer of `POST /api/admin/applications/:id/payments/:paymentId/accept` (checklist P1, P10): the
 * flagged payment now paying the application.
 */
export const acceptedPaymentSchema = z.object({ paymentId: z.uuid() });
