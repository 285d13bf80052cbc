import { AFFILIATE_STATUSES } from "../affiliates";
import { COMMISSION_TYPES } from "../commissions";
import { LANGUAGES } from "../i18n/languages";
import { APPLICATION_STATUSES, PAYMENT_STATUSES } from "./admin";
import { adminCodeSchema } from "./codes-admin";
import { commissionLedgerSchema } from "./commissions";
import { listPageSchema, optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the back office's affiliates screen (docs/product/back-office.md#partners-admin: approve, suspend,
 * commission rate, their codes and referred applications). Shared by the server and the forms.
 */

export { AFFILIATE_STATUSES, type AffiliateStatus } from "../affiliates";

/** Message key of the commission rule (common.json `errors.affiliates.*`). */
export const AFFILIATE_MESSAGES = {
  commissionRange: "errors.affiliates.commissionRange",
  fixedRange: "errors.affiliates.fixedRange",
  adjustmentAmount: "errors.affiliates.adjustmentAmount",
  reasonRequired: "errors.affiliates.reasonRequired",
  reasonTooLong: "errors.affiliates.reasonTooLong",
} as const;

/** Largest fixed commission per student: 10,000.00 EUR (cents). */
export const MAX_FIXED_COMMISSION_CENTS = 1_000_000;
/** Largest manual adjustment either way: 10,000.00 EUR (cents). */
export const MAX_ADJUSTMENT_CENTS = 1_000_000;
/** Longest reason of an adjustment or a rejection (characters). */
export const MAX_REASON_LENGTH = 500;

/** Sort keys of the affiliate list. */
export const AFFILIATE_SORT_KEYS = [
  "name",
  "createdAt",
  "status",
  "clicks",
  "referredApplications",
  "paidApplications",
  "paidRevenue",
  "commissionOwed",
  "commissionPaid",
] as const;
export type AffiliateSortKey = (typeof AFFILIATE_SORT_KEYS)[number];

/** Filters of `GET /api/admin/affiliates` and `.csv`: status, q (part of the name or e-mail address). */
export const affiliateFiltersSchema = z.object({
  status: optionalParam(z.enum(AFFILIATE_STATUSES)),
  q: searchParam,
});
export type AffiliateFilters = z.output<typeof affiliateFiltersSchema>;

/** Query of `GET /api/admin/affiliates`: the filters plus page, pageSize (≤ 100) and sort (default newest first). */
export const affiliateListQuerySchema = affiliateFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(AFFILIATE_SORT_KEYS, { key: "createdAt", direction: "desc" }),
});
export type AffiliateListQuery = z.output<typeof affiliateListQuerySchema>;

const percentField = z
  .number({ error: V.required })
  .int({ error: AFFILIATE_MESSAGES.commissionRange })
  .min(0, { error: AFFILIATE_MESSAGES.commissionRange })
  .max(100, { error: AFFILIATE_MESSAGES.commissionRange });
const fixedCentsField = z
  .number({ error: V.required })
  .int({ error: AFFILIATE_MESSAGES.fixedRange })
  .min(0, { error: AFFILIATE_MESSAGES.fixedRange })
  .max(MAX_FIXED_COMMISSION_CENTS, { error: AFFILIATE_MESSAGES.fixedRange });
const versionField = z.number().int().min(1);

/**
 * `PATCH /api/admin/affiliates/:id/commission` (docs/product/codes-and-partners.md#commission-rate: "Each affiliate has a rate (percentage of
 * what was paid, or a fixed amount per enrolled student)"): `{ type: "percentage", percent }` (whole
 * percent 0-100) or `{ type: "fixed", fixedCents }` (cents 0-1,000,000) with the version the admin
 * saw. The older body `{ commissionPercent, version }` still reads as a percentage.
 * Output: `{ rate, version }`.
 */
export const commissionSchema = z
  .union([
    z.object({ type: z.literal("percentage"), percent: percentField, version: versionField }),
    z.object({ type: z.literal("fixed"), fixedCents: fixedCentsField, version: versionField }),
    z.object({ commissionPercent: percentField, version: versionField }),
  ])
  .transform((body) => ({
    version: body.version,
    rate:
      "commissionPercent" in body
        ? ({ type: "percentage", percent: body.commissionPercent } as const)
        : body.type === "percentage"
          ? ({ type: "percentage", percent: body.percent } as const)
          : ({ type: "fixed", fixedCents: body.fixedCents } as const),
  }));
export type CommissionInput = z.output<typeof commissionSchema>;

/**
 * The rate form as typed: the type and one text input, a whole percent 0-100 or euros with up to
 * two decimals (a fixed amount per enrolled student) → the API body's rate.
 */
export const commissionFormSchema = z
  .object({
    type: z.enum(["percentage", "fixed"]),
    value: line(),
  })
  .superRefine((form, ctx) => {
    if (form.type === "percentage") {
      if (!/^\d{1,3}$/.test(form.value) || Number(form.value) > 100)
        ctx.addIssue({ code: "custom", path: ["value"], message: AFFILIATE_MESSAGES.commissionRange });
    } else {
      const cents = eurosToCents(form.value);
      if (cents === null || cents > MAX_FIXED_COMMISSION_CENTS)
        ctx.addIssue({ code: "custom", path: ["value"], message: AFFILIATE_MESSAGES.fixedRange });
    }
  })
  .transform((form) =>
    form.type === "percentage"
      ? ({ type: "percentage", percent: Number(form.value) } as const)
      : ({ type: "fixed", fixedCents: eurosToCents(form.value) ?? 0 } as const),
  );
export type CommissionFormValues = z.input<typeof commissionFormSchema>;

/**
 * `POST /api/admin/affiliates/:id/approve|suspend|reactivate`: `{ version }` (required for suspend
 * and reactivate; optional for approve, which stays idempotent as before).
 */
export const affiliateActionSchema = z.object({ version: z.number().int().min(1).optional() });
export const affiliateVersionSchema = z.object({ version: z.number().int().min(1) });

/**
 * "12", "12.5", "-12,50", "+3" → signed cents; null when not an amount in euros with at most two
 * decimals (a comma or a point as decimal separator).
 */
export function eurosToCents(text: string): number | null {
  const m = /^([+-]?)(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  if (!m) return null;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? "").padEnd(2, "0"));
  return m[1] === "-" ? -cents : cents;
}

/**
 * A reason as it is stored (docs/product/codes-and-partners.md#manual-adjustments): line endings as LF (a browser sends CRLF), no other
 * control character than tab and line feed, no white space around. The input refuses other
 * control characters with a message before this runs; migration 0018 brought the reasons stored
 * before to the same form, so what the input takes, the ledger's answer (`lines()`) always accepts.
 */
export function normaliseReason(text: string): string {
  let out = "";
  const unix = text.replace(/\r\n?/g, "\n");
  for (const ch of unix) {
    const code = ch.charCodeAt(0);
    if (code === 0x7f || (code < 0x20 && code !== 0x09 && code !== 0x0a)) continue;
    out += ch;
  }
  return out.trim();
}

const reasonField = lines({ error: AFFILIATE_MESSAGES.reasonRequired })
  .transform(normaliseReason)
  .pipe(
    lines({ error: AFFILIATE_MESSAGES.reasonRequired })
      .min(1, { error: AFFILIATE_MESSAGES.reasonRequired })
      .max(MAX_REASON_LENGTH, { error: AFFILIATE_MESSAGES.reasonTooLong }),
  );

/**
 * `POST /api/admin/affiliates/:id/adjustments` (docs/product/codes-and-partners.md#manual-adjustments: "manual adjustments (reason required,
 * audited)"): signed cents, not zero, at most 10,000.00 EUR either way; the reason (1-500
 * characters, line breaks allowed); optionally the affiliate's version the admin saw.
 */
export const adjustmentSchema = z.object({
  amountCents: z
    .number({ error: AFFILIATE_MESSAGES.adjustmentAmount })
    .int({ error: AFFILIATE_MESSAGES.adjustmentAmount })
    .min(-MAX_ADJUSTMENT_CENTS, { error: AFFILIATE_MESSAGES.adjustmentAmount })
    .max(MAX_ADJUSTMENT_CENTS, { error: AFFILIATE_MESSAGES.adjustmentAmount })
    .refine((n) => n !== 0, { error: AFFILIATE_MESSAGES.adjustmentAmount }),
  reason: reasonField,
  version: versionField.optional(),
});
export type AdjustmentInput = z.output<typeof adjustmentSchema>;

/** The adjustment dialog as typed: euros with a sign ("-25.00") and the reason → the API body. */
export const adjustmentFormSchema = z.object({
  amount: line()
    .refine(
      (v) => {
        const cents = eurosToCents(v);
        return cents !== null && cents !== 0 && Math.abs(cents) <= MAX_ADJUSTMENT_CENTS;
      },
      { error: AFFILIATE_MESSAGES.adjustmentAmount },
    )
    .transform((v) => eurosToCents(v) ?? 0),
  reason: reasonField,
});
export type AdjustmentFormValues = z.input<typeof adjustmentFormSchema>;

/**
 * Two adjustments of one affiliate with the same amount and the same reason written within this
 * many minutes of each other are listed as a likely duplicate (docs/product/codes-and-partners.md#manual-adjustments: a retry after an
 * error answer saved one adjustment twice).
 */
export const DUPLICATE_ADJUSTMENT_WINDOW_MINUTES = 10;

/** A later adjustment that looks like a repeat of an earlier one (same amount and reason, within the window). */
export const likelyDuplicateSchema = z.object({
  /** The later entry: the one to reverse. */
  id: z.uuid(),
  /** The earlier entry it repeats. */
  duplicateOfId: z.uuid(),
  /** Signed cents, the same for both. */
  amount: z.number().int(),
  reason: lines(),
  /** ISO 8601 UTC, of the later and of the earlier entry. */
  createdAt: line(),
  duplicateOfCreatedAt: line(),
});
export type LikelyDuplicate = z.output<typeof likelyDuplicateSchema>;

/**
 * `GET /api/admin/affiliates/:id/adjustments/duplicates`: the likely duplicate adjustments not yet
 * reversed, newest first, and the window used.
 */
export const adjustmentDuplicatesSchema = z.object({
  windowMinutes: z.number().int(),
  items: z.array(likelyDuplicateSchema),
});
export type AdjustmentDuplicates = z.output<typeof adjustmentDuplicatesSchema>;

/**
 * `POST /api/admin/affiliates/:id/adjustments/:entryId/reverse` (docs/product/codes-and-partners.md#manual-adjustments): the reason of
 * the compensating adjustment (required, like any adjustment's), optionally the affiliate's version.
 */
export const reverseAdjustmentSchema = z.object({ reason: reasonField, version: versionField.optional() });
export type ReverseAdjustmentInput = z.output<typeof reverseAdjustmentSchema>;

/** The reverse dialog as typed. */
export const reverseAdjustmentFormSchema = z.object({ reason: reasonField });
export type ReverseAdjustmentFormValues = z.input<typeof reverseAdjustmentFormSchema>;

/**
 * `POST /api/admin/affiliates/:id/reject` (docs/product/codes-and-partners.md#partners): the reason shown to
 * the affiliate at login and in the e-mail (1-500 characters); optionally the version.
 */
export const rejectSchema = z.object({ reason: reasonField, version: versionField.optional() });
export type RejectInput = z.output<typeof rejectSchema>;

/** The reject dialog as typed. */
export const rejectFormSchema = z.object({ reason: reasonField });
export type RejectFormValues = z.input<typeof rejectFormSchema>;

/** `GET /api/admin/affiliates/:id/commissions` and `POST …/adjustments`: `{ ledger }` (decision 022). */
export const adminAffiliateLedgerSchema = z.object({ ledger: commissionLedgerSchema });
export type AdminAffiliateLedger = z.output<typeof adminAffiliateLedgerSchema>;

/**
 * One row of `GET /api/admin/affiliates`, and the answer of approve, reject, suspend, reactivate and
 * commission (docs/product/back-office.md#partners-admin, docs/product/codes-and-partners.md#suspended-partners). Amounts are integer euro cents; timestamps ISO 8601.
 */
export const adminAffiliateSchema = z.object({
  id: z.uuid(),
  name: line(),
  email: line(),
  status: z.enum(AFFILIATE_STATUSES),
  website: line(),
  country: line(),
  emailVerified: z.boolean(),
  /** The affiliate's language (its e-mails are written in it). */
  language: z.enum(LANGUAGES),
  /** The admin's reason when rejected, else "". */
  rejectionReason: lines(),
  /** How commission is earned: `percentage` of what was paid excluding VAT, or `fixed` per enrolled student. */
  commissionType: z.enum(COMMISSION_TYPES),
  /** Whole percent, 0-100 (used when the type is percentage). */
  commissionPercent: z.number().int(),
  /** Cents per enrolled student (used when the type is fixed). */
  commissionFixedCents: z.number().int(),
  /** The first referral code while approved (as the affiliate's own dashboard shows it), else null. */
  referralCode: line().nullable(),
  referralLink: line().nullable(),
  /** Every code linked to the affiliate (referral and discount), upper-case, oldest first. */
  codes: z.array(line()),
  /**
   * The figures the affiliate's own dashboard shows, by the same definitions (src/shared/affiliate-figures.ts;
   * docs/product/codes-and-partners.md#partner-figures, decision 036). Clicks: one per code, visitor and day.
   */
  clicks: z.number().int(),
  /** Applications credited to the affiliate (any status). */
  referredApplications: z.number().int(),
  /** Paid enrolments: paid (deposit or in full), not fully refunded, not cancelled, not self-referred. */
  paidApplications: z.number().int(),
  /** Sum of the amounts paid by those paid enrolments. */
  paidRevenue: z.number().int(),
  /** Commission entries above zero, since the start. */
  commissionEarned: z.number().int(),
  /** Commission entries below zero (clawbacks, negative adjustments), since the start (≤ 0). */
  commissionClawedBack: z.number().int(),
  /** Earned plus clawed back. */
  commissionNet: z.number().int(),
  /**
   * Commission owed from the ledger (decision 022): the sum of the entries pending, approved or in
   * a payout not yet paid (clawbacks included).
   */
  commissionOwed: z.number().int(),
  /** Commission paid: the sum of the entries in payouts marked paid. */
  commissionPaid: z.number().int(),
  version: z.number().int(),
  createdAt: line(),
});

/** `GET /api/admin/affiliates`: a page of affiliates. */
export const adminAffiliateListSchema = listPageSchema(adminAffiliateSchema);

/** An application credited to an affiliate, as the affiliate's detail lists it. */
export const adminReferredApplicationSchema = z.object({
  id: z.uuid(),
  /** ISO 8601 (UTC). */
  createdAt: line(),
  status: z.enum(APPLICATION_STATUSES),
  /** The stored payment status (db column `applications.payment_status`). */
  paymentStatus: z.enum(PAYMENT_STATUSES),
  /** E-mail address as stored (text, not checked again as an address). */
  applicant: z.object({ firstName: line(), lastName: line(), email: line() }),
  /** The summer school's name in the admin's language. */
  programName: line(),
  /** The code applied to the application (upper-case), or null. */
  code: line().nullable(),
  /** Cents, or null when none is stored on the application. */
  totalAmount: z.number().int().nullable(),
  /** Cents. */
  amountPaid: z.number().int(),
});

/** `GET /api/admin/affiliates/:id`: the affiliate, its codes, and its newest referred applications. */
export const adminAffiliateDetailSchema = adminAffiliateSchema.extend({
  /** Every code linked to the affiliate with its usage, oldest first. */
  codeDetails: z.array(adminCodeSchema),
  /** The newest 100; the application list filtered by `affiliateId` has them all. */
  applications: z.array(adminReferredApplicationSchema),
});
