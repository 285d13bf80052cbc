import type { FastifyInstance } from "fastify";
import {
  acceptPaymentContract,
  createRefundContract,
  exportFinanceSummaryContract,
  exportLedgerContract,
  getFinanceSummaryContract,
  getRefundQuoteContract,
  listLedgerContract,
} from "../../../shared/api/finance";
import type { VatSetting } from "../../../shared/site";
import type { Db } from "../../db/client";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import {
  exportLedger,
  financeSummary,
  listLedger,
  refundQuoteFor,
  requestRefund,
  summaryCsv,
} from "./service";
import type { RefundNotice } from "./settle";

/**
 * Finances of the back office (docs/product/back-office.md#finance): refunds of an application with the policy's
 * suggestion (docs/product/payments.md#refunds), the ledger of payments and refunds, and revenue per school and month with
 * the 21 % VAT included shown apart (none under `INVOICE_VAT=exempt`), each with a CSV export. Reading needs `finance:read`,
 * refunding `finance:write` (owners and finance; admissions → 403); 401 without an admin session.
 * Answers are `no-store`; malformed input → 400, unknown ids → 404, every change is audited.
 */
export async function financeRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; notice: RefundNotice; vat: VatSetting },
) {
  const { db, now, notice, vat } = opts;
  const { requireAdmin, provider } = app.services;

  /**
   * GET /api/admin/applications/:id/refund-quote → AdminRefundQuoteDto `{ daysBeforeStart,
   * percent, suggestedAmountCents, refundableCents, payments, refunds, … }` (finance:read).
   */
  route(app, getRefundQuoteContract, { preValidation: requireAdmin("finance:read") }, async ({ params }) =>
    refundQuoteFor(db, params.id, now()),
  );

  /**
   * POST /api/admin/applications/:id/refunds `{ paymentId?, amountCents, reason, idempotencyKey }`
   * → 201 AdminRefundResult (200 with `replayed: true` for a key seen before; 409 when that key
   * came with another amount). 422 for an amount ≤ 0 or above what is refundable, or nothing to
   * refund; 502 when the provider refuses or cannot be reached (the refund is then `failed`).
   */
  route(
    app,
    createRefundContract,
    { preValidation: requireAdmin("finance:write") },
    async ({ body, params, request, reply }) => {
      const { status, result } = await requestRefund(
        { db, provider, now, log: request.log, notice },
        request.admin!,
        params.id,
        body,
        request.language,
      );
      // This refund gave back everything paid: the place is free again, so the places left change.
      if (result.paymentStatus === "refunded" && !result.replayed) app.services.catalogue.invalidate();
      // A replayed key answers 200 (the contract's 201 is for a new refund).
      reply.status(status);
      return result;
    },
  );

  /**
   * POST /api/admin/applications/:id/payments/:paymentId/accept → `{ paymentId }` (finance:write;
   * docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): accepts a flagged payment (a superseded quote, another amount) as the
   * application's payment at the price paid; audited. 404 unknown, 409 already paid, not flagged
   * or refunded, 422 when its code has no use left.
   */
  route(
    app,
    acceptPaymentContract,
    { preValidation: requireAdmin("finance:write") },
    async ({ params, request }) =>
      app.services.payments.acceptFlaggedPayment(params.id, params.paymentId, request.admin!),
  );

  /** GET /api/admin/finances/ledger?page&pageSize&sort&schoolId&kind&from&to&q → LedgerPage (finance:read). */
  route(
    app,
    listLedgerContract,
    { preValidation: requireAdmin("finance:read") },
    async ({ query, request }) => listLedger(db, query, request.language),
  );

  /** GET /api/admin/finances/ledger.csv?<same filters> → text/csv (finance:read; audit "finances.export"). */
  route(
    app,
    exportLedgerContract,
    { preValidation: requireAdmin("finance:read") },
    async ({ query: filters, request, reply }) => {
      const { csv, rows } = await exportLedger(db, filters, request.language);
      await recordAudit(db, {
        actor: request.admin!,
        action: "finances.export",
        entityType: "ledger",
        entityId: "*",
        after: { filters, rows },
      });
      return sendCsv(reply, "ledger", csv, now());
    },
  );

  /**
   * GET /api/admin/finances/summary?from&to → FinanceSummaryDto (finance:read); VAT per `INVOICE_VAT`
   * (docs/product/payments.md#vat-setting): none when exempt.
   */
  route(
    app,
    getFinanceSummaryContract,
    { preValidation: requireAdmin("finance:read") },
    async ({ query, request }) => financeSummary(db, query, request.language, vat),
  );

  /** GET /api/admin/finances/summary.csv?from&to → text/csv (finance:read; audit "finances.export"). */
  route(
    app,
    exportFinanceSummaryContract,
    { preValidation: requireAdmin("finance:read") },
    async ({ query, request, reply }) => {
      const summary = await financeSummary(db, query, request.language, vat);
      await recordAudit(db, {
        actor: request.admin!,
        action: "finances.export",
        entityType: "revenue_summary",
        entityId: "*",
        after: { filters: query },
      });
      return sendCsv(reply, "revenue", summaryCsv(summary), now());
    },
  );
}
