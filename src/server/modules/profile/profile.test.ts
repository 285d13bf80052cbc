/**
 * API tests of the student's own account (docs/product/portals.md#student-profile; decision 021): contact
 * details and e-mail language, password change, e-mail change with re-verification (applications
 * stay attached), data export and file download (nothing of another person), erasure request and
 * its completion by an admin; ownership of every route (another student, an affiliate, an
 * anonymous caller), and applications that belong to the account, linked at verification and payment.
 */
import { and, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminErasureRequest } from "../../../shared/schemas/profile";
import { applications, auditLog, emailOutbox, students } from "../../db/schema";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent, TEST_PASSWORD } from "../../testing/accounts";
import { apiOf, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { cookiesFrom, createTestApp, PDF_BYTES, type TestApp } from "../../testing/harness";

const WEBHOOK_SECRET = "whsec_profile_test_secret";
let t: TestApp;
const api = apiOf(() => t.app, SAME_ORIGIN);
const flow = paymentFlow(() => t, { addressPrefix: "10.81", webhookSecret: WEBHOOK_SECRET });
const db = () => t.database.db;

let seq = 0;
const address = () => {
  seq += 1;
  return `10.82.${Math.floor(seq / 250)}.${(seq % 250) + 1}`;
};

beforeAll(async () => {
  t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
});
afterAll(async () => {
  await t?.close();
});

/** Queued e-mails to an address, oldest first. */
async function mailTo(to: string) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, to));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The token of the newest e-mail to `to` whose link goes to `page`. */
async function tokenSentTo(to: string, page: string): Promise<string> {
  const last = (await mailTo(to)).filter((r) => r.textBody.includes(page)).at(-1);
  expect(last, `an e-mail to ${to} with ${page}`).toBeDefined();
  const match = last!.textBody.match(new RegExp(`${page.replace(/\//g, "\\/")}\\?token=([A-Za-z0-9_-]+)`));
  return match![1]!;
}

/** A student with a paid application (offline provider, webhook) made with the student's e-mail. */
async function studentWithPaidApplication(overrides: Record<string, unknown> = {}) {
  const signedIn = await loginAsStudent(t.app, overrides);
  const applied = await flow.newApplication(undefined, { email: signedIn.student.email, firstName: "Amara" });
  await flow.payByWebhook(applied);
  return { ...signedIn, applied };
}

const login = (email: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/student/login",
    payload: { email, password },
    remoteAddress: address(),
  });

const applicationIds = async (cookie: string) => {
  const res = await api("GET", "/api/student/applications", cookie);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Array<{ id: string }>).map((a) => a.id);
};

describe("who may call the profile routes", () => {
  it("answers 401 to an anonymous caller, an affiliate and an admin on every student profile route", async () => {
    const affiliate = (await loginAsAffiliate(t.app)).cookie;
    const admin = (await loginAsAdmin(t.app)).cookie;
    const routes: Array<[Parameters<typeof api>[0], string, unknown?]> = [
      ["GET", "/api/student/profile"],
      ["PATCH", "/api/student/profile", { firstName: "A", lastName: "B", language: "en" }],
      ["POST", "/api/student/profile/password", { currentPassword: "x", newPassword: "y" }],
      ["POST", "/api/student/profile/email", { newEmail: "a@example.com", currentPassword: "x" }],
      ["DELETE", "/api/student/profile/email"],
      ["GET", "/api/student/profile/export"],
      ["GET", "/api/student/profile/files/00000000-0000-4000-8000-000000000000"],
      ["POST", "/api/student/profile/erasure", {}],
    ];
    for (const [method, url, body] of routes) {
      for (const [who, cookie] of [
        ["anonymous", undefined],
        ["affiliate", affiliate],
        ["admin", admin],
      ] as const) {
        const res = await api(method, url, cookie, body);
        expect(res.statusCode, `${who} ${method} ${url}`).toBe(401);
      }
    }
  });

  it("lets only owners list and complete erasure requests (401 for students and affiliates, 403 for admissions)", async () => {
    const student = (await loginAsStudent(t.app)).cookie;
    const affiliate = (await loginAsAffiliate(t.app)).cookie;
    const admissions = (await loginAsAdmin(t.app, "admissions")).cookie;
    const id = "00000000-0000-4000-8000-000000000000";
    for (const [method, url] of [
      ["GET", "/api/admin/erasure-requests"],
      ["POST", `/api/admin/erasure-requests/${id}/complete`],
    ] as const) {
      expect((await api(method, url)).statusCode).toBe(401);
      expect((await api(method, url, student)).statusCode).toBe(401);
      expect((await api(method, url, affiliate)).statusCode).toBe(401);
      expect((await api(method, url, admissions)).statusCode).toBe(403);
    }
  });
});

describe("contact details and e-mail language", () => {
  it("shows the account with the phone of its latest application, and changes name and language with an audit entry", async () => {
    const { cookie, student } = await studentWithPaidApplication();
    const res = await api("GET", "/api/student/profile", cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(res.json()).toMatchObject({
      email: student.email,
      emailVerified: true,
      pendingEmail: null,
      language: "en",
      applicationPhone: "+234 801 234 5678",
      erasureRequestedAt: null,
    });

    const patched = await api("PATCH", "/api/student/profile", cookie, {
      firstName: "  Lina Mei ",
      lastName: "Bakker-Chen",
      language: "zh",
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ firstName: "Lina Mei", lastName: "Bakker-Chen", language: "zh" });
    const [row] = await db().select().from(students).where(eq(students.id, student.id));
    expect(row).toMatchObject({ firstName: "Lina Mei", language: "zh", version: 2 });
    const [audit] = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, student.id), eq(auditLog.action, "student.profile.update")));
    expect(audit).toMatchObject({ actorRole: "student", actorId: student.id });
    expect(audit!.after).toMatchObject({ firstName: "Lina Mei", language: "zh" });
  });

  it("refuses an empty name, a control character and an unknown language with 400 on the field", async () => {
    const { cookie } = await loginAsStudent(t.app);
    for (const [body, field] of [
      [{ firstName: "", lastName: "B", language: "en" }, "firstName"],
      [{ firstName: "A\u0000", lastName: "B", language: "en" }, "firstName"],
      [{ firstName: "A", lastName: "B", language: "de" }, "language"],
    ] as const) {
      const res = await api("PATCH", "/api/student/profile", cookie, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().fieldErrors[field]).toBeTruthy();
    }
  });

  it("lets an unverified account read and correct its profile, without any application data", async () => {
    const { cookie } = await loginAsStudent(t.app, { emailVerified: false });
    const res = await api("GET", "/api/student/profile", cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ emailVerified: false, applicationPhone: null });
  });
});

describe("password change", () => {
  it("needs the current password, applies the policy, keeps this session and ends the others", async () => {
    const { cookie, student, password } = await loginAsStudent(t.app);
    const other = cookiesFrom(await login(student.email, password));
    const url = "/api/student/profile/password";

    const wrong = await api("POST", url, cookie, {
      currentPassword: "not my password",
      newPassword: "a new long passphrase",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors.currentPassword).toBeTruthy();
    const short = await api("POST", url, cookie, { currentPassword: password, newPassword: "short" });
    expect(short.statusCode).toBe(400);
    const empty = await api("POST", url, cookie, { currentPassword: password });
    expect(empty.statusCode).toBe(400);

    const ok = await api("POST", url, cookie, {
      currentPassword: password,
      newPassword: "a new long passphrase",
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await api("GET", "/api/student/me", cookie)).statusCode).toBe(200);
    expect((await api("GET", "/api/student/me", other)).statusCode).toBe(401);
    expect((await login(student.email, password)).statusCode).toBe(401);
    expect((await login(student.email, "a new long passphrase")).statusCode).toBe(200);
    expect((await mailTo(student.email)).map((m) => m.subject)).toContain("Your password was changed");
  });

  it("answers 429 after 5 attempts in 15 minutes", async () => {
    const { cookie } = await loginAsStudent(t.app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await api("POST", "/api/student/profile/password", cookie, {
        currentPassword: "wrong guess",
        newPassword: "another long passphrase",
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429]);
  });
});

describe("e-mail change with re-verification", () => {
  it("switches only when the new address confirms; the applications stay attached; the old address is told", async () => {
    const { cookie, student, password, applied } = await studentWithPaidApplication();
    expect(await applicationIds(cookie)).toEqual([applied.applicationId]);
    const newEmail = `moved-${Date.now()}@example.com`;

    const started = await api("POST", "/api/student/profile/email", cookie, {
      newEmail: newEmail.toUpperCase(),
      currentPassword: password,
    });
    expect(started.statusCode, started.body).toBe(202);
    // Nothing changes until the link is used.
    expect((await api("GET", "/api/student/profile", cookie)).json()).toMatchObject({
      email: student.email,
      pendingEmail: newEmail,
    });
    const token = await tokenSentTo(newEmail, "/student/confirm-email");

    const confirmed = await api("POST", "/api/student/profile/email/confirm", undefined, { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email: newEmail });
    expect((await api("GET", "/api/student/profile", cookie)).json()).toMatchObject({
      email: newEmail,
      pendingEmail: null,
      emailVerified: true,
    });
    expect(await applicationIds(cookie)).toEqual([applied.applicationId]);
    const notice = (await mailTo(student.email)).at(-1)!;
    expect(notice.subject).toBe("The e-mail address of your student account was changed");
    expect(notice.textBody).toContain(newEmail);
    expect((await login(newEmail, password)).statusCode).toBe(200);
    expect((await api("POST", "/api/student/profile/email/confirm", undefined, { token })).statusCode).toBe(
      400,
    );

    // Someone registers the old address and verifies it: the applications stay with the account.
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/student/register",
      headers: SAME_ORIGIN.headers,
      payload: {
        firstName: "Other",
        lastName: "Person",
        email: student.email,
        password: "someone else's passphrase",
      },
      remoteAddress: address(),
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const verify = await tokenSentTo(student.email, "/student/verify-email");
    expect((await api("POST", "/api/student/verify-email", undefined, { token: verify })).statusCode).toBe(
      200,
    );
    expect(await applicationIds(cookiesFrom(registered))).toEqual([]);
    expect(await applicationIds(cookie)).toEqual([applied.applicationId]);
    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, student.id), eq(auditLog.action, "student.email.change")));
    expect(audit[0]!.after).toEqual({ email: newEmail });
  });

  it("refuses a wrong password, the same address, a malformed one and another account's address", async () => {
    const { cookie, student, password } = await loginAsStudent(t.app);
    const taken = (await loginAsStudent(t.app)).student.email;
    const url = "/api/student/profile/email";
    expect(
      (await api("POST", url, cookie, { newEmail: "x@example.com", currentPassword: "wrong one" }))
        .statusCode,
    ).toBe(400);
    expect(
      (await api("POST", url, cookie, { newEmail: student.email, currentPassword: password })).statusCode,
    ).toBe(400);
    expect(
      (await api("POST", url, cookie, { newEmail: "not an address", currentPassword: password })).statusCode,
    ).toBe(400);
    const inUse = await api("POST", url, cookie, { newEmail: taken, currentPassword: password });
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe(
      "This e-mail address cannot be used for your account. Please choose another one.",
    );
    expect(
      (
        await api("POST", `${url}/confirm`, undefined, {
          token: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        })
      ).statusCode,
    ).toBe(400);
    expect((await api("POST", `${url}/confirm`, undefined, { token: "has spaces" })).statusCode).toBe(400);
  });

  it("cancels a pending change: its link stops working", async () => {
    const { cookie, password } = await loginAsStudent(t.app);
    const newEmail = `cancelled-${Date.now()}@example.com`;
    expect(
      (await api("POST", "/api/student/profile/email", cookie, { newEmail, currentPassword: password }))
        .statusCode,
    ).toBe(202);
    const token = await tokenSentTo(newEmail, "/student/confirm-email");
    expect((await api("DELETE", "/api/student/profile/email", cookie)).statusCode).toBe(200);
    expect((await api("GET", "/api/student/profile", cookie)).json().pendingEmail).toBeNull();
    expect((await api("POST", "/api/student/profile/email/confirm", undefined, { token })).statusCode).toBe(
      400,
    );
  });
});

describe("applications belong to the account", () => {
  it("links the applications of the address when the account verifies it, and a paid application of a verified account", async () => {
    const email = `linking-${Date.now()}@example.com`;
    const earlier = await flow.newApplication(undefined, { email });
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/student/register",
      headers: SAME_ORIGIN.headers,
      payload: { firstName: "Amara", lastName: "Okafor", email, password: TEST_PASSWORD },
      remoteAddress: address(),
    });
    const cookie = cookiesFrom(registered);
    // Unverified: no application, and nothing of any cohort.
    expect((await api("GET", "/api/student/applications", cookie)).statusCode).toBe(403);
    const [before] = await db().select().from(applications).where(eq(applications.id, earlier.applicationId));
    expect(before!.studentId).toBeNull();

    const token = await tokenSentTo(email, "/student/verify-email");
    expect((await api("POST", "/api/student/verify-email", undefined, { token })).statusCode).toBe(200);
    const studentId = registered.json().user.id as string;
    const [linked] = await db().select().from(applications).where(eq(applications.id, earlier.applicationId));
    expect(linked!.studentId).toBe(studentId);

    const later = await flow.newApplication(undefined, { email: email.toUpperCase() });
    await flow.payByWebhook(later);
    const [paid] = await db().select().from(applications).where(eq(applications.id, later.applicationId));
    expect(paid!.studentId).toBe(studentId);
    expect(await applicationIds(cookie)).toEqual([later.applicationId, earlier.applicationId]);
  });
});

describe("download my data", () => {
  it("exports the account, its applications, payments and files, and nothing of another person", async () => {
    const mine = await studentWithPaidApplication();
    const theirs = await studentWithPaidApplication({ firstName: "Kwame" });

    const res = await api("GET", "/api/student/profile/export", mine.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers["cache-control"]).toBe("no-store");
    const data = res.json();
    expect(data.account).toMatchObject({ id: mine.student.id, email: mine.student.email });
    expect(data.applications).toHaveLength(1);
    const [application] = data.applications;
    expect(application).toMatchObject({
      id: mine.applied.applicationId,
      paymentStatus: "paid",
      amounts: { currency: "EUR", totalCents: 304500, paidCents: 304500 },
      applicant: { passportNumber: "A12345678", email: mine.student.email },
    });
    expect(application.applicant.accessTokenHash).toBeUndefined();
    expect(application.payments).toHaveLength(1);
    expect(application.payments[0]).toMatchObject({ amountCents: 304500, currency: "EUR" });
    expect(data.files).toHaveLength(1);
    expect(data.emails.length).toBeGreaterThan(0);
    for (const value of [
      theirs.student.id,
      theirs.student.email,
      theirs.applied.applicationId,
      theirs.applied.applicantId,
    ]) {
      expect(res.body).not.toContain(value);
    }

    // The passport: a download for its owner only.
    const file = await api("GET", data.files[0].downloadUrl, mine.cookie);
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("application/pdf");
    expect(file.headers["x-content-type-options"]).toBe("nosniff");
    expect(file.rawPayload.equals(PDF_BYTES)).toBe(true);
    expect((await api("GET", data.files[0].downloadUrl, theirs.cookie)).statusCode).toBe(404);
    expect(
      (await api("GET", data.files[0].downloadUrl, (await loginAsAffiliate(t.app)).cookie)).statusCode,
    ).toBe(401);
    expect((await api("GET", data.files[0].downloadUrl)).statusCode).toBe(401);
    expect((await api("GET", "/api/student/profile/files/not-a-uuid", mine.cookie)).statusCode).toBe(404);

    const audit = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, mine.student.id), eq(auditLog.action, "student.export")));
    expect(audit).toHaveLength(1);
  });

  it("gives everything as one ZIP archive: the data and the files themselves, nothing of another person", async () => {
    const mine = await studentWithPaidApplication();
    const theirs = await studentWithPaidApplication({ firstName: "Kwame" });
    const res = await api("GET", "/api/student/profile/export.zip", mine.cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers).toMatchObject({ "content-type": "application/zip", "cache-control": "no-store" });
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );
    const archive = unzipSync(new Uint8Array(res.rawPayload));
    expect(Object.keys(archive).sort()).toEqual(["files/passport-1.pdf", "my-data.json"]);
    expect(Buffer.from(archive["files/passport-1.pdf"]!).equals(PDF_BYTES)).toBe(true);
    const data = JSON.parse(strFromU8(archive["my-data.json"]!));
    expect(data.account).toMatchObject({ id: mine.student.id, email: mine.student.email });
    expect(data.applications.map((a: { id: string }) => a.id)).toEqual([mine.applied.applicationId]);
    expect(data.files).toEqual([
      expect.objectContaining({ kind: "passport", archivePath: "files/passport-1.pdf" }),
    ]);
    const text = strFromU8(archive["my-data.json"]!);
    for (const value of [theirs.student.email, theirs.applied.applicationId])
      expect(text).not.toContain(value);
    expect((await api("GET", "/api/student/profile/export.zip")).statusCode).toBe(401);
    expect(
      (await api("GET", "/api/student/profile/export.zip", (await loginAsAffiliate(t.app)).cookie))
        .statusCode,
    ).toBe(401);
  });

  it("lists e-mails by account and application: the new owner of an old address sees none of the previous owner's; the export holds the emergency contact and billing details (docs/product/privacy.md#data-export)", async () => {
    const mine = await studentWithPaidApplication();
    const id = mine.applied.applicationId;
    const contact = { name: "Ngozi Okafor", relationship: "Mother", phone: "+234 803 555 0101" };
    const saved = await api("PUT", `/api/student/applications/${id}/emergency-contact`, mine.cookie, contact);
    expect(saved.statusCode, saved.body).toBe(200);
    const billing = { organisationName: "University of Lagos", address: "Akoka, Lagos", vatNumber: "" };
    const billed = await api("PUT", `/api/student/applications/${id}/billing-details`, mine.cookie, billing);
    expect(billed.statusCode, billed.body).toBe(200);

    // The student moves to another address; someone else then owns the old one.
    const newEmail = `moved-${Date.now()}@example.com`;
    const started = await api("POST", "/api/student/profile/email", mine.cookie, {
      newEmail,
      currentPassword: mine.password,
    });
    expect(started.statusCode, started.body).toBe(202);
    const token = await tokenSentTo(newEmail, "/student/confirm-email");
    expect((await api("POST", "/api/student/profile/email/confirm", undefined, { token })).statusCode).toBe(
      200,
    );
    const newOwner = await loginAsStudent(t.app, { email: mine.student.email, firstName: "Other" });
    const sentToOldAddress = await mailTo(mine.student.email);
    expect(sentToOldAddress.length).toBeGreaterThan(0);

    const theirs = (await api("GET", "/api/student/profile/export", newOwner.cookie)).json();
    expect(theirs.account.email).toBe(mine.student.email);
    expect(theirs.applications).toEqual([]);
    expect(theirs.emails).toEqual([]);

    const data = (await api("GET", "/api/student/profile/export", mine.cookie)).json();
    // The previous owner keeps every e-mail written to them, at the old address and the new one.
    const subjects = data.emails.map((e: { subject: string }) => e.subject);
    for (const old of sentToOldAddress) expect(subjects).toContain(old.subject);
    expect(data.emails.some((e: { to: string }) => e.to === newEmail)).toBe(true);
    const [application] = data.applications;
    expect(application.emergencyContact).toEqual(contact);
    expect(application.billingDetails).toMatchObject({
      organisationName: "University of Lagos",
      address: "Akoka, Lagos",
    });
    expect(application.invoices).toHaveLength(1);
    expect(application.invoices[0]).toMatchObject({ kind: "invoice", totalCents: 304500 });
    expect(data.consents.applicationReminders).toEqual([expect.objectContaining({ applicationId: id })]);
  });

  it("gives an unverified account its account data only", async () => {
    const { cookie, student } = await loginAsStudent(t.app, { emailVerified: false });
    await flow.newApplication(undefined, { email: student.email });
    const data = (await api("GET", "/api/student/profile/export", cookie)).json();
    expect(data.account.email).toBe(student.email);
    expect(data.applications).toEqual([]);
    expect(data.files).toEqual([]);
  });
});

describe("erasure request", () => {
  it("records one open request that the owner sees, and completes it once the applicant is erased", async () => {
    const { cookie, student, password, applied } = await studentWithPaidApplication();
    const owner = (await loginAsAdmin(t.app, "owner")).cookie;

    const tooLong = await api("POST", "/api/student/profile/erasure", cookie, { message: "x".repeat(1001) });
    expect(tooLong.statusCode).toBe(400);
    const asked = await api("POST", "/api/student/profile/erasure", cookie, {
      message: "Please delete my data.",
    });
    expect(asked.statusCode, asked.body).toBe(201);
    expect((await api("POST", "/api/student/profile/erasure", cookie, {})).statusCode).toBe(409);
    expect((await api("GET", "/api/student/profile", cookie)).json().erasureRequestedAt).toBe(
      asked.json().requestedAt,
    );

    const list = await api("GET", "/api/admin/erasure-requests", owner);
    expect(list.statusCode, list.body).toBe(200);
    const request = (list.json().items as AdminErasureRequest[]).find((r) => r.student.id === student.id)!;
    expect(request).toMatchObject({
      status: "open",
      message: "Please delete my data.",
      applicants: [{ id: applied.applicantId, erased: false, applicationIds: [applied.applicationId] }],
    });
    expect((await api("GET", "/api/admin/erasure-requests?status=bogus", owner)).statusCode).toBe(400);

    const early = await api("POST", `/api/admin/erasure-requests/${request.id}/complete`, owner);
    expect(early.statusCode).toBe(409);
    const erased = await api("POST", `/api/admin/applicants/${applied.applicantId}/erase`, owner, {
      confirm: "ERASE",
    });
    expect(erased.statusCode, erased.body).toBe(200);
    const done = await api("POST", `/api/admin/erasure-requests/${request.id}/complete`, owner);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({ status: "completed", applicants: [{ erased: true }] });
    expect((await api("POST", `/api/admin/erasure-requests/${request.id}/complete`, owner)).statusCode).toBe(
      409,
    );

    expect((await api("GET", "/api/student/me", cookie)).statusCode).toBe(401);
    expect((await login(student.email, password)).statusCode).toBe(401);
    const [row] = await db().select().from(students).where(eq(students.id, student.id));
    expect(row).toMatchObject({
      firstName: "Erased",
      passwordHash: null,
      email: `erased-student-${student.id}@invalid`,
    });
    // The financial record stays.
    const [kept] = await db().select().from(applications).where(eq(applications.id, applied.applicationId));
    expect(kept).toMatchObject({ paymentStatus: "paid", amountPaidCents: 304500, studentId: student.id });
  });
});
