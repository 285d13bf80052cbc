import type { z } from "zod";
import type {
  applicationDtoSchema,
  applicationQuoteSchema,
  appliedCodeSchema,
  checkoutVerificationSchema,
  codeValidationSchema,
  quoteLineItemSchema,
} from "./api/application";

/**
 * Shapes of an application as the API sends them to its owner (the applicant's browser holding
 * the capability) — used by the payment step and the confirmation (docs/product/admissions.md#payment-step-views).
 * Amounts are integer euro cents.
 */
export type QuoteLineItem = z.output<typeof quoteLineItemSchema>;
export type AppliedCodeDto = z.output<typeof appliedCodeSchema>;
/** The server's quote with its lines and applied code; assignable to `Quote`. */
export type ApplicationQuoteDto = z.output<typeof applicationQuoteSchema>;
/** An application with its current quote, as its owner reads it. */
export type ApplicationDto = z.output<typeof applicationDtoSchema>;

/** `POST /api/validate-code` answer (docs/product/codes-and-partners.md#code-validation), plus the new quote. */
export type CodeValidationDto = z.output<typeof codeValidationSchema>;

/** `GET /api/checkout-sessions/:id/verify` answer (docs/product/payments.md#success-page-verification). */
export type CheckoutVerificationDto = z.output<typeof checkoutVerificationSchema>;
