/**
 * A message to many people survives a process killed with SIGKILL (docs/product/back-office.md#messages,
 * docs/product/security.md#d4-crash-safety): killed while queuing, the batch under way is not half
 * written and the restarted job queues every recipient once; killed after the mail server accepted
 * an e-mail and before the row was marked sent, the e-mail is sent again once its lease runs out,
 * with the same Message-ID. The killed process is a child (`testing/mailing-crash-child.ts`) on
 * PGlite in a data folder, or on PostgreSQL with TEST_DATABASE_URL.
 */
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { todayIso } from "../../../shared/age";
import { buildApp } from "../../app";
import { type DbHandle, openDatabase } from "../../db/client";
import { admins, emailOutbox, mailingRecipients, mailings } from "../../db/schema";
import { seedDemoCatalogue } from "../../db/seed";
import { envSchema } from "../../env";
import { createPaidReadyApplication } from "../../testing/harness";
import { scratchDatabase } from "../../testing/scratch-database";
import { MailService } from "../mail/service";
import { MailingService } from "./service";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const adminUrl = process.env.TEST_DATABASE_URL;

/** Runs the child until it kills itself (or ends); resolves with its output and signal. */
function runChild(at: "queue" | "send", env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", "src/server/testing/mailing-crash-child.ts"], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HSS_CRASH_AT: at, ...env },
    stdio: ["ignore", "pipe", "inherit"],
  });
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  return new Promise<{ output: string; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (_code, signal) => resolve({ output, signal })),
  );
}

describe("D4 a message to many people, the process killed", { timeout: 120_000 }, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hss-mailing-crash-"));
  let databaseUrl: string | undefined;
  let dropDatabase = async () => {};
  let database: DbHandle | undefined;
  const mailingId = randomUUID();
  const childEnv = () => ({
    HSS_CRASH_DIR: dataDir,
    ...(databaseUrl ? { HSS_CRASH_DATABASE_URL: databaseUrl } : {}),
  });
  const reopen = async () => {
    database = await openDatabase({ databaseUrl, dataDir });
    return database.db;
  };
  const closeDb = async () => {
    await database?.close();
    database = undefined;
  };

  beforeAll(async () => {
    if (adminUrl) {
      const scratch = await scratchDatabase(adminUrl, "t_mcrash");
      databaseUrl = scratch.url;
      dropDatabase = scratch.drop;
    }
    // Five applicants of one cohort, and the admin who writes to them.
    const db = await reopen();
    await seedDemoCatalogue(db, todayIso(new Date()), { earlyDiscount: false });
    const env = envSchema.parse({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      APP_ORIGIN: "http://localhost:3000",
      LOG_LEVEL: "silent",
      ...(databaseUrl
        ? { DATABASE_URL: databaseUrl, FILE_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString("base64") }
        : {}),
    });
    const app = await buildApp({
      env,
      database: database!,
      logger: false,
      distDir: path.join(dataDir, "no-dist"),
    });
    await app.ready();
    const open = (
      (await app.inject({ url: "/api/summer-schools" })).json() as Array<{ id: string; status: string }>
    ).filter((s) => s.status === "open");
    const cohortId = open[0]!.id;
    for (let i = 1; i <= 5; i++)
      await createPaidReadyApplication(
        app,
        { email: `person${i}.crash@example.com` },
        { schoolId: cohortId },
      );
    const [admin] = await db
      .insert(admins)
      .values({ email: "writer@example.com", name: "Writer", role: "admissions", passwordHash: "x" })
      .returning();
    await app.close();
    await closeDb();
    process.env.HSS_CRASH_MAILING = JSON.stringify({
      id: mailingId,
      audience: { kind: "applicants", cohortId },
      content: {
        subject: { en: "Welcome", zh: "", fr: "" },
        body: { en: "See you in The Hague.", zh: "", fr: "" },
      },
    });
    process.env.HSS_CRASH_ADMIN = JSON.stringify({ id: admin!.id, email: admin!.email, role: "admissions" });
  });
  afterAll(async () => {
    await closeDb();
    await dropDatabase();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("D4 killed while queuing: the first batch is queued, the second not at all, and the next run queues each person once", async () => {
    const { output, signal } = await runChild("queue", {
      ...childEnv(),
      HSS_CRASH_MAILING: process.env.HSS_CRASH_MAILING!,
      HSS_CRASH_ADMIN: process.env.HSS_CRASH_ADMIN!,
    });
    expect(output).toContain("CRASH");
    expect(signal).toBe("SIGKILL");
    const db = await reopen();
    const recipients = await db
      .select()
      .from(mailingRecipients)
      .where(eq(mailingRecipients.mailingId, mailingId));
    expect(recipients).toHaveLength(5);
    // The first transaction (two recipients) committed; the second, killed with its e-mails inserted, did not.
    expect(recipients.filter((r) => r.outboxId !== null)).toHaveLength(2);
    const queued = () =>
      db
        .select()
        .from(emailOutbox)
        .where(like(emailOutbox.dedupeKey, `mailing:${mailingId}:%`));
    expect(await queued()).toHaveLength(2);
    const mail = new MailService(db, { sendMail: async () => ({}) } as never, "school@example.com", null);
    const service = new MailingService({
      db,
      mail,
      now: () => new Date(),
      origin: "http://localhost:3000",
      ratePerMinute: 6000,
      batchSize: 2,
    });
    expect(await service.queueDue()).toEqual({ queued: 3 });
    expect(await service.queueDue()).toEqual({ queued: 0 });
    const rows = await queued();
    expect(rows).toHaveLength(5);
    expect(new Set(rows.map((r) => r.toAddress)).size).toBe(5);
    const [mailing] = await db.select().from(mailings).where(eq(mailings.id, mailingId));
    expect(mailing!.queuedAt).not.toBeNull();
    await closeDb();
  });

  it("D4 killed after the mail server accepted an e-mail: sent again after the lease, with the same Message-ID, and every other once", async () => {
    {
      const db = await reopen();
      // Their turn has come (the throttle is not what this test is about).
      await db.update(emailOutbox).set({ notBefore: null });
      await closeDb();
    }
    const { output, signal } = await runChild("send", childEnv());
    expect(output).toContain("CRASH");
    expect(signal).toBe("SIGKILL");
    const accepted = readFileSync(path.join(dataDir, "accepted.txt"), "utf8");
    expect(accepted).toMatch(/^<[0-9a-f-]+@hague-summer-school>$/);
    const db = await reopen();
    // Nothing is marked sent; the claimed rows wait for their lease.
    expect(await db.select().from(emailOutbox).where(eq(emailOutbox.status, "sent"))).toHaveLength(0);
    const sent: string[] = [];
    const mail = new MailService(
      db,
      {
        sendMail: async (message: { messageId: string }) => {
          sent.push(message.messageId);
          return {};
        },
      } as never,
      "school@example.com",
      null,
    );
    expect(await mail.flush()).toBe(0);
    // The lease runs out (five minutes after the claim).
    await db.update(emailOutbox).set({ lockedUntil: sql`now() - interval '1 second'` });
    await mail.flush();
    expect(sent).toContain(accepted);
    expect(new Set(sent).size).toBe(sent.length);
    const rows = await db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `mailing:${mailingId}:%`));
    expect(rows.every((r) => r.status === "sent")).toBe(true);
    await closeDb();
  });
});
