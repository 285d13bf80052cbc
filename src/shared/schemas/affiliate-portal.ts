import { COMMISSION_STATES } from "../commissions";
import { LANGUAGES } from "../i18n/languages";
import { requiredText } from "./applicant";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Requests and answers of the approved affiliate's own pages (docs/product/portals.md#partner-area;
 * docs/product/portals.md#partner-area; docs/product/security.md#s6-nobody-reads-what-is-not-theirs: every answer is about the session's affiliate only). Amounts are
 * integer euro cents; calendar dates `yyyy-mm-dd` in The Hague (Europe/Amsterdam); instants ISO
 * 8601 UTC. Shared by the server (`parseOrThrow`) and the pages (`call` with the contract, react-hook-form).
 */

/** The longest period the statistics cover (docs/product/portals.md#partner-area): a year and a day. */
export const STATS_MAX_DAYS = 366;
/** Longer periods than this are counted per week instead of per day. */
export const STATS_DAILY_MAX_DAYS = 92;

/** A campaign name as it goes into `utm_campaign`: letters, digits, `-` and `_`, at most 60. */
export const CAMPAIGN_PATTERN = /^[A-Za-z0-9_-]{1,60}$/;

const isoDate = line()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: V.invalidDate })
  .refine((value) => {
    const d = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
  }, V.invalidDate);

/** A campaign name, or empty for none (400 errors.affiliatePortal.invalidCampaign otherwise). */
export const campaignField = line()
  .max(60, { error: "errors.affiliatePortal.invalidCampaign" })
  .refine((value) => value === "" || CAMPAIGN_PATTERN.test(value), {
    error: "errors.affiliatePortal.invalidCampaign",
  });

/** Days between two `yyyy-mm-dd` dates, both counted (2026-01-01 → 2026-01-01 is 1). */
export function daysInRange(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/**
 * `GET /api/affiliate/stats?from&to&campaign`: both dates optional (default: the 30 days ending
 * today in The Hague). 400 errors.affiliatePortal.rangeOrder when `from` is after `to`, 400
 * errors.affiliatePortal.rangeTooLong beyond `STATS_MAX_DAYS`.
 */
export const affiliateStatsQuerySchema = z
  .object({
    from: isoDate.optional(),
    to: isoDate.optional(),
    campaign: campaignField.optional().default(""),
  })
  .superRefine((value, ctx) => {
    if (!value.from || !value.to) return;
    if (value.from > value.to)
      ctx.addIssue({ code: "custom", path: ["from"], message: "errors.affiliatePortal.rangeOrder" });
    else if (daysInRange(value.from, value.to) > STATS_MAX_DAYS)
      ctx.addIssue({ code: "custom", path: ["from"], message: "errors.affiliatePortal.rangeTooLong" });
  });
export type AffiliateStatsQuery = z.output<typeof affiliateStatsQuerySchema>;

/** The counts of one bucket, or of the whole period. */
const statsFiguresSchema = z.object({
  /** Clicks on the affiliate's referral codes and links (only the campaign's when one is chosen), one per code, visitor and day. */
  clicks: z.number().int(),
  /** Applications created in the bucket and attributed to the affiliate. */
  applications: z.number().int(),
  /**
   * Paid enrolments (not fully refunded, not cancelled, not self-referred; src/shared/affiliate-figures.ts)
   * whose first accepted payment falls in the bucket.
   */
  paidEnrolments: z.number().int(),
  /** Sum of the positive commission entries created in the bucket (cents). */
  commissionEarned: z.number().int(),
  /** Sum of the negative entries (clawbacks, negative adjustments) created in the bucket (cents, ≤ 0). */
  commissionClawedBack: z.number().int(),
  /** Earned plus clawed back (cents). */
  commissionNet: z.number().int(),
});

/** One day, or one week (Monday to Sunday, cut to the period) when the period is long. */
export const statsBucketSchema = statsFiguresSchema.extend({
  /** First day of the bucket, `yyyy-mm-dd`. */
  start: line(),
  /** Last day of the bucket, `yyyy-mm-dd` (the same as `start` for a day). */
  end: line(),
});
export type StatsBucket = z.output<typeof statsBucketSchema>;

/** `GET /api/affiliate/stats` answer. */
export const affiliateStatsSchema = z.object({
  from: line(),
  to: line(),
  /** `day` up to `STATS_DAILY_MAX_DAYS` days, `week` beyond. */
  granularity: z.enum(["day", "week"]),
  /** The campaign the clicks were filtered by, or empty for all. */
  campaign: line(),
  buckets: z.array(statsBucketSchema),
  totals: statsFiguresSchema.extend({
    /**
     * Paid enrolments per click over the period, in basis points (1 % = 100; 10,000 = one paid
     * enrolment per click); null when there was no click.
     */
    conversionBasisPoints: z.number().int().nullable(),
  }),
  /** Every campaign name seen on the affiliate's clicks (for the filter), alphabetical. */
  campaigns: z.array(line()),
});
export type AffiliateStats = z.output<typeof affiliateStatsSchema>;

/** One referred application, as the affiliate may see it (GDPR; docs/product/portals.md#partner-area): no surname, no e-mail, no id. */
export const referralSchema = z.object({
  /** "Amara O." */
  studentName: line(),
  cohortName: line(),
  /** Instant the application was created. */
  createdAt: line(),
  status: line(),
  paymentStatus: line(),
  /** The application's commission entries summed by their state now (cents, signed). */
  commission: z.object(
    Object.fromEntries(COMMISSION_STATES.map((s) => [s, z.number().int()])) as {
      [K in (typeof COMMISSION_STATES)[number]]: z.ZodNumber;
    },
  ),
});
export type Referral = z.output<typeof referralSchema>;

/** `GET /api/affiliate/referrals`: newest first. */
export const referralListSchema = z.object({ referrals: z.array(referralSchema) });
export type ReferralList = z.output<typeof referralListSchema>;

/** `GET /api/affiliate/qr.svg|png?campaign=`: the campaign to put into the link, if any. */
export const qrQuerySchema = z.object({ campaign: campaignField.optional().default("") });

/** `GET /api/affiliate/profile` and the answer of `PATCH /api/affiliate/profile`. */
export const affiliateProfileSchema = z.object({
  name: line(),
  email: line(),
  /** Language of the school's e-mails to the affiliate. */
  language: z.enum(LANGUAGES),
  website: line(),
  /** ISO 3166 alpha-2, or empty. */
  country: line(),
  referralCode: line().nullable(),
  referralLink: line().nullable(),
});
export type AffiliateProfile = z.output<typeof affiliateProfileSchema>;

/** `PATCH /api/affiliate/profile` (website: empty or an http(s) address; country: two letters or empty). */
export const affiliateProfileUpdateSchema = z.object({
  name: requiredText(200),
  language: z.enum(LANGUAGES, { error: V.invalidChoice }),
  website: line()
    .max(300, { error: V.tooLong })
    .refine((value) => value === "" || /^https?:\/\/[^\s.]+\.[^\s]+$/i.test(value), {
      error: V.invalidChoice,
    })
    .optional()
    .default(""),
  country: line()
    .refine((value) => value === "" || /^[A-Za-z]{2}$/.test(value), { error: V.invalidChoice })
    .transform((value) => value.toUpperCase())
    .optional()
    .default(""),
});
export type AffiliateProfileUpdate = z.input<typeof affiliateProfileUpdateSchema>;
