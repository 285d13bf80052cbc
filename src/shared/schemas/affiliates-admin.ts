import { optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the back office's affiliates screen (issue 3 "Affiliates": approve, suspend,
 * commission rate, their codes and referred applications). Shared by the server and the forms.
 */

export const AFFILIATE_STATUSES = ["pending", "approved", "rejected", "suspended"] as const;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];

/** Message key of the commission rule (common.json `errors.affiliates.*`). */
export const AFFILIATE_MESSAGES = {
  commissionRange: "errors.affiliates.commissionRange",
} as const;

/** Sort keys of the affiliate list. */
export const AFFILIATE_SORT_KEYS = [
  "name",
  "createdAt",
  "status",
  "referredApplications",
  "paidRevenue",
  "commission",
] as const;
export type AffiliateSortKey = (typeof AFFILIATE_SORT_KEYS)[number];

/** Filters of `GET /api/admin/affiliates` and `.csv`: status, q (part of the name or e-mail address). */
export const affiliateFiltersSchema = z.object({
  status: optionalParam(z.enum(AFFILIATE_STATUSES)),
  q: searchParam,
});
export type AffiliateFilters = z.output<typeof affiliateFiltersSchema>;

/** Query of `GET /api/admin/affiliates`: the filters plus page, pageSize (≤ 100) and sort (default newest first). */
export const affiliateListQuerySchema = affiliateFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(AFFILIATE_SORT_KEYS, { key: "createdAt", direction: "desc" }),
});
export type AffiliateListQuery = z.output<typeof affiliateListQuerySchema>;

/** `PATCH /api/admin/affiliates/:id/commission`: a whole percent 0-100 and the version the admin saw. */
export const commissionSchema = z.object({
  commissionPercent: z
    .number({ error: V.required })
    .int({ error: AFFILIATE_MESSAGES.commissionRange })
    .min(0, { error: AFFILIATE_MESSAGES.commissionRange })
    .max(100, { error: AFFILIATE_MESSAGES.commissionRange }),
  version: z.number().int().min(1),
});
export type CommissionInput = z.output<typeof commissionSchema>;

/** The commission form as typed (a text input) → the API body's percent. */
export const commissionFormSchema = z.object({
  commissionPercent: line()
    .regex(/^\d{1,3}$/, { error: AFFILIATE_MESSAGES.commissionRange })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(0, { error: AFFILIATE_MESSAGES.commissionRange })
        .max(100, { error: AFFILIATE_MESSAGES.commissionRange }),
    ),
});
export type CommissionFormValues = z.input<typeof commissionFormSchema>;

/**
 * `POST /api/admin/affiliates/:id/approve|suspend|reactivate`: `{ version }` (required for suspend
 * and reactivate; optional for approve, which stays idempotent as before).
 */
export const affiliateActionSchema = z.object({ version: z.number().int().min(1).optional() });
export const affiliateVersionSchema = z.object({ version: z.number().int().min(1) });

/**
 * The commission earned on referred revenue: `percent` × `paidCents` / 100, rounded half up to a
 * whole cent (issue 3 "Affiliates": commission = rate × paid amount of referred paid
 * applications). Computed on the sum of the paid amounts, at the affiliate's current rate.
 */
export function commissionCents(paidCents: number, percent: number): number {
  return Math.floor((paidCents * percent + 50) / 100);
}
