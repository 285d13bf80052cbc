/**
 * The documents module's public face: what other modules may import from it (src/server/README.md,
 * "Modules"). Invoices and credit notes (numbers, PDFs) and the refund e-mail.
 */
export { queueRefundEmail } from "./emails";
export { invoiceStep } from "./fulfilment";
export { invoicePdfPath, issueCreditNoteForRefund, issueInvoiceForPayment } from "./invoices";
