import { randomUUID } from "node:crypto";
import { and, eq, inArray, lt, ne, or, sql } from "drizzle-orm";
import { CONFIRM_LINK_HOURS } from "../../../shared/inquiries";
import { FINANCIAL_RECORD_YEARS, type RetentionKind, type RetentionPeriods } from "../../../shared/retention";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import {
  applicants,
  applications,
  emailAttachments,
  emailOutbox,
  inquiries,
  invoices,
  newsletterSubscribers,
  storedFiles,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import type { FileStorage } from "../files";
import { eraseApplicant } from "./erasure";

/** One count per kind of what a retention run removes (or would remove). */
export type RetentionCounts = Record<RetentionKind, number>;

/** What the retention service needs. */
export interface RetentionDeps {
  db: Db;
  files: FileStorage;
  now: () => Date;
  periods: RetentionPeriods;
  /** Where a file left on disk is reported (ids only); the sweeper removes it later. */
  log: { warn: (obj: object, msg: string) => void };
}

/**
 * The retention periods the privacy page states, applied (docs/product/privacy.md#retention-periods;
 * GDPR art. 5(1)(e)). One daily job (`retention`) calls `run`; the back office's operations page
 * shows `preview`, the same queries counted without a change. Every boundary is strict: a thing is
 * removed the day after its period ends, never on its last day.
 *
 * - applicants: erased (as an owner's erasure does: personal fields, passport and insurance files
 *   with their chunks, trip details, billing details, notes) when every one of their applications'
 *   cohorts ended more than `applicationMonths` ago, paid or not; applications, payments of every
 *   status, invoices, credit notes and commissions stay, pseudonymised (financial records, 7 years).
 *   An applicant with no application counts from its creation;
 * - waiting-list entries: deleted once their cohort has started (The Hague's date);
 * - inquiries and messages: deleted `inquiryMonths` after they were marked answered, or after their
 *   arrival while unanswered;
 * - newsletter: a sign-up never confirmed is deleted once its confirmation link lapsed; an
 *   unsubscribed address is deleted (the row keeps its random token, so the link in old e-mails
 *   still answers "unsubscribed");
 * - outbox: the text and HTML (and attachments) of e-mails sent more than `outboxDays` ago are
 *   deleted; address, subject, dates and status stay as the record of what was sent;
 * - invoices and credit notes: kept as issued for 7 years after the end of their year (Dutch tax
 *   law); then the student's name and address printed on them are erased (amounts, numbers, dates
 *   and the organisation that paid stay for the accounts).
 */
export class RetentionService {
  constructor(private readonly deps: RetentionDeps) {}

  /** The periods in force (the settings; the privacy page states the same). */
  get periods(): RetentionPeriods {
    return this.deps.periods;
  }

  /** What a run now would remove, per kind (a dry run: nothing changes). */
  async preview(): Promise<RetentionCounts> {
    const { db } = this.deps;
    const due = await this.dueApplicants();
    const [files] = due.length
      ? await db
          .select({ n: sql<number>`count(*)::int` })
          .from(storedFiles)
          .where(inArray(storedFiles.applicantId, due))
      : [{ n: 0 }];
    const count = async (query: Promise<Array<{ n: number }>>) => (await query)[0]?.n ?? 0;
    const n = sql<number>`count(*)::int`;
    return {
      applicants: due.length,
      files: files?.n ?? 0,
      waitingList: await count(db.select({ n }).from(waitingListEntries).where(this.startedCohort())),
      inquiries: await count(db.select({ n }).from(inquiries).where(this.expiredInquiry())),
      newsletter: await count(db.select({ n }).from(newsletterSubscribers).where(this.expiredSubscriber())),
      outboxBodies: await count(db.select({ n }).from(emailOutbox).where(this.oldSentBody())),
      invoices: await count(db.select({ n }).from(invoices).where(this.oldInvoice())),
    };
  }

  /**
   * Applies every period once and records one audit entry `retention.run` (actor: the system) with
   * the counts. Each applicant is erased in a transaction of its own (with its own
   * "applicant.erase" entry, reason "retention"), so a failure leaves the others done; the job runs
   * again the next day. Idempotent: a second run the same day removes nothing more.
   */
  async run(): Promise<RetentionCounts> {
    const { db, files, now, log } = this.deps;
    const at = now();
    const counts: RetentionCounts = {
      applicants: 0,
      files: 0,
      waitingList: 0,
      inquiries: 0,
      newsletter: 0,
      outboxBodies: 0,
      invoices: 0,
    };
    const system = { actorRole: "system" as const, actorId: null };
    for (const id of await this.dueApplicants()) {
      const { removeFromDisk, summary } = await db.transaction((tx) =>
        eraseApplicant(tx, { id, files, now: at, actor: system, reason: "retention" }),
      );
      counts.applicants++;
      counts.files += summary.filesDeleted;
      await removeFromDisk().catch((err) =>
        log.warn({ err, applicantId: id }, "erased files not removed from disk: the sweeper will"),
      );
    }
    await db.transaction(async (tx) => {
      counts.waitingList = (
        await tx
          .delete(waitingListEntries)
          .where(this.startedCohort())
          .returning({ id: waitingListEntries.id })
      ).length;
      counts.inquiries = (
        await tx.delete(inquiries).where(this.expiredInquiry()).returning({ id: inquiries.id })
      ).length;
      const lapsed = await tx
        .delete(newsletterSubscribers)
        .where(and(this.expiredSubscriber(), eq(newsletterSubscribers.status, "pending")))
        .returning({ id: newsletterSubscribers.id });
      const left = await tx
        .update(newsletterSubscribers)
        .set({ email: sql`'unsubscribed-' || ${newsletterSubscribers.id} || '@invalid'`, updatedAt: at })
        .where(and(this.expiredSubscriber(), eq(newsletterSubscribers.status, "unsubscribed")))
        .returning({ id: newsletterSubscribers.id });
      counts.newsletter = lapsed.length + left.length;
      const emptied = await tx
        .update(emailOutbox)
        .set({ textBody: "", htmlBody: "" })
        .where(this.oldSentBody())
        .returning({ id: emailOutbox.id });
      if (emptied.length)
        await tx.delete(emailAttachments).where(
          inArray(
            emailAttachments.emailId,
            emptied.map((e) => e.id),
          ),
        );
      counts.outboxBodies = emptied.length;
      // The person on documents past the 7 years: amounts, numbers and dates stay for the accounts.
      counts.invoices = (
        await tx
          .update(invoices)
          .set({
            snapshot: sql`jsonb_set(${invoices.snapshot}, '{student}', '{"name": "Erased", "address": []}'::jsonb)`,
          })
          .where(this.oldInvoice())
          .returning({ id: invoices.id })
      ).length;
      await recordAudit(tx, {
        actor: system,
        action: "retention.run",
        entityType: "retention",
        entityId: randomUUID(),
        after: { ...counts, periods: this.deps.periods },
      });
    });
    return counts;
  }

  /**
   * The applicants whose retention period is over: not erased, and every application's cohort
   * ended more than `applicationMonths` months before today (The Hague's date); with no
   * application, created more than that many months ago.
   */
  private async dueApplicants(): Promise<string[]> {
    const { db, now, periods } = this.deps;
    const at = now();
    const today = schoolDate(at);
    const months = periods.applicationMonths;
    const rows = await db
      .select({ id: applicants.id })
      .from(applicants)
      .where(
        and(
          sql`${applicants.email} <> 'erased-' || ${applicants.id} || '@invalid'`,
          or(
            and(
              sql`exists (select 1 from ${applications} where ${applications.applicantId} = ${applicants.id})`,
              sql`not exists (select 1 from ${applications} join ${summerSchools} on ${summerSchools.id} = ${applications.summerSchoolId} where ${applications.applicantId} = ${applicants.id} and (${summerSchools.endDate} + make_interval(months => ${months}))::date >= ${today}::date)`,
            ),
            and(
              sql`not exists (select 1 from ${applications} where ${applications.applicantId} = ${applicants.id})`,
              sql`${applicants.createdAt} + make_interval(months => ${months}) < ${at.toISOString()}::timestamptz`,
            ),
          ),
        ),
      );
    return rows.map((r) => r.id);
  }

  /** Waiting-list entries whose cohort has started (its start date is today or earlier, The Hague). */
  private startedCohort() {
    const today = schoolDate(this.deps.now());
    return inArray(
      waitingListEntries.summerSchoolId,
      this.deps.db
        .select({ id: summerSchools.id })
        .from(summerSchools)
        .where(sql`${summerSchools.startDate} <= ${today}::date`),
    );
  }

  /** Inquiries answered (or, unanswered, received) more than `inquiryMonths` ago. */
  private expiredInquiry() {
    const at = this.deps.now().toISOString();
    return sql`coalesce(${inquiries.answeredAt}, ${inquiries.createdAt}) + make_interval(months => ${this.deps.periods.inquiryMonths}) < ${at}::timestamptz`;
  }

  /** Sign-ups whose confirmation link lapsed unconfirmed, and unsubscribed addresses not yet deleted. */
  private expiredSubscriber() {
    const at = this.deps.now().toISOString();
    return or(
      and(
        eq(newsletterSubscribers.status, "pending"),
        sql`coalesce(${newsletterSubscribers.confirmExpiresAt}, ${newsletterSubscribers.createdAt} + make_interval(hours => ${CONFIRM_LINK_HOURS})) < ${at}::timestamptz`,
      ),
      and(
        eq(newsletterSubscribers.status, "unsubscribed"),
        sql`${newsletterSubscribers.email} <> 'unsubscribed-' || ${newsletterSubscribers.id} || '@invalid'`,
      ),
    )!;
  }

  /**
   * Invoices and credit notes issued in a year that ended more than FINANCIAL_RECORD_YEARS years
   * ago (by The Hague's calendar) whose student is still named.
   */
  private oldInvoice() {
    const year = Number(schoolDate(this.deps.now()).slice(0, 4));
    return and(
      lt(invoices.year, year - FINANCIAL_RECORD_YEARS),
      sql`${invoices.snapshot}->'student'->>'name' <> 'Erased'`,
    )!;
  }

  /** Sent e-mails older than `outboxDays` whose text is still stored. */
  private oldSentBody() {
    const cutoff = new Date(this.deps.now().getTime() - this.deps.periods.outboxDays * 86_400_000);
    return and(
      eq(emailOutbox.status, "sent"),
      lt(emailOutbox.sentAt, cutoff),
      or(ne(emailOutbox.textBody, ""), ne(emailOutbox.htmlBody, "")),
    )!;
  }
}
