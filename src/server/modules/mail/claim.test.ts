import { setTimeout as sleep } from "node:timers/promises";
import { eq, like, sql } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { emailOutbox } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing/harness";
import { MailService, type OutgoingEmail } from "./service";

/**
 * The outbox claim of decision 011 "several server processes": each MailService here stands for
 * one server process (its own instance, its own transport), all on the test's one database.
 */

const FROM = "School <admissions@school.example>";

const email = (key: string) => ({
  dedupeKey: key,
  to: "amara.okafor@example.com",
  subject: key,
  text: "Dear Amara,\nThank you.",
  html: "<p>Dear Amara,</p><p>Thank you.</p>",
});

/**
 * A transport that records the subject (= dedupe key) of each e-mail it sends. `beforeSend` runs
 * first and may wait or throw (a slow or failing SMTP server).
 */
function recordingTransport(beforeSend: (subject: string) => Promise<void> | void = () => undefined) {
  const sent: string[] = [];
  let calls = 0;
  const transport = {
    async sendMail(message: { subject?: string }) {
      calls++;
      const subject = String(message.subject);
      await beforeSend(subject);
      sent.push(subject);
      return { messageId: `<${subject}>` };
    },
  } as unknown as Transporter;
  return {
    transport,
    sent,
    get calls() {
      return calls;
    },
  };
}

describe("e-mail outbox claims across processes", () => {
  let t: TestApp;
  const db = () => t.database.db;

  const rowsLike = (prefix: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `${prefix}%`));
  const row = async (key: string) => {
    const [r] = await db().select().from(emailOutbox).where(eq(emailOutbox.dedupeKey, key));
    if (!r) throw new Error(`no e-mail ${key}`);
    return r;
  };

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });

  beforeEach(async () => {
    await db().delete(emailOutbox);
  });

  afterAll(async () => {
    await t.close();
  });

  it("queues a message's batch in one call: each e-mail once, with what the service adds to every e-mail", async () => {
    // The school's footer, as the server's MailService adds it to every e-mail.
    const footer = (e: OutgoingEmail) => ({ ...e, text: `${e.text}\n-- The school` });
    const mail = new MailService(db(), recordingTransport().transport, FROM, null, footer);
    expect(await mail.enqueueMany(db(), [email("many:1"), email("many:2")])).toBe(2);
    // A batch queued again after a crash: the e-mails already there are left out.
    expect(await mail.enqueueMany(db(), [email("many:2"), email("many:3")])).toBe(1);
    const rows = await rowsLike("many:");
    expect(rows.map((r) => r.dedupeKey).sort()).toEqual(["many:1", "many:2", "many:3"]);
    for (const r of rows) expect(r.textBody).toBe("Dear Amara,\nThank you.\n-- The school");
    // Attachments go through enqueue, which stores them; nothing of such a batch is queued.
    const attached = {
      ...email("many:4"),
      attachments: [{ filename: "a.pdf", contentType: "application/pdf", content: Buffer.from("%PDF") }],
    };
    await expect(mail.enqueueMany(db(), [email("many:5"), attached])).rejects.toThrow(/attachments/);
    expect(await rowsLike("many:4")).toHaveLength(0);
    expect(await rowsLike("many:5")).toHaveLength(0);
  });

  it("sends each e-mail exactly once when two processes flush at the same time", async () => {
    // A little latency per send, so that the two processes' runs overlap.
    const a = recordingTransport(() => sleep(Math.random() * 3));
    const b = recordingTransport(() => sleep(Math.random() * 3));
    const mailA = new MailService(db(), a.transport, FROM, null);
    const mailB = new MailService(db(), b.transport, FROM, null);
    const keys: string[] = [];
    let reported = 0;
    for (let round = 0; round < 4; round++) {
      // More e-mails than one run claims (50), so later runs find work too.
      for (let i = 0; i < 30 + round * 10; i++) {
        const key = `race:${round}:${i}`;
        keys.push(key);
        await mailA.enqueue(db(), email(key));
      }
      const counts = await Promise.all([mailA.flush(), mailB.flush(), mailB.flush(), mailA.flush()]);
      reported += counts.reduce((x, y) => x + y, 0);
    }
    // Whatever is left after the last round (more than 50 queued at once), still from both.
    while ((await Promise.all([mailA.flush(), mailB.flush()])).some((n) => n > 0)) {}

    const all = [...a.sent, ...b.sent];
    expect(new Set(all).size).toBe(all.length);
    expect(all.sort()).toEqual([...keys].sort());
    expect(reported).toBe(keys.length);
    const rows = await rowsLike("race:");
    expect(rows).toHaveLength(keys.length);
    for (const r of rows) {
      expect(r.status).toBe("sent");
      expect(r.attempts).toBe(1);
      expect(r.lockedUntil).toBeNull();
      expect(r.sentAt).not.toBeNull();
    }
  });

  it("leaves e-mails claimed by another process's run under way alone, and leases them for 5 minutes", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started!: () => void;
    const sending = new Promise<void>((resolve) => {
      started = resolve;
    });
    const slow = recordingTransport(async () => {
      started();
      await gate;
    });
    const other = recordingTransport();
    const mailA = new MailService(db(), slow.transport, FROM, null);
    const mailB = new MailService(db(), other.transport, FROM, null);
    for (let i = 0; i < 3; i++) await mailA.enqueue(db(), email(`held:${i}`));

    const runA = mailA.flush();
    await sending; // A has claimed the three e-mails and is sending the first
    const before = Date.now();
    for (const r of await rowsLike("held:")) {
      expect(r.status).toBe("queued");
      expect(r.lockedUntil).not.toBeNull();
      const ahead = r.lockedUntil!.getTime() - before;
      expect(ahead).toBeGreaterThan(4 * 60_000);
      expect(ahead).toBeLessThanOrEqual(5 * 60_000 + 5_000);
    }
    expect(await mailB.flush()).toBe(0);
    expect(other.calls).toBe(0);

    release();
    expect(await runA).toBe(3);
    expect(slow.sent.sort()).toEqual(["held:0", "held:1", "held:2"]);
    expect(other.calls).toBe(0);
  });

  it("does not send a row whose lease is still running, and sends one whose lease has expired", async () => {
    const transport = recordingTransport();
    const mail = new MailService(db(), transport.transport, FROM, null);
    await mail.enqueue(db(), email("lease:running"));
    await mail.enqueue(db(), email("lease:expired"));
    // As a process that claimed them and then died would have left them.
    await db()
      .update(emailOutbox)
      .set({ lockedUntil: sql`now() + interval '1 minute'` })
      .where(eq(emailOutbox.dedupeKey, "lease:running"));
    await db()
      .update(emailOutbox)
      .set({ lockedUntil: sql`now() - interval '1 second'` })
      .where(eq(emailOutbox.dedupeKey, "lease:expired"));

    expect(await mail.flush()).toBe(1);
    expect(transport.sent).toEqual(["lease:expired"]);
    const expired = await row("lease:expired");
    expect(expired).toMatchObject({ status: "sent", attempts: 1, lockedUntil: null });
    const running = await row("lease:running");
    expect(running).toMatchObject({ status: "queued", attempts: 0, sentAt: null });
    expect(running.lockedUntil!.getTime()).toBeGreaterThan(Date.now());

    expect(await mail.flush()).toBe(0);
    expect(transport.sent).toEqual(["lease:expired"]);
  });

  it("releases the claim of a failed send and retries it on the next flush", async () => {
    let failures = 1;
    const flaky = recordingTransport(() => {
      if (failures-- > 0) throw new Error("421 try again later");
    });
    const mail = new MailService(db(), flaky.transport, FROM, null);
    await mail.enqueue(db(), email("retry:1"));

    expect(await mail.flush()).toBe(0);
    expect(await row("retry:1")).toMatchObject({
      status: "queued",
      attempts: 1,
      lastError: "421 try again later",
      lockedUntil: null,
      sentAt: null,
    });

    // Another process (or this one) retries it at once: no lease is left to wait for.
    const other = recordingTransport();
    const mailB = new MailService(db(), other.transport, FROM, null);
    expect(await mailB.flush()).toBe(1);
    expect(other.sent).toEqual(["retry:1"]);
    expect(await row("retry:1")).toMatchObject({ status: "sent", attempts: 2, lockedUntil: null });
  });

  it("marks an e-mail failed after 5 failed attempts and then leaves it alone", async () => {
    const down = recordingTransport(() => {
      throw new Error("connection refused");
    });
    const mail = new MailService(db(), down.transport, FROM, null);
    await mail.enqueue(db(), email("down:1"));
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect(await mail.flush()).toBe(0);
      expect(await row("down:1")).toMatchObject({
        status: attempt < 5 ? "queued" : "failed",
        attempts: attempt,
        lockedUntil: null,
        lastError: "connection refused",
      });
    }
    expect(down.calls).toBe(5);
    expect(await mail.flush()).toBe(0);
    expect(down.calls).toBe(5);
  });
});
