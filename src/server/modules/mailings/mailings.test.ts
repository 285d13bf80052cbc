/**
 * Messages to people by filter (docs/product/back-office.md#messages): a message to a cohort in
 * three languages is queued once per person, in their language, throttled; who may send it; a
 * second click sends nothing; the newsletter goes to confirmed subscribers only, with a one-click
 * unsubscribe that works from the e-mail; the writer's text is never HTML.
 */
import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applicants,
  applications,
  auditLog,
  emailOutbox,
  mailingRecipients,
  mailings,
  newsletterSubscribers,
  summerSchools,
  waitingListEntries,
} from "../../db/schema";
import { hashToken, newToken } from "../../lib/tokens";
import { apiOf, loginRoles, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";

const CONTENT = {
  subject: {
    en: "The bus leaves at 9:00",
    zh: "巴士 9:00 出发",
    fr: "",
  },
  body: {
    en: "Dear students,\n\nThe bus to the Peace Palace leaves at 9:00 from Den Haag Centraal.\n\n- Bring your passport\n- Wear good shoes\n\nSee [the map](https://hague-summer-school.example/map) or https://hague-summer-school.example/day-1.\n\n<b>Not bold</b>",
    zh: "各位同学：\n\n前往和平宫的巴士 9:00 从海牙中央车站出发。\n\n- 请带护照\n- 请穿舒适的鞋",
    fr: "",
  },
};

describe("messages to people by filter", () => {
  let t: TestApp;
  let cookies: RoleCookies;
  let ownerId: string;
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let cohortId: string;
  const people: Record<string, { applicantId: string; applicationId: string }> = {};

  beforeAll(async () => {
    t = await createTestApp({ env: { MAIL_RATE_PER_MINUTE: "60" } });
    const sessions = await loginRoles(t.app);
    cookies = sessions.cookies;
    ownerId = sessions.adminIds.owner;
    const open = (
      (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{ id: string; status: string }>
    ).filter((s) => s.status === "open");
    cohortId = open[0]!.id;
    // Only our people in this cohort.
    await db()
      .update(applications)
      .set({ summerSchoolId: open[1]!.id })
      .where(eq(applications.summerSchoolId, cohortId));
    for (const [name, language] of [
      ["amara", "en"],
      ["li", "zh"],
      ["chloe", "fr"],
      ["rejected", "en"],
    ] as const) {
      people[name] = await createPaidReadyApplication(
        t.app,
        { email: `${name}.msg@example.com` },
        { schoolId: cohortId },
      );
      await db().update(applicants).set({ language }).where(eq(applicants.id, people[name]!.applicantId));
    }
    // Amara applied twice to the cohort: she is written to once.
    people.amaraAgain = await createPaidReadyApplication(
      t.app,
      { email: "amara.msg@example.com" },
      { schoolId: cohortId },
    );
    await db()
      .update(applications)
      .set({ status: "rejected" })
      .where(eq(applications.id, people.rejected!.applicationId));
    await db()
      .update(applications)
      .set({ paymentStatus: "deposit_paid" })
      .where(eq(applications.id, people.li!.applicationId));
  });
  afterAll(async () => {
    await t?.close();
  });

  const audience = () => ({ kind: "applicants" as const, cohortId });

  it("lets owners and admissions write, not finance nor anyone without a session", async () => {
    const draft = { audience: audience(), content: CONTENT };
    expect((await api("POST", "/api/admin/mailings/preview", cookies.owner, draft)).statusCode).toBe(200);
    expect((await api("POST", "/api/admin/mailings/preview", cookies.admissions, draft)).statusCode).toBe(
      200,
    );
    expect((await api("POST", "/api/admin/mailings/preview", cookies.finance, draft)).statusCode).toBe(403);
    expect((await api("POST", "/api/admin/mailings/preview", undefined, draft)).statusCode).toBe(401);
    expect((await api("GET", "/api/admin/mailings", cookies.finance)).statusCode).toBe(403);
    // Admissions choose among every cohort, not only those the public catalogue shows.
    const cohorts = await api("GET", "/api/admin/mailings/cohorts", cookies.admissions);
    expect(cohorts.statusCode).toBe(200);
    expect(cohorts.json()).toHaveLength((await db().select().from(summerSchools)).length);
    expect((await api("GET", "/api/admin/mailings/cohorts", cookies.finance)).statusCode).toBe(403);
  });

  it("refuses a message without its English subject, with the field's message", async () => {
    const res = await api("POST", "/api/admin/mailings/preview", cookies.owner, {
      audience: audience(),
      content: { ...CONTENT, subject: { ...CONTENT.subject, en: "" } },
    });
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain("subject");
  });

  it("previews the count per language and the message in each language, French falling back to English", async () => {
    const res = await api("POST", "/api/admin/mailings/preview", cookies.owner, {
      audience: audience(),
      content: CONTENT,
    });
    expect(res.json().recipients).toEqual({ total: 3, en: 1, zh: 1, fr: 1 });
    const previews = res.json().previews as Array<{
      language: string;
      subject: string;
      html: string;
      fallback: boolean;
    }>;
    expect(previews.map((p) => [p.language, p.subject, p.fallback])).toEqual([
      ["en", "The bus leaves at 9:00", false],
      ["zh", "巴士 9:00 出发", false],
      ["fr", "The bus leaves at 9:00", true],
    ]);
    const en = previews[0]!.html;
    expect(en).toContain("<ul><li>Bring your passport</li><li>Wear good shoes</li></ul>");
    expect(en).toContain('href="https://hague-summer-school.example/map"');
    expect(en).toContain("&#60;b&#62;Not bold&#60;/b&#62;");
    expect(en).not.toContain("<b>");
    // Balance due: the deposit is paid.
    const due = await api("POST", "/api/admin/mailings/preview", cookies.owner, {
      audience: { ...audience(), payment: "deposit_paid" },
      content: CONTENT,
    });
    expect(due.json().recipients).toEqual({ total: 1, en: 0, zh: 1, fr: 0 });
  });

  it("sends a test to the writer in each language", async () => {
    const res = await api("POST", "/api/admin/mailings/test", cookies.admissions, {
      audience: audience(),
      content: CONTENT,
    });
    expect(res.statusCode).toBe(202);
    const { to } = res.json();
    const tests = await db().select().from(emailOutbox).where(like(emailOutbox.dedupeKey, "mailing-test:%"));
    expect(tests).toHaveLength(3);
    expect(tests.every((e) => e.toAddress === to && e.subject.startsWith("[Test] "))).toBe(true);
  });

  it("queues a message to a cohort once per person in their language, throttled, and a second click sends nothing", async () => {
    const id = randomUUID();
    const body = { id, audience: audience(), content: CONTENT };
    const sent = await api("POST", "/api/admin/mailings", cookies.owner, body);
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toMatchObject({
      id,
      kind: "service",
      recipients: 3,
      counts: { waiting: 3, sent: 0, failed: 0 },
    });
    const again = await api("POST", "/api/admin/mailings", cookies.owner, body);
    expect(again.statusCode).toBe(200);
    const rows = await db()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `mailing:${id}:%`));
    expect(rows.map((r) => r.toAddress).sort()).toEqual([
      "amara.msg@example.com",
      "chloe.msg@example.com",
      "li.msg@example.com",
    ]);
    const byAddress = Object.fromEntries(rows.map((r) => [r.toAddress, r]));
    expect(byAddress["li.msg@example.com"]!.subject).toBe("巴士 9:00 出发");
    expect(byAddress["li.msg@example.com"]!.htmlBody).toContain('<html lang="zh"');
    expect(byAddress["chloe.msg@example.com"]!.subject).toBe("The bus leaves at 9:00");
    // No French text: the French reader gets the whole e-mail in English.
    expect(byAddress["chloe.msg@example.com"]!.htmlBody).toContain('<html lang="en"');
    expect(byAddress["li.msg@example.com"]!.textBody).toContain("您收到此邮件，是因为您申请了");
    // Why they receive it, in the e-mail's language.
    expect(byAddress["chloe.msg@example.com"]!.textBody).toContain(
      "You receive this e-mail because you applied to",
    );
    // One a second at 60 a minute.
    const times = rows.map((r) => r.notBefore!.getTime()).sort((a, b) => a - b);
    expect(times[1]! - times[0]!).toBe(1000);
    expect(times[2]! - times[1]!).toBe(1000);
    // Sent as their time comes: the first now, the others not yet.
    await t.app.services.mail.flush();
    const after = await api("GET", `/api/admin/mailings/${id}`, cookies.admissions);
    expect(after.json().counts).toMatchObject({ sent: 1, waiting: 2 });
    expect(after.json().queuedAt).not.toBeNull();
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "mailing.send"), eq(auditLog.entityId, id)));
    expect(audit).toHaveLength(1);
    expect(JSON.stringify(audit[0]!.after)).not.toContain("@example.com");
    const list = await api("GET", "/api/admin/mailings", cookies.owner);
    expect(list.json()[0]).toMatchObject({ id, subject: "The bus leaves at 9:00", recipients: 3 });
  });

  it("answers 422 when the filter picks no one, and 422 for an unknown cohort", async () => {
    const nobody = await api("POST", "/api/admin/mailings", cookies.owner, {
      id: randomUUID(),
      audience: { ...audience(), status: "withdrawn" },
      content: CONTENT,
    });
    expect(nobody.statusCode).toBe(422);
    expect(nobody.json().message).toMatch(/No one matches/);
    const unknown = await api("POST", "/api/admin/mailings/preview", cookies.owner, {
      audience: { kind: "waitingList", cohortId: randomUUID() },
      content: CONTENT,
    });
    expect(unknown.statusCode).toBe(422);
  });

  it("writes to a cohort's waiting list in each person's language", async () => {
    await db()
      .insert(waitingListEntries)
      .values([
        {
          summerSchoolId: cohortId,
          name: "Wei",
          email: "wei.wait@example.com",
          language: "zh",
          position: 1,
          consentedAt: new Date(),
          leaveTokenHash: hashToken(newToken()),
        },
        {
          summerSchoolId: cohortId,
          name: "Gone",
          email: "gone.wait@example.com",
          language: "en",
          position: 2,
          status: "left",
          consentedAt: new Date(),
          leaveTokenHash: hashToken(newToken()),
        },
      ]);
    const id = randomUUID();
    const res = await api("POST", "/api/admin/mailings", cookies.owner, {
      id,
      audience: { kind: "waitingList", cohortId },
      content: CONTENT,
    });
    expect(res.json().recipients).toBe(1);
    const [row] = await db()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `mailing:${id}:%`));
    expect(row).toMatchObject({ toAddress: "wei.wait@example.com", subject: "巴士 9:00 出发" });
    expect(row!.textBody).toContain("候补名单");
  });

  it("sends the newsletter to confirmed subscribers only, and its one-click unsubscribe works from the e-mail", async () => {
    await db()
      .insert(newsletterSubscribers)
      .values([
        {
          email: "reader@example.com",
          status: "confirmed",
          language: "fr",
          unsubscribeToken: newToken(),
          confirmedAt: new Date(),
        },
        {
          email: "pending.reader@example.com",
          status: "pending",
          language: "en",
          unsubscribeToken: newToken(),
        },
        {
          email: "left.reader@example.com",
          status: "unsubscribed",
          language: "en",
          unsubscribeToken: newToken(),
        },
      ]);
    const id = randomUUID();
    const res = await api("POST", "/api/admin/mailings", cookies.owner, {
      id,
      audience: { kind: "newsletter" },
      content: {
        ...CONTENT,
        subject: { ...CONTENT.subject, fr: "Le bus part à 9 h" },
        body: { ...CONTENT.body, fr: "Bonjour à toutes et à tous." },
      },
    });
    expect(res.json()).toMatchObject({ kind: "newsletter", recipients: 1 });
    const [row] = await db()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `mailing:${id}:%`));
    expect(row!.toAddress).toBe("reader@example.com");
    // The e-mail as the reader's mail program gets it: sent through the outbox, then parsed.
    await db().update(emailOutbox).set({ notBefore: null }).where(eq(emailOutbox.id, row!.id));
    const sentMessages: Buffer[] = [];
    const mail = t.app.services.mail as unknown as {
      transport: { sendMail: (m: unknown) => Promise<unknown> };
    };
    const original = mail.transport.sendMail.bind(mail.transport);
    mail.transport.sendMail = async (message) => {
      const info = (await original(message)) as { message: Buffer };
      sentMessages.push(info.message);
      return info;
    };
    try {
      await t.app.services.mail.flush();
    } finally {
      mail.transport.sendMail = original;
    }
    const parsed = await Promise.all(sentMessages.map((m) => PostalMime.parse(m)));
    const message = parsed.find((m) => m.subject === "Le bus part à 9 h")!;
    expect(message).toBeDefined();
    const header = (key: string) => message.headers.find((h) => h.key === key)?.value ?? "";
    expect(header("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const url = new URL(/<([^>]+)>/.exec(header("list-unsubscribe"))![1]!);
    // The mail program's one-click POST (RFC 8058).
    const click = await t.app.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(click.statusCode).toBe(200);
    const [reader] = await db()
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, "reader@example.com"));
    expect(reader!.status).toBe("unsubscribed");
    // The link in the text works too (the page's address in the reader's language).
    expect(message.text).toContain("/fr/newsletter/unsubscribe?token=");
  });

  it("names the cohort of the filter in the list, in the reader's language", async () => {
    const list = await api("GET", "/api/admin/mailings", cookies.owner);
    const cohortMessage = (
      list.json() as Array<{ audience: { kind: string }; cohortName: string | null }>
    ).find((m) => m.audience.kind === "applicants");
    const [cohort] = await db().select().from(summerSchools).where(eq(summerSchools.id, cohortId));
    expect(cohortMessage!.cohortName).toBe(cohort!.name.en);
  });

  it("never writes to a person erased before their e-mail was queued", async () => {
    const id = randomUUID();
    await db().insert(mailings).values({
      id,
      kind: "service",
      audience: audience(),
      subject: CONTENT.subject,
      body: CONTENT.body,
      createdBy: ownerId,
      recipientCount: 1,
    });
    await db().insert(mailingRecipients).values({
      mailingId: id,
      position: 0,
      email: "chloe.msg@example.com",
      language: "fr",
      applicationId: people.chloe!.applicationId,
    });
    const erased = await api(
      "POST",
      `/api/admin/applicants/${people.chloe!.applicantId}/erase`,
      cookies.owner,
      {
        confirm: "ERASE",
      },
    );
    expect(erased.statusCode).toBe(200);
    await t.app.services.mailings.queueDue();
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(like(emailOutbox.dedupeKey, `mailing:${id}:%`)),
    ).toHaveLength(0);
    expect(
      await db().select().from(mailingRecipients).where(eq(mailingRecipients.mailingId, id)),
    ).toHaveLength(0);
  });
});
