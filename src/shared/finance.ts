import type {
  adminRefundablePaymentSchema,
  adminRefundQuoteSchema,
  adminRefundResultSchema,
  adminRefundSchema,
  financeSummarySchema,
  ledgerEntrySchema,
  ledgerPageSchema,
  REFUND_STATUSES,
  revenueFiguresSchema,
} from "./schemas/finance";
import type { z } from "./schemas/zod";

/**
 * Shapes of the finances API of the back office (docs/product/back-office.md#finance), derived from the zod schemas
 * the back office parses the answers with (src/shared/schemas/finance.ts, "Responses"; the fields
 * are documented there). Amounts are integer euro cents; dates ISO 8601 strings. Types only: the
 * schemas stay out of any module the public pages load.
 */

/** Refund statuses (db column `refunds.status`). */
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** One refund of an application. */
export type AdminRefundDto = z.output<typeof adminRefundSchema>;

/** One payment of an application, with what may still be refunded of it. */
export type AdminRefundablePaymentDto = z.output<typeof adminRefundablePaymentSchema>;

/**
 * `GET /api/admin/applications/:id/refund-quote`: the policy's suggestion (docs/product/payments.md#refunds) with the
 * application's payments and refunds, for the refund panel.
 */
export type AdminRefundQuoteDto = z.output<typeof adminRefundQuoteSchema>;

/**
 * `POST /api/admin/applications/:id/refunds` answer: the refund (201 when created, 200 when the
 * same idempotency key returned an existing one) and the application's payment status after it.
 */
export type AdminRefundResult = z.output<typeof adminRefundResultSchema>;

/** One row of the ledger: a payment (money in) or a refund (money out, `amount` positive). */
export type LedgerEntryDto = z.output<typeof ledgerEntrySchema>;

/** `GET /api/admin/finances/ledger`. */
export type LedgerPage = z.output<typeof ledgerPageSchema>;

/** Revenue of one group (a school, a month, or everything). Cents; VAT 21 % included in `net`. */
export type RevenueFigures = z.output<typeof revenueFiguresSchema>;

/** `GET /api/admin/finances/summary`: revenue per school, per month (yyyy-mm, UTC) and in total. */
export type FinanceSummaryDto = z.output<typeof financeSummarySchema>;
