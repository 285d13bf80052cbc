import type { AdminCodeDto } from "./codes-admin";
import type { AdminApplicationStatus, AdminPaymentStatus } from "./schemas/admin";
import type { adminAffiliateSchema } from "./schemas/affiliates-admin";
import type { ListPage } from "./schemas/list";
import type { z } from "./schemas/zod";

/**
 * Response shapes of the back office's affiliates API (issue 3 "Affiliates"). Amounts are integer
 * euro cents; timestamps ISO 8601 strings.
 */

/** One row of `GET /api/admin/affiliates` (also the answer of approve, suspend, reactivate, commission). */
export type AdminAffiliateDto = z.output<typeof adminAffiliateSchema>;

/** `GET /api/admin/affiliates`. */
export type AdminAffiliateList = ListPage<AdminAffiliateDto>;

/** An application credited to an affiliate. */
export interface AdminReferredApplicationDto {
  id: string;
  createdAt: string;
  status: AdminApplicationStatus;
  paymentStatus: AdminPaymentStatus;
  applicant: { firstName: string; lastName: string; email: string };
  programName: string;
  code: string | null;
  totalAmount: number | null;
  amountPaid: number;
}

/** `GET /api/admin/affiliates/:id`: the affiliate, its codes, and its newest referred applications. */
export interface AdminAffiliateDetail extends AdminAffiliateDto {
  codeDetails: AdminCodeDto[];
  /** The newest 100; the application list filtered by `affiliateId` has them all. */
  applications: AdminReferredApplicationDto[];
}
