import { z } from "../schemas/zod";

/**
 * An application as the API answers its owner (the applicant's browser holding the capability):
 * the payment step, the confirmation and the payment-success page read it, and the server's
 * answers are checked against it (`./apply.ts`); they are contract answers, so they live with the contracts. Amounts are integer euro cents;
 * dates `yyyy-mm-dd`, instants ISO 8601. The types in `src/shared/application.ts` come from here.
 */

const cents = z.number().int();

/** One line of a quote: the package, the housing option or an add-on (an included add-on at 0). */
export const quoteLineItemSchema = z.object({
  id: z.string(),
  kind: z.enum(["package", "housing", "addOn"]),
  name: z.string(),
  amount: cents,
  included: z.boolean().optional(),
});

/** The code applied to an application (discount or referral). */
export const appliedCodeSchema = z.object({
  codeId: z.string(),
  code: z.string(),
  codeType: z.enum(["discount", "referral"]),
  discountType: z.enum(["percentage", "fixed"]).nullable(),
  affiliateId: z.string().nullable(),
});

/** The server's quote (`computeQuote`, src/shared/pricing.ts) with its lines and code. */
export const applicationQuoteSchema = z.object({
  currency: z.literal("EUR"),
  originalAmount: cents,
  discountAmount: cents,
  discountSource: z.enum(["code", "automatic"]).nullable(),
  automaticDiscount: z
    .object({
      ruleId: z.string(),
      kind: z.literal("early_application"),
      percent: z.number(),
      endsOn: z.string(),
      amount: cents,
    })
    .nullable(),
  totalAmount: cents,
  depositAmount: cents,
  remainingAmount: cents,
  depositPercent: z.number(),
  vatAmount: cents,
  addOnsAmount: cents,
  lineItems: z.array(quoteLineItemSchema),
  appliedCode: appliedCodeSchema.nullable(),
});

/** An application with its current quote, as `GET /api/applications/:id` answers its owner. */
export const applicationDtoSchema = z.object({
  id: z.string(),
  applicantId: z.string(),
  status: z.string(),
  paymentStatus: z.string(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  summerSchool: z.object({ id: z.string(), name: z.string(), startDate: z.string(), endDate: z.string() }),
  package: z.object({ id: z.string(), name: z.string() }),
  housing: z.object({ id: z.string(), name: z.string(), priceAdjustment: cents }),
  addOns: z.array(z.object({ id: z.string(), name: z.string(), price: cents, included: z.boolean() })),
  applicant: z.object({
    firstName: z.string(),
    lastName: z.string(),
    email: z.string(),
    phone: z.string(),
    nationality: z.string(),
    university: z.string(),
    fieldOfStudy: z.string(),
    hasPassport: z.boolean(),
  }),
  quote: applicationQuoteSchema,
  payment: z
    .object({ amount: cents, currency: z.string(), reference: z.string(), paidAt: z.string() })
    .nullable(),
  /** yyyy-mm-dd: when the balance is due (docs/product/payments.md#deposit-and-balance). */
  remainingDueDate: z.string(),
});

/** `POST /api/validate-code` answer (docs/product/codes-and-partners.md#code-validation), plus the new quote. */
export const codeValidationSchema = z.object({
  isValid: z.boolean(),
  message: z.string(),
  codeId: z.string().optional(),
  codeType: z.enum(["discount", "referral"]).optional(),
  affiliateId: z.string().nullable().optional(),
  discountType: z.enum(["percentage", "fixed"]).nullable().optional(),
  discountAmount: cents.optional(),
  /** Referral-tracking variant: how long the affiliate cookie lasts, days. */
  expiryDays: z.number().int().optional(),
  quote: applicationQuoteSchema.optional(),
});

/** `GET /api/checkout-sessions/:id/verify` answer (docs/product/payments.md#success-page-verification). */
export const checkoutVerificationSchema = z.object({
  state: z.enum(["confirmed", "pending", "failed", "expired", "open"]),
  applicationId: z.string().nullable(),
  application: applicationDtoSchema.nullable(),
});

/**
 * The answer of POST /api/resume-links/use: where the wizard continues. `step` 3 (payment) when
 * the applicant has an unpaid application, whose choices come with it; `step` 1 when the
 * applicant never got as far as an application (the programme is chosen again; step 2 then shows
 * the stored details and passport). The uploaded passport stays on the server.
 */
export const resumedWizardSchema = z.object({
  applicantId: z.uuid(),
  applicationId: z.uuid().nullable(),
  step: z.union([z.literal(1), z.literal(3)]),
  summerSchoolId: z.uuid().nullable(),
  packageId: z.uuid().nullable(),
  housingOptionId: z.uuid().nullable(),
  selectedAddOns: z.array(z.uuid()),
  /** Where the uploaded passport is served to its owner; null when none was uploaded. */
  passportUrl: z.string().nullable(),
  /**
   * The applicant's stored details (the fields of `applicantInputSchema`), to refill step 2; the
   * form checks them with that schema again before anything is sent.
   */
  personal: z.record(z.string(), z.union([z.string(), z.boolean()])),
});
export type ResumedWizard = z.output<typeof resumedWizardSchema>;

/**
 * `GET /api/resume/draft` (docs/product/admissions.md#next-steps, decision 038): the unfinished application this
 * browser's capability cookie (docs/product/portals.md#sessions) holds on the server, for the wizard's step 1 to
 * offer "Continue your application". `draft` is null when the browser holds none, or when the
 * application (or another of the same address) was paid or submitted. `savedAt` is when the
 * application or the applicant last changed (ISO 8601 UTC); `programme` the cohort chosen (its
 * name in the request's language), null when the applicant never got to an application.
 */
export const savedDraftSchema = z.object({
  draft: z
    .object({
      savedAt: z.string(),
      programme: z.object({ name: z.string(), startDate: z.string(), endDate: z.string() }).nullable(),
      wizard: resumedWizardSchema,
    })
    .nullable(),
});
export type SavedDraft = z.output<typeof savedDraftSchema>;

/** `{ ok: true }` of the resume-link request and the reminders' opt-out. */
export const okSchema = z.object({ ok: z.literal(true) });

/**
 * Answer of `POST /api/applications/:id/checkout/cancel` (docs/product/security.md#p4-a-code-held-by-an-open-checkout): how many open checkout
 * sessions were ended at the provider (their code holds released).
 */
export const checkoutCancelResultSchema = z.object({ ended: z.number().int().nonnegative() });

/** `POST /api/record-code-click` answer: whether this visit was counted (once per code, visitor and day). */
export const codeClickRecordedSchema = z.object({ recorded: z.boolean() });

/** The fields of an applicant as the wizard collected them (the owner's and the back office's views share them). */
export const applicantFieldsSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  address: z.string(),
  city: z.string(),
  postalCode: z.string(),
  countryOfResidence: z.string(),
  nationality: z.string(),
  dateOfBirth: z.string(),
  passportNumber: z.string(),
  university: z.string(),
  fieldOfStudy: z.string(),
  studentStatus: z.string(),
  expectations: z.string(),
  referralSource: z.string(),
  otherReferralDetail: z.string(),
  language: z.string(),
});

/**
 * The applicant's own fields as `GET /api/applicants/:id` answers its owner (to refill step 2
 * after a reload), with where the uploaded passport is served (null when none).
 */
export const applicantDtoSchema = applicantFieldsSchema.extend({
  remindMe: z.boolean(),
  passportUrl: z.string().nullable(),
});
export type ApplicantDto = z.output<typeof applicantDtoSchema>;

/** `PATCH /api/applicants/:id` answer: the applicant and where its passport is served (null when none). */
export const applicantPatchedSchema = z.object({ id: z.string(), passportUrl: z.string().nullable() });
