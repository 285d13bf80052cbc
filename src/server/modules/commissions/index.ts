/**
 * The commissions module's public face: what other modules may import from it
 * (src/server/README.md, "Modules"). Partner commissions: accrual on payment, clawback on refund,
 * the ledger and the figures.
 */
export { accrueCommissionForPayment, clawBackCommissionForRefund } from "./accrue";
export { affiliateFigures, figureEvents, figureSql, paidRevenueSql } from "./figures";
export { commissionStep } from "./fulfilment";
export { ledgerOf, releaseAt, studentShortName } from "./ledger";
