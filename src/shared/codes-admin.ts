import type { StaleVersionBody } from "./catalogue-admin";
import type {
  adminCodeDetailSchema,
  adminCodeListSchema,
  adminCodeRedemptionSchema,
  adminCodeSchema,
} from "./schemas/codes-admin";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the back office's codes API (docs/product/back-office.md#codes-admin), derived from the zod schemas
 * the back office parses the answers with (src/shared/schemas/codes-admin.ts, "Responses"; the
 * fields are documented there). Amounts are integer euro cents; timestamps ISO 8601 strings in UTC.
 */

/** One row of `GET /api/admin/codes` (also the answer of create, edit, activate and deactivate). */
export type AdminCodeDto = z.output<typeof adminCodeSchema>;

/** `GET /api/admin/codes`. */
export type AdminCodeList = z.output<typeof adminCodeListSchema>;

/** A use of a code by an application, as the code's detail lists it. */
export type AdminCodeRedemptionDto = z.output<typeof adminCodeRedemptionSchema>;

/** `GET /api/admin/codes/:id`: the code and its redemptions, newest first. */
export type AdminCodeDetail = z.output<typeof adminCodeDetailSchema>;

/**
 * A 409 of a stale edit: the server's message and the code as it is now (the shape of the
 * catalogue's, `staleVersionBodySchema(adminCodeSchema)`).
 */
export type AdminCodeConflict = StaleVersionBody<AdminCodeDto>;
