import { readdirSync, readFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { count } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailAttachments, emailOutbox } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing/harness";
import { createTransport, MailService } from "./service";

const email = (key: string) => ({
  dedupeKey: key,
  to: "amara.okafor@example.com",
  subject: "Your application is confirmed",
  text: "Dear Amara,\nThank you.",
  html: "<p>Dear Amara,</p><p>Thank you.</p>",
});

describe("e-mail delivery", () => {
  let t: TestApp;
  let smtp: SMTPServer;
  let port = 0;
  const received: string[] = [];

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, _session, callback) {
        let data = "";
        stream.on("data", (chunk: Buffer) => {
          data += chunk.toString("utf8");
        });
        stream.on("end", () => {
          received.push(data);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });

  afterAll(async () => {
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
    await t.close();
  });

  it("sends a queued e-mail over SMTP when SMTP_URL is set, once", async () => {
    const { transport, outboxDir } = createTransport(`smtp://127.0.0.1:${port}`, t.dataDir);
    expect(outboxDir).toBeNull();
    const mail = new MailService(t.database.db, transport, "School <admissions@school.example>", null);
    await mail.enqueue(t.database.db, email("confirmation:smtp-1"));
    await mail.enqueue(t.database.db, email("confirmation:smtp-1"));
    expect(await mail.flush()).toBe(1);
    expect(await mail.flush()).toBe(0);
    expect(received).toHaveLength(1);
    expect(received[0]).toContain("Subject: Your application is confirmed");
    expect(received[0]).toContain("To: amara.okafor@example.com");
  });

  it("sends an e-mail's attachments byte for byte, stored once however often it is queued", async () => {
    const { transport } = createTransport(`smtp://127.0.0.1:${port}`, t.dataDir);
    const mail = new MailService(t.database.db, transport, "School <admissions@school.example>", null);
    // Every byte value, so that an encoding slip anywhere (hex, base64, the driver) shows.
    const pdf = Buffer.concat([
      Buffer.from("%PDF-1.3\n"),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
    ]);
    const withStatement = {
      ...email("payout-paid:attachment-1"),
      attachments: [
        { filename: "payout-statement-1a2b3c4d.pdf", contentType: "application/pdf", content: pdf },
        { filename: "note.txt", contentType: "text/plain", content: Buffer.from("second") },
      ],
    };
    expect(await mail.enqueue(t.database.db, withStatement)).toBe(true);
    expect(await mail.enqueue(t.database.db, withStatement)).toBe(false);
    const [stored] = await t.database.db.select({ n: count() }).from(emailAttachments);
    expect(stored!.n).toBe(2);
    const before = received.length;
    expect(await mail.flush()).toBe(1);
    const message = received[before]!;
    expect(message).toMatch(/Content-Disposition: attachment;\s+filename=payout-statement-1a2b3c4d\.pdf/);
    expect(message).toMatch(/Content-Disposition: attachment;\s+filename=note\.txt/);
    expect(message.indexOf("payout-statement-1a2b3c4d.pdf")).toBeLessThan(message.indexOf("note.txt"));
    // The PDF part's base64 body, decoded, is the file that was queued.
    const part = message.split(/\r?\n--/).find((p) => p.includes("filename=payout-statement-1a2b3c4d.pdf"))!;
    const body = part
      .split(/\r?\n\r?\n/)
      .slice(1)
      .join("")
      .replace(/\s+/g, "");
    expect(Buffer.from(body, "base64").equals(pdf)).toBe(true);
  });

  it("writes e-mails to the local outbox as .eml files when no SMTP server is configured", async () => {
    const { transport, outboxDir } = createTransport(undefined, t.dataDir);
    const mail = new MailService(t.database.db, transport, "School <admissions@school.example>", outboxDir);
    await mail.enqueue(t.database.db, email("confirmation:outbox-1"));
    expect(await mail.flush()).toBe(1);
    const files = readdirSync(outboxDir!).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    expect(readFileSync(path.join(outboxDir!, files[0]!), "utf8")).toContain("Dear Amara");
  });

  it("sends an e-mail queued while a sending run is under way right after that run", async () => {
    const { transport, outboxDir } = createTransport(undefined, t.dataDir);
    const mail = new MailService(t.database.db, transport, "School <admissions@school.example>", outboxDir);
    await mail.enqueue(t.database.db, email("invitation:during-1"));
    const first = mail.flush();
    await mail.enqueue(t.database.db, email("invitation:during-2"));
    const second = mail.flush();
    await Promise.all([first, second]);
    const rows = await t.database.db.select().from(emailOutbox);
    const statuses = rows.filter((r) => r.dedupeKey.startsWith("invitation:during-")).map((r) => r.status);
    expect(statuses).toEqual(["sent", "sent"]);
  });

  it("keeps an e-mail queued and retries it when the SMTP server is unreachable", async () => {
    const { transport } = createTransport("smtp://127.0.0.1:1", t.dataDir);
    const mail = new MailService(t.database.db, transport, "School <admissions@school.example>", null);
    await mail.enqueue(t.database.db, email("confirmation:down-1"));
    expect(await mail.flush()).toBe(0);
    const rows = await t.database.db.select().from(emailOutbox);
    const row = rows.find((r) => r.dedupeKey === "confirmation:down-1")!;
    expect(row.status).toBe("queued");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBeTruthy();
    const [{ n } = { n: 0 }] = await t.database.db.select({ n: count() }).from(emailOutbox);
    // The five e-mails of the earlier tests plus this one, each stored once.
    expect(n).toBe(6);
  });
});
