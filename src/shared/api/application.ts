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
  /** yyyy-mm-dd: when the balance is due (spec §4). */
  remainingDueDate: z.string(),
});

/** `POST /api/validate-code` answer (spec §3 "Code validation response"), plus the new quote. */
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

/** `GET /api/checkout-sessions/:id/verify` answer (spec §2 payment-success verification states). */
export const checkoutVerificationSchema = z.object({
  state: z.enum(["confirmed", "pending", "failed", "expired", "open"]),
  applicationId: z.string().nullable(),
  application: applicationDtoSchema.nullable(),
});
