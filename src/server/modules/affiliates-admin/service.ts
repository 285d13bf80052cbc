import { and, asc, eq } from "drizzle-orm";
import type { Language } from "../../../shared/i18n/languages";
import {
  type AdjustmentDuplicates,
  type AdjustmentInput,
  adminAffiliateLedgerSchema,
  DUPLICATE_ADJUSTMENT_WINDOW_MINUTES,
  type ReverseAdjustmentInput,
} from "../../../shared/schemas/affiliates-admin";
import type { CommissionLedgerDto } from "../../../shared/schemas/commissions";
import type { Tx } from "../../db/client";
import { commissionEntries } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { csvEuros, toCsv } from "../../lib/csv";
import { adminNotFound, HttpError, isUniqueViolation } from "../../lib/errors";
import { ledgerOf } from "../commissions";
import { rateText } from "./core";
import { AffiliatesAdminStatus } from "./status";

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
 *
 * Split by use case: `core.ts` (DTO, lock, audited change), `listing.ts` (list, CSV, detail),
 * `status.ts` (approval, rejection, suspension, reactivation, rate); this file adds the commission
 * ledger, its CSV and the manual adjustments.
 */
export class AffiliatesAdminService extends AffiliatesAdminStatus {
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
}
