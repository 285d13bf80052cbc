import type {
  adminAffiliateDetailSchema,
  adminAffiliateListSchema,
  adminAffiliateSchema,
  adminReferredApplicationSchema,
} from "./schemas/affiliates-admin";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the back office's affiliates API (docs/product/back-office.md#partners-admin), derived from the zod
 * schemas the back office parses the answers with (src/shared/schemas/affiliates-admin.ts; the
 * fields are documented there). Amounts are integer euro cents; timestamps ISO 8601 strings.
 */

/** One row of `GET /api/admin/affiliates` (also the answer of approve, suspend, reactivate, commission). */
export type AdminAffiliateDto = z.output<typeof adminAffiliateSchema>;

/** `GET /api/admin/affiliates`. */
export type AdminAffiliateList = z.output<typeof adminAffiliateListSchema>;

/** An application credited to an affiliate. */
export type AdminReferredApplicationDto = z.output<typeof adminReferredApplicationSchema>;

/** `GET /api/admin/affiliates/:id`: the affiliate, its codes, and its newest referred applications. */
export type AdminAffiliateDetail = z.output<typeof adminAffiliateDetailSchema>;
