/**
 * A process killed (SIGKILL, as `kill -9`) in the middle of a message to many people, for the
 * crash tests of the mailings (docs/product/back-office.md#messages). It opens the database
 * (PostgreSQL at HSS_CRASH_DATABASE_URL, else PGlite in HSS_CRASH_DIR/pglite) and then, by
 * HSS_CRASH_AT:
 * - `queue`: sends the mailing HSS_CRASH_MAILING (JSON `{ id, audience, content }`) as the admin
 *   HSS_CRASH_ADMIN, queuing two recipients per transaction, and kills itself once the second
 *   batch's e-mails are inserted, before that transaction commits;
 * - `send`: flushes the outbox through a mail server that accepts the first e-mail, writes its
 *   Message-ID to HSS_CRASH_DIR/accepted.txt, and the process is killed before the row is marked sent.
 * It prints `CRASH` first.
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { Transporter } from "nodemailer";
import { openDatabase } from "../db/client";
import { MailService } from "../modules/mail/service";
import { MailingService } from "../modules/mailings";
import { die, say } from "./crash";

const dataDir = process.env.HSS_CRASH_DIR!;
const databaseUrl = process.env.HSS_CRASH_DATABASE_URL;
const at = process.env.HSS_CRASH_AT as "queue" | "send";

const database = await openDatabase({ databaseUrl, dataDir });
const acceptFirst = {
  async sendMail(message: { messageId?: string }) {
    writeFileSync(path.join(dataDir, "accepted.txt"), message.messageId ?? "");
    await die();
    return {};
  },
} as unknown as Transporter;
const mail = new MailService(database.db, acceptFirst, "school@example.com", null);

if (at === "queue") {
  let batches = 0;
  const enqueueMany = mail.enqueueMany.bind(mail);
  mail.enqueueMany = async (tx, emails) => {
    const queued = await enqueueMany(tx, emails);
    // The second batch's e-mails are in the outbox, in a transaction that has not committed.
    if (++batches === 2) await die();
    return queued;
  };
  const mailings = new MailingService({
    db: database.db,
    mail,
    now: () => new Date(),
    origin: "http://localhost:3000",
    ratePerMinute: 6000,
    batchSize: 2,
  });
  const admin = JSON.parse(process.env.HSS_CRASH_ADMIN!);
  await mailings.send(JSON.parse(process.env.HSS_CRASH_MAILING!), admin, "en");
} else {
  await mail.flush();
}
say("NO CRASH");
process.exit(0);
