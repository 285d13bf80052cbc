import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Schemas of the documents of an application (docs/product/admissions.md#documents-and-letters): its invoices and credit notes,
 * and the organisation that pays (the billing details). Shared by the server (parseOrThrow → 400
 * with a plain message) and the browser (`call` with the contract).
 */

/** Longest organisation name, address and VAT number of the billing details. */
export const BILLING_LIMITS = { organisationName: 200, address: 300, vatNumber: 30 } as const;

/**
 * `PUT /api/student/applications/:id/billing-details` — the organisation that pays (a university,
 * an employer): its name, postal address (several lines) and VAT number (optional). All three empty
 * removes it: invoices are then made out to the student. A name needs an address, and the other way
 * round. Applies to invoices issued from then on.
 */
export const billingDetailsInputSchema = z
  .object({
    organisationName: line()
      .max(BILLING_LIMITS.organisationName, { error: V.tooLong })
      .optional()
      .default(""),
    address: lines().max(BILLING_LIMITS.address, { error: V.tooLong }).optional().default(""),
    vatNumber: line().max(BILLING_LIMITS.vatNumber, { error: V.tooLong }).optional().default(""),
  })
  .superRefine((value, ctx) => {
    const any = value.organisationName || value.address || value.vatNumber;
    if (any && !value.organisationName)
      ctx.addIssue({ code: "custom", path: ["organisationName"], message: V.required });
    if (any && !value.address.trim())
      ctx.addIssue({ code: "custom", path: ["address"], message: V.required });
  });
export type BillingDetailsInput = z.output<typeof billingDetailsInputSchema>;
export type BillingDetailsFormValues = z.input<typeof billingDetailsInputSchema>;

/** The billing details as stored; null fields never occur, an application without any has `null`. */
export const billingDetailsSchema = z.object({
  organisationName: lines(),
  address: lines(),
  vatNumber: lines(),
  /** ISO 8601 UTC. */
  updatedAt: lines(),
});
export type BillingDetailsDto = z.infer<typeof billingDetailsSchema>;

/** One invoice or credit note in a list. `amount` in cents, negative for a credit note. */
export const invoiceListItemSchema = z.object({
  id: z.uuid(),
  number: lines(),
  kind: z.enum(["invoice", "credit_note"]),
  /** Date of issue, `yyyy-mm-dd` (The Hague). */
  issuedOn: lines(),
  amount: z.number().int(),
  currency: z.literal("EUR"),
  /** For a credit note: the number of the invoice it corrects. */
  refersTo: lines().nullable(),
  /** Where the PDF is downloaded (a path of this site). */
  pdfUrl: lines(),
});
export type InvoiceListItem = z.infer<typeof invoiceListItemSchema>;

/**
 * `GET /api/student/applications/:id/invoices` and `GET /api/admin/applications/:id/invoices`: the
 * application's invoices and credit notes, oldest first, and its current billing details.
 */
export const invoiceListSchema = z.object({
  items: z.array(invoiceListItemSchema),
  billingDetails: billingDetailsSchema.nullable(),
});
export type InvoiceList = z.infer<typeof invoiceListSchema>;
