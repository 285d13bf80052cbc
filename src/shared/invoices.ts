/**
 * What an invoice or credit note prints (docs/product/admissions.md#documents-and-letters, decision 017). The server stores it
 * once, as the document's immutable snapshot (`invoices.snapshot`), and draws the PDF from it alone.
 * Amounts are integer euro cents (negative on a credit note); dates are `yyyy-mm-dd` (The Hague),
 * written for people only when printed. Texts are in English: the documents are the school's
 * accounting records, in the language its accountant and the tax office read.
 */
interface InvoiceSnapshotBase {
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

/** A line as version 1 stored it: its amount including VAT (cents) only. */
export interface InvoiceLineV1 {
  description: string;
  /** Cents, VAT included (negative for a discount or on a credit note). */
  amount: number;
  note?: string;
}

/**
 * A line of version 2 (docs/product/payments.md#invoice-lines, decision 034): one unit of an item, with, under VAT
 * included, its unit price excluding VAT, the rate and its VAT, from `vatBreakdown`
 * (src/shared/vat.ts). `vat` is null on a VAT-exempt document.
 */
export interface InvoiceLineV2 extends InvoiceLineV1 {
  quantity: 1;
  vat: { unitPriceExclVat: number; ratePercent: number; vatAmount: number } | null;
}

/** Documents issued before the rule of docs/product/payments.md#invoice-lines: lines with their amount including VAT only. */
export interface InvoiceSnapshotV1 extends InvoiceSnapshotBase {
  /** Version of this shape; a renderer reads every version it ever wrote. */
  v: 1;
  /** Items of the quote the payment is for (package, housing, add-ons, discount). */
  lines: InvoiceLineV1[];
}

/**
 * Documents issued since the rule of docs/product/payments.md#invoice-lines (Wet OB art. 35a, directive 2006/112/EC art. 226): each
 * line states its unit price excluding VAT, the rate and its VAT; under VAT included `vat` holds
 * the document's totals (`netAmount` + `vatAmount` = `total`), which the lines' VAT adds up to
 * when the document is for the whole price. For a part (`share`), the lines show the programme's
 * price and `share.vat` the VAT of the amount paid, equal to the document's (decision 034).
 */
export interface InvoiceSnapshotV2 extends Omit<InvoiceSnapshotBase, "share"> {
  v: 2;
  lines: InvoiceLineV2[];
  share: {
    label: string;
    amount: number;
    /** The amount's VAT and its amount excluding VAT; null on a VAT-exempt document. */
    vat: { netAmount: number; vatAmount: number } | null;
  } | null;
}

/** Every version of a stored document (`invoices.snapshot`). */
export type InvoiceSnapshot = InvoiceSnapshotV1 | InvoiceSnapshotV2;
