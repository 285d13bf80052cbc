import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, isNull, lte, sql } from "drizzle-orm";
import { isLanguage, type Language } from "../../../shared/i18n/languages";
import { maskEmail, maskIban, maskTail } from "../../../shared/payouts";
import type {
  AdminPayout,
  AffiliatePayoutList,
  PayoutDetails,
  PayoutDetailsView,
  PayoutPreview,
  PayoutRun,
  PayoutRunDetail,
  PayoutRunList,
} from "../../../shared/schemas/payouts";
import { runStatusOf } from "../../../shared/schemas/payouts";
import type { Db, Tx } from "../../db/client";
import {
  affiliates,
  applicants,
  applications,
  commissionEntries,
  payoutRuns,
  payouts,
  summerSchools,
} from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, HttpError, isUniqueViolation } from "../../lib/errors";
import { localize } from "../../lib/localize";
import { studentShortName } from "../commissions";
import type { FileKeyRing } from "../files";
import type { MailService } from "../mail";
import { payoutDetailsChangedEmail, payoutPaidEmail } from "./emails";
import { affiliateDetailsAad, openText, payoutDetailsAad, sealText } from "./sealed-text";
import { renderStatementPdf, type StatementEntry } from "./statement";

/** What may be shown of payout details: method-specific masking (never the clear values). */
export function maskDetails(d: PayoutDetails): string {
  if (d.method === "sepa") return maskIban(d.iban);
  if (d.method === "swift") return `${d.swiftCode} ${maskTail(d.accountNumber)}`;
  return maskEmail(d.email);
}

export interface PayoutServiceDeps {
  db: Db;
  keys: FileKeyRing;
  mail: MailService;
  now: () => Date;
  appOrigin: string;
  minimumPayout: number;
  /** The school's legal name and address, printed at the top of a statement (`SCHOOL_*`). */
  school: { name: string; address: string };
  /** A Unicode font for Chinese statements (`DOCUMENT_FONT`, decision 017); else Noto Sans CJK. */
  documentFont?: string;
}

/** The rows of a CSV / SEPA export: each payout of a run with its details opened. */
export interface OpenedPayout {
  payout: typeof payouts.$inferSelect;
  affiliateName: string;
  details: PayoutDetails;
}

/**
 * Payouts to affiliates (docs/product/codes-and-partners.md#payout-runs, decision 022): payout details sealed and bound to the
 * affiliate; payout runs gathering each affiliate's approved balance at or above the minimum
 * (`MINIMUM_PAYOUT_CENTS`), idempotent by key; exports; paid and cancelled payouts.
 *
 * Sealing: the affiliate's details are sealed with AAD `hss-payout-details\0<affiliateId>`; the
 * copy on a payout with AAD `hss-payout-copy\0<payoutId>` (bound to the payout's id, so a copy
 * moved to another payout row does not open either).
 */
export class PayoutService {
  constructor(private readonly deps: PayoutServiceDeps) {}

  private async affiliate(tx: Tx, id: string) {
    const [row] = await tx.select().from(affiliates).where(eq(affiliates.id, id));
    if (!row) throw adminNotFound();
    return row;
  }

  /** `GET /api/affiliate/payout-details`: method, masked details, last change; never clear values. */
  async detailsView(affiliateId: string): Promise<PayoutDetailsView> {
    const a = await this.affiliate(this.deps.db, affiliateId);
    return {
      method: a.payoutDetailsSealed ? a.payoutMethod : null,
      masked: a.payoutDetailsSealed ? a.payoutDetailsMasked : "",
      updatedAt: a.payoutDetailsUpdatedAt?.toISOString() ?? null,
    };
  }

  /** The affiliate's details in clear (exports only); throws when they do not open on this row. */
  openAffiliateDetails(affiliateId: string, sealed: string): PayoutDetails {
    return JSON.parse(openText(this.deps.keys, affiliateDetailsAad(affiliateId), sealed)) as PayoutDetails;
  }

  /**
   * `PUT /api/affiliate/payout-details`: seals the validated details bound to the affiliate,
   * stores the masked form, records an audit entry (actor the affiliate; only the method and the
   * masked form) and queues the "your payout details were changed" e-mail in the affiliate's
   * language (docs/product/codes-and-partners.md#payout-details).
   */
  async saveDetails(affiliateId: string, details: PayoutDetails): Promise<PayoutDetailsView> {
    const at = this.deps.now();
    const masked = maskDetails(details);
    await this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select().from(affiliates).where(eq(affiliates.id, affiliateId)).for("update");
      if (!before) throw adminNotFound();
      await tx
        .update(affiliates)
        .set({
          payoutMethod: details.method,
          payoutDetailsSealed: sealText(
            this.deps.keys,
            affiliateDetailsAad(affiliateId),
            JSON.stringify(details),
          ),
          payoutDetailsMasked: masked,
          payoutDetailsUpdatedAt: at,
          updatedAt: at,
        })
        .where(eq(affiliates.id, affiliateId));
      await recordAudit(tx, {
        actor: { actorRole: "affiliate", actorId: affiliateId },
        action: "affiliate.payoutDetails",
        entityType: "affiliate",
        entityId: affiliateId,
        before: before.payoutDetailsSealed
          ? { method: before.payoutMethod, masked: before.payoutDetailsMasked }
          : null,
        after: { method: details.method, masked },
      });
      const language: Language = isLanguage(before.language) ? before.language : "en";
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `payout-details:${affiliateId}:${at.getTime()}`,
        to: before.email,
        ...payoutDetailsChangedEmail({
          language,
          appOrigin: this.deps.appOrigin,
          name: before.name,
          method: details.method,
          masked,
        }),
      });
    });
    void this.deps.mail.flush().catch(() => undefined);
    return this.detailsView(affiliateId);
  }

  /** `GET /api/affiliate/payouts`: the affiliate's payouts, newest first (cancelled ones included). */
  async affiliatePayouts(affiliateId: string): Promise<AffiliatePayoutList> {
    const rows = await this.deps.db
      .select()
      .from(payouts)
      .where(eq(payouts.affiliateId, affiliateId))
      .orderBy(desc(payouts.createdAt), desc(payouts.id));
    return {
      items: rows.map((p) => ({
        id: p.id,
        createdAt: p.createdAt.toISOString(),
        amount: p.amountCents,
        method: p.method,
        masked: p.detailsMasked,
        status: p.status,
        reference: p.reference,
        paidAt: p.paidAt?.toISOString() ?? null,
      })),
    };
  }

  /** Approved balance (hold over, not in a payout) of every affiliate that has one, with its details. */
  private async approvedBalances(tx: Tx, at: Date) {
    return tx
      .select({
        affiliateId: commissionEntries.affiliateId,
        approved: sql<number>`sum(${commissionEntries.amountCents})::int`,
        name: affiliates.name,
        status: affiliates.status,
        method: affiliates.payoutMethod,
        sealed: affiliates.payoutDetailsSealed,
        masked: affiliates.payoutDetailsMasked,
      })
      .from(commissionEntries)
      .innerJoin(affiliates, eq(affiliates.id, commissionEntries.affiliateId))
      .where(and(isNull(commissionEntries.payoutId), lte(commissionEntries.availableAt, at)))
      .groupBy(
        commissionEntries.affiliateId,
        affiliates.name,
        affiliates.status,
        affiliates.payoutMethod,
        affiliates.payoutDetailsSealed,
        affiliates.payoutDetailsMasked,
      )
      .orderBy(asc(affiliates.name));
  }

  /**
   * Why an affiliate is left out of a run, or null: not approved (a suspended affiliate's balance
   * waits), below the minimum (a negative or small balance after clawbacks waits), no details.
   */
  private reasonOf(b: { approved: number; status: string; sealed: string | null }) {
    if (b.status !== "approved") return "notApproved" as const;
    if (Number(b.approved) < this.deps.minimumPayout) return "belowMinimum" as const;
    if (!b.sealed) return "noDetails" as const;
    return null;
  }

  /** `GET /api/admin/payouts/preview`: who the next run pays, and who it leaves out and why. */
  async preview(): Promise<PayoutPreview> {
    const rows = (await this.approvedBalances(this.deps.db, this.deps.now())).map((b) => ({
      affiliateId: b.affiliateId,
      name: b.name,
      approved: Number(b.approved),
      method: b.sealed ? b.method : null,
      masked: b.sealed ? b.masked : "",
      reason: this.reasonOf(b),
    }));
    const eligible = rows.filter((r) => r.reason === null);
    return {
      minimum: this.deps.minimumPayout,
      total: eligible.reduce((s, r) => s + r.approved, 0),
      eligible,
      excluded: rows.filter((r) => r.reason !== null),
    };
  }

  /**
   * `POST /api/admin/payout-runs { idempotencyKey }`: in one transaction under an advisory lock
   * (one run at a time, in every process), returns the run of that key if it exists; otherwise
   * creates the run and one payout per eligible affiliate (approved, balance ≥ minimum, details
   * present) taking every approved entry of the affiliate (`payout_id` set), so clawbacks net
   * out. The details are copied, re-sealed bound to the payout. Audit "payoutRun.create".
   */
  async createRun(admin: AdminUser, idempotencyKey: string): Promise<{ run: PayoutRun; created: boolean }> {
    const at = this.deps.now();
    try {
      return await this.deps.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('hss-payout-runs'))`);
        const [existing] = await tx
          .select()
          .from(payoutRuns)
          .where(eq(payoutRuns.idempotencyKey, idempotencyKey));
        if (existing) return { run: await this.runDto(tx, existing.id), created: false };
        const runId = randomUUID();
        await tx.insert(payoutRuns).values({
          id: runId,
          idempotencyKey,
          createdByAdminId: admin.id,
          minimumCents: this.deps.minimumPayout,
          createdAt: at,
        });
        let total = 0;
        let count = 0;
        for (const b of await this.approvedBalances(tx, at)) {
          if (this.reasonOf(b) !== null || !b.sealed || !b.method) continue;
          const payoutId = randomUUID();
          const clear = openText(this.deps.keys, affiliateDetailsAad(b.affiliateId), b.sealed);
          await tx.insert(payouts).values({
            id: payoutId,
            runId,
            affiliateId: b.affiliateId,
            amountCents: Number(b.approved),
            method: b.method,
            detailsSealed: sealText(this.deps.keys, payoutDetailsAad(payoutId), clear),
            detailsMasked: b.masked,
            createdAt: at,
            updatedAt: at,
          });
          const taken = await tx
            .update(commissionEntries)
            .set({ payoutId })
            .where(
              and(
                eq(commissionEntries.affiliateId, b.affiliateId),
                isNull(commissionEntries.payoutId),
                lte(commissionEntries.availableAt, at),
              ),
            )
            .returning({ amount: commissionEntries.amountCents });
          const sum = taken.reduce((s, e) => s + e.amount, 0);
          if (sum !== Number(b.approved))
            throw new Error("payout run: approved balance changed under the lock");
          total += sum;
          count += 1;
        }
        await tx
          .update(payoutRuns)
          .set({ totalCents: total, payoutCount: count })
          .where(eq(payoutRuns.id, runId));
        await recordAudit(tx, {
          actor: admin,
          action: "payoutRun.create",
          entityType: "payoutRun",
          entityId: runId,
          after: { total, payoutCount: count, minimum: this.deps.minimumPayout },
        });
        return { run: await this.runDto(tx, runId), created: true };
      });
    } catch (error) {
      // Two processes with the same key: the second one's insert loses; answer with the first's run.
      if (!isUniqueViolation(error)) throw error;
      const [existing] = await this.deps.db
        .select()
        .from(payoutRuns)
        .where(eq(payoutRuns.idempotencyKey, idempotencyKey));
      if (!existing) throw error;
      return { run: await this.runDto(this.deps.db, existing.id), created: false };
    }
  }

  private async runDto(tx: Tx, runId: string): Promise<PayoutRun> {
    const [run] = await tx.select().from(payoutRuns).where(eq(payoutRuns.id, runId));
    if (!run) throw adminNotFound();
    const [paid] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(payouts)
      .where(and(eq(payouts.runId, runId), eq(payouts.status, "paid")));
    return {
      id: run.id,
      createdAt: run.createdAt.toISOString(),
      minimum: run.minimumCents,
      total: run.totalCents,
      payoutCount: run.payoutCount,
      paidCount: Number(paid?.n ?? 0),
      status: runStatusOf(run.payoutCount, Number(paid?.n ?? 0)),
    };
  }

  /**
   * `GET /api/admin/payout-runs`: every run, newest first, with how many of its payouts are paid
   * and its status (`runStatusOf`). The run's id in the correlated count is written table-qualified:
   * Drizzle writes a bare `"id"` in a query without joins, which inside the subquery named the
   * payout's own id, so no payout ever matched and a paid run read "0 / 1" (docs/product/codes-and-partners.md#partner-figures).
   */
  async runs(): Promise<PayoutRunList> {
    const runIdSql = sql.raw('"payout_runs"."id"');
    const rows = await this.deps.db
      .select({
        run: payoutRuns,
        paidCount: sql<number>`(select count(*)::int from payouts p where p.run_id = ${runIdSql} and p.status = 'paid')`,
      })
      .from(payoutRuns)
      .orderBy(desc(payoutRuns.createdAt), desc(payoutRuns.id));
    return {
      items: rows.map(({ run, paidCount }) => ({
        id: run.id,
        createdAt: run.createdAt.toISOString(),
        minimum: run.minimumCents,
        total: run.totalCents,
        payoutCount: run.payoutCount,
        paidCount: Number(paidCount),
        status: runStatusOf(run.payoutCount, Number(paidCount)),
      })),
    };
  }

  /** `GET /api/admin/payout-runs/:id`: the run and its payouts per affiliate; 404 when unknown. */
  async runDetail(runId: string): Promise<PayoutRunDetail> {
    const run = await this.runDto(this.deps.db, runId);
    const rows = await this.deps.db
      .select({
        payout: payouts,
        name: affiliates.name,
        entryCount: sql<number>`(select count(*)::int from commission_entries e where e.payout_id = ${payouts.id})`,
      })
      .from(payouts)
      .innerJoin(affiliates, eq(affiliates.id, payouts.affiliateId))
      .where(eq(payouts.runId, runId))
      .orderBy(asc(affiliates.name));
    const list: AdminPayout[] = rows.map(({ payout: p, name, entryCount }) => ({
      id: p.id,
      affiliateId: p.affiliateId,
      affiliateName: name,
      amount: p.amountCents,
      method: p.method,
      masked: p.detailsMasked,
      status: p.status,
      reference: p.reference,
      paidAt: p.paidAt?.toISOString() ?? null,
      entryCount: Number(entryCount),
    }));
    return { run, payouts: list };
  }

  /** The payouts of a run with their details opened (exports; the caller audits). 404 when unknown. */
  async opened(runId: string): Promise<OpenedPayout[]> {
    await this.runDto(this.deps.db, runId);
    const rows = await this.deps.db
      .select({ payout: payouts, name: affiliates.name })
      .from(payouts)
      .innerJoin(affiliates, eq(affiliates.id, payouts.affiliateId))
      .where(eq(payouts.runId, runId))
      .orderBy(asc(affiliates.name));
    return rows.map(({ payout, name }) => ({
      payout,
      affiliateName: name,
      details: JSON.parse(
        openText(this.deps.keys, payoutDetailsAad(payout.id), payout.detailsSealed),
      ) as PayoutDetails,
    }));
  }

  private async lockPayout(tx: Tx, payoutId: string) {
    const [p] = await tx.select().from(payouts).where(eq(payouts.id, payoutId)).for("update");
    if (!p) throw adminNotFound();
    return p;
  }

  /**
   * `POST /api/admin/payouts/:id/paid { reference }`: a pending payout becomes paid (its entries
   * read `paid`), and the "payout sent" e-mail is queued once in the affiliate's language, with the
   * statement PDF of the entries it covers attached (docs/product/codes-and-partners.md#payout-runs: "the affiliate is e-mailed a
   * statement (PDF)"; rendered in the same transaction, so it shows the reference and date just
   * recorded) and a link to the payouts page, where the same file can be downloaded again. The same reference again → the payout as it is; a cancelled or
   * otherwise paid payout → 409 errors.payouts.notPending. Audit "payout.paid".
   */
  async markPaid(admin: AdminUser, payoutId: string, reference: string): Promise<AdminPayout> {
    const at = this.deps.now();
    const runId = await this.deps.db.transaction(async (tx) => {
      const p = await this.lockPayout(tx, payoutId);
      if (p.status === "paid" && p.reference === reference) return p.runId;
      if (p.status !== "pending") throw new HttpError(409, "errors.payouts.notPending");
      await tx
        .update(payouts)
        .set({
          status: "paid",
          reference,
          paidAt: at,
          paidByAdminId: admin.id,
          statementSentAt: at,
          updatedAt: at,
        })
        .where(eq(payouts.id, payoutId));
      await recordAudit(tx, {
        actor: admin,
        action: "payout.paid",
        entityType: "payout",
        entityId: payoutId,
        before: { status: p.status },
        after: { status: "paid", reference, amount: p.amountCents },
      });
      const a = await this.affiliate(tx, p.affiliateId);
      const language: Language = isLanguage(a.language) ? a.language : "en";
      const statement = await this.statementPdf(p.affiliateId, p.id, tx);
      await this.deps.mail.enqueue(tx, {
        dedupeKey: `payout-paid:${p.id}`,
        to: a.email,
        ...payoutPaidEmail({
          language,
          appOrigin: this.deps.appOrigin,
          name: a.name,
          amountCents: p.amountCents,
          reference,
        }),
        attachments: [
          { filename: statement.filename, contentType: "application/pdf", content: statement.pdf },
        ],
      });
      return p.runId;
    });
    void this.deps.mail.flush().catch(() => undefined);
    return this.payoutDto(runId, payoutId);
  }

  /**
   * `POST /api/admin/payouts/:id/cancel`: a pending payout becomes cancelled and its entries are
   * released (`payout_id` cleared: approved again, taken by the next run). Not pending → 409.
   * Audit "payout.cancel".
   */
  async cancel(admin: AdminUser, payoutId: string): Promise<AdminPayout> {
    const at = this.deps.now();
    const runId = await this.deps.db.transaction(async (tx) => {
      const p = await this.lockPayout(tx, payoutId);
      if (p.status === "cancelled") return p.runId;
      if (p.status !== "pending") throw new HttpError(409, "errors.payouts.notPending");
      const released = await tx
        .update(commissionEntries)
        .set({ payoutId: null })
        .where(eq(commissionEntries.payoutId, payoutId))
        .returning({ id: commissionEntries.id });
      await tx.update(payouts).set({ status: "cancelled", updatedAt: at }).where(eq(payouts.id, payoutId));
      await tx
        .update(payoutRuns)
        .set({
          totalCents: sql`${payoutRuns.totalCents} - ${p.amountCents}`,
          payoutCount: sql`${payoutRuns.payoutCount} - 1`,
        })
        .where(eq(payoutRuns.id, p.runId));
      await recordAudit(tx, {
        actor: admin,
        action: "payout.cancel",
        entityType: "payout",
        entityId: payoutId,
        before: { status: p.status, amount: p.amountCents },
        after: { status: "cancelled", releasedEntries: released.length },
      });
      return p.runId;
    });
    return this.payoutDto(runId, payoutId);
  }

  private async payoutDto(runId: string, payoutId: string): Promise<AdminPayout> {
    const detail = await this.runDetail(runId);
    const found = detail.payouts.find((p) => p.id === payoutId);
    if (!found) throw adminNotFound();
    return found;
  }

  /**
   * The statement of one of the affiliate's own payouts: the payout, the affiliate and the entries
   * it covers. Another affiliate's payout, or an unknown id → 404 (docs/product/security.md#s6-nobody-reads-what-is-not-theirs). Read through
   * `tx` when given (the "payout sent" e-mail builds it in the transaction that marks it paid).
   */
  async statementOf(affiliateId: string, payoutId: string, language?: Language, tx: Tx = this.deps.db) {
    const [p] = await tx
      .select()
      .from(payouts)
      .where(and(eq(payouts.id, payoutId), eq(payouts.affiliateId, affiliateId)));
    if (!p) throw new HttpError(404, "errors.notFound");
    const a = await this.affiliate(tx, affiliateId);
    const lang: Language = language ?? (isLanguage(a.language) ? a.language : "en");
    const rows = await tx
      .select({
        entry: commissionEntries,
        firstName: applicants.firstName,
        lastName: applicants.lastName,
        cohortName: summerSchools.name,
      })
      .from(commissionEntries)
      .leftJoin(applications, eq(applications.id, commissionEntries.applicationId))
      .leftJoin(applicants, eq(applicants.id, applications.applicantId))
      .leftJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
      .where(eq(commissionEntries.payoutId, p.id))
      .orderBy(asc(commissionEntries.createdAt), asc(commissionEntries.id));
    const entries: StatementEntry[] = rows.map(({ entry, firstName, lastName, cohortName }) => ({
      createdAt: entry.createdAt,
      kind: entry.kind,
      studentName: firstName !== null && lastName !== null ? studentShortName(firstName, lastName) : null,
      cohortName: cohortName ? localize(cohortName, lang) : null,
      reason: entry.reason,
      amount: entry.amountCents,
    }));
    return { payout: p, affiliateName: a.name, language: lang, entries };
  }

  /**
   * The statement PDF of one of the affiliate's own payouts, in the affiliate's language, with its
   * file name `payout-statement-<first 8 of the id>.pdf`: the download of the payouts page and the
   * attachment of the "payout sent" e-mail are the same file. 404 as `statementOf`.
   */
  async statementPdf(
    affiliateId: string,
    payoutId: string,
    tx: Tx = this.deps.db,
  ): Promise<{ filename: string; pdf: Buffer }> {
    const s = await this.statementOf(affiliateId, payoutId, undefined, tx);
    const pdf = await renderStatementPdf(
      {
        language: s.language,
        school: this.deps.school,
        affiliateName: s.affiliateName,
        payout: {
          id: s.payout.id,
          amountCents: s.payout.amountCents,
          createdAt: s.payout.createdAt,
          paidAt: s.payout.paidAt,
          reference: s.payout.reference,
          masked: s.payout.detailsMasked,
        },
        entries: s.entries,
      },
      this.deps.documentFont,
    );
    return { filename: `payout-statement-${s.payout.id.slice(0, 8)}.pdf`, pdf };
  }
}
