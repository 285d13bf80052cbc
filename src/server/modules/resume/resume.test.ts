/**
 * Save and resume (docs/product/admissions.md#resume-links, decision 028): the resume link is single-use, expires, answers the
 * same whether or not an application exists, only ever reaches the applicant's own mailbox and
 * opens only their own application; starting again with the same e-mail neither reveals nor merges
 * the other application; the reminder goes out once, a day after an abandoned application, only
 * with consent, and the opt-out works without signing in.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { savedDraftSchema } from "../../../shared/api/application";
import { applicants, applications, emailOutbox, summerSchools } from "../../db/schema";
import { addressSequence } from "../../testing/checkout";
import {
  applicantFixture,
  cookiesFrom,
  createPaidReadyApplication,
  createTestApp,
  type TestApp,
} from "../../testing/harness";
import { runResumeReminders } from "./service";

let t: TestApp;
const nextAddress = addressSequence("10.7");
const START = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 15, 10));
let clock = START;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp({ now: () => clock, env: { RESUME_LINK_TTL_MINUTES: "30" } });
});
afterAll(async () => {
  await t?.close();
});

let counter = 0;
/** A unique address per test, so limits and e-mails of one test never meet another's. */
const uniqueEmail = (name: string) => `${name}.${++counter}@example.com`;

/** Steps 1-2 of the wizard through the API for `email`: applicant, passport, application. */
function startApplication(email: string, overrides: Record<string, unknown> = {}) {
  return createPaidReadyApplication(t.app, { email, ...overrides }, { remoteAddress: nextAddress() });
}

/** Asks for a resume link, then waits for the work the route does after its answer (docs/product/portals.md#password-reset). */
async function requestLink(email: string, remoteAddress = nextAddress()) {
  const res = await t.app.inject({
    method: "POST",
    url: "/api/resume-links",
    payload: { email },
    remoteAddress,
  });
  await t.app.services.background.settled();
  return res;
}

function openLink(token: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/api/resume-links/use",
    payload: { token },
    headers,
    remoteAddress: nextAddress(),
  });
}

async function mailTo(address: string) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The token of the newest resume link e-mailed to `address`. */
async function linkSentTo(address: string): Promise<string> {
  const last = (await mailTo(address)).filter((r) => r.dedupeKey.startsWith("resume-link:")).at(-1);
  expect(last, `a resume link to ${address}`).toBeDefined();
  const match = last!.textBody.match(/\/apply\/resume\?token=([A-Za-z0-9_-]+)/);
  expect(match, last!.textBody).not.toBeNull();
  return match![1]!;
}

describe("asking for a resume link", () => {
  it("answers the same 202 whether or not an application exists, and e-mails only the applicant", async () => {
    const email = uniqueEmail("amara");
    await startApplication(email);
    const nobody = uniqueEmail("nobody");

    const forApplicant = await requestLink(email);
    const forNobody = await requestLink(nobody);

    expect(forApplicant.statusCode).toBe(202);
    expect(forNobody.statusCode).toBe(202);
    expect(forNobody.body).toBe(forApplicant.body);
    expect(forApplicant.headers["set-cookie"]).toBeUndefined();
    expect(await mailTo(nobody)).toHaveLength(0);
    const sent = (await mailTo(email)).filter((r) => r.dedupeKey.startsWith("resume-link:"));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.subject).toBe("Continue your application");
    expect(sent[0]!.textBody).toContain("for 30 minutes");
  });

  it("docs/product/portals.md#password-reset: answers before looking the address up, for an applicant and a stranger alike", async () => {
    const email = uniqueEmail("timing");
    await startApplication(email);
    const background = t.app.services.background;
    background.hold();
    try {
      for (const address of [email, uniqueEmail("stranger")]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/resume-links",
          payload: { email: address },
          remoteAddress: nextAddress(),
        });
        expect(res.statusCode).toBe(202);
      }
      // Answered, and nothing looked up or written yet: both answers came before the same work.
      expect(await mailTo(email)).toHaveLength(0);
    } finally {
      background.release();
    }
    await background.settled();
    expect((await mailTo(email)).filter((r) => r.dedupeKey.startsWith("resume-link:"))).toHaveLength(1);
  });

  it("writes the e-mail in the applicant's language", async () => {
    const email = uniqueEmail("li");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/applicants",
      payload: applicantFixture({ email }),
      headers: { "accept-language": "zh-CN" },
      remoteAddress: nextAddress(),
    });
    expect(created.statusCode, created.body).toBe(201);
    await requestLink(email);
    const [mail] = await mailTo(email);
    expect(mail!.subject).toBe("继续您的申请");
    expect(mail!.textBody).toContain("30 分钟内有效");
  });

  it("refuses a malformed address with a plain 400 and limits the e-mails one address receives", async () => {
    const bad = await requestLink("not-an-address");
    expect(bad.statusCode).toBe(400);

    const email = uniqueEmail("flood");
    await startApplication(email);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await requestLink(email)).statusCode);
    expect(answers).toEqual([202, 202, 202, 429]);
    expect((await mailTo(email)).filter((r) => r.dedupeKey.startsWith("resume-link:"))).toHaveLength(3);
  });
});

describe("using a resume link", () => {
  it("opens the wizard on another device at the payment step, passport included, and only once", async () => {
    const email = uniqueEmail("phone");
    const phone = await startApplication(email);
    await requestLink(email);
    const token = await linkSentTo(email);

    const used = await openLink(token);
    expect(used.statusCode, used.body).toBe(200);
    expect(used.headers["cache-control"]).toBe("no-store");
    expect(used.json()).toMatchObject({
      applicantId: phone.applicantId,
      applicationId: phone.applicationId,
      step: 3,
      summerSchoolId: phone.schoolId,
      passportUrl: `/api/applicants/${phone.applicantId}/passport`,
      personal: { email, firstName: "Amara", passportNumber: "A12345678", remindMe: false },
    });
    const desktop = cookiesFrom(used);
    const application = await t.app.inject({
      url: `/api/applications/${phone.applicationId}`,
      headers: { cookie: desktop },
    });
    expect(application.statusCode).toBe(200);
    expect(application.json().applicant.email).toBe(email);
    const passport = await t.app.inject({
      url: `/api/applicants/${phone.applicantId}/passport`,
      headers: { cookie: desktop },
    });
    expect(passport.statusCode).toBe(200);
    expect(passport.headers["content-type"]).toBe("application/pdf");

    // The link works once.
    const again = await openLink(token);
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe("This link has expired or was already used. Ask for a new link below.");
    expect(again.headers["set-cookie"]).toBeUndefined();
  });

  it("hands the application over: the browser that used the link owns it, the earlier one no longer", async () => {
    const email = uniqueEmail("handover");
    const phone = await startApplication(email);
    await requestLink(email);
    const used = await openLink(await linkSentTo(email));
    expect(used.statusCode).toBe(200);
    const old = await t.app.inject({
      url: `/api/applications/${phone.applicationId}`,
      headers: { cookie: phone.cookie },
    });
    expect(old.statusCode).toBe(404);
  });

  it("stops working once it expires", async () => {
    const email = uniqueEmail("late");
    await startApplication(email);
    await requestLink(email);
    const token = await linkSentTo(email);
    clock = new Date(START.getTime() + 31 * 60_000);
    try {
      const used = await openLink(token);
      expect(used.statusCode).toBe(400);
      expect(used.json().message).toMatch(/expired/);
    } finally {
      clock = START;
    }
  });

  it("stops working when a newer link is asked for", async () => {
    const email = uniqueEmail("twice");
    await startApplication(email);
    await requestLink(email);
    const first = await linkSentTo(email);
    await requestLink(email);
    const second = await linkSentTo(email);
    expect(second).not.toBe(first);
    expect((await openLink(first)).statusCode).toBe(400);
    expect((await openLink(second)).statusCode).toBe(200);
  });

  it("never opens another person's application: a link asked for with their e-mail goes to them", async () => {
    const victim = uniqueEmail("victim");
    const theirs = await startApplication(victim);
    const intruder = await startApplication(uniqueEmail("intruder"));

    // The intruder types the victim's address: the same answer, nothing for the intruder.
    const asked = await requestLink(victim);
    expect(asked.statusCode).toBe(202);
    expect(asked.headers["set-cookie"]).toBeUndefined();
    expect((await mailTo(victim)).filter((r) => r.dedupeKey.startsWith("resume-link:"))).toHaveLength(1);
    // The intruder's own capability and a made-up token open nothing of the victim's.
    const read = await t.app.inject({
      url: `/api/applications/${theirs.applicationId}`,
      headers: { cookie: intruder.cookie },
    });
    expect(read.statusCode).toBe(404);
    expect((await openLink("A".repeat(43))).statusCode).toBe(400);
    // The victim's own link still works for the victim.
    expect((await openLink(await linkSentTo(victim))).json().applicantId).toBe(theirs.applicantId);
  });

  it("starting again with the same e-mail neither reveals nor merges the earlier application", async () => {
    const email = uniqueEmail("again");
    const first = await startApplication(email);
    const second = await startApplication(email, { firstName: "Someone" });

    expect(second.applicantId).not.toBe(first.applicantId);
    expect(second.applicationId).not.toBe(first.applicationId);
    const peek = await t.app.inject({
      url: `/api/applications/${first.applicationId}`,
      headers: { cookie: second.cookie },
    });
    expect(peek.statusCode).toBe(404);
    const [earlier] = await db().select().from(applications).where(eq(applications.id, first.applicationId));
    expect(earlier!.applicantId).toBe(first.applicantId);
    // The link opens the newest application of the address, never both.
    await requestLink(email);
    expect((await openLink(await linkSentTo(email))).json().applicationId).toBe(second.applicationId);
  });

  it("an applicant whose application was paid gets no link (the student portal takes over)", async () => {
    const email = uniqueEmail("paid");
    const done = await startApplication(email);
    await db()
      .update(applications)
      .set({ paymentStatus: "paid", status: "submitted" })
      .where(eq(applications.id, done.applicationId));
    expect((await requestLink(email)).statusCode).toBe(202);
    expect((await mailTo(email)).filter((r) => r.dedupeKey.startsWith("resume-link:"))).toHaveLength(0);
  });
});

describe("coming back on the same device (docs/product/admissions.md#next-steps)", () => {
  const draftOf = (cookie?: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      url: "/api/resume/draft",
      headers: { ...headers, ...(cookie ? { cookie } : {}) },
      remoteAddress: nextAddress(),
    });

  it("offers the application this browser left, with when it was saved and the programme, in the visitor's language", async () => {
    const email = uniqueEmail("same-device");
    const before = Date.now();
    const phone = await startApplication(email);
    const res = await draftOf(phone.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { draft } = savedDraftSchema.parse(res.json());
    expect(draft).not.toBeNull();
    expect(draft!.wizard).toMatchObject({
      applicantId: phone.applicantId,
      applicationId: phone.applicationId,
      step: 3,
      summerSchoolId: phone.schoolId,
      passportUrl: `/api/applicants/${phone.applicantId}/passport`,
      personal: { email, firstName: "Amara" },
    });
    const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, phone.schoolId));
    expect(draft!.programme).toEqual({
      name: school!.name.en,
      startDate: school!.startDate,
      endDate: school!.endDate,
    });
    expect(new Date(draft!.savedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
    const zh = savedDraftSchema.parse((await draftOf(phone.cookie, { "accept-language": "zh" })).json());
    expect(zh.draft!.programme!.name).toBe(school!.name.zh);
  });

  it("offers nothing to a browser without the cookie, or with one that holds no application", async () => {
    expect((await draftOf()).json()).toEqual({ draft: null });
    expect((await draftOf("applicant_access=not-a-real-capability")).json()).toEqual({ draft: null });
  });

  it("offers the applicant's details when no application was made yet (the programme is chosen again)", async () => {
    const email = uniqueEmail("details-only");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/applicants",
      payload: applicantFixture({ email }),
      remoteAddress: nextAddress(),
    });
    expect(created.statusCode).toBe(201);
    const { draft } = savedDraftSchema.parse((await draftOf(cookiesFrom(created))).json());
    expect(draft).toMatchObject({ programme: null, wizard: { step: 1, applicationId: null } });
    expect(draft!.wizard.personal.email).toBe(email);
  });

  it("offers nothing once the application was paid, nor after a resume link handed it to another browser", async () => {
    const paid = await startApplication(uniqueEmail("paid-draft"));
    await db()
      .update(applications)
      .set({ status: "submitted", paymentStatus: "paid" })
      .where(eq(applications.id, paid.applicationId));
    expect((await draftOf(paid.cookie)).json()).toEqual({ draft: null });

    const email = uniqueEmail("handed-over");
    const phone = await startApplication(email);
    await requestLink(email);
    const used = await openLink(await linkSentTo(email));
    expect((await draftOf(phone.cookie)).json()).toEqual({ draft: null });
    const desktop = savedDraftSchema.parse((await draftOf(cookiesFrom(used))).json());
    expect(desktop.draft!.wizard.applicationId).toBe(phone.applicationId);
  });

  it("starting a new one forgets the application in this browser only; the e-mailed link still opens it", async () => {
    const email = uniqueEmail("start-new");
    const phone = await startApplication(email);
    const forgot = await t.app.inject({
      method: "DELETE",
      url: "/api/resume/draft",
      headers: { cookie: phone.cookie, origin: "http://localhost:3000" },
      remoteAddress: nextAddress(),
    });
    expect(forgot.statusCode, forgot.body).toBe(204);
    const cleared = String(forgot.headers["set-cookie"]);
    expect(cleared).toMatch(/^applicant_access=;/);
    expect(cleared).toMatch(/Path=\/api/);
    const [kept] = await db().select().from(applications).where(eq(applications.id, phone.applicationId));
    expect(kept!.status).toBe("pending_payment");
    await requestLink(email);
    const used = await openLink(await linkSentTo(email));
    expect(used.json().applicationId).toBe(phone.applicationId);
  });
});

describe("the abandoned-application reminder", () => {
  const HOUR = 3600_000;

  /** An application of `email` whose applicant and application last changed at `at`. */
  async function abandoned(email: string, at: Date, remindMe: boolean) {
    const made = await startApplication(email, { remindMe });
    await db().update(applicants).set({ updatedAt: at }).where(eq(applicants.id, made.applicantId));
    await db().update(applications).set({ updatedAt: at }).where(eq(applications.id, made.applicationId));
    return made;
  }
  const remindAt = (now: Date) =>
    runResumeReminders({
      db: db(),
      mail: t.app.services.mail,
      now: () => now,
      origin: "https://school.example",
      supportEmail: "admissions@school.example",
    });
  const reminders = async (email: string) =>
    (await mailTo(email)).filter((r) => r.dedupeKey.startsWith("resume-reminder:"));

  it("goes out once, a day after the last change, only with consent, and stops with one click", async () => {
    const consented = uniqueEmail("remindme");
    const silent = uniqueEmail("silent");
    const left = new Date(Date.UTC(2031, 2, 1, 9));
    const made = await abandoned(consented, left, true);
    await abandoned(silent, left, false);

    await remindAt(new Date(left.getTime() + 23 * HOUR));
    expect(await reminders(consented)).toHaveLength(0);

    await remindAt(new Date(left.getTime() + 25 * HOUR));
    await remindAt(new Date(left.getTime() + 26 * HOUR));
    const sent = await reminders(consented);
    expect(sent).toHaveLength(1);
    expect(await reminders(silent)).toHaveLength(0);
    expect(sent[0]!.textBody).toContain("https://school.example/en/apply/resume");
    expect(sent[0]!.textBody).not.toMatch(/apply\/resume\?token=/);

    const optOut = sent[0]!.textBody.match(/\/apply\/reminders\/stop\?token=([A-Za-z0-9_-]+)/)![1]!;
    const stopped = await t.app.inject({
      method: "POST",
      url: "/api/resume-reminders/opt-out",
      payload: { token: optOut },
      remoteAddress: nextAddress(),
    });
    expect(stopped.statusCode).toBe(200);
    const [row] = await db().select().from(applicants).where(eq(applicants.id, made.applicantId));
    expect(row!.remindMe).toBe(false);
  });

  it("is not sent for a paid application, nor once the same address paid a newer application", async () => {
    const email = uniqueEmail("paidlater");
    const left = new Date(Date.UTC(2031, 2, 1, 9));
    await abandoned(email, left, true);
    const newer = await startApplication(email);
    await db()
      .update(applications)
      .set({ paymentStatus: "paid", status: "submitted" })
      .where(eq(applications.id, newer.applicationId));
    await remindAt(new Date(left.getTime() + 25 * HOUR));
    expect(await reminders(email)).toHaveLength(0);
  });
});
