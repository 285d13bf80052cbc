import type { AdminCodeDto } from "./codes-admin";
import type { CommissionType } from "./commissions";
import type { Language } from "./i18n/languages";
import type { AdminApplicationStatus, AdminPaymentStatus } from "./schemas/admin";
import type { AffiliateStatus } from "./schemas/affiliates-admin";
import type { ListPage } from "./schemas/list";

/**
 * Response shapes of the back office's affiliates API (issue 3 "Affiliates"). Amounts are integer
 * euro cents; timestamps ISO 8601 strings.
 */

/** One row of `GET /api/admin/affiliates` (also the answer of approve, suspend, reactivate, commission). */
export interface AdminAffiliateDto {
  id: string;
  name: string;
  email: string;
  status: AffiliateStatus;
  website: string;
  country: string;
  emailVerified: boolean;
  /** The affiliate's language (its e-mails are written in it). */
  language: Language;
  /** The admin's reason when rejected, else "". */
  rejectionReason: string;
  /** How commission is earned: `percentage` of what was paid excluding VAT, or `fixed` per enrolled student. */
  commissionType: CommissionType;
  /** Whole percent, 0-100 (used when the type is percentage). */
  commissionPercent: number;
  /** Cents per enrolled student (used when the type is fixed). */
  commissionFixedCents: number;
  /** The first referral code while approved (as the affiliate's own dashboard shows it), else null. */
  referralCode: string | null;
  referralLink: string | null;
  /** Every code linked to the affiliate (referral and discount), upper-case, oldest first. */
  codes: string[];
  /** Clicks recorded on the affiliate's codes (`code_clicks`). */
  clicks: number;
  /** Applications credited to the affiliate (any status). */
  referredApplications: number;
  /** Of those, paid or partially refunded. */
  paidApplications: number;
  /** Sum of the amounts paid by the paid referred applications. */
  paidRevenue: number;
  /**
   * Commission owed from the ledger (decision 022): the sum of the entries pending, approved or in
   * a payout not yet paid (clawbacks included).
   */
  commissionOwed: number;
  /** Commission paid: the sum of the entries in payouts marked paid. */
  commissionPaid: number;
  version: number;
  createdAt: string;
}

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
