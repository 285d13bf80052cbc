import { and, desc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { AdminAffiliateDto } from "../../../shared/affiliates-admin";
import type { CommissionRate } from "../../../shared/commissions";
import type { Tx } from "../../db/client";
import { affiliates, auditLog, codes } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { HttpError } from "../../lib/errors";
import { referralCodeBase } from "../auth";
import { type AffiliateRow, languageOf } from "./core";
import { partnerApprovedEmail, partnerRejectedEmail } from "./emails";
import { AffiliatesAdminListing } from "./listing";

/**
 * An affiliate's status and rate: approval (referral code and e-mail), rejection, suspension (its
 * codes switched off, its sessions ended), reactivation (those codes back on) and commission rate.
 */
export class AffiliatesAdminStatus extends AffiliatesAdminListing {
  /**
   * Switches the codes matching `where` that are not `active` yet on or off, each with its version
   * bumped and an audit entry "code.activate" / "code.deactivate" that names the affiliate action
   * behind it (`reason`). Returns their ids.
   */
  protected async switchCodes(
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
  protected async ensureReferralCode(tx: Tx, affiliate: AffiliateRow, at: Date): Promise<void> {
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
  protected async restoreCodes(tx: Tx, admin: AdminUser, affiliateId: string, at: Date): Promise<string[]> {
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
