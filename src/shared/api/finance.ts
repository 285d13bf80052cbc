import {
  acceptedPaymentSchema,
  adminRefundQuoteSchema,
  adminRefundResultSchema,
  financeSummaryQuerySchema,
  financeSummarySchema,
  ledgerFiltersSchema,
  ledgerPageSchema,
  ledgerQuerySchema,
  refundRequestSchema,
} from "../schemas/finance";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * Finances of the back office: refunds of an application, the acceptance of a flagged payment,
 * the ledger of payments and refunds and the revenue summary, each list with its CSV export.
 * Reading needs `finance:read`, changing `finance:write` (403 otherwise, 401 without an admin
 * session). Amounts are integer euro cents. The answers' schemas are those of
 * `src/shared/schemas/finance.ts`, which the types of `src/shared/finance.ts` derive from.
 */

/** `GET /api/admin/applications/:id/refund-quote`: the policy's suggestion and what is refundable; 404 unknown. */
export const getRefundQuoteContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/refund-quote",
  access: "admin",
  summary: "The refund policy's suggestion for an application and what is refundable",
  params: idParams,
  response: adminRefundQuoteSchema,
});

/**
 * `POST /api/admin/applications/:id/refunds`: refunds (part of) a payment → 201 the refund (200
 * with `replayed: true` for an idempotency key seen before; 409 when that key came with another
 * amount); 422 for an amount not refundable; 502 when the provider refuses.
 */
export const createRefundContract = contract({
  method: "POST",
  path: "/api/admin/applications/:id/refunds",
  access: "admin",
  summary: "Refund (part of) a payment of an application",
  params: idParams,
  body: refundRequestSchema,
  status: 201,
  response: adminRefundResultSchema,
});

/**
 * `POST /api/admin/applications/:id/payments/:paymentId/accept`: accepts a flagged payment as the
 * application's payment → `{ paymentId }`; 404 unknown, 409 already paid or not flagged, 422 when
 * its code has no use left.
 */
export const acceptPaymentContract = contract({
  method: "POST",
  path: "/api/admin/applications/:id/payments/:paymentId/accept",
  access: "admin",
  summary: "Accept a flagged payment as the application's payment",
  params: z.object({ id: z.uuid(), paymentId: z.uuid() }),
  response: acceptedPaymentSchema,
});

/** `GET /api/admin/finances/ledger`: a page of the ledger (school, kind, from, to, q, sort). */
export const listLedgerContract = contract({
  method: "GET",
  path: "/api/admin/finances/ledger",
  access: "admin",
  summary: "A page of the ledger of payments and refunds",
  query: ledgerQuerySchema,
  response: ledgerPageSchema,
});

/** `GET /api/admin/finances/ledger.csv`: the matching ledger entries as CSV (audited). */
export const exportLedgerContract = contract({
  method: "GET",
  path: "/api/admin/finances/ledger.csv",
  access: "admin",
  summary: "The matching ledger entries as CSV",
  query: ledgerFiltersSchema,
  produces: "text/csv",
});

/** `GET /api/admin/finances/summary`: revenue per school and month (from, to), VAT apart. */
export const getFinanceSummaryContract = contract({
  method: "GET",
  path: "/api/admin/finances/summary",
  access: "admin",
  summary: "Revenue per summer school and month, VAT included shown apart",
  query: financeSummaryQuerySchema,
  response: financeSummarySchema,
});

/** `GET /api/admin/finances/summary.csv`: the revenue summary as CSV (audited). */
export const exportFinanceSummaryContract = contract({
  method: "GET",
  path: "/api/admin/finances/summary.csv",
  access: "admin",
  summary: "The revenue summary as CSV",
  query: financeSummaryQuerySchema,
  produces: "text/csv",
});

/** Every contract of this area. */
export const FINANCE_CONTRACTS = [
  getRefundQuoteContract,
  createRefundContract,
  acceptPaymentContract,
  listLedgerContract,
  exportLedgerContract,
  getFinanceSummaryContract,
  exportFinanceSummaryContract,
];
