import { randomUUID } from "node:crypto";
import { eq, inArray, or } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/dates";
import { remainingDueDate } from "../../../shared/pricing";
import { applicants, emailOutbox, summerSchools } from "../../db/schema";
import { loginAsAdmin, loginAsStudent } from "../../testing/accounts";
import { apiOf, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { runBalanceReminders } from "../balances/reminders";
import { completeOfflineSession } from "../payments/providers/offline";
import { recipientFor } from "./recipient";

/**
 * To which address and in which language the school writes to a student (docs/product/portals.md#who-an-email-is-written-to;
 * decision 037): a student applies in Chinese, then changes the account's address and the e-mail
 * language (French) in the profile, and another person's verified account takes the old address.
 * Every e-mail about the application from then on (payment confirmation with its invoice, status
 * change, "visa letter ready", balance reminder, overdue reminder, balance paid with its invoice,
 * refund made) goes to the new address, in French, read from the outbox.
 */

const WEBHOOK_SECRET = "whsec_recipient_test";
let t: TestApp;
const api = apiOf(() => t.app, SAME_ORIGIN);
const flow = paymentFlow(() => t, { addressPrefix: "10.83", webhookSecret: WEBHOOK_SECRET });
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await t?.close();
});

/** The first open cohort, with a 30 % deposit (so a balance is left to remind of and to pay). */
async function depositSchool(): Promise<{ id: string; startDate: string }> {
  const open = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
    id: string;
    status: string;
  }>;
  const id = open.find((s) => s.status === "open")!.id;
  const [school] = await db()
    .update(summerSchools)
    .set({ depositPercent: 30 })
    .where(eq(summerSchools.id, id))
    .returning();
  t.app.services.catalogue.invalidate();
  return { id, startDate: school!.startDate };
}

/** The token of the newest e-mail to `to` whose link goes to `page`. */
async function tokenSentTo(to: string, page: string): Promise<string> {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
  const last = rows
    .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
    .filter((r) => r.textBody.includes(page))
    .at(-1);
  expect(last, `an e-mail to ${to} with ${page}`).toBeDefined();
  return last!.textBody.match(new RegExp(`${page.replace(/\//g, "\\/")}\\?token=([A-Za-z0-9_-]+)`))![1]!;
}

describe("every e-mail to a student follows the profile's address and e-mail language", () => {
  it("after an address and language change, each kind of e-mail goes to the new address in the new language", async () => {
    const school = await depositSchool();
    const { cookie, student, password } = await loginAsStudent(t.app, { language: "zh" });
    const oldEmail = student.email;
    const applied = await flow.newApplication(school.id, { email: oldEmail, firstName: "Mei" });
    const id = applied.applicationId;
    await db().update(applicants).set({ language: "zh" }).where(eq(applicants.id, applied.applicantId));

    // The profile: a new address (confirmed by its link) and French for e-mails.
    const newEmail = `moved-${randomUUID()}@example.com`;
    const started = await api("POST", "/api/student/profile/email", cookie, {
      newEmail,
      currentPassword: password,
    });
    expect(started.statusCode, started.body).toBe(202);
    const token = await tokenSentTo(newEmail, "/student/confirm-email");
    expect((await api("POST", "/api/student/profile/email/confirm", undefined, { token })).statusCode).toBe(
      200,
    );
    const patched = await api("PATCH", "/api/student/profile", cookie, {
      firstName: student.firstName,
      lastName: student.lastName,
      language: "fr",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // Another person's verified account owns the old address by then.
    const newOwner = await loginAsStudent(t.app, { email: oldEmail, language: "en" });
    expect(await recipientFor(db(), { applicationId: id })).toEqual({
      to: newEmail,
      language: "fr",
      studentId: student.id,
      applicationId: id,
    });
    const changedAt = new Date();

    // The deposit: the confirmation e-mail with its invoice.
    await flow.payByWebhook(applied);
    // An acceptance: the status e-mail, and "visa letter ready".
    const admissions = (await loginAsAdmin(t.app, "admissions")).cookie;
    for (const [status, version] of [
      ["under_review", 1],
      ["accepted", 2],
    ] as const) {
      const changed = await api("PATCH", `/api/admin/applications/${id}/status`, admissions, {
        status,
        version,
      });
      expect(changed.statusCode, changed.body).toBe(200);
    }
    // The balance reminder 14 days before the due date, and the overdue one the day after it.
    const due = remainingDueDate(school.startDate);
    for (const day of [addDays(due, -14), addDays(due, 1)]) {
      await runBalanceReminders({
        db: db(),
        mail: t.app.services.mail,
        now: () => new Date(`${day}T10:00:00Z`),
        origin: "http://localhost:3000",
        supportEmail: "admissions@school.example",
      });
    }
    // The balance, paid from the portal: "balance paid" with its invoice.
    const balance = await api("POST", `/api/student/applications/${id}/balance-checkout`, cookie);
    expect(balance.statusCode, balance.body).toBe(201);
    const { sessionId } = balance.json() as { sessionId: string };
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    // A refund: "refund made".
    const finance = (await loginAsAdmin(t.app, "finance")).cookie;
    const refunded = await api("POST", `/api/admin/applications/${id}/refunds`, finance, {
      amountCents: 10_000,
      reason: "Goodwill",
      idempotencyKey: randomUUID(),
    });
    expect(refunded.statusCode, refunded.body).toBe(201);

    const rows = await db()
      .select()
      .from(emailOutbox)
      .where(or(eq(emailOutbox.applicationId, id), inArray(emailOutbox.toAddress, [oldEmail, newEmail])));
    const after = rows.filter((r) => r.createdAt >= changedAt);
    const kinds = after.map((r) => r.dedupeKey.split(":")[0]);
    for (const kind of ["confirmation", "status", "visa-letter-ready", "balance", "balance-paid", "refund"])
      expect(kinds, kind).toContain(kind);
    expect(
      after.filter((r) => r.dedupeKey.startsWith("balance:")).map((r) => r.dedupeKey.split(":")[2]),
    ).toEqual(expect.arrayContaining(["overdue"]));
    expect(after.filter((r) => r.dedupeKey.startsWith("balance:")).length).toBeGreaterThanOrEqual(2);
    // The language chosen in the profile (the application was made in Chinese), then the address.
    for (const email of after) expect(email.htmlBody, email.dedupeKey).toContain('<html lang="fr">');
    for (const email of after) {
      expect(email.toAddress, email.dedupeKey).toBe(newEmail);
      expect(email.studentId, email.dedupeKey).toBe(student.id);
    }
    // The invoice e-mails link the portal in French.
    const confirmation = after.find((r) => r.dedupeKey.startsWith("confirmation:"))!;
    expect(confirmation.textBody).toContain("/fr/");
    // The new owner of the old address received nothing about this application.
    const toOldAddress = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, oldEmail));
    expect(toOldAddress.filter((r) => r.createdAt >= changedAt)).toEqual([]);
    expect(newOwner.student.email).toBe(oldEmail);
  });

  it("writes to an applicant without an account at the address and in the language of the application", async () => {
    const applied = await flow.newApplication(undefined, { email: `no-account-${randomUUID()}@example.com` });
    await db().update(applicants).set({ language: "zh" }).where(eq(applicants.id, applied.applicantId));
    const [applicant] = await db().select().from(applicants).where(eq(applicants.id, applied.applicantId));
    expect(await recipientFor(db(), { applicationId: applied.applicationId })).toEqual({
      to: applicant!.email,
      language: "zh",
      studentId: null,
      applicationId: applied.applicationId,
    });
    expect(await recipientFor(db(), { applicationId: randomUUID() })).toBeNull();
  });
});

describe("every e-mail, as an HTML validator reads it (docs/product/languages.md#emails)", () => {
  it("is a valid HTML document with its subject as title, and its web and e-mail addresses are links", async () => {
    // The e-mails the flows above queued: confirmation, status, visa letter, reminders, balance
    // paid, refund, account e-mails, in three languages.
    const { FileSystemConfigLoader, HtmlValidate } = await import("html-validate");
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    const rows = await db().select().from(emailOutbox);
    expect(rows.length).toBeGreaterThan(5);
    const problems: string[] = [];
    for (const row of rows) {
      const report = await validator.validateString(row.htmlBody, "email.html");
      for (const result of report.results)
        for (const m of result.messages) problems.push(`${row.dedupeKey}: ${m.ruleId}: ${m.message}`);
      const title = /<title>([^<]*)<\/title>/.exec(row.htmlBody)?.[1];
      if (!title) problems.push(`${row.dedupeKey}: no title`);
      // Text outside links names no address: every one is inside <a>.
      const outsideLinks = row.htmlBody
        .replace(/<head>[\s\S]*?<\/head>/, "")
        .replace(/<a\b[\s\S]*?<\/a>/g, "")
        .replace(/<[^>]+>/g, " ");
      for (const address of outsideLinks.match(/https?:\/\/\S+|[\w.+-]+@[\w-]+(\.[\w-]+)+/g) ?? [])
        problems.push(`${row.dedupeKey}: ${address} is not a link`);
    }
    expect(problems).toEqual([]);
  });
});
