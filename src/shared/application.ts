import type { Quote } from "./pricing";

/**
 * Shapes of an application as the API sends them to its owner (the applicant's browser holding
 * the capability) — used by the payment step and the confirmation (spec §2 "Payment step views").
 * Amounts are integer euro cents.
 */
export interface QuoteLineItem {
  /** Catalogue id of the package, housing option or add-on. */
  id: string;
  kind: "package" | "housing" | "addOn";
  name: string;
  amount: number;
  /** Add-on included in the package: listed at 0 and marked (Included). */
  included?: boolean;
}

export interface AppliedCodeDto {
  codeId: string;
  code: string;
  codeType: "discount" | "referral";
  discountType: "percentage" | "fixed" | null;
  affiliateId: string | null;
}

export interface ApplicationQuoteDto extends Quote {
  lineItems: QuoteLineItem[];
  appliedCode: AppliedCodeDto | null;
}

export interface ApplicationDto {
  id: string;
  applicantId: string;
  status: string;
  paymentStatus: string;
  createdAt: string;
  submittedAt: string | null;
  summerSchool: { id: string; name: string; startDate: string; endDate: string };
  package: { id: string; name: string };
  housing: { id: string; name: string; priceAdjustment: number };
  addOns: Array<{ id: string; name: string; price: number; included: boolean }>;
  applicant: {
    firstName: string;
    lastName: string;
    email: string;
    phone: string;
    nationality: string;
    university: string;
    fieldOfStudy: string;
    hasPassport: boolean;
  };
  quote: ApplicationQuoteDto;
  payment: { amount: number; currency: string; reference: string; paidAt: string } | null;
  /** yyyy-mm-dd, 28 days before the start (spec §4). */
  remainingDueDate: string;
}

/** `POST /api/validate-code` answer (spec §3 "Code validation response"), plus the new quote. */
export interface CodeValidationDto {
  isValid: boolean;
  message: string;
  codeId?: string;
  codeType?: "discount" | "referral";
  affiliateId?: string | null;
  discountType?: "percentage" | "fixed" | null;
  discountAmount?: number;
  /** Referral-tracking variant: how long the affiliate cookie lasts, days. */
  expiryDays?: number;
  quote?: ApplicationQuoteDto;
}

/** `GET /api/checkout-sessions/:id/verify` answer (spec §2 payment-success verification states). */
export interface CheckoutVerificationDto {
  state: "confirmed" | "pending" | "failed" | "expired" | "open";
  applicationId: string | null;
  application: ApplicationDto | null;
}
