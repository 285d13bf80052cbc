import {
  adminPayoutSchema,
  affiliatePayoutListSchema,
  createPayoutRunSchema,
  markPayoutPaidSchema,
  payoutDetailsSchema,
  payoutDetailsViewSchema,
  payoutPreviewSchema,
  payoutRunDetailSchema,
  payoutRunListSchema,
  payoutRunSchema,
} from "../schemas/payouts";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * Payouts of commission to affiliates (docs/product/codes-and-partners.md#payout-runs, decision 022). The affiliate's side
 * (an approved affiliate's session, else 401): its payout details, its payouts and their
 * statements. The back office's (an admin with `affiliates:write`: 401 / 403): the preview of
 * the next run, payout runs, their bank CSV and SEPA file, payouts marked paid or cancelled.
 * Amounts are integer euro cents; every answer is `no-store`.
 */

/** `GET /api/affiliate/payout-details`: the method and the masked account, never the clear values. */
export const getPayoutDetailsContract = contract({
  method: "GET",
  path: "/api/affiliate/payout-details",
  access: "partner",
  summary: "The affiliate's payout method and masked account",
  response: payoutDetailsViewSchema,
});

/** `PUT /api/affiliate/payout-details` (by method): the masked view; 400 with the field's message when invalid. */
export const savePayoutDetailsContract = contract({
  method: "PUT",
  path: "/api/affiliate/payout-details",
  access: "partner",
  summary: "Save the affiliate's payout details (SEPA, SWIFT, Wise or PayPal); the change is e-mailed",
  body: payoutDetailsSchema,
  response: payoutDetailsViewSchema,
});

/** `GET /api/affiliate/payouts`: the affiliate's own payouts, newest first. */
export const listPartnerPayoutsContract = contract({
  method: "GET",
  path: "/api/affiliate/payouts",
  access: "partner",
  summary: "The affiliate's payouts, newest first",
  response: affiliatePayoutListSchema,
});

/** `GET /api/affiliate/payouts/:id/statement.pdf`: the payout's statement (PDF); 404 when not the affiliate's. */
export const getPayoutStatementContract = contract({
  method: "GET",
  path: "/api/affiliate/payouts/:id/statement.pdf",
  access: "partner",
  summary: "The statement of one of the affiliate's payouts (PDF)",
  params: idParams,
  produces: "application/pdf",
});

/** `GET /api/admin/payouts/preview`: who the next run pays, and who it leaves out and why. */
export const previewPayoutsContract = contract({
  method: "GET",
  path: "/api/admin/payouts/preview",
  access: "admin",
  summary: "The preview of the next payout run: eligible affiliates and the others with why",
  response: payoutPreviewSchema,
});

/**
 * `POST /api/admin/payout-runs` `{ idempotencyKey }` → 201 the new run, or 200 the same run when
 * the key was already used (a double click, concurrent requests).
 */
export const createPayoutRunContract = contract({
  method: "POST",
  path: "/api/admin/payout-runs",
  access: "admin",
  summary: "Create a payout run of every eligible affiliate (idempotent by key: 200 when replayed)",
  body: createPayoutRunSchema,
  status: 201,
  response: payoutRunSchema,
});

/** `GET /api/admin/payout-runs`: every payout run, newest first. */
export const listPayoutRunsContract = contract({
  method: "GET",
  path: "/api/admin/payout-runs",
  access: "admin",
  summary: "The payout runs, newest first",
  response: payoutRunListSchema,
});

/** `GET /api/admin/payout-runs/:id.csv`: the run's bank CSV (details decrypted here only; audited). */
export const exportPayoutRunCsvContract = contract({
  method: "GET",
  path: "/api/admin/payout-runs/:id.csv",
  access: "admin",
  summary: "The bank CSV of a payout run",
  params: idParams,
  produces: "text/csv",
});

/**
 * `GET /api/admin/payout-runs/:id/sepa.xml`: the SEPA credit transfer file (pain.001.001.03) of the
 * run's pending SEPA payouts (audited); 422 when the run has none.
 */
export const exportPayoutRunSepaContract = contract({
  method: "GET",
  path: "/api/admin/payout-runs/:id/sepa.xml",
  access: "admin",
  summary: "The SEPA credit transfer file (pain.001.001.03) of a payout run",
  params: idParams,
  produces: "application/xml",
});

/** `GET /api/admin/payout-runs/:id`: the run and its payouts; 404 when unknown. */
export const getPayoutRunContract = contract({
  method: "GET",
  path: "/api/admin/payout-runs/:id",
  access: "admin",
  summary: "A payout run and its payouts",
  params: idParams,
  response: payoutRunDetailSchema,
});

/** `POST /api/admin/payouts/:id/paid` `{ reference }`: the payout, paid; 409 when not pending. */
export const markPayoutPaidContract = contract({
  method: "POST",
  path: "/api/admin/payouts/:id/paid",
  access: "admin",
  summary: "Mark a payout paid with the bank's or provider's reference",
  params: idParams,
  body: markPayoutPaidSchema,
  response: adminPayoutSchema,
});

/** `POST /api/admin/payouts/:id/cancel`: the payout, cancelled, its entries released; 409 when paid. */
export const cancelPayoutContract = contract({
  method: "POST",
  path: "/api/admin/payouts/:id/cancel",
  access: "admin",
  summary: "Cancel a pending payout (its commission entries are released)",
  params: idParams,
  response: adminPayoutSchema,
});

/** Every contract of payouts. */
export const PAYOUTS_CONTRACTS = [
  getPayoutDetailsContract,
  savePayoutDetailsContract,
  listPartnerPayoutsContract,
  getPayoutStatementContract,
  previewPayoutsContract,
  createPayoutRunContract,
  listPayoutRunsContract,
  exportPayoutRunCsvContract,
  exportPayoutRunSepaContract,
  getPayoutRunContract,
  markPayoutPaidContract,
  cancelPayoutContract,
];
