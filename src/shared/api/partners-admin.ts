import {
  adjustmentDuplicatesSchema,
  adjustmentSchema,
  adminAffiliateDetailSchema,
  adminAffiliateLedgerSchema,
  adminAffiliateListSchema,
  adminAffiliateSchema,
  affiliateActionSchema,
  affiliateFiltersSchema,
  affiliateListQuerySchema,
  affiliateVersionSchema,
  commissionSchema,
  rejectSchema,
  reverseAdjustmentSchema,
} from "../schemas/affiliates-admin";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The back office's affiliates (partners) endpoints (docs/product/back-office.md#partners-admin, docs/product/portals.md#partner-area):
 * the list and its CSV, an affiliate's detail, approve, reject, suspend, reactivate, its
 * commission rate, its commission ledger (and CSV), manual adjustments, their likely duplicates
 * and their reversal. Every one needs an admin with `affiliates:write` (401 / 403); a malformed or
 * unknown id is a 404, a stale `version` a 409 `{ message, current }`. Amounts are integer euro cents.
 */

/** `GET /api/admin/affiliates?page&pageSize&sort&status&q`: a page of affiliates with their figures. */
export const listAffiliatesContract = contract({
  method: "GET",
  path: "/api/admin/affiliates",
  access: "admin",
  summary: "A page of affiliates with their referral and commission figures",
  query: affiliateListQuerySchema,
  response: adminAffiliateListSchema,
});

/** `GET /api/admin/affiliates.csv?status&q`: the matching affiliates as a CSV attachment (audited). */
export const exportAffiliatesCsvContract = contract({
  method: "GET",
  path: "/api/admin/affiliates.csv",
  access: "admin",
  summary: "The matching affiliates as a CSV file",
  query: affiliateFiltersSchema,
  produces: "text/csv",
});

/** `GET /api/admin/affiliates/:id`: the affiliate, its codes with usage, its newest referred applications; 404 unknown. */
export const getAffiliateContract = contract({
  method: "GET",
  path: "/api/admin/affiliates/:id",
  access: "admin",
  summary: "An affiliate with its codes and its newest referred applications",
  params: idParams,
  response: adminAffiliateDetailSchema,
});

/** `POST /api/admin/affiliates/:id/approve` `{ version? }`: the affiliate, approved (idempotent); 409 stale version. */
export const approveAffiliateContract = contract({
  method: "POST",
  path: "/api/admin/affiliates/:id/approve",
  access: "admin",
  summary: "Approve an affiliate (its referral code created, the approval e-mailed)",
  params: idParams,
  body: affiliateActionSchema,
  response: adminAffiliateSchema,
});

/** `POST /api/admin/affiliates/:id/suspend` `{ version }`: the affiliate, suspended (sessions ended, codes off). */
export const suspendAffiliateContract = contract({
  method: "POST",
  path: "/api/admin/affiliates/:id/suspend",
  access: "admin",
  summary: "Suspend an affiliate: its sessions end and its codes stop working",
  params: idParams,
  body: affiliateVersionSchema,
  response: adminAffiliateSchema,
});

/** `POST /api/admin/affiliates/:id/reactivate` `{ version }`: the affiliate, approved again (its codes back on). */
export const reactivateAffiliateContract = contract({
  method: "POST",
  path: "/api/admin/affiliates/:id/reactivate",
  access: "admin",
  summary: "Reactivate a suspended affiliate",
  params: idParams,
  body: affiliateVersionSchema,
  response: adminAffiliateSchema,
});

/** `POST /api/admin/affiliates/:id/reject` `{ reason, version? }`: the affiliate, rejected; 422 when not pending. */
export const rejectAffiliateContract = contract({
  method: "POST",
  path: "/api/admin/affiliates/:id/reject",
  access: "admin",
  summary: "Reject a pending affiliate with a reason (e-mailed, shown at its login)",
  params: idParams,
  body: rejectSchema,
  response: adminAffiliateSchema,
});

/** `PATCH /api/admin/affiliates/:id/commission` `{ type, percent | fixedCents, version }`: the affiliate at its new rate. */
export const setAffiliateCommissionContract = contract({
  method: "PATCH",
  path: "/api/admin/affiliates/:id/commission",
  access: "admin",
  summary: "Set an affiliate's commission rate (a percentage or a fixed amount per student)",
  params: idParams,
  body: commissionSchema,
  response: adminAffiliateSchema,
});

/** `GET /api/admin/affiliates/:id/commissions`: `{ ledger }`, the same ledger the affiliate sees; 404 unknown. */
export const getAffiliateCommissionsContract = contract({
  method: "GET",
  path: "/api/admin/affiliates/:id/commissions",
  access: "admin",
  summary: "An affiliate's commission ledger and balance",
  params: idParams,
  response: adminAffiliateLedgerSchema,
});

/** `GET /api/admin/affiliates/:id/commissions.csv`: the ledger as a CSV attachment, in euros (audited). */
export const exportAffiliateCommissionsCsvContract = contract({
  method: "GET",
  path: "/api/admin/affiliates/:id/commissions.csv",
  access: "admin",
  summary: "An affiliate's commission ledger as a CSV file",
  params: idParams,
  produces: "text/csv",
});

/** `POST /api/admin/affiliates/:id/adjustments` `{ amountCents, reason, version? }` → 201 `{ ledger }`; 409 stale version. */
export const createAdjustmentContract = contract({
  method: "POST",
  path: "/api/admin/affiliates/:id/adjustments",
  access: "admin",
  summary: "Add a manual commission adjustment with its reason (audited)",
  params: idParams,
  body: adjustmentSchema,
  status: 201,
  response: adminAffiliateLedgerSchema,
});

/** `GET /api/admin/affiliates/:id/adjustments/duplicates`: adjustments that repeat an earlier one, not reversed yet. */
export const listDuplicateAdjustmentsContract = contract({
  method: "GET",
  path: "/api/admin/affiliates/:id/adjustments/duplicates",
  access: "admin",
  summary: "An affiliate's likely duplicate adjustments, to reverse",
  params: idParams,
  response: adjustmentDuplicatesSchema,
});

/**
 * `POST /api/admin/affiliates/:id/adjustments/:entryId/reverse` `{ reason, version? }` → 201
 * `{ ledger }`; 404 unknown affiliate or entry, 409 already reversed or stale, 422 not an adjustment.
 */
export const reverseAdjustmentContract = contract({
  method: "POST",
  path: "/api/admin/affiliates/:id/adjustments/:entryId/reverse",
  access: "admin",
  summary: "Reverse a manual adjustment by a compensating one (audited)",
  params: z.object({ id: z.uuid(), entryId: z.uuid() }),
  body: reverseAdjustmentSchema,
  status: 201,
  response: adminAffiliateLedgerSchema,
});

/** Every contract of the back office's affiliates. */
export const PARTNERS_ADMIN_CONTRACTS = [
  listAffiliatesContract,
  exportAffiliatesCsvContract,
  getAffiliateContract,
  approveAffiliateContract,
  suspendAffiliateContract,
  reactivateAffiliateContract,
  rejectAffiliateContract,
  setAffiliateCommissionContract,
  getAffiliateCommissionsContract,
  exportAffiliateCommissionsCsvContract,
  createAdjustmentContract,
  listDuplicateAdjustmentsContract,
  reverseAdjustmentContract,
];
