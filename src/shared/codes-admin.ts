import type { PaymentState } from "./balance";
import type { AdminApplicationStatus } from "./schemas/admin";
import type { AffiliateStatus } from "./schemas/affiliates-admin";
import type { CodeType, DiscountType } from "./schemas/codes-admin";
import type { ListPage } from "./schemas/list";

/**
 * Response shapes of the back office's codes API (issue 3 "Codes"). Amounts are integer euro
 * cents; timestamps ISO 8601 strings in UTC.
 */

/** One row of `GET /api/admin/codes` (also the answer of create, edit, activate and deactivate). */
export interface AdminCodeDto {
  id: string;
  /** Upper-case. */
  code: string;
  codeType: CodeType;
  discountType: DiscountType | null;
  /** Percent (1-100) for percentage codes, cents for fixed codes, 0 for referral codes. */
  discountValue: number;
  active: boolean;
  validFrom: string | null;
  validTo: string | null;
  /** True when `validTo` has passed. */
  expired: boolean;
  /** Null: unlimited. */
  maxRedemptions: number | null;
  /** Empty: valid for every summer school. */
  summerSchools: Array<{ id: string; name: string }>;
  affiliate: { id: string; name: string; status: AffiliateStatus } | null;
  description: string;
  /** Live uses counted against `maxRedemptions`: redeemed, and held by an open checkout. */
  uses: number;
  /** Redeemed (paid) uses. */
  redeemed: number;
  /** Sum of the amounts paid by the applications that redeemed the code (paid or partially refunded). */
  revenue: number;
  /** Send it back with a change; a stale version is refused with 409. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** `GET /api/admin/codes`. */
export type AdminCodeList = ListPage<AdminCodeDto>;

/** A use of a code by an application, as the code's detail lists it. */
export interface AdminCodeRedemptionDto {
  id: string;
  status: "held" | "redeemed" | "released";
  /** End of a hold (held only). */
  holdExpiresAt: string | null;
  createdAt: string;
  application: {
    id: string;
    status: AdminApplicationStatus;
    /** The state `balanceOf` gives today (issue 11). */
    paymentStatus: PaymentState;
    discountAmount: number | null;
    totalAmount: number | null;
    amountPaid: number;
  };
  applicant: { id: string; firstName: string; lastName: string; email: string };
}

/** `GET /api/admin/codes/:id`: the code and its redemptions, newest first. */
export interface AdminCodeDetail extends AdminCodeDto {
  redemptions: AdminCodeRedemptionDto[];
}

/** A 409 of a stale edit: the server's message and the code as it is now. */
export interface AdminCodeConflict {
  message: string;
  current: AdminCodeDto;
}
