import type { RefundQuote } from "./refunds";
import type { LedgerKind } from "./schemas/finance";
import type { ListPage } from "./schemas/list";

/**
 * Shapes of the finances API of the back office (issue "Finances"). Amounts are integer euro
 * cents; dates ISO 8601 strings.
 */

/** Refund statuses (db column `refunds.status`). */
export type RefundStatus = "pending" | "succeeded" | "failed" | "canceled";

/** One refund of an application. */
export interface AdminRefundDto {
  id: string;
  paymentId: string;
  amount: number;
  currency: string;
  status: RefundStatus;
  reason: string;
  /** What the policy suggested when it was asked (spec §9), null when unknown. */
  suggestedAmount: number | null;
  provider: "stripe" | "offline" | "none";
  /** The provider's refund id (`re_…`), null until the provider answered. */
  providerRefundId: string | null;
  requestedBy: { id: string; name: string; email: string } | null;
  createdAt: string;
  succeededAt: string | null;
}

/** One payment of an application, with what may still be refunded of it. */
export interface AdminRefundablePaymentDto {
  id: string;
  amount: number;
  currency: string;
  provider: "stripe" | "offline" | "none";
  reference: string;
  paidAt: string;
  /** Succeeded and pending refunds of this payment. */
  refunded: number;
  /** amount − refunded; 0 for a zero payment (provider "none"). */
  refundable: number;
}

/**
 * `GET /api/admin/applications/:id/refund-quote`: the policy's suggestion (spec §9) with the
 * application's payments and refunds, for the refund panel.
 */
export interface AdminRefundQuoteDto extends RefundQuote {
  applicationId: string;
  paymentStatus: string;
  payments: AdminRefundablePaymentDto[];
  refunds: AdminRefundDto[];
}

/**
 * `POST /api/admin/applications/:id/refunds` answer: the refund (201 when created, 200 when the
 * same idempotency key returned an existing one) and the application's payment status after it.
 */
export interface AdminRefundResult {
  refund: AdminRefundDto;
  paymentStatus: string;
  /** True when the idempotency key was seen before (nothing new happened). */
  replayed: boolean;
}

/** One row of the ledger: a payment (money in) or a refund (money out, `amount` positive). */
export interface LedgerEntryDto {
  /** `payment:<id>` or `refund:<id>`. */
  id: string;
  kind: LedgerKind;
  /** Payment date, or refund request date. */
  date: string;
  amount: number;
  currency: string;
  /** Payments are always `succeeded`; refunds as their status. */
  status: RefundStatus;
  provider: "stripe" | "offline" | "none";
  /** Payment intent (payment) or provider refund id (refund). */
  reference: string | null;
  reason: string | null;
  applicationId: string;
  applicant: { firstName: string; lastName: string; email: string };
  school: { id: string; name: string };
}

/** `GET /api/admin/finances/ledger`. */
export type LedgerPage = ListPage<LedgerEntryDto>;

/** Revenue of one group (a school, a month, or everything). Cents; VAT 21 % included in `net`. */
export interface RevenueFigures {
  /** Payments received. */
  gross: number;
  /** Refunds that succeeded. */
  refunded: number;
  /** gross − refunded. */
  net: number;
  /** The 21 % VAT included in net: net − round(net / 1.21) (spec §9, `includedVat`). */
  vat: number;
  /** net − vat. */
  netExVat: number;
  /** Number of payments. */
  payments: number;
  /** Number of succeeded refunds. */
  refunds: number;
}

/** `GET /api/admin/finances/summary`: revenue per school, per month (yyyy-mm, UTC) and in total. */
export interface FinanceSummaryDto {
  from: string | null;
  to: string | null;
  bySchool: Array<RevenueFigures & { schoolId: string; name: string; startDate: string }>;
  byMonth: Array<RevenueFigures & { month: string }>;
  total: RevenueFigures;
}
