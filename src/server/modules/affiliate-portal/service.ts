import { and, desc, eq, sql } from "drizzle-orm";
import type { FastifyRequest } from "fastify";
import QRCode from "qrcode";
import { COMMISSION_STATES } from "../../../shared/commissions";
import { addDays } from "../../../shared/dates";
import { pageUrl } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { isLanguage } from "../../../shared/i18n/languages";
import {
  type AffiliateProfile,
  type AffiliateProfileUpdate,
  type AffiliateStats,
  type AffiliateStatsQuery,
  affiliateProfileUpdateSchema,
  daysInRange,
  type Referral,
  STATS_DAILY_MAX_DAYS,
  type StatsBucket,
} from "../../../shared/schemas/affiliate-portal";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import {
  affiliates,
  applicants,
  applications,
  codeClicks,
  codes,
  sessions,
  summerSchools,
} from "../../db/schema";
import { HttpError } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { hashToken } from "../../lib/tokens";
import {
  accountEmail,
  assertPasswordPolicy,
  hashPassword,
  type SessionService,
  sessionCookieName,
  verifyPassword,
} from "../auth";
import { affiliateFigures, figureEvents, ledgerOf, releaseAt, studentShortName } from "../commissions";
import type { MailService } from "../mail";

type AffiliateRow = typeof affiliates.$inferSelect;

/** Monday of the week of a `yyyy-mm-dd` date. */
function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay(); // 0 = Sunday
  return addDays(day, -((weekday + 6) % 7));
}

/**
 * The signed-in, approved affiliate of a request (docs/product/portals.md#partner-area; docs/product/security.md#s6-nobody-reads-what-is-not-theirs, docs/product/security.md#s7-sessions-of-one-kind-do-not-open-another). 401
 * errors.unauthorized without a live affiliate session; 403 errors.forbidden when the affiliate is
 * no longer approved (pending, rejected, suspended), as `GET /api/affiliate/me` refuses it.
 */
export async function requireApprovedAffiliate(
  db: Db,
  sessionService: SessionService,
  request: FastifyRequest,
): Promise<AffiliateRow> {
  const id = await sessionService.current(request, "affiliate");
  if (!id) throw new HttpError(401, "errors.unauthorized");
  const [row] = await db.select().from(affiliates).where(eq(affiliates.id, id));
  if (!row) throw new HttpError(401, "errors.unauthorized");
  if (row.status !== "approved") throw new HttpError(403, "errors.forbidden");
  return row;
}

/**
 * The affiliate's own pages (docs/product/portals.md#partner-area). Every query is bound to the
 * affiliate id given by the caller, which is always the session's (docs/product/security.md#s6-nobody-reads-what-is-not-theirs).
 */
export class AffiliatePortalService {
  constructor(
    private readonly deps: {
      db: Db;
      appOrigin: string;
      now: () => Date;
      minimumPayout: number;
      mail: MailService;
    },
  ) {}

  /** The affiliate's first referral code (the one of its link), or null. */
  private async referralCode(affiliateId: string): Promise<string | null> {
    const [code] = await this.deps.db
      .select({ code: codes.code })
      .from(codes)
      .where(and(eq(codes.affiliateId, affiliateId), eq(codes.codeType, "referral")))
      .orderBy(codes.createdAt)
      .limit(1);
    return code?.code ?? null;
  }

  /** The referral link (`<origin>/partner/<CODE>`), or null without a code. */
  private linkOf(code: string | null): string | null {
    return code ? `${this.deps.appOrigin}/partner/${encodeURIComponent(code)}` : null;
  }

  /** `GET /api/affiliate/commissions`: the ledger of decision 022, the same the admin sees. */
  commissions(affiliateId: string, language: Language) {
    return ledgerOf(this.deps.db, affiliateId, {
      now: this.deps.now(),
      language,
      minimumPayout: this.deps.minimumPayout,
    });
  }

  /**
   * `GET /api/affiliate/stats` (docs/product/codes-and-partners.md#partner-figures): clicks, applications, paid enrolments and commission
   * earned, clawed back and net per day (per week beyond `STATS_DAILY_MAX_DAYS` days) of the period,
   * in The Hague's calendar, by the definitions of src/shared/affiliate-figures.ts (docs/product/codes-and-partners.md#partner-figures:
   * a refunded or self-referred student is no paid enrolment; clawbacks are shown). A campaign filters the clicks only: an application does not record the campaign of
   * the click that brought it. Conversion: paid enrolments ÷ clicks in basis points.
   */
  async stats(affiliateId: string, query: AffiliateStatsQuery): Promise<AffiliateStats> {
    const today = schoolDate(this.deps.now());
    const to = query.to ?? (query.from && query.from > today ? query.from : today);
    const from = query.from ?? addDays(to, -29);
    // The schema checks a given pair; a single bound with the default other one is checked here.
    if (from > to) throw new HttpError(400, "errors.affiliatePortal.rangeOrder");
    if (daysInRange(from, to) > 366) throw new HttpError(400, "errors.affiliatePortal.rangeTooLong");
    const start = releaseAt(from, 0);
    const end = releaseAt(addDays(to, 1), 0);
    const granularity = daysInRange(from, to) > STATS_DAILY_MAX_DAYS ? "week" : "day";
    const db = this.deps.db;

    /** The bucket of a day: itself, or its week's Monday (the period's first day for a cut week). */
    const keyOf = (day: string) => {
      if (granularity === "day") return day;
      const monday = mondayOf(day);
      return monday.localeCompare(from) < 0 ? from : monday;
    };
    const buckets: StatsBucket[] = [];
    const index = new Map<string, StatsBucket>();
    for (let day = from; day <= to; day = addDays(day, 1)) {
      const key = keyOf(day);
      let bucket = index.get(key);
      if (!bucket) {
        bucket = {
          start: key,
          end: day,
          clicks: 0,
          applications: 0,
          paidEnrolments: 0,
          commissionEarned: 0,
          commissionClawedBack: 0,
          commissionNet: 0,
        };
        index.set(key, bucket);
        buckets.push(bucket);
      }
      bucket.end = day;
    }
    const bucketOf = (at: Date) => {
      return index.get(keyOf(schoolDate(at)));
    };

    // One definition of each figure for this dashboard and the back office (docs/product/codes-and-partners.md#partner-figures;
    // src/shared/affiliate-figures.ts, decision 036): the buckets from the dated events, the totals
    // from the same SQL as the admin's view, so both always agree.
    const range = { start, end };
    const events = await figureEvents(db, affiliateId, range, query.campaign);
    for (const at of events.clicks) {
      const b = bucketOf(at);
      if (b) b.clicks += 1;
    }
    for (const at of events.applications) {
      const b = bucketOf(at);
      if (b) b.applications += 1;
    }
    for (const at of events.paidEnrolments) {
      const b = bucketOf(at);
      if (b) b.paidEnrolments += 1;
    }
    for (const entry of events.entries) {
      const b = bucketOf(entry.at);
      if (!b) continue;
      if (entry.amount > 0) b.commissionEarned += entry.amount;
      else b.commissionClawedBack += entry.amount;
      b.commissionNet += entry.amount;
    }
    const totals = await affiliateFigures(db, affiliateId, range, query.campaign);
    const campaignRows = await db
      .selectDistinct({ campaign: codeClicks.utmCampaign })
      .from(codeClicks)
      .innerJoin(codes, eq(codes.id, codeClicks.codeId))
      .where(and(eq(codes.affiliateId, affiliateId), sql`${codeClicks.utmCampaign} <> ''`));
    return {
      from,
      to,
      granularity,
      campaign: query.campaign,
      buckets,
      totals: {
        ...totals,
        conversionBasisPoints:
          totals.clicks > 0 ? Math.round((totals.paidEnrolments * 10_000) / totals.clicks) : null,
      },
      campaigns: campaignRows.map((r) => r.campaign).sort((a, b) => a.localeCompare(b)),
    };
  }

  /**
   * `GET /api/affiliate/referrals` (docs/product/portals.md#partner-area; GDPR): the applications attributed to the affiliate,
   * newest first, with the student's first name and initial, the cohort in `language`, the
   * statuses and the application's commission summed by state now (from the same ledger).
   */
  async referrals(affiliateId: string, language: Language): Promise<Referral[]> {
    const rows = await this.deps.db
      .select({
        id: applications.id,
        createdAt: applications.createdAt,
        status: applications.status,
        paymentStatus: applications.paymentStatus,
        firstName: applicants.firstName,
        lastName: applicants.lastName,
        cohortName: summerSchools.name,
      })
      .from(applications)
      .innerJoin(applicants, eq(applicants.id, applications.applicantId))
      .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
      .where(eq(applications.affiliateId, affiliateId))
      .orderBy(desc(applications.createdAt), desc(applications.id));
    const ledger = await this.commissions(affiliateId, language);
    const byApplication = new Map<string, Referral["commission"]>();
    for (const entry of ledger.entries) {
      if (!entry.application) continue;
      let sums = byApplication.get(entry.application.id);
      if (!sums) {
        sums = Object.fromEntries(COMMISSION_STATES.map((s) => [s, 0])) as Referral["commission"];
        byApplication.set(entry.application.id, sums);
      }
      sums[entry.state] += entry.amount;
    }
    return rows.map((row) => ({
      studentName: studentShortName(row.firstName, row.lastName),
      cohortName: localize(row.cohortName, language),
      createdAt: row.createdAt.toISOString(),
      status: row.status,
      paymentStatus: row.paymentStatus,
      commission:
        byApplication.get(row.id) ??
        (Object.fromEntries(COMMISSION_STATES.map((s) => [s, 0])) as Referral["commission"]),
    }));
  }

  /**
   * The QR code of the affiliate's referral link (docs/product/catalogue-and-pricing.md#code-discounts), with `utm_source=qr` and
   * the campaign when given, as SVG text or PNG bytes. 404 errors.affiliatePortal.noReferralCode
   * while the affiliate has no referral code.
   */
  async qr(affiliateId: string, campaign: string, type: "svg" | "png") {
    const link = this.linkOf(await this.referralCode(affiliateId));
    if (!link) throw new HttpError(404, "errors.affiliatePortal.noReferralCode");
    const url = new URL(link);
    url.searchParams.set("utm_source", "qr");
    if (campaign) url.searchParams.set("utm_campaign", campaign);
    const text = url.toString();
    const options = { errorCorrectionLevel: "M" as const, margin: 4 };
    return type === "svg"
      ? { text, body: await QRCode.toString(text, { ...options, type: "svg" }) }
      : { text, body: await QRCode.toBuffer(text, { ...options, type: "png", width: 512 }) };
  }

  /** `GET /api/affiliate/profile`: what the profile page edits, with the code and link. */
  async profile(affiliate: AffiliateRow): Promise<AffiliateProfile> {
    const code = await this.referralCode(affiliate.id);
    return {
      name: affiliate.name,
      email: affiliate.email,
      language: isLanguage(affiliate.language) ? affiliate.language : "en",
      website: affiliate.website,
      country: affiliate.country,
      referralCode: code,
      referralLink: this.linkOf(code),
    };
  }

  /** `PATCH /api/affiliate/profile`: name, e-mail language, website and country. */
  async updateProfile(affiliate: AffiliateRow, input: AffiliateProfileUpdate): Promise<AffiliateProfile> {
    const parsed = affiliateProfileUpdateSchema.parse(input);
    const [row] = await this.deps.db
      .update(affiliates)
      .set({ ...parsed, updatedAt: this.deps.now() })
      .where(eq(affiliates.id, affiliate.id))
      .returning();
    return this.profile(row!);
  }

  /**
   * `POST /api/affiliate/password` (docs/product/security.md#s4-password-storage-and-policy): 400 errors.currentPasswordWrong (field
   * `currentPassword`) when the current password is wrong; the policy of registration for the new
   * one (400 errors.passwordTooShort / passwordTooLong / passwordCommon, field `newPassword`). Every
   * other session of the affiliate ends (the one making the change stays) and a notice is e-mailed
   * to the affiliate in its language, with the reset link (as for students, docs/product/portals.md#password-reset).
   */
  async changePassword(
    affiliate: AffiliateRow,
    currentPassword: string,
    newPassword: string,
    request: FastifyRequest,
  ): Promise<void> {
    if (!(await verifyPassword(affiliate.passwordHash, currentPassword))) {
      throw new HttpError(400, "errors.currentPasswordWrong", {
        fieldErrors: { currentPassword: "errors.currentPasswordWrong" },
      });
    }
    try {
      assertPasswordPolicy(newPassword);
    } catch (err) {
      if (err instanceof HttpError)
        throw new HttpError(err.status, err.messageKey, { fieldErrors: { newPassword: err.messageKey } });
      throw err;
    }
    const passwordHash = await hashPassword(newPassword);
    const token = request.cookies[sessionCookieName("affiliate")];
    const keep = token ? hashToken(token) : "";
    const at = this.deps.now();
    await this.deps.db.transaction(async (tx) => {
      await tx.update(affiliates).set({ passwordHash, updatedAt: at }).where(eq(affiliates.id, affiliate.id));
      await tx
        .delete(sessions)
        .where(
          and(
            eq(sessions.role, "affiliate"),
            eq(sessions.accountId, affiliate.id),
            sql`${sessions.tokenHash} <> ${keep}`,
          ),
        );
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `affiliate-password-changed:${affiliate.id}:${at.getTime()}`,
        to: affiliate.email,
        ...accountEmail(
          "affiliatePasswordChanged",
          isLanguage(affiliate.language) ? affiliate.language : "en",
          pageUrl(
            this.deps.appOrigin,
            isLanguage(affiliate.language) ? affiliate.language : "en",
            "/affiliate/reset-password",
          ),
          { name: affiliate.name },
        ),
      });
    });
    void this.deps.mail.flush().catch(() => undefined);
  }
}
