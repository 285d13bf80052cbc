import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import { byteaAsBase64, byteaValue } from "../../db/bytea";
import type { Db, Tx } from "../../db/client";
import { emailAttachments, emailOutbox } from "../../db/schema";

/** A file sent with an e-mail, e.g. a payout statement PDF (docs/product/codes-and-partners.md#payout-runs). */
export interface EmailAttachment {
  /** The name the reader sees, e.g. `payout-statement-1a2b3c4d.pdf`. */
  filename: string;
  /** Its MIME type, e.g. `application/pdf`. */
  contentType: string;
  content: Buffer;
}

export interface OutgoingEmail {
  /** Makes the e-mail queued once, whatever retries happen (e.g. `confirmation:<applicationId>`). */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. `List-Unsubscribe` and `List-Unsubscribe-Post` (RFC 8058) of the newsletter's e-mails. */
  headers?: Record<string, string>;
  /** Files attached to the message, in this order (stored with it in `email_attachments`). */
  attachments?: EmailAttachment[];
  /**
   * The student account the e-mail is written to, as `recipientFor` answers it (docs/product/privacy.md#data-export):
   * the data export lists e-mails by account and application, not by address.
   */
  studentId?: string | null;
  /** The application the e-mail is about, if any (same purpose). */
  applicationId?: string | null;
  /** Not sent before this instant (the throttle of messages to many people); sent at once without. */
  notBefore?: Date | null;
}

/** Sending attempts of one e-mail before it is marked `failed` and left alone. */
const MAX_ATTEMPTS = 5;

/** E-mails claimed, and then sent one after another, by one sending run. */
const BATCH_SIZE = 50;

/**
 * How long a claimed e-mail belongs to the process that claimed it (`email_outbox.locked_until`).
 * A run releases its claims as it sends, so the lease only matters when a process dies (or hangs)
 * mid-send: its e-mails are then claimed again, and sent, once the lease has run out. That e-mail
 * may therefore go out twice (at-least-once, the standard outbox guarantee); it is never lost.
 * Five minutes is far longer than a batch of 50 sends takes, even over a slow SMTP server.
 */
const LEASE_SECONDS = 5 * 60;

/**
 * The mail transport: SMTP through nodemailer when SMTP_URL is set, otherwise the local outbox,
 * which writes each message as an .eml file to `<dataDir>/outbox` for a developer to read.
 */
export function createTransport(
  smtpUrl: string | undefined,
  dataDir: string,
): { transport: Transporter; outboxDir: string | null } {
  if (smtpUrl) return { transport: nodemailer.createTransport(smtpUrl), outboxDir: null };
  const outboxDir = path.join(dataDir, "outbox");
  mkdirSync(outboxDir, { recursive: true });
  return {
    transport: nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" }),
    outboxDir,
  };
}

/**
 * Inserts the outbox rows of `emails` (as queued: footer already added; attachments are rows of
 * their own) in one statement; an e-mail whose dedupeKey is already there is left out. Returns the
 * ids of the rows this call inserted, in order.
 */
function insertOutboxRows(tx: Tx, emails: readonly OutgoingEmail[]) {
  return tx
    .insert(emailOutbox)
    .values(
      emails.map((email) => ({
        dedupeKey: email.dedupeKey,
        toAddress: email.to,
        subject: email.subject,
        textBody: email.text,
        htmlBody: email.html,
        headers: email.headers ?? null,
        studentId: email.studentId ?? null,
        applicationId: email.applicationId ?? null,
        notBefore: email.notBefore ?? null,
      })),
    )
    .onConflictDoNothing({ target: emailOutbox.dedupeKey })
    .returning({ id: emailOutbox.id });
}

/**
 * E-mail with a transactional outbox: business code queues e-mails inside its own database
 * transaction (so an e-mail exists exactly when the change it reports does, docs/product/security.md#p6-an-event-delivered-twice-counts-once), and
 * `flush()` sends what is queued, retrying failures up to 5 times.
 *
 * Several server processes share the database (decision 011 "several server processes"), and any
 * of them may flush at any time (after a payment, on its 30-second timer). So a run first claims
 * the e-mails it will send, in one statement, by setting `email_outbox.locked_until` to a lease
 * (`now() + LEASE_SECONDS`, by the database's clock) on rows that are `queued`, below the maximum
 * attempts and not claimed by anyone (`locked_until` null or past), selected `FOR UPDATE SKIP
 * LOCKED`: two processes claiming at the same moment get disjoint rows, and neither waits for the
 * other. Each e-mail's outcome releases its claim (`locked_until` back to null). A row stays
 * claimed only if its process died mid-send; it is retried when the lease runs out.
 *
 * Row states: `queued` with `locked_until` null (waiting) or in the future (being sent) or past
 * (abandoned, claimable again); `sent` (with `sent_at`); `failed` after MAX_ATTEMPTS failures. A
 * row with `not_before` in the future (a message to many people, throttled) is not claimed yet.
 *
 * Each e-mail's Message-ID is its row's id (`<id@hague-summer-school>`): the same at every attempt.
 * A process that dies after the mail server accepted an e-mail and before the row was marked sent
 * sends it again when the lease runs out, with the same Message-ID, which mail programs and
 * servers use to show a duplicate once.
 */
export class MailService {
  private flushing: Promise<number> | null = null;
  private flushAgain: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly outboxDir: string | null,
    /**
     * What every e-mail gets when it is queued, e.g. the school's footer with its legal facts
     * (`withSchoolFooter`, docs/product/portals.md#who-an-email-is-written-to). None by default.
     */
    private readonly finish: (email: OutgoingEmail) => OutgoingEmail = (email) => email,
  ) {}

  /**
   * Queues an e-mail, with what the service adds to every e-mail (its footer), in the caller's
   * transaction; a second call with the same dedupeKey does
   * nothing. Returns true when this call queued it, false when the key was already there (by any
   * process, at any time: the unique `dedupe_key` decides, so a reminder job run by two processes
   * at once, or again after a restart, queues each e-mail once; decision 016). Its attachments
   * are stored in the same transaction, only when this call queued the e-mail.
   */
  async enqueue(tx: Tx, queued: OutgoingEmail): Promise<boolean> {
    const email = this.finish(queued);
    const [row] = await insertOutboxRows(tx, [email]);
    if (row && email.attachments?.length) {
      await tx.insert(emailAttachments).values(
        email.attachments.map((a, idx) => ({
          emailId: row.id,
          idx,
          filename: a.filename,
          contentType: a.contentType,
          content: byteaValue(a.content),
        })),
      );
    }
    return row !== undefined;
  }

  /**
   * Queues several e-mails without attachments in one statement, in the caller's transaction, each
   * as `enqueue` would (the service's footer added; an e-mail whose dedupeKey is already there is
   * left out). For a message to many people (the mailing list's batches), where one insert per
   * e-mail made a round trip to the database each. Returns how many this call queued.
   * @throws Error when one of them has attachments (those go through `enqueue`)
   */
  async enqueueMany(tx: Tx, queued: readonly OutgoingEmail[]): Promise<number> {
    if (queued.length === 0) return 0;
    const emails = queued.map((one) => {
      if (one.attachments?.length) throw new Error("enqueueMany takes no attachments: use enqueue");
      return this.finish(one);
    });
    return (await insertOutboxRows(tx, emails)).length;
  }

  /**
   * Sends the queued e-mails (up to 50, oldest first) that no other process has claimed; returns
   * how many this process sent. Within this process, concurrent calls share one run, and a call
   * made while a run is under way gets one more run after it, so an e-mail queued during a run is
   * sent now rather than at the next 30-second tick. Across processes, the claim (see the class)
   * keeps two runs from sending the same e-mail.
   */
  flush(): Promise<number> {
    if (!this.flushing) {
      this.flushing = this.sendQueued().finally(() => {
        this.flushing = null;
      });
      return this.flushing;
    }
    if (!this.flushAgain) {
      this.flushAgain = this.flushing
        .catch(() => 0)
        .then(() => {
          this.flushAgain = null;
          return this.flush();
        });
    }
    return this.flushAgain;
  }

  /**
   * Claims up to BATCH_SIZE e-mails for LEASE_SECONDS (see the class) and returns them, oldest
   * first. One statement: `UPDATE ... WHERE id IN (SELECT ... FOR UPDATE SKIP LOCKED LIMIT 50)
   * RETURNING *`, so a row is claimed by at most one process.
   */
  private async claimBatch() {
    const claimable = this.db
      .select({ id: emailOutbox.id })
      .from(emailOutbox)
      .where(
        and(
          eq(emailOutbox.status, "queued"),
          lt(emailOutbox.attempts, MAX_ATTEMPTS),
          or(isNull(emailOutbox.lockedUntil), lt(emailOutbox.lockedUntil, sql`now()`)),
          or(isNull(emailOutbox.notBefore), lte(emailOutbox.notBefore, sql`now()`)),
        ),
      )
      .orderBy(asc(emailOutbox.createdAt), asc(emailOutbox.id))
      .limit(BATCH_SIZE)
      .for("update", { skipLocked: true });
    const claimed = await this.db
      .update(emailOutbox)
      .set({ lockedUntil: sql`now() + make_interval(secs => ${LEASE_SECONDS})` })
      .where(inArray(emailOutbox.id, claimable))
      .returning();
    // RETURNING has no order of its own.
    return claimed.sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    );
  }

  /** The attachments of the claimed e-mails, by e-mail id, each list in its order. */
  private async attachmentsOf(ids: string[]): Promise<Map<string, EmailAttachment[]>> {
    const byEmail = new Map<string, EmailAttachment[]>();
    if (ids.length === 0) return byEmail;
    const rows = await this.db
      .select({
        emailId: emailAttachments.emailId,
        filename: emailAttachments.filename,
        contentType: emailAttachments.contentType,
        content: byteaAsBase64(emailAttachments.content),
      })
      .from(emailAttachments)
      .where(inArray(emailAttachments.emailId, ids))
      .orderBy(asc(emailAttachments.emailId), asc(emailAttachments.idx));
    for (const r of rows) {
      const list = byEmail.get(r.emailId) ?? [];
      list.push({
        filename: r.filename,
        contentType: r.contentType,
        content: Buffer.from(r.content, "base64"),
      });
      byEmail.set(r.emailId, list);
    }
    return byEmail;
  }

  private async sendQueued(): Promise<number> {
    const claimed = await this.claimBatch();
    const attachments = await this.attachmentsOf(claimed.map((e) => e.id));
    let sent = 0;
    for (const email of claimed) {
      const files = attachments.get(email.id);
      try {
        const info = await this.transport.sendMail({
          from: this.from,
          to: email.toAddress,
          subject: email.subject,
          text: email.textBody,
          html: email.htmlBody,
          messageId: `<${email.id}@hague-summer-school>`,
          ...(email.headers ? { headers: email.headers } : {}),
          ...(files ? { attachments: files } : {}),
        });
        if (this.outboxDir && "message" in info && Buffer.isBuffer(info.message)) {
          const stamp = new Date().toISOString().replace(/[:.]/g, "-");
          await writeFile(path.join(this.outboxDir, `${stamp}-${email.id}.eml`), info.message);
        }
        await this.db
          .update(emailOutbox)
          .set({ status: "sent", sentAt: new Date(), attempts: email.attempts + 1, lockedUntil: null })
          .where(eq(emailOutbox.id, email.id));
        sent++;
      } catch (err) {
        const attempts = email.attempts + 1;
        // Released, so the next flush (of any process) retries it, as before the lease existed.
        await this.db
          .update(emailOutbox)
          .set({
            attempts,
            lastError: String((err as Error).message).slice(0, 500),
            status: attempts >= MAX_ATTEMPTS ? "failed" : "queued",
            lockedUntil: null,
          })
          .where(eq(emailOutbox.id, email.id));
      }
    }
    return sent;
  }
}
