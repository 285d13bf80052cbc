import { and, eq, ilike, or, type SQL, sql } from "drizzle-orm";
import type { AdminAffiliateDto } from "../../../shared/affiliates-admin";
import type { CommissionRate } from "../../../shared/commissions";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import type { AffiliateFilters, AffiliateSortKey } from "../../../shared/schemas/affiliates-admin";
import type { Db, Tx } from "../../db/client";
import { affiliates, codes, commissionEntries, payouts } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros } from "../../lib/csv";
import { adminNotFound, assertVersion } from "../../lib/errors";
import { likePattern } from "../../lib/lists";
import type { SessionService } from "../auth";
import { figureSql, paidRevenueSql as paidRevenueSql_ } from "../commissions";
import type { MailService } from "../mail";

export type AffiliateRow = typeof affiliates.$inferSelect;

/**
 * The outer affiliate row's columns, always table-qualified: Drizzle writes bare column names in
 * a query without joins, which inside a correlated subquery would name the subquery's own columns.
 */
const affiliateIdSql = sql.raw('"affiliates"."id"');

/**
 * Clicks, applications, paid enrolments and commission earned, clawed back and net: the SQL the
 * affiliate's own dashboard uses (modules/commissions/figures.ts; docs/product/codes-and-partners.md#partner-figures, decision 036).
 */
const figures = figureSql(affiliateIdSql);
const referredSql = figures.applications;
const paidCountSql = figures.paidEnrolments;
const clicksSql = figures.clicks;
/** Amounts paid by the paid enrolments (cents). */
const paidRevenueSql = paidRevenueSql_(affiliateIdSql);
/**
 * Commission owed (decision 022, states of shared/commissions.ts): entries pending, approved or
 * in a payout not yet paid — every entry except those whose payout is marked paid.
 */
const owedSql = sql<number>`(select coalesce(sum(e.amount_cents), 0)::bigint from ${commissionEntries} e left join ${payouts} p on p.id = e.payout_id where e.affiliate_id = ${affiliateIdSql} and (p.status is null or p.status <> 'paid'))`;
/** Commission paid: entries whose payout is marked paid. */
const paidCommissionSql = sql<number>`(select coalesce(sum(e.amount_cents), 0)::bigint from ${commissionEntries} e join ${payouts} p on p.id = e.payout_id where e.affiliate_id = ${affiliateIdSql} and p.status = 'paid')`;
/** Every code linked to the affiliate, oldest first. */
const codesSql = sql<
  string[]
>`(select coalesce(array_agg(c.code order by c.created_at, c.id), '{}') from ${codes} c where c.affiliate_id = ${affiliateIdSql})`;
/** The first referral code (what the affiliate's dashboard shows). */
const referralCodeSql = sql<
  string | null
>`(select c.code from ${codes} c where c.affiliate_id = ${affiliateIdSql} and c.code_type = 'referral' order by c.created_at, c.id limit 1)`;

export const columns = {
  affiliate: affiliates,
  clicks: clicksSql,
  referred: referredSql,
  paidCount: paidCountSql,
  paidRevenue: paidRevenueSql,
  owed: owedSql,
  paidCommission: paidCommissionSql,
  codes: codesSql,
  referralCode: referralCodeSql,
  commissionEarned: figures.commissionEarned,
  commissionClawedBack: figures.commissionClawedBack,
  commissionNet: figures.commissionNet,
};

export const SORT: Record<AffiliateSortKey, SQL> = {
  name: sql`lower(${affiliates.name})`,
  createdAt: sql`${affiliates.createdAt}`,
  status: sql`array_position(array['pending', 'approved', 'suspended', 'rejected']::text[], ${affiliates.status})`,
  clicks: clicksSql,
  referredApplications: referredSql,
  paidApplications: paidCountSql,
  paidRevenue: paidRevenueSql,
  commissionOwed: owedSql,
  commissionPaid: paidCommissionSql,
};

export function filterConditions(filters: AffiliateFilters): SQL | undefined {
  const conditions: SQL[] = [];
  if (filters.status) conditions.push(eq(affiliates.status, filters.status));
  if (filters.q) {
    const pattern = likePattern(filters.q);
    conditions.push(or(ilike(affiliates.name, pattern), ilike(affiliates.email, pattern))!);
  }
  return conditions.length ? and(...conditions) : undefined;
}

type Row = {
  affiliate: AffiliateRow;
  clicks: number;
  referred: number;
  paidCount: number;
  paidRevenue: number;
  owed: number;
  paidCommission: number;
  codes: string[] | null;
  referralCode: string | null;
  commissionEarned: number;
  commissionClawedBack: number;
  commissionNet: number;
};

/** A stored language, or English when the value is not one of the site's. */
export const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

/** A rate as the CSV and audit entries write it: "10%" or "150.00 EUR". */
export const rateText = (rate: CommissionRate | null) =>
  !rate ? "" : rate.type === "percentage" ? `${rate.percent}%` : `${csvEuros(rate.fixedCents)} EUR`;

/** What the back office's affiliate management needs (built by routes.ts). */
export interface AffiliatesAdminDeps {
  db: Db;
  appOrigin: string;
  mail: MailService;
  sessions: SessionService;
  now: () => Date;
  supportEmail: string;
  /** MINIMUM_PAYOUT_CENTS, shown with the ledger. */
  minimumPayout: number;
}

/**
 * What every use case of the affiliate management shares: its dependencies, an affiliate's DTO
 * with its figures, the locked read with the version check and the audited change.
 */
export abstract class AffiliatesAdminBase {
  constructor(protected readonly deps: AffiliatesAdminDeps) {}

  /** An affiliate's DTO from its row and figures; the referral code and its link only while it is approved. */
  protected dtoOf(row: Row): AdminAffiliateDto {
    const a = row.affiliate;
    const referralCode = a.status === "approved" ? row.referralCode : null;
    const paidRevenue = Number(row.paidRevenue);
    return {
      id: a.id,
      name: a.name,
      email: a.email,
      status: a.status,
      website: a.website,
      country: a.country,
      emailVerified: a.emailVerifiedAt !== null,
      language: languageOf(a.language),
      rejectionReason: a.rejectionReason,
      commissionType: a.commissionType,
      commissionPercent: a.commissionPercent,
      commissionFixedCents: a.commissionFixedCents,
      referralCode,
      referralLink: referralCode
        ? `${this.deps.appOrigin}/partner/${encodeURIComponent(referralCode)}`
        : null,
      codes: row.codes ?? [],
      clicks: Number(row.clicks),
      referredApplications: Number(row.referred),
      paidApplications: Number(row.paidCount),
      paidRevenue,
      commissionOwed: Number(row.owed),
      commissionPaid: Number(row.paidCommission),
      commissionEarned: Number(row.commissionEarned),
      commissionClawedBack: Number(row.commissionClawedBack),
      commissionNet: Number(row.commissionNet),
      version: a.version,
      createdAt: a.createdAt.toISOString(),
    };
  }

  /** One affiliate's DTO; 404 `{ error, message }` when unknown. */
  async dto(tx: Tx, id: string): Promise<AdminAffiliateDto> {
    const [row] = await tx.select(columns).from(affiliates).where(eq(affiliates.id, id));
    if (!row) throw adminNotFound();
    return this.dtoOf(row);
  }

  /** Reads an affiliate locked for update (404 when unknown) and checks the admin's version (409 `{ message, current }`). */
  protected async lock(tx: Tx, id: string, version: number | undefined): Promise<AffiliateRow> {
    const [row] = await tx.select().from(affiliates).where(eq(affiliates.id, id)).for("update");
    if (!row) throw adminNotFound();
    if (version !== undefined)
      await assertVersion(row.version, version, "errors.affiliates.stale", () => this.dto(tx, id));
    return row;
  }

  /**
   * Writes `change` to the affiliate `before` (locked) with the next version, and its audit entry
   * `action`: the changed fields and the version before → after, plus `details` after.
   */
  protected async change(
    tx: Tx,
    admin: AdminUser,
    before: AffiliateRow,
    action: string,
    change: Partial<
      Pick<
        AffiliateRow,
        "status" | "commissionType" | "commissionPercent" | "commissionFixedCents" | "rejectionReason"
      >
    >,
    at: Date,
    details: Record<string, unknown> = {},
  ): Promise<void> {
    const version = before.version + 1;
    await tx
      .update(affiliates)
      .set({ ...change, version, updatedAt: at })
      .where(eq(affiliates.id, before.id));
    const fields = Object.keys(change) as (keyof typeof change)[];
    await recordAudit(tx, {
      actor: admin,
      action,
      entityType: "affiliate",
      entityId: before.id,
      before: { ...Object.fromEntries(fields.map((f) => [f, before[f]])), version: before.version },
      after: { ...change, version, ...details },
    });
  }
}
