import {
  adminCodeDetailSchema,
  adminCodeListSchema,
  adminCodeSchema,
  codeCreateSchema,
  codeFiltersSchema,
  codeListQuerySchema,
  codeUpdateSchema,
  versionBodySchema,
} from "../schemas/codes-admin";
import { idParams, noContent } from "./common";
import { contract } from "./contract";

/**
 * Discount and referral codes in the back office (docs/product/back-office.md#codes-admin). Every endpoint needs
 * `codes:write` (401 without an admin session, 403 for admissions); a stale `version` → 409
 * `{ message, current }`. The answers' schemas are those of `src/shared/schemas/codes-admin.ts`,
 * which the types of `src/shared/codes-admin.ts` derive from.
 */

/** `GET /api/admin/codes`: a page of codes (type, active, school, affiliate, expired, q, sort). */
export const listCodesContract = contract({
  method: "GET",
  path: "/api/admin/codes",
  access: "admin",
  summary: "A page of discount and referral codes (filters, search, sort)",
  query: codeListQuerySchema,
  response: adminCodeListSchema,
});

/** `GET /api/admin/codes.csv`: every matching code as CSV (audited). */
export const exportCodesContract = contract({
  method: "GET",
  path: "/api/admin/codes.csv",
  access: "admin",
  summary: "The matching codes as CSV",
  query: codeFiltersSchema,
  produces: "text/csv",
});

/** `GET /api/admin/codes/:id`: the code with its redemptions; 404 unknown. */
export const getCodeContract = contract({
  method: "GET",
  path: "/api/admin/codes/:id",
  access: "admin",
  summary: "A code with its redemptions",
  params: idParams,
  response: adminCodeDetailSchema,
});

/** `POST /api/admin/codes`: creates a code → 201; 400 per rule, 409 when the text exists. */
export const createCodeContract = contract({
  method: "POST",
  path: "/api/admin/codes",
  access: "admin",
  summary: "Create a discount or referral code",
  body: codeCreateSchema,
  status: 201,
  response: adminCodeSchema,
});

/** `PUT /api/admin/codes/:id`: changes a code (with `version`); 409 stale or text taken. */
export const updateCodeContract = contract({
  method: "PUT",
  path: "/api/admin/codes/:id",
  access: "admin",
  summary: "Change a code",
  params: idParams,
  body: codeUpdateSchema,
  response: adminCodeSchema,
});

/** `POST /api/admin/codes/:id/activate` `{ version }`: activates a code; 409 stale. */
export const activateCodeContract = contract({
  method: "POST",
  path: "/api/admin/codes/:id/activate",
  access: "admin",
  summary: "Activate a code",
  params: idParams,
  body: versionBodySchema,
  response: adminCodeSchema,
});

/** `POST /api/admin/codes/:id/deactivate` `{ version }`: deactivates a code; 409 stale. */
export const deactivateCodeContract = contract({
  method: "POST",
  path: "/api/admin/codes/:id/deactivate",
  access: "admin",
  summary: "Deactivate a code",
  params: idParams,
  body: versionBodySchema,
  response: adminCodeSchema,
});

/** `DELETE /api/admin/codes/:id` → 204; 409 when the code was ever used. */
export const deleteCodeContract = contract({
  method: "DELETE",
  path: "/api/admin/codes/:id",
  access: "admin",
  summary: "Delete a code that was never used",
  params: idParams,
  status: 204,
  response: noContent,
});

/** Every contract of this area. */
export const CODES_ADMIN_CONTRACTS = [
  listCodesContract,
  exportCodesContract,
  getCodeContract,
  createCodeContract,
  updateCodeContract,
  activateCodeContract,
  deactivateCodeContract,
  deleteCodeContract,
];
