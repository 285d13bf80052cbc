import { randomUUID } from "node:crypto";
import { and, asc, desc, eq, gt, inArray, isNull, or, sql } from "drizzle-orm";
import type { MailingDetailDto, MailingPreviewDto, MailingSummaryDto } from "../../../shared/api/mailings";
import { LANGUAGES, type Language } from "../../../shared/i18n/languages";
import type { MailingDraft } from "../../../shared/schemas/mailings";
import type { Db, Tx } from "../../db/client";
import { admins, emailOutbox, mailingRecipients, mailings, summerSchools } from "../../db/schema";
import type { AdminUser } from "../../lib/admin-user";
import { recordAudit } from "../../lib/audit";
import { adminNotFound, HttpError } from "../../lib/errors";
import { t } from "../../lib/i18n";
import { localize } from "../../lib/localize";
import type { MailService } from "../mail";
import { recipientsOf } from "./audience";
import { type MailingFrame, mailingKind, renderMailing } from "./render";

/** What the mailings service needs. */
export interface MailingDeps {
  db: Db;
  mail: MailService;
  now: () => Date;
  /** The public origin, for unsubscribe links. */
  origin: string;
  /** MAIL_RATE_PER_MINUTE: how many of a mailing's e-mails the outbox sends per minute, at most. */
  ratePerMinute: number;
  /** Recipients queued per transaction (100; tests use fewer). */
  batchSize?: number;
}

type MailingRow = typeof mailings.$inferSelect;

/**
 * Messages to people by filter (docs/product/back-office.md#messages). Sending fixes the recipients
 * (`mailing_recipients`, one row per address) in one transaction with the mailing and its audit
 * entry; the `mailings-queue` job (and the send itself, at once) then gives each recipient an
 * outbox e-mail in their language, in batches of one transaction each: a crash leaves a recipient
 * queued once or not yet, and the next run goes on where it stopped (the outbox's dedupe key
 * `mailing:<mailing>:<recipient>` makes a batch run twice queue nothing twice). The e-mails are
 * spaced `60 / MAIL_RATE_PER_MINUTE` seconds apart (`email_outbox.not_before`), after any mailing
 * still being sent, so the school's mail server and its reputation are spared and the payment and
 * account e-mails, never throttled, pass in between.
 */
export class MailingService {
  constructor(private readonly deps: MailingDeps) {}

  /**
   * The recipients a draft's filter picks now (in all and per language) and the message in each
   * language as its readers get it (before the school's footer). Nothing is stored or sent.
   */
  async preview(draft: MailingDraft): Promise<MailingPreviewDto> {
    const people = await recipientsOf(this.deps.db, draft.audience);
    const frame = await this.frameOf(this.deps.db, draft.audience);
    const count = (language: Language) => people.filter((p) => p.language === language).length;
    return {
      recipients: { total: people.length, en: count("en"), zh: count("zh"), fr: count("fr") },
      previews: LANGUAGES.map((language) => {
        const email = renderMailing(draft.content, language, frame, { unsubscribeToken: "preview" });
        return {
          language,
          subject: email.subject,
          text: email.text,
          html: email.html,
          fallback: email.fallback,
        };
      }),
    };
  }

  /**
   * Sends the draft to the writer's own address, once per language, through the outbox, with a
   * first line saying it is a test and to how many people the message would go. Returns the address
   * and the languages.
   */
  async sendTest(draft: MailingDraft, admin: AdminUser): Promise<{ to: string; languages: Language[] }> {
    const { db, mail } = this.deps;
    const people = await recipientsOf(db, draft.audience);
    const frame = await this.frameOf(db, draft.audience);
    const test = randomUUID();
    await db.transaction(async (tx) => {
      for (const language of LANGUAGES) {
        const email = renderMailing(draft.content, language, frame, {
          unsubscribeToken: "test",
          note: t(language, "emails.mailing.test", { count: people.length }),
        });
        await mail.enqueue(tx, {
          dedupeKey: `mailing-test:${test}:${language}`,
          to: admin.email,
          subject: `[Test] ${email.subject}`,
          text: email.text,
          html: email.html,
        });
      }
    });
    void mail.flush().catch(() => undefined);
    return { to: admin.email, languages: [...LANGUAGES] };
  }

  /**
   * Sends a message: in one transaction, the mailing (with the browser's id), its recipients as the
   * filter picks them now, and the audit entry `mailing.send` (filter, kind, count; never
   * addresses). Then queues the first batches at once. An id already sent answers that mailing
   * (`replayed`: nothing new is sent). 422 errors.mailingNobody when the filter picks no one.
   */
  async send(
    input: MailingDraft & { id: string },
    admin: AdminUser,
    language: Language,
  ): Promise<{ mailing: MailingDetailDto; replayed: boolean }> {
    const { db, now } = this.deps;
    const replayed = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`mailing:${input.id}`}))`);
      const [existing] = await tx.select({ id: mailings.id }).from(mailings).where(eq(mailings.id, input.id));
      if (existing) return true;
      const people = await recipientsOf(tx, input.audience);
      if (people.length === 0) throw new HttpError(422, "errors.mailingNobody");
      const kind = mailingKind(input.audience);
      await tx.insert(mailings).values({
        id: input.id,
        kind,
        audience: input.audience,
        subject: input.content.subject,
        body: input.content.body,
        createdBy: admin.id,
        recipientCount: people.length,
        createdAt: now(),
      });
      for (let from = 0; from < people.length; from += 500)
        await tx
          .insert(mailingRecipients)
          .values(
            people.slice(from, from + 500).map((p, i) => ({ ...p, mailingId: input.id, position: from + i })),
          );
      await recordAudit(tx, {
        actor: admin,
        action: "mailing.send",
        entityType: "mailing",
        entityId: input.id,
        after: {
          kind,
          audience: input.audience,
          recipients: people.length,
          languages: Object.fromEntries(
            LANGUAGES.map((l) => [l, people.filter((p) => p.language === l).length]),
          ),
        },
      });
      return false;
    });
    if (!replayed) await this.queueDue();
    return { mailing: await this.detail(input.id, language), replayed };
  }

  /**
   * Gives every recipient not yet queued an outbox e-mail, mailing by mailing (oldest first), in
   * batches of one transaction each (`FOR UPDATE SKIP LOCKED`: two processes never take the same
   * recipients). Each e-mail's `not_before` follows the last throttled e-mail still queued, spaced
   * `60 000 / MAIL_RATE_PER_MINUTE` ms. A mailing whose recipients are all queued gets `queued_at`.
   * Returns how many e-mails this run queued. The `mailings-queue` job's run.
   */
  async queueDue(): Promise<{ queued: number }> {
    const { db } = this.deps;
    let queued = 0;
    const open = await db
      .select()
      .from(mailings)
      .where(isNull(mailings.queuedAt))
      .orderBy(asc(mailings.createdAt), asc(mailings.id));
    for (const mailing of open) {
      const frame = await this.frameOf(db, mailing.audience);
      for (;;) {
        const done = await db.transaction((tx) => this.queueBatch(tx, mailing, frame));
        queued += done;
        if (done === 0) break;
      }
    }
    return { queued };
  }

  /** One batch of `queueDue` in `tx`: returns how many recipients it queued (0: the mailing is all queued). */
  private async queueBatch(tx: Tx, mailing: MailingRow, frame: MailingFrame): Promise<number> {
    const { mail, now, ratePerMinute } = this.deps;
    const batch = await tx
      .select()
      .from(mailingRecipients)
      .where(and(eq(mailingRecipients.mailingId, mailing.id), isNull(mailingRecipients.outboxId)))
      .orderBy(asc(mailingRecipients.position))
      .limit(this.deps.batchSize ?? 100)
      .for("update", { skipLocked: true });
    if (batch.length === 0) {
      const [left] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(mailingRecipients)
        .where(and(eq(mailingRecipients.mailingId, mailing.id), isNull(mailingRecipients.outboxId)));
      if ((left?.n ?? 0) === 0)
        await tx.update(mailings).set({ queuedAt: now() }).where(eq(mailings.id, mailing.id));
      return 0;
    }
    const spacing = 60_000 / ratePerMinute;
    const [last] = await tx
      .select({ at: sql<string | null>`max(${emailOutbox.notBefore})` })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, "queued"), gt(emailOutbox.notBefore, now())));
    const start = Math.max(now().getTime(), last?.at ? new Date(last.at).getTime() + spacing : 0);
    const content = { subject: mailing.subject, body: mailing.body };
    // One insert for the batch (mail.enqueueMany), not one round trip per recipient.
    await mail.enqueueMany(
      tx,
      batch.map((recipient, i) => {
        const email = renderMailing(content, recipient.language, frame, {
          unsubscribeToken: recipient.unsubscribeToken,
        });
        return {
          dedupeKey: `mailing:${mailing.id}:${recipient.id}`,
          to: recipient.email,
          subject: email.subject,
          text: email.text,
          html: email.html,
          headers: email.headers,
          studentId: recipient.studentId,
          applicationId: recipient.applicationId,
          notBefore: new Date(start + i * spacing),
        };
      }),
    );
    // Each recipient of the batch to its outbox row, found by the dedupe key: one statement.
    await tx.execute(sql`update ${mailingRecipients} set outbox_id = o.id from ${emailOutbox} o
      where o.dedupe_key = 'mailing:' || ${mailingRecipients.mailingId} || ':' || ${mailingRecipients.id}
        and ${inArray(
          mailingRecipients.id,
          batch.map((r) => r.id),
        )}`);
    return batch.length;
  }

  /** Every cohort, newest first, named in `language`: those a message may be written to. */
  async cohorts(language: Language) {
    const rows = await this.deps.db
      .select({
        id: summerSchools.id,
        name: summerSchools.name,
        startDate: summerSchools.startDate,
        archivedAt: summerSchools.archivedAt,
      })
      .from(summerSchools)
      .orderBy(desc(summerSchools.startDate), asc(summerSchools.id));
    return rows.map((row) => ({
      id: row.id,
      name: localize(row.name, language),
      startDate: row.startDate,
      archived: row.archivedAt !== null,
    }));
  }

  /** The sent messages, newest first, with their counts (`language`: of the cohort names). */
  async list(language: Language): Promise<MailingSummaryDto[]> {
    const rows = await this.deps.db
      .select()
      .from(mailings)
      .orderBy(desc(mailings.createdAt), desc(mailings.id));
    return Promise.all(rows.map((row) => this.summaryOf(row, language)));
  }

  /** One sent message with its texts and counts; 404 when unknown. */
  async detail(id: string, language: Language): Promise<MailingDetailDto> {
    const [row] = await this.deps.db.select().from(mailings).where(eq(mailings.id, id));
    if (!row) throw adminNotFound();
    return { ...(await this.summaryOf(row, language)), content: { subject: row.subject, body: row.body } };
  }

  private async summaryOf(row: MailingRow, language: Language): Promise<MailingSummaryDto> {
    const { db } = this.deps;
    const [counts] = await db
      .select({
        waiting: sql<number>`count(*) filter (where ${mailingRecipients.outboxId} is null or ${emailOutbox.status} = 'queued')::int`,
        sent: sql<number>`count(*) filter (where ${emailOutbox.status} = 'sent')::int`,
        failed: sql<number>`count(*) filter (where ${emailOutbox.status} = 'failed')::int`,
      })
      .from(mailingRecipients)
      .leftJoin(emailOutbox, eq(emailOutbox.id, mailingRecipients.outboxId))
      .where(eq(mailingRecipients.mailingId, row.id));
    const [author] = await db
      .select({ email: admins.email })
      .from(admins)
      .where(eq(admins.id, row.createdBy));
    const frame = await this.frameOf(db, row.audience);
    return {
      id: row.id,
      kind: row.kind,
      audience: row.audience,
      cohortName: frame.cohortName ? localize(frame.cohortName, language) : null,
      subject: row.subject.en,
      createdAt: row.createdAt.toISOString(),
      createdBy: author?.email ?? "",
      recipients: row.recipientCount,
      counts: { waiting: counts?.waiting ?? 0, sent: counts?.sent ?? 0, failed: counts?.failed ?? 0 },
      queuedAt: row.queuedAt?.toISOString() ?? null,
    };
  }

  /** The frame of a filter's e-mails: its cohort's name (404 for an unknown cohort) and the origin. */
  private async frameOf(tx: Db | Tx, audience: MailingDraft["audience"]): Promise<MailingFrame> {
    const cohortId = audience.kind === "newsletter" ? undefined : audience.cohortId;
    let cohortName: MailingFrame["cohortName"] = null;
    if (cohortId) {
      const [cohort] = await tx
        .select({ name: summerSchools.name })
        .from(summerSchools)
        .where(eq(summerSchools.id, cohortId));
      if (!cohort) throw new HttpError(422, "errors.mailingUnknownCohort");
      cohortName = cohort.name;
    }
    return { audience, cohortName, origin: this.deps.origin };
  }
}

/**
 * Forgets an erased person in the mailings not yet queued to them (docs/product/privacy.md#erasure):
 * their recipient rows without an outbox e-mail, by address or by one of `applicationIds`, are
 * deleted in the caller's transaction, so the queuing job never writes to them. Rows already queued
 * keep their e-mail's fate (erasure deletes the unsent ones from the outbox). Returns how many.
 */
export async function forgetUnqueuedRecipient(
  tx: Tx,
  email: string,
  applicationIds: string[],
): Promise<number> {
  const deleted = await tx
    .delete(mailingRecipients)
    .where(
      and(
        isNull(mailingRecipients.outboxId),
        applicationIds.length
          ? or(
              eq(mailingRecipients.email, email.toLowerCase()),
              inArray(mailingRecipients.applicationId, applicationIds),
            )
          : eq(mailingRecipients.email, email.toLowerCase()),
      ),
    )
    .returning({ id: mailingRecipients.id });
  return deleted.length;
}
