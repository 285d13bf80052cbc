import type { FastifyInstance } from "fastify";
import {
  approveAffiliateContract,
  createAdjustmentContract,
  exportAffiliateCommissionsCsvContract,
  exportAffiliatesCsvContract,
  getAffiliateCommissionsContract,
  getAffiliateContract,
  listAffiliatesContract,
  listDuplicateAdjustmentsContract,
  reactivateAffiliateContract,
  rejectAffiliateContract,
  reverseAdjustmentContract,
  setAffiliateCommissionContract,
  suspendAffiliateContract,
} from "../../../shared/api/partners-admin";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { AffiliatesAdminService } from "./service";

/**
 * Back-office routes of affiliates (docs/product/back-office.md#partners-admin; route /admin/affiliates). Every route
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
  // The guard runs before the contract's validation: without an admin session a request is a 401
  // (a 403 for a role without the permission) whatever its id or body, as before.
  const guard = { preValidation: requireAdmin("affiliates:write") };
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
   * commissionPaid (default createdAt:desc). Commission figures are sums of the ledger (docs/product/codes-and-partners.md#partner-figures).
   */
  route(app, listAffiliatesContract, guard, async ({ query }) => service.list(query));

  /** GET /api/admin/affiliates.csv?status&q → text/csv attachment; audit "affiliates.export". */
  route(app, exportAffiliatesCsvContract, guard, async ({ query: filters, request, reply }) => {
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
  route(app, getAffiliateContract, guard, async ({ params, request }) =>
    service.detail(params.id, request.language),
  );

  /**
   * POST /api/admin/affiliates/:id/approve `{ version? }` → the affiliate, approved, with its
   * referral code (created once, derived from the name) and the approval e-mail queued once.
   * Idempotent; 404 unknown id; 409 stale version when one is sent.
   */
  route(app, approveAffiliateContract, guard, async ({ params, body, request }) =>
    service.approve(request.admin!, params.id, body.version),
  );

  /** POST /api/admin/affiliates/:id/suspend `{ version }` → the affiliate, suspended (sessions ended, codes off). */
  route(app, suspendAffiliateContract, guard, async ({ params, body, request }) =>
    service.suspend(request.admin!, params.id, body.version),
  );

  /** POST /api/admin/affiliates/:id/reactivate `{ version }` → the affiliate, approved again (its codes back on). */
  route(app, reactivateAffiliateContract, guard, async ({ params, body, request }) =>
    service.reactivate(request.admin!, params.id, body.version),
  );

  /**
   * POST /api/admin/affiliates/:id/reject `{ reason, version? }` → the affiliate, rejected with the
   * reason (e-mailed in its language, shown at its login). Not pending → 422; reason missing or
   * over 500 characters → 400 (docs/product/codes-and-partners.md#partners).
   */
  route(app, rejectAffiliateContract, guard, async ({ params, body, request }) =>
    service.reject(request.admin!, params.id, body.reason, body.version),
  );

  /**
   * PATCH /api/admin/affiliates/:id/commission `{ type: "percentage", percent, version }` or
   * `{ type: "fixed", fixedCents, version }` (the older `{ commissionPercent, version }` reads as a
   * percentage) → the affiliate. Later payments earn at the new rate (decision 022).
   */
  route(app, setAffiliateCommissionContract, guard, async ({ params, body, request }) =>
    service.setCommission(request.admin!, params.id, body.rate, body.version),
  );

  /**
   * GET /api/admin/affiliates/:id/commissions → `{ ledger }` (commissionLedgerSchema): the same
   * ledger as the affiliate's dashboard, by `ledgerOf` (docs/product/codes-and-partners.md#commissions, decision 022). 404 when unknown.
   */
  route(app, getAffiliateCommissionsContract, guard, async ({ params, request }) =>
    service.commissions(params.id, request.language),
  );

  /**
   * GET /api/admin/affiliates/:id/commissions.csv → the ledger as a CSV attachment, amounts in
   * euros; audit "affiliate.commissions.export". 404 when unknown.
   */
  route(app, exportAffiliateCommissionsCsvContract, guard, async ({ params: { id }, request, reply }) => {
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
   * way), reason required (≤ 500 characters), approved at once, audited "affiliate.adjust" (docs/product/codes-and-partners.md#commissions
   * "manual adjustments (reason required, audited)"). 400 bad body; 404 unknown; 409 stale version.
   */
  route(app, createAdjustmentContract, guard, async ({ params, body, request }) =>
    service.adjust(request.admin!, params.id, body, request.language),
  );

  /**
   * GET /api/admin/affiliates/:id/adjustments/duplicates → AdjustmentDuplicates: adjustments that
   * repeat an earlier one (same amount and reason within 10 minutes), not reversed yet, for a
   * finance admin to reverse (docs/product/codes-and-partners.md#manual-adjustments). 404 when unknown.
   */
  route(app, listDuplicateAdjustmentsContract, guard, async ({ params }) => service.duplicates(params.id));

  /**
   * POST /api/admin/affiliates/:id/adjustments/:entryId/reverse `{ reason, version? }` → 201
   * `{ ledger }`: a compensating adjustment of the opposite amount naming the original, audited
   * "affiliate.adjust.reverse"; the original stays as it is (docs/product/codes-and-partners.md#manual-adjustments). 400 bad body; 404
   * unknown affiliate or entry; 409 already reversed or stale version; 422 not a manual adjustment.
   */
  route(app, reverseAdjustmentContract, guard, async ({ params, body, request }) =>
    service.reverseAdjustment(request.admin!, params.id, params.entryId, body, request.language),
  );
}
