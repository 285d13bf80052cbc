/**
 * What an invoice or credit note prints (issue 11 "Documents", decision 017). The server stores it
 * once, as the document's immutable snapshot (`invoices.snapshot`), and draws the PDF from it alone.
 * Amounts are integer euro cents (negative on a credit note); dates are `yyyy-mm-dd` (The Hague),
 * written for people only when printed. Texts are in English: the documents are the school's
 * accounting records, in the language its accountant and the tax office read.
 */
export interface InvoiceSnapshot {
  /** Version of this shape; a renderer reads every version it ever wrote. */
  v: 1;
  kind: "invoice" | "credit_note";
  number: string;
  /** Date of issue. */
  issuedOn: string;
  issuer: {
    legalName: string;
    address: string;
    kvkNumber: string;
    vatNumber: string;
    email: string;
  };
  /** The student the programme is for, with the address they gave when applying. */
  student: { name: string; address: string[] };
  /** The organisation that pays, when the student named one before the document was issued. */
  organisation: { name: string; address: string[]; vatNumber: string } | null;
  /** The application's id: the reference a payer quotes. */
  applicationRef: string;
  programme: { name: string; startDate: string; endDate: string };
  /** Items of the quote the payment is for (package, housing, add-ons, discount). */
  lines: Array<{ description: string; amount: number; note?: string }>;
  /** Total of `lines`: the price of the whole programme as quoted. */
  quoteTotal: number;
  /**
   * Which part of `quoteTotal` this document is for, when not all of it: a deposit, the balance, a
   * refund. `amount` is then the document's total.
   */
  share: { label: string; amount: number } | null;
  /** What the document is for in total (the payment, or minus the refund). */
  total: number;
  currency: "EUR";
  vat:
    | { mode: "included"; ratePercent: number; vatAmount: number; netAmount: number }
    | { mode: "exempt"; statement: string };
  /** The payment the document is for: the provider's reference and the day it was paid. */
  payment: { reference: string; paidOn: string };
  /** For a credit note: the invoice it corrects. */
  refersTo: { number: string; issuedOn: string } | null;
}
