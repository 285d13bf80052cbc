import { PAYMENT_STATES } from "../balance";
import { APPLICATION_STATUSES } from "../statuses";
import { line } from "./text";
import { z } from "./zod";

/**
 * The student portal's payment page (docs/product/payments.md#deposit-and-balance; decision 016):
 * shapes of `GET /api/student/applications/:id/payment`, `POST …/balance-checkout` and
 * `GET /api/student/checkout/verify`. Amounts are integer euro cents; dates `yyyy-mm-dd`, instants
 * ISO 8601 UTC. Parsed by the browser with these schemas; built by the server to match them.
 */

/** One line of an application's ledger: a payment (deposit or balance) or a refund. */
export const ledgerEntrySchema = z.object({
  id: line(),
  type: z.enum(["payment", "refund"]),
  /** For payments: what it paid. For refunds: null. */
  paid: z.enum(["deposit", "balance", "full"]).nullable(),
  /** Positive for payments, positive for refunds too (the type says the direction). */
  amount: z.number().int(),
  currency: line(),
  at: line(),
  /** The provider's reference (payment intent or refund id), shown to quote to the school. */
  reference: line(),
  /** Refunds: pending, succeeded, failed, canceled. Payments: "succeeded". */
  status: z.enum(["pending", "succeeded", "failed", "canceled"]),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** `GET /api/student/applications/:id/payment`. */
export const studentPaymentSchema = z.object({
  applicationId: line(),
  programName: line(),
  startDate: line(),
  endDate: line(),
  /** From the shared rule (`balanceOf`). */
  state: z.enum(PAYMENT_STATES),
  /** The total of the quote that was paid (null before any payment). */
  total: z.number().int().nullable(),
  /** The deposit percent of the cohort when it is below 100, else null. */
  depositPercent: z.number().int().nullable(),
  /** Accepted payments, before refunds. */
  paid: z.number().int(),
  /** Succeeded refunds of accepted payments. */
  refunded: z.number().int(),
  balanceDue: z.number().int(),
  dueDate: line().nullable(),
  overdue: z.boolean(),
  /** A balance payment completed with a delayed method and not yet confirmed by the bank. */
  processing: z.boolean(),
  entries: z.array(ledgerEntrySchema),
});
export type StudentPayment = z.infer<typeof studentPaymentSchema>;

/** `POST /api/student/applications/:id/balance-checkout` → where to send the browser. */
export const checkoutRedirectSchema = z.object({ url: line(), sessionId: line() });
export type CheckoutRedirect = z.infer<typeof checkoutRedirectSchema>;

/** `GET /api/student/checkout/verify?session_id=` query. */
export const balanceVerifyQuerySchema = z.object({ session_id: line().min(1).max(300) });

/** `GET /api/student/checkout/verify` answer. */
export const balanceVerificationSchema = z.object({
  state: z.enum(["confirmed", "pending", "failed", "expired", "open"]),
  applicationId: line(),
});
export type BalanceVerification = z.infer<typeof balanceVerificationSchema>;

/**
 * `GET /api/student/applications` → one item per application of the signed-in, verified student,
 * newest first: status, and the payment state, balance and due date by the shared rule.
 */
export const studentApplicationSchema = z.object({
  id: line(),
  programName: line(),
  startDate: line(),
  endDate: line(),
  status: z.enum(APPLICATION_STATUSES),
  paymentState: z.enum(PAYMENT_STATES),
  totalAmount: z.number().int(),
  /** Paid net of refunds (`balanceOf`'s paidNet; docs/product/payments.md#refunds). */
  amountPaid: z.number().int(),
  balanceDue: z.number().int(),
  dueDate: line().nullable(),
});
export type StudentApplication = z.infer<typeof studentApplicationSchema>;
export const studentApplicationListSchema = z.array(studentApplicationSchema);
