import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

const id = (message: string) => z.uuid({ error: message });

/** Step 1 choices (docs/product/admissions.md#program-step): school, package and housing are required. */
export const programSelectionSchema = z.object({
  summerSchoolId: id(V.selectSchool),
  packageId: id(V.selectPackage),
  housingOptionId: id(V.selectHousing),
  selectedAddOns: z
    .array(z.uuid({ error: V.invalidChoice }))
    .max(50)
    .default([]),
});
export type ProgramSelection = z.output<typeof programSelectionSchema>;

/** `POST /api/create-application-from-info` (docs/product/admissions.md#applicant-capability). */
export const createApplicationSchema = programSelectionSchema.extend({
  applicantId: z.uuid({ error: V.invalidChoice }),
});

/** `POST /api/validate-code` (docs/product/admissions.md#applicant-capability): code, and the application in the payment step. */
export const validateCodeSchema = z.object({
  code: line({ error: V.enterCode }).min(1, { error: V.enterCode }).max(64, { error: V.tooLong }),
  applicationId: z.uuid().optional(),
  /**
   * How the code reached the payment step (docs/product/codes-and-partners.md#attribution): `code` typed by the applicant
   * (the default), `link` auto-applied from the referral link of this visit or its cookie.
   */
  source: z.enum(["code", "link"]).optional().default("code"),
});

/** `POST /api/record-code-click` (docs/product/codes-and-partners.md#clicks). */
export const recordCodeClickSchema = z.object({
  code: line().min(1).max(64),
  sourceUrl: line({ trim: false }).max(2000).optional().default(""),
  utmSource: line({ trim: false }).max(200).optional().default(""),
  utmCampaign: line({ trim: false }).max(200).optional().default(""),
  userAgent: line({ trim: false }).max(500).optional().default(""),
  hasCookieConsent: z.boolean().optional().default(false),
});

const cents = z.number().int().min(0).max(100_000_000);

/**
 * `POST /api/create-checkout-session` (docs/product/payments.md#checkout-session). The amounts are a consistency check only: the
 * server charges its own quote and answers 409 with that quote when they differ (docs/product/catalogue-and-pricing.md#client-amounts).
 * The URLs are accepted for compatibility but the server builds its own (same-origin) return URLs.
 */
export const createCheckoutSessionSchema = z.object({
  applicationId: z.uuid(),
  totalAmount: cents.optional(),
  discountAmount: cents.optional(),
  originalAmount: cents.optional(),
  appliedCodeId: z.uuid().nullable().optional(),
  successUrl: line({ trim: false }).max(2000).optional(),
  cancelUrl: line({ trim: false }).max(2000).optional(),
  termsAccepted: z.literal(true, { error: V.acceptTerms }),
});

/** `POST /api/process-zero-payment` (docs/product/payments.md#zero-payment); completes only when the server's quote is 0. */
export const processZeroPaymentSchema = z.object({
  applicationId: z.uuid(),
  codeId: z.uuid().nullable().optional(),
  affiliateId: z.uuid().nullable().optional(),
  discountInfo: z
    .object({
      appliedCodeId: z.uuid().nullable().optional(),
      discountAmount: cents.optional(),
      originalAmount: cents.optional(),
    })
    .optional(),
  termsAccepted: z.literal(true, { error: V.acceptTerms }),
});
