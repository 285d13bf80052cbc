/**
 * The states of an affiliate's account (docs/product/codes-and-partners.md#partners; db column `affiliates.status`): `pending` until
 * the school approves or rejects the registration, `approved` (its codes work, it can log in),
 * `rejected` (with a reason), `suspended` (sessions ended, codes switched off; reactivation brings
 * them back). A module of its own, without imports, so that the codes' and the affiliates' schemas
 * (src/shared/schemas/codes-admin.ts, affiliates-admin.ts) both take it without importing each other.
 */
export const AFFILIATE_STATUSES = ["pending", "approved", "rejected", "suspended"] as const;
export type AffiliateStatus = (typeof AFFILIATE_STATUSES)[number];
