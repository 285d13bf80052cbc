import { like } from "drizzle-orm";
import type { Transporter } from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../db/client";
import { emailOutbox } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing/harness";
import { MailService } from "../mail/service";
import { runBalanceReminders } from "./reminders";
import { createDepositApplication, createDepositSchool } from "./testing";

/**
 * Balance reminders (docs/product/payments.md#deposit-and-balance; decision 016), driven by an injected clock. Each
 * "process" is its own MailService with its own transport; on PostgreSQL (TEST_DATABASE_URL) the
 * second and the restarted one are server apps of their own on the same database (`peerOf`), as
 * two processes of a cluster are. On the embedded database they share the one connection.
 *
 * The cohort starts on Sunday 15 August 2027; its balance is due on 18 July 2027 (28 days before).
 * The Hague is UTC+2 in July: a day there begins at 22:00 UTC the evening before.
 */

const FROM = "School <admissions@school.example>";
const ORIGIN = "http://localhost:3000";
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

/** Noon in The Hague, `days` days before the due date (negative: after it). */
const dayBeforeDue = (days: number) => new Date(Date.parse("2027-07-18T10:00:00Z") - days * 86_400_000);

/** A transport that records what it sent (to, subject, text). */
function recordingTransport() {
  const sent: Array<{ to: string; subject: string; text: string; html: string }> = [];
  const transport = {
    async sendMail(message: { to: string; subject: string; text: string; html: string }) {
      // A slow SMTP server: two processes flushing at once overlap.
      await new Promise((resolve) => setTimeout(resolve, 5));
      sent.push({ to: message.to, subject: message.subject, text: message.text, html: message.html });
      return { messageId: `<${sent.length}@test>` };
    },
  } as unknown as Transporter;
  return { transport, sent };
}

interface Process {
  db: Db;
  mail: MailService;
  sent: ReturnType<typeof recordingTransport>["sent"];
  app?: TestApp;
}

let first: TestApp;
const processes: Process[] = [];
const ids: Record<string, string> = {};
const emails: Record<string, string> = {};

async function startProcess(): Promise<Process> {
  const app = onPostgres ? await createTestApp({ peerOf: first }) : undefined;
  const db = (app ?? first).database.db;
  const { transport, sent } = recordingTransport();
  const process: Process = { db, mail: new MailService(db, transport, FROM, null), sent, app };
  processes.push(process);
  return process;
}

const run = (p: Process, at: Date) =>
  runBalanceReminders({
    db: p.db,
    mail: p.mail,
    now: () => at,
    origin: ORIGIN,
    supportEmail: "admissions@school.example",
  });

/** The reminder keys queued so far, sorted. */
async function queuedKeys(): Promise<string[]> {
  const rows = await first.database.db
    .select({ key: emailOutbox.dedupeKey })
    .from(emailOutbox)
    .where(like(emailOutbox.dedupeKey, "balance:%"));
  return rows.map((r) => r.key).sort();
}

const keysOf = (kind: string, names: string[]) => names.map((n) => `balance:${ids[n]}:${kind}`);
const OWING = ["en", "zh", "fr"];

beforeAll(async () => {
  first = await createTestApp({ seed: false });
  const db = first.database.db;
  const school = await createDepositSchool(db, { startDate: "2027-08-15" });
  const add = async (name: string, input: Parameters<typeof createDepositApplication>[2]) => {
    const created = await createDepositApplication(db, school, input);
    ids[name] = created.applicationId;
    emails[name] = created.email;
  };
  // Owing 2,131.50 EUR of 3,045.00 EUR, in each language.
  await add("en", { language: "en", firstName: "Amara" });
  await add("zh", { language: "zh", firstName: "李明", status: "accepted" });
  await add("fr", { language: "fr", firstName: "Awa" });
  // Owing nothing.
  await add("paidInFull", { paymentStatus: "paid", amountPaidCents: 304500 });
  await add("balancePaid", { paymentStatus: "paid", status: "accepted", amountPaidCents: 304500 });
  await add("refunded", { paymentStatus: "refunded" });
  await add("withdrawn", { status: "withdrawn" });
  await add("cancelled", { status: "cancelled" });
  await add("rejected", { status: "rejected" });
  await add("unpaid", { paymentStatus: "unpaid", amountPaidCents: 0, status: "pending_payment" });
}, 60_000);

afterAll(async () => {
  for (const p of processes) await p.app?.close();
  await first?.close();
});

describe("balance reminders", () => {
  it("queue nothing 15 days before the due date, nor late on the evening before the 14th day in The Hague", async () => {
    const p = await startProcess();
    expect(await run(p, dayBeforeDue(15))).toBe(0);
    // 23:30 on 3 July in The Hague (21:30 UTC): still 15 days before the 18th.
    expect(await run(p, new Date("2027-07-03T21:30:00Z"))).toBe(0);
    expect(await queuedKeys()).toEqual([]);
  });

  it("two processes running the job at the same moment, as the 14th day begins in The Hague, send each reminder once", async () => {
    const a = processes[0]!;
    const b = await startProcess();
    // 00:30 on 4 July in The Hague is still 3 July in UTC.
    const at = new Date("2027-07-03T22:30:00Z");
    const [queuedA, queuedB] = await Promise.all([run(a, at), run(b, at)]);
    expect(queuedA + queuedB).toBe(3);
    expect(await queuedKeys()).toEqual(keysOf("due14", OWING).sort());
    await Promise.all([a.mail.flush(), b.mail.flush()]);
    const sent = [...a.sent, ...b.sent];
    expect(sent.map((m) => m.to).sort()).toEqual(OWING.map((n) => emails[n]).sort());
  });

  it("write to each student in their language, with the amount in its number format, the date for people and the payment link", async () => {
    const sent = processes.flatMap((p) => p.sent);
    const to = (name: string) => sent.find((m) => m.to === emails[name])!;
    const en = to("en");
    expect(en.subject).toBe("Your balance for September cohort is due on 18 July 2027");
    expect(en.text).toContain("Dear Amara,");
    expect(en.text).toContain(
      "You have paid the deposit for September cohort. The balance of €2,131.50 is due on 18 July 2027.",
    );
    expect(en.text).toContain("Total: €3,045.00");
    expect(en.text).toContain("Paid so far: €913.50");
    expect(en.text).toContain(`${ORIGIN}/en/student/payment`);
    expect(en.html).toContain(`href="${ORIGIN}/en/student/payment"`);
    const zh = to("zh");
    expect(zh.subject).toBe("九月班期的尾款将于2027年7月18日到期");
    expect(zh.text).toContain("李明同学，您好：");
    // The link opens the portal in the e-mail's language, whatever the reader's browser says.
    expect(zh.text).toContain(`${ORIGIN}/zh/student/payment`);
    expect(zh.text).toContain("待付尾款：€2,131.50");
    const fr = to("fr");
    expect(fr.subject).toBe("Le solde de votre programme Session de septembre est dû le 18 juillet 2027");
    expect(fr.text).toContain("Bonjour Awa,");
    expect(fr.text).toContain("Solde dû\u202f: 2\u202f131,50\u00a0€");
    for (const m of sent) expect(`${m.subject}\n${m.text}`).not.toMatch(/\d{4}-\d{2}-\d{2}/);
  });

  it("a restarted process on the same database sends nothing twice", async () => {
    const restarted = await startProcess();
    expect(await run(restarted, dayBeforeDue(14))).toBe(0);
    expect(await run(restarted, dayBeforeDue(13))).toBe(0);
    await restarted.mail.flush();
    expect(restarted.sent).toEqual([]);
  });

  it("send the 3-day reminder 3 days before, nothing more on the due date, the overdue one the day after, once", async () => {
    const p = processes.at(-1)!;
    expect(await run(p, dayBeforeDue(4))).toBe(0);
    expect(await run(p, dayBeforeDue(3))).toBe(3);
    expect(await run(p, dayBeforeDue(1))).toBe(0);
    expect(await run(p, dayBeforeDue(0))).toBe(0);
    expect(await run(p, dayBeforeDue(-1))).toBe(3);
    expect(await run(p, dayBeforeDue(-2))).toBe(0);
    expect(await queuedKeys()).toEqual(
      [...keysOf("due14", OWING), ...keysOf("due3", OWING), ...keysOf("overdue", OWING)].sort(),
    );
    await p.mail.flush();
    const overdue = p.sent.find((m) => m.to === emails.en && m.subject.includes("overdue"))!;
    expect(overdue.subject).toBe("Your balance for September cohort is overdue");
    expect(overdue.text).toContain("was due on 18 July 2027");
  });

  it("never remind a paid-in-full, refunded, withdrawn, cancelled, rejected or unpaid application", async () => {
    const keys = (await queuedKeys()).join("\n");
    for (const name of [
      "paidInFull",
      "balancePaid",
      "refunded",
      "withdrawn",
      "cancelled",
      "rejected",
      "unpaid",
    ]) {
      expect(keys).not.toContain(ids[name]!);
    }
    const sentTo = processes.flatMap((p) => p.sent.map((m) => m.to));
    expect(sentTo.length).toBe(9);
    expect(new Set(sentTo)).toEqual(new Set(OWING.map((n) => emails[n])));
  });
});
