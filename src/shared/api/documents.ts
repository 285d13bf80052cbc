import { billingDetailsInputSchema, billingDetailsSchema, invoiceListSchema } from "../schemas/documents";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * Documents of an application: its invoices and credit notes, as a list and as PDFs, for the
 * student who owns it (401 without a student session, 403 until the e-mail is verified, 404 for
 * someone else's) and for admins (`applications:read`; 401 without an admin session), and the
 * billing details the student sets. Amounts are integer euro cents.
 */

/** `GET /api/student/applications/:id/invoices` → `{ items, billingDetails }`, oldest first. 401/403/404. */
export const listStudentInvoicesContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/invoices",
  access: "student",
  summary: "The invoices and credit notes of one of the student's applications, with its billing details",
  params: idParams,
  response: invoiceListSchema,
});

/**
 * `GET /api/student/invoices/:id.pdf` → the PDF of an invoice or credit note of the student's.
 * 404 unknown or someone else's; without a session, 303 to the portal's login for a browser, 401 otherwise.
 */
export const downloadStudentInvoiceContract = contract({
  method: "GET",
  path: "/api/student/invoices/:id.pdf",
  access: "student",
  summary: "The PDF of one of the student's invoices or credit notes",
  params: idParams,
  produces: "application/pdf",
});

/**
 * `PUT /api/student/applications/:id/billing-details` `{ organisationName, address, vatNumber }` →
 * the billing details, or `null` when all three were empty (removed). 400 with field errors.
 */
export const saveBillingDetailsContract = contract({
  method: "PUT",
  path: "/api/student/applications/:id/billing-details",
  access: "student",
  summary: "Set or remove the organisation that pays, for invoices issued from now on",
  params: idParams,
  body: billingDetailsInputSchema,
  response: billingDetailsSchema.nullable(),
});

/** `GET /api/admin/applications/:id/invoices` → `{ items, billingDetails }` (applications:read). 404 unknown id. */
export const listAdminInvoicesContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/invoices",
  access: "admin",
  summary: "The invoices and credit notes of an application, with its billing details",
  params: idParams,
  response: invoiceListSchema,
});

/** `GET /api/admin/invoices/:id.pdf` → the document's PDF (applications:read), also after the applicant's erasure. 404 unknown id. */
export const downloadAdminInvoiceContract = contract({
  method: "GET",
  path: "/api/admin/invoices/:id.pdf",
  access: "admin",
  summary: "The PDF of an invoice or credit note",
  params: idParams,
  produces: "application/pdf",
});

/** Every contract of this area (the route test checks each is served). */
export const DOCUMENTS_CONTRACTS = [
  listStudentInvoicesContract,
  downloadStudentInvoiceContract,
  saveBillingDetailsContract,
  listAdminInvoicesContract,
  downloadAdminInvoiceContract,
];
