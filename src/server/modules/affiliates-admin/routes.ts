import type { FastifyInstance } from "fastify";
import {
  adjustmentDuplicatesSchema,
  adjustmentSchema,
  adminAffiliateLedgerSchema,
  affiliateActionSchema,
  affiliateFiltersSchema,
  affiliateListQuerySchema,
  affiliateVersionSchema,
  commissionSchema,
  rejectSchema,
  reverseAdjustmentSchema,
} from "../../../shared/schemas/affiliates-admin";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { sendCsv } from "../../lib/csv";
import { parseOrThrow } from "../../lib/errors";
import { adminId } from "../../lib/params";
import { AffiliatesAdminService } from "./service";

/**
 * Back-office routes of affiliates (issue 3 "Affiliates"; route /admin/affiliates). Every route
 * runs behind `requireAdmin("affiliates:write")` (owners and finance; admissions → 403; no admin
 * session → 401); answers are `no-store`. Unknown or malformed ids → 404; malformed bodies → 400;
 * a stale `version` → 409 `{ message, current }`. Every change writes an audit entry in its
 * transaction. `GET /api/admin/affiliates` and `POST /api/admin/affiliates/:id/approve` moved here
 * from modules/auth (same paths; the list now pages like every admin list).
 */
export async function adminAffiliateRoutes(
  app: FastifyInstance,
  opts: { db: Db; env: Env; now: () => Date },
) {
  const { db, env, now } = opts;
  const { requireAdmin, mail, sessions } = app.services;
  const guard = { preHandler: requireAdmin("affiliates:write") };
  const service = new AffiliatesAdminService({
    db,
    appOrigin: env.APP_ORIGIN,
    mail,
    sessions,
    now,
    supportEmail: env.SUPPORT_EMAIL,
    minimumPayout: env.MINIMUM_PAYOUT_CENTS,
  });

  /**
   * GET /api/admin/affiliates?page&pageSize&sort&status&q → AdminAffiliateList; sort keys name,
   * createdAt, status, clicks, referredApplications, paidApplications, paidRevenue, commissionOwed,
   * commissionPaid (default createdAt:desc). Commission figures are sums of the ledger (issue 12).
   */
  app.get("/api/admin/affiliates", guard, async (request) =>
    service.list(parseOrThrow(affiliateListQuerySchema, request.query)),
  );

  /** GET /api/admin/affiliates.csv?status&q → text/csv attachment; audit "affiliates.export". */
  app.get("/api/admin/affiliates.csv", guard, async (request, reply) => {
    const filters = parseOrThrow(affiliateFiltersSchema, request.query);
    const { csv, rows } = await service.exportCsv(filters);
    await recordAudit(db, {
      actor: request.admin!,
      action: "affiliates.export",
      entityType: "affiliate",
      entityId: "*",
      after: { filters, rows },
    });
    return sendCsv(reply, "affiliates", csv, now());
  });

  /** GET /api/admin/affiliates/:id → AdminAffiliateDetail; 404 when unknown. */
  app.get("/api/admin/affiliates/:id", guard, async (request) =>
    service.detail(adminId(request.params), request.language),
  );

  /**
   * POST /api/admin/affiliates/:id/approve `{ version? }` → the affiliate, approved, with its
   * referral code (created once, derived from the name) and the approval e-mail queued once.
   * Idempotent; 404 unknown id; 409 stale version when one is sent.
   */
  app.post("/api/admin/affiliates/:id/approve", guard, async (request) => {
    const id = adminId(request.params);
    const { version } = parseOrThrow(affiliateActionSchema, request.body);
    return service.approve(request.admin!, id, version);
  });

  /** POST /api/admin/affiliates/:id/suspend `{ version }` → the affiliate, suspended (sessions ended, codes off). */
  app.post("/api/admin/affiliates/:id/suspend", guard, async (request) => {
    const id = adminId(request.params);
    const { version } = parseOrThrow(affiliateVersionSchema, request.body);
    return service.suspend(request.admin!, id, version);
  });

  /** POST /api/admin/affiliates/:id/reactivate `{ version }` → the affiliate, approved again (its codes back on). */
  app.post("/api/admin/affiliates/:id/reactivate", guard, async (request) => {
    const id = adminId(request.params);
    const { version } = parseOrThrow(affiliateVersionSchema, request.body);
    return service.reactivate(request.admin!, id, version);
  });

  /**
   * POST /api/admin/affiliates/:id/reject `{ reason, version? }` → the affiliate, rejected with the
   * reason (e-mailed in its language, shown at its login). Not pending → 422; reason missing or
   * over 500 characters → 400 (issue 12 "reject with a reason").
   */
  app.post("/api/admin/affiliates/:id/reject", guard, async (request) => {
    const id = adminId(request.params);
    const { reason, version } = parseOrThrow(rejectSchema, request.body);
    return service.reject(request.admin!, id, reason, version);
  });

  /**
   * PATCH /api/admin/affiliates/:id/commission `{ type: "percentage", percent, version }` or
   * `{ type: "fixed", fixedCents, version }` (the older `{ commissionPercent, version }` reads as a
   * percentage) → the affiliate. Later payments earn at the new rate (decision 022).
   */
  app.patch("/api/admin/affiliates/:id/commission", guard, async (request) => {
    const id = adminId(request.params);
    const { rate, version } = parseOrThrow(commissionSchema, request.body);
    return service.setCommission(request.admin!, id, rate, version);
  });

  /**
   * GET /api/admin/affiliates/:id/commissions → `{ ledger }` (commissionLedgerSchema): the same
   * ledger as the affiliate's dashboard, by `ledgerOf` (issue 12, decision 022). 404 when unknown.
   */
  app.get("/api/admin/affiliates/:id/commissions", guard, async (request) => {
    return adminAffiliateLedgerSchema.parse(
      await service.commissions(adminId(request.params), request.language),
    );
  });

  /**
   * GET /api/admin/affiliates/:id/commissions.csv → the ledger as a CSV attachment, amounts in
   * euros; audit "affiliate.commissions.export". 404 when unknown.
   */
  app.get("/api/admin/affiliates/:id/commissions.csv", guard, async (request, reply) => {
    const id = adminId(request.params);
    const { csv, rows } = await service.commissionsCsv(id, request.language);
    await recordAudit(db, {
      actor: request.admin!,
      action: "affiliate.commissions.export",
      entityType: "affiliate",
      entityId: id,
      after: { rows },
    });
    return sendCsv(reply, "commissions", csv, now());
  });

  /**
   * POST /api/admin/affiliates/:id/adjustments `{ amountCents, reason, version? }` → 201
   * `{ ledger }` after a manual commission entry: signed cents (not 0, at most 10,000.00 EUR either
   * way), reason required (≤ 500 characters), approved at once, audited "affiliate.adjust" (issue 12
   * "manual adjustments (reason required, audited)"). 400 bad body; 404 unknown; 409 stale version.
   */
  app.post("/api/admin/affiliates/:id/adjustments", guard, async (request, reply) => {
    const id = adminId(request.params);
    const input = parseOrThrow(adjustmentSchema, request.body);
    const result = await service.adjust(request.admin!, id, input, request.language);
    return reply.status(201).send(adminAffiliateLedgerSchema.parse(result));
  });

  /**
   * GET /api/admin/affiliates/:id/adjustments/duplicates → AdjustmentDuplicates: adjustments that
   * repeat an earlier one (same amount and reason within 10 minutes), not reversed yet, for a
   * finance admin to reverse (issue 22 item 8). 404 when unknown.
   */
  app.get("/api/admin/affiliates/:id/adjustments/duplicates", guard, async (request) =>
    adjustmentDuplicatesSchema.parse(await service.duplicates(adminId(request.params))),
  );

  /**
   * POST /api/admin/affiliates/:id/adjustments/:entryId/reverse `{ reason, version? }` → 201
   * `{ ledger }`: a compensating adjustment of the opposite amount naming the original, audited
   * "affiliate.adjust.reverse"; the original stays as it is (issue 22 item 8). 400 bad body; 404
   * unknown affiliate or entry; 409 already reversed or stale version; 422 not a manual adjustment.
   */
  app.post("/api/admin/affiliates/:id/adjustments/:entryId/reverse", guard, async (request, reply) => {
    const id = adminId(request.params);
    const entryId = adminId({ id: (request.params as { entryId?: unknown }).entryId });
    const input = parseOrThrow(reverseAdjustmentSchema, request.body);
    const result = await service.reverseAdjustment(request.admin!, id, entryId, input, request.language);
    return reply.status(201).send(result);
  });
}
