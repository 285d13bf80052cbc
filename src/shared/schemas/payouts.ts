import { PAYOUT_METHODS, PAYOUT_STATUSES } from "../commissions";
import { isSepaIban, isValidBic, isValidIban, normalizeIban } from "../payouts";
import { isLatinName } from "../sepa";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Payouts to affiliates (docs/product/codes-and-partners.md#payout-runs, decision 022): the affiliate's payout details, the
 * affiliate's payouts and the back office's payout runs. Amounts are integer euro cents; instants
 * ISO 8601 UTC. Field errors are message keys of `common` (`validation.*`, `errors.payouts.*`).
 */

const required = (max: number) => line({ error: V.required }).min(1, V.required).max(max, V.tooLong);
/**
 * The account holder's name as the bank has it: banks of SEPA and SWIFT transfers read Latin
 * letters only and compare the name with the account (docs/product/codes-and-partners.md#sepa-file), so "张伟" is refused and
 * "Zhang Wei" or "Łukasz Nowak" accepted (`isLatinName`).
 */
const accountHolder = () => required(140).refine(isLatinName, "errors.payouts.latinHolder");
const email = () =>
  line({ error: V.required }).min(1, V.required).max(254, V.tooLong).pipe(z.email(V.invalidEmail));
/** A BIC (SWIFT code), spaces removed, upper case; with `optional`, "" is accepted too. */
const bic = (optional = false) =>
  line()
    .transform((v) => v.replace(/\s+/g, "").toUpperCase())
    .refine((v) => (optional && v === "") || isValidBic(v), "errors.payouts.invalidBic");

/**
 * The payout details an affiliate enters, by method (docs/product/codes-and-partners.md#sepa-file): a SEPA account (IBAN checked with
 * its mod-97 checksum and its country's length, BIC optional), a bank account outside SEPA (SWIFT:
 * account number, SWIFT code, bank name and address, country, currency), Wise or PayPal.
 */
export const payoutDetailsSchema = z.discriminatedUnion("method", [
  z.object({
    method: z.literal("sepa"),
    accountHolder: accountHolder(),
    iban: line({ error: V.required })
      .min(1, V.required)
      .transform(normalizeIban)
      .refine(isValidIban, { message: "errors.payouts.invalidIban", abort: true })
      .refine(isSepaIban, "errors.payouts.notSepa"),
    bic: bic(true).optional(),
  }),
  z.object({
    method: z.literal("swift"),
    accountHolder: accountHolder(),
    /** Spaces removed: banks want the number as one string. */
    accountNumber: required(64).transform((v) => v.replace(/\s+/g, "")),
    swiftCode: bic(),
    bankName: required(140),
    bankAddress: required(300),
    /** ISO 3166-1 alpha-2 country of the bank. */
    country: line({ error: V.required })
      .transform((v) => v.toUpperCase())
      .refine((v) => /^[A-Z]{2}$/.test(v), "errors.payouts.invalidCountry"),
    /** ISO 4217 currency the account is held in, when not EUR. */
    currency: line()
      .transform((v) => v.toUpperCase())
      .refine((v) => v === "" || /^[A-Z]{3}$/.test(v), "errors.payouts.invalidCurrency")
      .optional(),
  }),
  z.object({ method: z.literal("wise"), accountHolder: required(140), email: email() }),
  z.object({ method: z.literal("paypal"), email: email() }),
]);
export type PayoutDetails = z.output<typeof payoutDetailsSchema>;

/** `GET /api/affiliate/payout-details` and the answer to `PUT`: never the clear values. */
export const payoutDetailsViewSchema = z.object({
  method: z.enum(PAYOUT_METHODS).nullable(),
  /** e.g. "NL** **** **** **** 4300"; empty when none. */
  masked: line(),
  updatedAt: line().nullable(),
});
export type PayoutDetailsView = z.infer<typeof payoutDetailsViewSchema>;

/** One payout as the affiliate sees it. */
export const affiliatePayoutSchema = z.object({
  id: line(),
  createdAt: line(),
  amount: z.number().int(),
  method: z.enum(PAYOUT_METHODS),
  masked: line(),
  status: z.enum(PAYOUT_STATUSES),
  reference: line(),
  paidAt: line().nullable(),
});
export type AffiliatePayout = z.infer<typeof affiliatePayoutSchema>;
export const affiliatePayoutListSchema = z.object({ items: z.array(affiliatePayoutSchema) });
export type AffiliatePayoutList = z.infer<typeof affiliatePayoutListSchema>;

/** One affiliate in the preview of the next run. */
export const payoutPreviewRowSchema = z.object({
  affiliateId: line(),
  name: line(),
  approved: z.number().int(),
  method: z.enum(PAYOUT_METHODS).nullable(),
  masked: line(),
  /** Why the affiliate is not in the next run; null when it is. */
  reason: z.enum(["belowMinimum", "noDetails", "notApproved"]).nullable(),
});
/** `GET /api/admin/payouts/preview`. */
export const payoutPreviewSchema = z.object({
  minimum: z.number().int(),
  total: z.number().int(),
  eligible: z.array(payoutPreviewRowSchema),
  excluded: z.array(payoutPreviewRowSchema),
});
export type PayoutPreview = z.infer<typeof payoutPreviewSchema>;

/** `POST /api/admin/payout-runs` body: one key per page view, so a double click makes one run. */
export const createPayoutRunSchema = z.object({
  idempotencyKey: line({ error: V.required }).min(8, V.required).max(100, V.tooLong),
});

/**
 * Where a payout run stands (docs/product/codes-and-partners.md#partner-figures: a paid run still read "0 / 1 · Open"): `open` while
 * none of its payouts is paid, `partly_paid` once some are, `paid` once every payout still in it
 * (cancelled ones leave the run) is paid, `empty` when it holds none (all cancelled, or none was due).
 */
export const PAYOUT_RUN_STATUSES = ["open", "partly_paid", "paid", "empty"] as const;
export type PayoutRunStatus = (typeof PAYOUT_RUN_STATUSES)[number];

/** The status of a run of `payoutCount` payouts (cancelled ones excluded) of which `paidCount` are paid. */
export function runStatusOf(payoutCount: number, paidCount: number): PayoutRunStatus {
  if (payoutCount <= 0) return "empty";
  if (paidCount >= payoutCount) return "paid";
  return paidCount > 0 ? "partly_paid" : "open";
}

export const payoutRunSchema = z.object({
  id: line(),
  createdAt: line(),
  minimum: z.number().int(),
  total: z.number().int(),
  /** Payouts in the run, cancelled ones excluded. */
  payoutCount: z.number().int(),
  /** Of those, marked paid. */
  paidCount: z.number().int(),
  status: z.enum(PAYOUT_RUN_STATUSES),
});
export type PayoutRun = z.infer<typeof payoutRunSchema>;
export const payoutRunListSchema = z.object({ items: z.array(payoutRunSchema) });
export type PayoutRunList = z.infer<typeof payoutRunListSchema>;

export const adminPayoutSchema = z.object({
  id: line(),
  affiliateId: line(),
  affiliateName: line(),
  amount: z.number().int(),
  method: z.enum(PAYOUT_METHODS),
  masked: line(),
  status: z.enum(PAYOUT_STATUSES),
  reference: line(),
  paidAt: line().nullable(),
  entryCount: z.number().int(),
});
export type AdminPayout = z.infer<typeof adminPayoutSchema>;
/** `GET /api/admin/payout-runs/:id`. */
export const payoutRunDetailSchema = z.object({ run: payoutRunSchema, payouts: z.array(adminPayoutSchema) });
export type PayoutRunDetail = z.infer<typeof payoutRunDetailSchema>;

/** `POST /api/admin/payouts/:id/paid` body: the bank's or provider's reference. */
export const markPayoutPaidSchema = z.object({
  reference: line({ error: V.required }).min(1, V.required).max(140, V.tooLong),
});
