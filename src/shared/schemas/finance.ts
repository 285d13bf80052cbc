import { PAYMENT_STATUSES } from "../statuses";
import { isoDateParam, listPageSchema, optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the finances area of the back office (docs/product/back-office.md#finance): the refund request, the
 * refund form of the application page, the queries of the ledger and the revenue summary, and the
 * API's answers ("Responses"). Shared by the server (parseOrThrow → 400 with a plain message) and
 * the browser (forms, `call` with the contract). The back office only: the public pages must not import this
 * module (their JavaScript budget).
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
 * Answer of `POST /api/admin/applications/:id/payments/:paymentId/accept` (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): the
 * flagged payment now paying the application.
 */
export const acceptedPaymentSchema = z.object({ paymentId: z.uuid() });

// ---------------------------------------------------------------------------------------------
// Responses
//
// What the finances API answers, parsed by the back office (`call` with the contract) so the browser's types
// come from the same source as the server's (src/shared/finance.ts and the `RefundQuote` of
// src/shared/refunds.ts derive them). Amounts are integer euro cents; timestamps ISO 8601 strings;
// calendar dates yyyy-mm-dd.

/** Refund statuses (db column `refunds.status`). */
export const REFUND_STATUSES = ["pending", "succeeded", "failed", "canceled"] as const;

/** Who moved the money (db columns `payments.provider`, `refunds.provider`); "none": a zero payment. */
export const MONEY_PROVIDERS = ["stripe", "offline", "none"] as const;

/** An amount in integer euro cents. */
const cents = () => z.number().int();

/** One refund of an application. */
export const adminRefundSchema = z.object({
  id: z.uuid(),
  paymentId: z.uuid(),
  /** Cents. */
  amount: cents(),
  currency: line(),
  status: z.enum(REFUND_STATUSES),
  /** Why the admin refunded (free text, several lines). */
  reason: lines(),
  /** What the policy suggested when it was asked (docs/product/catalogue-and-pricing.md#quote), cents; null when unknown. */
  suggestedAmount: cents().nullable(),
  provider: z.enum(MONEY_PROVIDERS),
  /** The provider's refund id (`re_…`), null until the provider answered. */
  providerRefundId: line().nullable(),
  /** The admin who asked (name "" when none was given), null when unknown. */
  requestedBy: z.object({ id: z.uuid(), name: line(), email: line() }).nullable(),
  /** ISO 8601. */
  createdAt: line(),
  /** ISO 8601, or null until the refund succeeded. */
  succeededAt: line().nullable(),
});

/** One payment of an application, with what may still be refunded of it. */
export const adminRefundablePaymentSchema = z.object({
  id: z.uuid(),
  /** Cents. */
  amount: cents(),
  currency: line(),
  provider: z.enum(MONEY_PROVIDERS),
  /** The provider's payment reference (payment intent id). */
  reference: line(),
  /** ISO 8601. */
  paidAt: line(),
  /** Succeeded and pending refunds of this payment, cents. */
  refunded: cents(),
  /** amount − refunded, cents; 0 for a zero payment (provider "none"). */
  refundable: cents(),
});

/**
 * What the refund policy suggests for an application (docs/product/payments.md#refund-policy; `refundQuote` of
 * src/shared/refunds.ts), amounts in euro cents.
 */
export const refundQuoteSchema = z.object({
  /** Cohort start date `yyyy-mm-dd`. */
  startDate: line(),
  /** Calendar days from today (The Hague) to the start; negative once started. */
  daysBeforeStart: z.number().int(),
  /** 70, 50 or 0 (docs/product/catalogue-and-pricing.md#quote). */
  percent: z.number().int(),
  /** Paid in total (gross, before refunds). */
  paidCents: cents(),
  /** Refunds that succeeded or are still pending. */
  refundedCents: cents(),
  /** What may still be refunded: paid − succeeded − pending refunds, never below 0. */
  refundableCents: cents(),
  /**
   * The policy's suggestion: `percent` of the amount paid (rounded down to the cent, never more
   * than the policy), less what was already refunded, capped by `refundableCents`, never below 0.
   */
  suggestedAmountCents: cents(),
});

/**
 * `GET /api/admin/applications/:id/refund-quote`: the policy's suggestion (docs/product/payments.md#refunds) with the
 * application's payments and refunds, for the refund panel.
 */
export const adminRefundQuoteSchema = refundQuoteSchema.extend({
  applicationId: z.uuid(),
  /** The application's stored payment status (db column `applications.payment_status`). */
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /** Oldest first. */
  payments: z.array(adminRefundablePaymentSchema),
  /** Oldest first. */
  refunds: z.array(adminRefundSchema),
});

/**
 * `POST /api/admin/applications/:id/refunds` answer: the refund (201 when created, 200 when the
 * same idempotency key returned an existing one) and the application's payment status after it.
 */
export const adminRefundResultSchema = z.object({
  refund: adminRefundSchema,
  /** The application's stored payment status after the refund. */
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /** True when the idempotency key was seen before (nothing new happened). */
  replayed: z.boolean(),
});

/** One row of the ledger: a payment (money in) or a refund (money out, `amount` positive). */
export const ledgerEntrySchema = z.object({
  /** `payment:<id>` or `refund:<id>`. */
  id: line(),
  kind: z.enum(LEDGER_KINDS),
  /** Payment date, or refund request date (ISO 8601). */
  date: line(),
  /** Cents, positive for a refund too. */
  amount: cents(),
  currency: line(),
  /** Payments are always `succeeded`; refunds as their status. */
  status: z.enum(REFUND_STATUSES),
  provider: z.enum(MONEY_PROVIDERS),
  /** Payment intent (payment) or provider refund id (refund). */
  reference: line().nullable(),
  /** A refund's reason; null for a payment. */
  reason: lines().nullable(),
  applicationId: z.uuid(),
  applicant: z.object({ firstName: line(), lastName: line(), email: line() }),
  /** The summer school, its name in the admin's language. */
  school: z.object({ id: z.uuid(), name: line() }),
});

/** `GET /api/admin/finances/ledger`: a page of ledger entries. */
export const ledgerPageSchema = listPageSchema(ledgerEntrySchema);

/** Revenue of one group (a school, a month, or everything). Cents; VAT (21 % unless exempt) included in `net`. */
export const revenueFiguresSchema = z.object({
  /** Payments received. */
  gross: cents(),
  /** Refunds that succeeded. */
  refunded: cents(),
  /** gross − refunded. */
  net: cents(),
  /** The VAT included in net (docs/product/payments.md#vat, `vatOfGross`, decision 034); 0 when the school is VAT-exempt. */
  vat: cents(),
  /** net − vat. */
  netExVat: cents(),
  /** Number of payments. */
  payments: z.number().int(),
  /** Number of succeeded refunds. */
  refunds: z.number().int(),
});

/** `GET /api/admin/finances/summary`: revenue per school, per month (yyyy-mm, UTC) and in total. */
export const financeSummarySchema = z.object({
  /** The period asked for, yyyy-mm-dd (inclusive), or null when open. */
  from: line().nullable(),
  to: line().nullable(),
  /** By start date, then name; `name` in the admin's language, `startDate` yyyy-mm-dd. */
  bySchool: z.array(revenueFiguresSchema.extend({ schoolId: z.uuid(), name: line(), startDate: line() })),
  /** By month, oldest first; `month` yyyy-mm (UTC). */
  byMonth: z.array(revenueFiguresSchema.extend({ month: line() })),
  total: revenueFiguresSchema,
  /** VAT included (at which rate) or exempt (`INVOICE_VAT`, docs/product/payments.md#vat-setting): exempt, `vat` is 0. */
  vat: z.discriminatedUnion("mode", [
    z.object({ mode: z.literal("included"), ratePercent: z.number().int() }),
    z.object({ mode: z.literal("exempt") }),
  ]),
});
