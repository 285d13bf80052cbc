import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply } from "fastify";
import {
  downloadAdminInvoiceContract,
  downloadStudentInvoiceContract,
  listAdminInvoicesContract,
  listStudentInvoicesContract,
  saveBillingDetailsContract,
} from "../../../shared/api/documents";
import type { InvoiceList } from "../../../shared/schemas/documents";
import type { Db } from "../../db/client";
import { applications } from "../../db/schema";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { HttpError } from "../../lib/errors";
import { requireStudent, studentApplication } from "../student";
import { billingDetailsOf, invoiceById, invoicesOfApplication, saveBillingDetails } from "./invoices";
import { renderInvoicePdf } from "./pdf";

/**
 * Documents of an application (docs/product/admissions.md#documents-and-letters): the invoices and credit notes, as a list and
 * as PDFs, for the student who owns the application and for admins, and the billing details (the
 * organisation that pays) the student sets. Student routes: 401 without a student session, 403
 * until the account's e-mail is verified, 404 for an application or document of someone else
 * (student/ownership.ts; docs/product/security.md#s6-nobody-reads-what-is-not-theirs). Admin routes: `applications:read` (every role: owners,
 * admissions, finance); 401 without an admin session. PDFs are `private, no-store`.
 */
export async function documentRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { db, env, now } = opts;
  const { requireAdmin, sessions } = app.services;
  let fontWarned = false;

  /** Sends a stored document as its PDF, named after its number. */
  async function sendPdf(reply: FastifyReply, id: string) {
    const row = await invoiceById(db, id);
    if (!row) throw new HttpError(404, "errors.notFound");
    const { pdf, fontProblem } = await renderInvoicePdf(row.snapshot, env.DOCUMENT_FONT);
    if (fontProblem && !fontWarned) {
      fontWarned = true;
      reply.log.warn({ invoiceId: row.id }, fontProblem);
    }
    const name = `${row.kind === "credit_note" ? "credit-note" : "invoice"}-${row.number}.pdf`;
    return reply
      .header("content-type", "application/pdf")
      .header("content-disposition", `attachment; filename="${name}"`)
      .header("cache-control", "private, no-store")
      .header("x-content-type-options", "nosniff")
      .send(pdf);
  }

  /** The list answer of an application for `audience`. */
  async function listOf(applicationId: string, audience: "student" | "admin"): Promise<InvoiceList> {
    return {
      items: await invoicesOfApplication(db, applicationId, audience),
      billingDetails: await billingDetailsOf(db, applicationId),
    };
  }

  /**
   * GET /api/student/applications/:id/invoices → InvoiceList `{ items: [{ id, number, kind,
   * issuedOn, amount (cents, negative for a credit note), currency, refersTo, pdfUrl }], billingDetails }`,
   * oldest first. Owner only (401/403/404 as above).
   */
  route(app, listStudentInvoicesContract, {}, async ({ params, request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    const { application } = await studentApplication(db, student, params.id);
    reply.header("cache-control", "private, no-store");
    return listOf(application.id, "student");
  });

  /**
   * GET /api/student/invoices/:id.pdf → the PDF of an invoice or credit note of one of the
   * student's applications (`attachment; filename="invoice-<number>.pdf"`, `private, no-store`).
   * 404 for an unknown id or someone else's document. A browser that opens the link (from an
   * e-mail) without a student session is sent to the portal's login page (303) rather than shown a
   * JSON 401; API clients get the 401.
   */
  route(app, downloadStudentInvoiceContract, {}, async ({ params, request, reply }) => {
    const student = await requireStudent(db, sessions, request).catch((err: unknown) => {
      if (err instanceof HttpError && err.status === 401 && /text\/html/.test(request.headers.accept ?? ""))
        return null;
      throw err;
    });
    if (!student) return reply.redirect("/student/login", 303);
    const row = await invoiceById(db, params.id);
    if (!row) throw new HttpError(404, "errors.notFound");
    await studentApplication(db, student, row.applicationId);
    return sendPdf(reply, row.id);
  });

  /**
   * PUT /api/student/applications/:id/billing-details `{ organisationName, address, vatNumber }` →
   * BillingDetailsDto, or `null` when all three were empty (removed). Printed on the invoices issued
   * from then on; invoices already issued do not change. 400 with field errors for a name without
   * an address (or the other way round), a text too long or with control characters.
   */
  route(app, saveBillingDetailsContract, {}, async ({ body, params, request }) => {
    const student = await requireStudent(db, sessions, request);
    const { application } = await studentApplication(db, student, params.id);
    return saveBillingDetails(db, application.id, body, now());
  });

  /** GET /api/admin/applications/:id/invoices → InvoiceList (applications:read; 404 unknown id). */
  route(
    app,
    listAdminInvoicesContract,
    { preHandler: requireAdmin("applications:read") },
    async ({ params: { id } }) => {
      const [found] = await db
        .select({ id: applications.id })
        .from(applications)
        .where(eq(applications.id, id));
      if (!found) throw new HttpError(404, "errors.notFound");
      return listOf(id, "admin");
    },
  );

  /**
   * GET /api/admin/invoices/:id.pdf → the document's PDF (applications:read), also after the
   * applicant's erasure (the snapshot keeps it readable for the 7-year retention). 404 unknown id.
   */
  route(
    app,
    downloadAdminInvoiceContract,
    { preHandler: requireAdmin("applications:read") },
    async ({ params, reply }) => sendPdf(reply, params.id),
  );
}
