import { and, asc, desc, eq, ilike, inArray, or, type SQL, sql } from "drizzle-orm";
import type {
  AdminAffiliateDetail,
  AdminAffiliateDto,
  AdminAffiliateList,
  AdminReferredApplicationDto,
} from "../../../shared/affiliates-admin";
import type { CommissionRate } from "../../../shared/commissions";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import type {
  AffiliateFilters,
  AffiliateListQuery,
  AffiliateSortKey,
} from "../../../shared/schemas/affiliates-admin";
import {
  type AdjustmentDuplicates,
  type AdjustmentInput,
  adminAffiliateLedgerSchema,
  DUPLICATE_ADJUSTMENT_WINDOW_MINUTES,
  type ReverseAdjustmentInput,
} from "../../../shared/schemas/affiliates-admin";
import type { CommissionLedgerDto } from "../../../shared/schemas/commissions";
import type { Db, Tx } from "../../db/client";
import {
  affiliates,
  applicants,
  applications,
  auditLog,
  codes,
  commissionEntries,
  payouts,
  summerSchools,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, assertVersion, HttpError, isUniqueViolation } from "../../lib/errors";
import { likePattern, pageOf, pageOffset, sortedBy } from "../../lib/lists";
import { localize } from "../../lib/localize";
import { referralCodeBase, type SessionService } from "../auth";
import { codeDtosWhere } from "../codes-admin";
import { figureSql, ledgerOf, paidRevenueSql as paidRevenueSql_ } from "../commissions";
import type { MailService } from "../mail";
import { partnerApprovedEmail, partnerRejectedEmail } from "./emails";

type AffiliateRow = typeof affiliates.$inferSelect;

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

const columns = {
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

const SORT: Record<AffiliateSortKey, SQL> = {
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

function filterConditions(filters: AffiliateFilters): SQL | undefined {
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
const languageOf = (value: string): Language => (isLanguage(value) ? value : "en");

/** A rate as the CSV and audit entries write it: "10%" or "150.00 EUR". */
const rateText = (rate: CommissionRate | null) =>
  !rate ? "" : rate.type === "percentage" ? `${rate.percent}%` : `${csvEuros(rate.fixedCents)} EUR`;

/**
 * The back office's affiliate management (docs/product/back-office.md#partners-admin): list with referral figures,
 * detail, approval (referral code and e-mail), suspension, reactivation and commission rate.
 *
 * Suspension rule (documented decision): suspending an affiliate ends its sessions (SessionService)
 * and deactivates every active code linked to it in the same transaction, so its referral codes
 * stop working for new applicants at once, with the existing message "This code is no longer
 * active." — the applicant-side validation in modules/codes is untouched. Codes of a suspended
 * affiliate cannot be switched back on one by one (422). Reactivation (or approval) switches back
 * on exactly the codes the last suspension switched off; codes an admin had deactivated before stay off.
 *
 * Commission figures come from the commission ledger (docs/product/codes-and-partners.md#partner-figures, decision 022): owed is the sum of
 * the entries not yet paid out (pending, approved, in payout), paid the sum of those in paid
 * payouts; the list computes both with correlated subqueries in one statement (no query per row),
 * and the detail shows `ledgerOf`, the same ledger the affiliate sees. Manual adjustments and
 * rejections carry the admin's reason and are audited.
 */
export class AffiliatesAdminService {
  constructor(
    private readonly deps: {
      db: Db;
      appOrigin: string;
      mail: MailService;
      sessions: SessionService;
      now: () => Date;
      supportEmail: string;
      /** MINIMUM_PAYOUT_CENTS, shown with the ledger. */
      minimumPayout: number;
    },
  ) {}

  private dtoOf(row: Row): AdminAffiliateDto {
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

  /**
   * `GET /api/admin/affiliates`: one page of the affiliates matching the filters, sorted on the
   * server (nulls last, ties by id) → `{ items, total, page, pageSize }`.
   */
  async list(query: AffiliateListQuery): Promise<AdminAffiliateList> {
    const { db } = this.deps;
    const where = filterConditions(query);
    const [{ total } = { total: 0 }] = await db
      .select({ total: sql<number>`count(*)::int` })
      .from(affiliates)
      .where(where);
    const rows = await db
      .select(columns)
      .from(affiliates)
      .where(where)
      .orderBy(sortedBy(SORT[query.sort.key], query.sort.direction), asc(affiliates.id))
      .limit(query.pageSize)
      .offset(pageOffset(query));
    return pageOf(
      rows.map((r) => this.dtoOf(r)),
      total,
      query,
    );
  }

  /** `GET /api/admin/affiliates.csv`: every matching affiliate (newest first) with its figures, amounts in euros. */
  async exportCsv(filters: AffiliateFilters): Promise<{ csv: string; rows: number }> {
    const rows = await this.deps.db
      .select(columns)
      .from(affiliates)
      .where(filterConditions(filters))
      .orderBy(desc(affiliates.createdAt), asc(affiliates.id));
    const items = rows.map((r) => this.dtoOf(r));
    const csv = toCsv(
      [
        "name",
        "email",
        "status",
        "country",
        "website",
        "commission_type",
        "commission_percent",
        "commission_fixed_eur",
        "codes",
        "clicks",
        "referred_applications",
        "paid_applications",
        "paid_revenue_eur",
        "commission_owed_eur",
        "commission_paid_eur",
        "created_at",
      ],
      items.map((a) => [
        a.name,
        a.email,
        a.status,
        a.country,
        a.website,
        a.commissionType,
        a.commissionPercent,
        csvEuros(a.commissionFixedCents),
        a.codes.join("; "),
        a.clicks,
        a.referredApplications,
        a.paidApplications,
        csvEuros(a.paidRevenue),
        csvEuros(a.commissionOwed),
        csvEuros(a.commissionPaid),
        a.createdAt,
      ]),
    );
    return { csv, rows: items.length };
  }

  /** `GET /api/admin/affiliates/:id`: the affiliate, its codes with usage, its 100 newest referred applications. */
  async detail(id: string, language: Language): Promise<AdminAffiliateDetail> {
    const { db } = this.deps;
    return db.transaction(async (tx) => {
      const dto = await this.dto(tx, id);
      const codeDetails = await codeDtosWhere(tx, eq(codes.affiliateId, id), this.deps.now(), language);
      const rows = await tx
        .select({
          application: applications,
          firstName: applicants.firstName,
          lastName: applicants.lastName,
          email: applicants.email,
          schoolName: summerSchools.name,
          code: codes.code,
        })
        .from(applications)
        .innerJoin(applicants, eq(applicants.id, applications.applicantId))
        .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
        .leftJoin(codes, eq(codes.id, applications.appliedCodeId))
        .where(eq(applications.affiliateId, id))
        .orderBy(desc(applications.createdAt), asc(applications.id))
        .limit(100);
      const referred: AdminReferredApplicationDto[] = rows.map((r) => ({
        id: r.application.id,
        createdAt: r.application.createdAt.toISOString(),
        status: r.application.status,
        paymentStatus: r.application.paymentStatus,
        applicant: { firstName: r.firstName, lastName: r.lastName, email: r.email },
        programName: localize(r.schoolName, language),
        code: r.code ?? null,
        totalAmount: r.application.totalAmountCents,
        amountPaid: r.application.amountPaidCents,
      }));
      return { ...dto, codeDetails, applications: referred };
    });
  }

  /** Reads an affiliate locked for update (404 when unknown) and checks the admin's version (409 `{ message, current }`). */
  private async lock(tx: Tx, id: string, version: number | undefined): Promise<AffiliateRow> {
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
  private async change(
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

  /**
   * Switches the codes matching `where` that are not `active` yet on or off, each with its version
   * bumped and an audit entry "code.activate" / "code.deactivate" that names the affiliate action
   * behind it (`reason`). Returns their ids.
   */
  private async switchCodes(
    tx: Tx,
    admin: AdminUser,
    where: SQL | undefined,
    active: boolean,
    reason: string,
    at: Date,
  ): Promise<string[]> {
    const switched = await tx
      .update(codes)
      .set({ active, version: sql`${codes.version} + 1`, updatedAt: at })
      .where(and(where, eq(codes.active, !active)))
      .returning({ id: codes.id, version: codes.version });
    for (const code of switched) {
      await recordAudit(tx, {
        actor: admin,
        action: active ? "code.activate" : "code.deactivate",
        entityType: "code",
        entityId: code.id,
        before: { active: !active, version: code.version - 1 },
        after: { active, version: code.version, reason },
      });
    }
    return switched.map((c) => c.id);
  }

  /** Gives the affiliate a referral code derived from its name unless it has one (NAME, NAME2, …). */
  private async ensureReferralCode(tx: Tx, affiliate: AffiliateRow, at: Date): Promise<void> {
    const [code] = await tx
      .select({ id: codes.id })
      .from(codes)
      .where(and(eq(codes.affiliateId, affiliate.id), eq(codes.codeType, "referral")))
      .limit(1);
    if (code) return;
    const base = referralCodeBase(affiliate.name);
    for (let n = 1; n <= 1000; n++) {
      const candidate = n === 1 ? base : `${base}${n}`;
      const inserted = await tx
        .insert(codes)
        .values({
          code: candidate,
          codeType: "referral",
          discountValue: 0,
          affiliateId: affiliate.id,
          description: `Referral code of ${affiliate.name}`,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: codes.code })
        .returning({ id: codes.id });
      if (inserted.length) return;
    }
    throw new Error("no free referral code");
  }

  /**
   * Switches back on the codes the affiliate's last suspension switched off (its audit entry lists
   * them) that are still linked to it and off. Returns their ids.
   */
  private async restoreCodes(tx: Tx, admin: AdminUser, affiliateId: string, at: Date): Promise<string[]> {
    const [entry] = await tx
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entityType, "affiliate"),
          eq(auditLog.entityId, affiliateId),
          eq(auditLog.action, "affiliate.suspend"),
        ),
      )
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(1);
    const ids = ((entry?.after as { deactivatedCodeIds?: unknown } | null)?.deactivatedCodeIds ??
      []) as string[];
    if (!Array.isArray(ids) || ids.length === 0) return [];
    const where = and(inArray(codes.id, ids), eq(codes.affiliateId, affiliateId));
    return this.switchCodes(tx, admin, where, true, "affiliate.reactivate", at);
  }

  /** The approval e-mail (adminCodes `emails.approved.*`) in the affiliate's language (docs/product/languages.md#supported-languages). */
  /**
   * `POST /api/admin/affiliates/:id/approve` (`{ version? }`): status approved; a referral code
   * derived from the name unless the affiliate has one (contract "Affiliate approval"); the codes
   * a suspension switched off are switched back on; the approval e-mail is queued once per
   * affiliate (dedupe key `affiliate-approved:<id>`). Idempotent. Audit "affiliate.approve".
   */
  async approve(admin: AdminUser, id: string, version?: number): Promise<AdminAffiliateDto> {
    const at = this.deps.now();
    const dto = await this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id, version);
      await this.ensureReferralCode(tx, before, at);
      const restored = before.status === "suspended" ? await this.restoreCodes(tx, admin, id, at) : [];
      await tx
        .update(affiliates)
        .set({
          status: "approved",
          version: before.status === "approved" ? before.version : before.version + 1,
          updatedAt: at,
        })
        .where(eq(affiliates.id, id));
      const item = await this.dto(tx, id);
      await recordAudit(tx, {
        actor: admin,
        action: "affiliate.approve",
        entityType: "affiliate",
        entityId: id,
        before: { status: before.status, version: before.version },
        after: {
          status: "approved",
          version: item.version,
          referralCode: item.referralCode,
          ...(restored.length ? { reactivatedCodeIds: restored } : {}),
        },
      });
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `affiliate-approved:${id}`,
        to: before.email,
        ...partnerApprovedEmail(this.deps, before.name, item.referralCode, languageOf(before.language)),
      });
      return item;
    });
    void this.deps.mail.flush().catch(() => undefined);
    return dto;
  }

  /**
   * `POST /api/admin/affiliates/:id/suspend` `{ version }`: status suspended (from pending or
   * approved; already suspended → 422 errors.affiliates.alreadySuspended), every active code linked
   * to the affiliate switched off (audit "code.deactivate" each), audit "affiliate.suspend" with
   * the codes switched off; after the commit, every session of the affiliate is ended.
   */
  async suspend(admin: AdminUser, id: string, version: number): Promise<AdminAffiliateDto> {
    const at = this.deps.now();
    const dto = await this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id, version);
      if (before.status === "suspended") throw new HttpError(422, "errors.affiliates.alreadySuspended");
      const switchedOff = await this.switchCodes(
        tx,
        admin,
        eq(codes.affiliateId, id),
        false,
        "affiliate.suspend",
        at,
      );
      await this.change(tx, admin, before, "affiliate.suspend", { status: "suspended" }, at, {
        deactivatedCodeIds: switchedOff,
      });
      return this.dto(tx, id);
    });
    await this.deps.sessions.endAll("affiliate", id);
    return dto;
  }

  /**
   * `POST /api/admin/affiliates/:id/reactivate` `{ version }`: a suspended affiliate is approved
   * again (not suspended → 422 errors.affiliates.notSuspended); the codes its suspension switched
   * off are switched back on; a referral code is created if it has none. Audit "affiliate.reactivate".
   */
  async reactivate(admin: AdminUser, id: string, version: number): Promise<AdminAffiliateDto> {
    const at = this.deps.now();
    return this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id, version);
      if (before.status !== "suspended") throw new HttpError(422, "errors.affiliates.notSuspended");
      const restored = await this.restoreCodes(tx, admin, id, at);
      await this.ensureReferralCode(tx, before, at);
      await this.change(tx, admin, before, "affiliate.reactivate", { status: "approved" }, at, {
        reactivatedCodeIds: restored,
      });
      return this.dto(tx, id);
    });
  }

  /**
   * `PATCH /api/admin/affiliates/:id/commission` `{ type, percent | fixedCents, version }`: the new
   * rate, a whole percent 0-100 or a fixed amount per enrolled student in cents (docs/product/codes-and-partners.md#commissions: "Each
   * affiliate has a rate"); audit "affiliate.commission" before → after. The rate is stored on each
   * commission entry, so only later payments earn at the new rate (decision 022).
   */
  async setCommission(
    admin: AdminUser,
    id: string,
    rate: CommissionRate,
    version: number,
  ): Promise<AdminAffiliateDto> {
    const at = this.deps.now();
    const change =
      rate.type === "percentage"
        ? { commissionType: "percentage" as const, commissionPercent: rate.percent }
        : { commissionType: "fixed" as const, commissionFixedCents: rate.fixedCents };
    return this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id, version);
      await this.change(tx, admin, before, "affiliate.commission", change, at);
      return this.dto(tx, id);
    });
  }

  /**
   * `GET /api/admin/affiliates/:id/commissions`: the affiliate's commission ledger at this instant,
   * by `ledgerOf`, the function the affiliate's own dashboard uses (docs/product/back-office.md#partners-admin: "the admin affiliate
   * detail show[s] the same ledger and balance"). 404 when unknown.
   */
  async commissions(id: string, language: Language): Promise<{ ledger: CommissionLedgerDto }> {
    return this.deps.db.transaction(async (tx) => {
      await this.dto(tx, id);
      const ledger = await ledgerOf(tx, id, {
        now: this.deps.now(),
        language,
        minimumPayout: this.deps.minimumPayout,
      });
      return { ledger };
    });
  }

  /**
   * `GET /api/admin/affiliates/:id/commissions.csv`: the ledger, one entry a line, newest first,
   * amounts in euros; students by first name and initial as in the ledger. 404 when unknown.
   */
  async commissionsCsv(id: string, language: Language): Promise<{ csv: string; rows: number }> {
    const { ledger } = await this.commissions(id, language);
    const csv = toCsv(
      [
        "created_at",
        "kind",
        "state",
        "amount_eur",
        "base_eur",
        "rate",
        "reason",
        "application_id",
        "student",
        "cohort",
        "available_at",
        "payout_id",
      ],
      ledger.entries.map((e) => [
        e.createdAt,
        e.kind,
        e.state,
        csvEuros(e.amount),
        csvEuros(e.base),
        rateText(e.rate),
        e.reason,
        e.application?.id ?? "",
        e.application?.studentName ?? "",
        e.application?.cohortName ?? "",
        e.availableAt,
        e.payoutId ?? "",
      ]),
    );
    return { csv, rows: ledger.entries.length };
  }

  /**
   * `POST /api/admin/affiliates/:id/adjustments` `{ amountCents, reason, version? }`: a manual
   * commission entry (kind adjustment, signed cents, the admin's reason, `createdByAdminId`),
   * available at once, so approved from now on (docs/product/codes-and-partners.md#manual-adjustments: "manual adjustments (reason required,
   * audited)"; decision 022). Audit "affiliate.adjust" with the entry. 404 unknown; 409 stale
   * version when one is sent. Returns the ledger after the entry.
   */
  async adjust(
    admin: AdminUser,
    id: string,
    input: AdjustmentInput,
    language: Language,
  ): Promise<{ ledger: CommissionLedgerDto }> {
    const at = this.deps.now();
    return this.deps.db.transaction(async (tx) => {
      await this.lock(tx, id, input.version);
      const [entry] = await tx
        .insert(commissionEntries)
        .values({
          affiliateId: id,
          kind: "adjustment",
          amountCents: input.amountCents,
          baseCents: 0,
          availableAt: at,
          reason: input.reason,
          createdByAdminId: admin.id,
          createdAt: at,
        })
        .returning({ id: commissionEntries.id });
      await recordAudit(tx, {
        actor: admin,
        action: "affiliate.adjust",
        entityType: "affiliate",
        entityId: id,
        after: { entryId: entry!.id, amountCents: input.amountCents, reason: input.reason },
      });
      return this.checkedLedger(tx, id, language);
    });
  }

  /**
   * The ledger after a change, read and checked against its answer's schema inside the change's
   * transaction (docs/product/codes-and-partners.md#manual-adjustments: the answer was checked after the commit, so a saved adjustment
   * answered 500 and its retry saved it twice). A ledger the answer would refuse rolls the change back.
   */
  private async checkedLedger(
    tx: Tx,
    id: string,
    language: Language,
  ): Promise<{ ledger: CommissionLedgerDto }> {
    const ledger = await ledgerOf(tx, id, {
      now: this.deps.now(),
      language,
      minimumPayout: this.deps.minimumPayout,
    });
    return adminAffiliateLedgerSchema.parse({ ledger });
  }

  /**
   * `GET /api/admin/affiliates/:id/adjustments/duplicates` (docs/product/codes-and-partners.md#manual-adjustments): the affiliate's
   * adjustments that repeat an earlier one — same amount, same reason, written within
   * `DUPLICATE_ADJUSTMENT_WINDOW_MINUTES` after it — and that are not reversed yet (nor is the
   * earlier one), newest first. Reversals themselves are never listed. 404 when unknown.
   */
  async duplicates(id: string): Promise<AdjustmentDuplicates> {
    return this.deps.db.transaction(async (tx) => {
      await this.dto(tx, id);
      const rows = await tx
        .select()
        .from(commissionEntries)
        .where(and(eq(commissionEntries.affiliateId, id), eq(commissionEntries.kind, "adjustment")))
        .orderBy(asc(commissionEntries.createdAt), asc(commissionEntries.id));
      const reversed = new Set(rows.map((r) => r.reversesEntryId).filter((v): v is string => v !== null));
      const candidates = rows.filter((r) => r.reversesEntryId === null && !reversed.has(r.id));
      const windowMs = DUPLICATE_ADJUSTMENT_WINDOW_MINUTES * 60_000;
      const items: AdjustmentDuplicates["items"] = [];
      for (const [i, later] of candidates.entries()) {
        const earlier = candidates
          .slice(0, i)
          .find(
            (e) =>
              e.amountCents === later.amountCents &&
              e.reason === later.reason &&
              later.createdAt.getTime() - e.createdAt.getTime() <= windowMs,
          );
        if (!earlier) continue;
        items.push({
          id: later.id,
          duplicateOfId: earlier.id,
          amount: later.amountCents,
          reason: later.reason,
          createdAt: later.createdAt.toISOString(),
          duplicateOfCreatedAt: earlier.createdAt.toISOString(),
        });
      }
      return { windowMinutes: DUPLICATE_ADJUSTMENT_WINDOW_MINUTES, items: items.reverse() };
    });
  }

  /**
   * `POST /api/admin/affiliates/:id/adjustments/:entryId/reverse` `{ reason, version? }` (docs/product/codes-and-partners.md#manual-adjustments): reverses one adjustment by a compensating one — the opposite amount, approved at once,
   * the admin's reason, `reverses_entry_id` naming the original — and audits it
   * ("affiliate.adjust.reverse", the original before and the new entry after). The original is never
   * changed or deleted. 404 when the affiliate or the entry (of this affiliate) is unknown; 422
   * errors.affiliates.notReversible for an entry other than a manual adjustment, or a reversal; 409
   * errors.affiliates.alreadyReversed when it was reversed already (also by two requests at once).
   * Returns the ledger after it.
   */
  async reverseAdjustment(
    admin: AdminUser,
    id: string,
    entryId: string,
    input: ReverseAdjustmentInput,
    language: Language,
  ): Promise<{ ledger: CommissionLedgerDto }> {
    const at = this.deps.now();
    try {
      return await this.deps.db.transaction(async (tx) => {
        await this.lock(tx, id, input.version);
        const [original] = await tx
          .select()
          .from(commissionEntries)
          .where(and(eq(commissionEntries.id, entryId), eq(commissionEntries.affiliateId, id)));
        if (!original) throw adminNotFound();
        if (original.kind !== "adjustment" || original.reversesEntryId !== null)
          throw new HttpError(422, "errors.affiliates.notReversible");
        const [already] = await tx
          .select({ id: commissionEntries.id })
          .from(commissionEntries)
          .where(eq(commissionEntries.reversesEntryId, entryId));
        if (already) throw new HttpError(409, "errors.affiliates.alreadyReversed");
        const [entry] = await tx
          .insert(commissionEntries)
          .values({
            affiliateId: id,
            kind: "adjustment",
            amountCents: -original.amountCents,
            baseCents: 0,
            availableAt: at,
            reason: input.reason,
            reversesEntryId: original.id,
            createdByAdminId: admin.id,
            createdAt: at,
          })
          .returning({ id: commissionEntries.id });
        await recordAudit(tx, {
          actor: admin,
          action: "affiliate.adjust.reverse",
          entityType: "affiliate",
          entityId: id,
          before: { entryId: original.id, amountCents: original.amountCents, reason: original.reason },
          after: {
            entryId: entry!.id,
            reversesEntryId: original.id,
            amountCents: -original.amountCents,
            reason: input.reason,
          },
        });
        return this.checkedLedger(tx, id, language);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new HttpError(409, "errors.affiliates.alreadyReversed");
      throw error;
    }
  }

  /** The rejection e-mail (adminCodes `emails.rejected.*`) in the affiliate's language, with the reason. */
  /**
   * `POST /api/admin/affiliates/:id/reject` `{ reason, version? }`: a pending affiliate is rejected
   * with the admin's reason (docs/product/codes-and-partners.md#partners); the reason is stored, shown
   * to the affiliate when it signs in, and e-mailed to it in its language (once per affiliate,
   * dedupe key `affiliate-rejected:<id>`). Not pending → 422 errors.affiliates.notPending. Audit
   * "affiliate.reject".
   */
  async reject(admin: AdminUser, id: string, reason: string, version?: number): Promise<AdminAffiliateDto> {
    const at = this.deps.now();
    const dto = await this.deps.db.transaction(async (tx) => {
      const before = await this.lock(tx, id, version);
      if (before.status !== "pending") throw new HttpError(422, "errors.affiliates.notPending");
      await this.change(
        tx,
        admin,
        before,
        "affiliate.reject",
        { status: "rejected", rejectionReason: reason },
        at,
      );
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `affiliate-rejected:${id}`,
        to: before.email,
        ...partnerRejectedEmail(this.deps, before.name, reason, languageOf(before.language)),
      });
      return this.dto(tx, id);
    });
    await this.deps.sessions.endAll("affiliate", id);
    void this.deps.mail.flush().catch(() => undefined);
    return dto;
  }
}
