// The back office's money, split by use case: `refunds.ts` (a refund's quote and request),
// `ledger.ts` (the ledger of payments and refunds, its page and CSV), `summary.ts` (revenue per
// school and month, its CSV); `settle.ts` settles a refund the provider reported. This file keeps
// the one import path of routes.ts.
export { exportLedger, listLedger } from "./ledger";
export { type FinanceDeps, refundQuoteFor, requestRefund } from "./refunds";
export { financeSummary, revenueFigures, summaryCsv } from "./summary";
