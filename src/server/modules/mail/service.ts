import { mkdirSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import path from "node:path";
import { and, eq, lt } from "drizzle-orm";
import nodemailer, { type Transporter } from "nodemailer";
import type { Db, Tx } from "../../db/client";
import { emailOutbox } from "../../db/schema";

export interface OutgoingEmail {
  /** Makes the e-mail queued once, whatever retries happen (e.g. `confirmation:<applicationId>`). */
  dedupeKey: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

const MAX_ATTEMPTS = 5;

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
 * E-mail with a transactional outbox: business code queues e-mails inside its own database
 * transaction (so an e-mail exists exactly when the change it reports does, checklist P6), and
 * `flush()` sends what is queued, retrying failures up to 5 times.
 */
export class MailService {
  private flushing: Promise<number> | null = null;
  private flushAgain: Promise<number> | null = null;

  constructor(
    private readonly db: Db,
    private readonly transport: Transporter,
    private readonly from: string,
    private readonly outboxDir: string | null,
  ) {}

  /** Queues an e-mail in the caller's transaction; a second call with the same dedupeKey does nothing. */
  async enqueue(tx: Tx, email: OutgoingEmail): Promise<void> {
    await tx
      .insert(emailOutbox)
      .values({
        dedupeKey: email.dedupeKey,
        toAddress: email.to,
        subject: email.subject,
        textBody: email.text,
        htmlBody: email.html,
      })
      .onConflictDoNothing({ target: emailOutbox.dedupeKey });
  }

  /**
   * Sends every queued e-mail; returns how many were sent. Concurrent calls share one run, and a
   * call made while a run is under way gets one more run after it, so an e-mail queued during a
   * run is sent now rather than at the next 30-second tick.
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

  private async sendQueued(): Promise<number> {
    const queued = await this.db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.status, "queued"), lt(emailOutbox.attempts, MAX_ATTEMPTS)))
      .limit(50);
    let sent = 0;
    for (const email of queued) {
      try {
        const info = await this.transport.sendMail({
          from: this.from,
          to: email.toAddress,
          subject: email.subject,
          text: email.textBody,
          html: email.htmlBody,
          messageId: `<${email.id}@hague-summer-school>`,
        });
        if (this.outboxDir && "message" in info && Buffer.isBuffer(info.message)) {
          const stamp = new Date().toISOString().replace(/[:.]/g, "-");
          await writeFile(path.join(this.outboxDir, `${stamp}-${email.id}.eml`), info.message);
        }
        await this.db
          .update(emailOutbox)
          .set({ status: "sent", sentAt: new Date(), attempts: email.attempts + 1 })
          .where(eq(emailOutbox.id, email.id));
        sent++;
      } catch (err) {
        const attempts = email.attempts + 1;
        await this.db
          .update(emailOutbox)
          .set({
            attempts,
            lastError: String((err as Error).message).slice(0, 500),
            status: attempts >= MAX_ATTEMPTS ? "failed" : "queued",
          })
          .where(eq(emailOutbox.id, email.id));
      }
    }
    return sent;
  }
}
