/**
 * API tests of the back office's student accounts (docs/product/back-office.md#students-admin), the
 * "resend verification e-mail" calls (public and admin), the admin team's self-protection and the
 * audit log's filters and CSV export: success, validation (400), permissions (401 anonymous, 401
 * with a student session, 403 for the wrong admin role), unknown ids (404), stale versions (409)
 * and the audit entries every change writes.
 */
import { randomUUID } from "node:crypto";
import { and, asc, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AuditPage } from "../../../shared/admin";
import { auditFacetsSchema, auditPageSchema } from "../../../shared/schemas/audit";
import type {
  AdminStudentDetail,
  AdminStudentList,
  AuditFacets,
  StudentLinkSent,
} from "../../../shared/students-admin";
import {
  affiliates,
  applicants,
  applications,
  emailOutbox,
  housingOptions,
  packages,
  payments,
  sessions,
  students,
  summerSchools,
} from "../../db/schema";
import { hashToken, newToken } from "../../lib/tokens";
import { loginAsAdmin, loginAsStudent, TEST_PASSWORD } from "../../testing/accounts";
import {
  apiOf,
  auditEntries,
  expectCsvDownload,
  expectRouteStatuses,
  latestAuditEntry,
  loginRoles,
  type Method,
  type RoleSessions,
} from "../../testing/admin";
import { createTestApp, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";

let t: TestApp;
let cookies: RoleSessions["cookies"];
let adminIds: RoleSessions["adminIds"];
let schools: Array<typeof summerSchools.$inferSelect>;

const db = () => t.database.db;

const api = apiOf(() => t.app);

const uniqueEmail = (label: string) => `${label}-${randomUUID().slice(0, 8)}@example.com`;

/** Inserts a student account directly (no e-mail), for list and detail tests. */
async function seedStudent(values: Partial<typeof students.$inferInsert> = {}) {
  const [row] = await db()
    .insert(students)
    .values({
      email: uniqueEmail("student"),
      firstName: "Mei",
      lastName: "Zhang",
      passwordHash: "argon2-placeholder",
      emailVerifiedAt: new Date(),
      ...values,
    })
    .returning();
  return row!;
}

/** Inserts an applicant with `email` and an application for the school of `schoolIndex`. */
async function seedApplication(
  email: string,
  s: {
    paymentStatus?: typeof applications.$inferInsert.paymentStatus;
    amountPaidCents?: number;
    schoolIndex?: number;
    payment?: { amountCents: number; reference: string };
  } = {},
) {
  const school = schools[s.schoolIndex ?? 2]!;
  const [pkg] = await db()
    .select()
    .from(packages)
    .where(eq(packages.summerSchoolId, school.id))
    .orderBy(asc(packages.sortOrder))
    .limit(1);
  const [housing] = await db()
    .select()
    .from(housingOptions)
    .where(and(eq(housingOptions.summerSchoolId, school.id), eq(housingOptions.priceAdjustmentCents, 0)));
  const [applicant] = await db()
    .insert(applicants)
    .values({
      firstName: "Mei",
      lastName: "Zhang",
      email,
      phone: "+86 10 1234 5678",
      address: "1 Chang'an Avenue",
      city: "Beijing",
      postalCode: "100000",
      countryOfResidence: "CN",
      nationality: "CN",
      dateOfBirth: "2002-06-01",
      passportNumber: "E99887766",
      university: "Peking University",
      fieldOfStudy: "economics",
      studentStatus: "undergraduate",
      accessTokenHash: hashToken(newToken()),
    })
    .returning();
  const [application] = await db()
    .insert(applications)
    .values({
      applicantId: applicant!.id,
      summerSchoolId: school.id,
      packageId: pkg!.id,
      housingOptionId: housing!.id,
      status: "submitted",
      paymentStatus: s.paymentStatus ?? "paid",
      totalAmountCents: 304500,
      amountPaidCents: s.amountPaidCents ?? 0,
    })
    .returning();
  if (s.payment) {
    await db()
      .insert(payments)
      .values({
        applicationId: application!.id,
        provider: "offline",
        providerSessionId: `cs_test_${randomUUID()}`,
        providerReference: s.payment.reference,
        amountCents: s.payment.amountCents,
        currency: "EUR",
        paidAt: new Date(),
      });
  }
  return { applicationId: application!.id, schoolId: school.id };
}

/** The e-mails queued for an address, newest first. */
const mailsTo = (address: string) =>
  db()
    .select()
    .from(emailOutbox)
    .where(eq(emailOutbox.toAddress, address))
    .orderBy(desc(emailOutbox.createdAt));

/** The one-time token of an e-mailed link. */
const tokenOf = (text: string) => /token=([A-Za-z0-9_-]+)/.exec(text)?.[1];

/** The audit entries of an entity, newest first. */
const auditOf = (entityId: string) => auditEntries(db(), { entityId }, "newest");

beforeAll(async () => {
  t = await createTestApp();
  schools = await db().select().from(summerSchools).orderBy(asc(summerSchools.startDate));
  ({ cookies, adminIds } = await loginRoles(t.app));
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** `GET /api/admin/audit?<query>` as the owner: 200, checked against the page's shared schema. */
async function auditPage(query: string): Promise<AuditPage> {
  const res = await api("GET", `/api/admin/audit?${query}`, cookies.owner);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expectParses(auditPageSchema, body);
  return body as AuditPage;
}

describe("permissions of the student routes", () => {
  const someId = randomUUID();
  const routes: Array<{ method: Method; url: string; body?: unknown; write: boolean }> = [
    { method: "GET", url: "/api/admin/students", write: false },
    { method: "GET", url: "/api/admin/students.csv", write: false },
    { method: "GET", url: `/api/admin/students/${someId}`, write: false },
    {
      method: "POST",
      url: "/api/admin/students",
      body: { email: "x@example.com", firstName: "X", lastName: "Y", language: "en" },
      write: true,
    },
    {
      method: "PATCH",
      url: `/api/admin/students/${someId}`,
      body: { firstName: "X", version: 1 },
      write: true,
    },
    { method: "POST", url: `/api/admin/students/${someId}/resend-verification`, write: true },
    { method: "POST", url: `/api/admin/students/${someId}/send-password-reset`, write: true },
  ];

  it("answers 401 without a session and with a student's or an affiliate's session", async () => {
    await expectRouteStatuses(api, cookies, routes, { anonymous: 401, student: 401, affiliate: 401 });
  });

  it("lets finance read students but refuses every change with 403 (and changes nothing)", async () => {
    const before = await db().select().from(students);
    await expectRouteStatuses(api, cookies, routes, (route) => ({
      finance: route.write ? 403 : { not: 403 },
    }));
    expect(await db().select().from(students)).toEqual(before);
  });
});

describe("GET /api/admin/students (list, filters, sort, pagination) and the CSV export", () => {
  let paidStudent: typeof students.$inferSelect;
  let unverified: typeof students.$inferSelect;
  let disabled: typeof students.$inferSelect;
  const tag = `Listtag${randomUUID().slice(0, 6)}`;

  beforeAll(async () => {
    paidStudent = await seedStudent({ lastName: `${tag}Alpha`, email: uniqueEmail("alpha") });
    unverified = await seedStudent({ lastName: `${tag}Beta`, emailVerifiedAt: null });
    disabled = await seedStudent({ lastName: `${tag}Gamma`, disabledAt: new Date() });
    // Two applications with the paid student's address (one paid, written in capitals), one unpaid.
    await seedApplication(paidStudent.email.toUpperCase(), { amountPaidCents: 304500, schoolIndex: 2 });
    await seedApplication(paidStudent.email, { paymentStatus: "unpaid", schoolIndex: 3 });
    await seedApplication(unverified.email, { paymentStatus: "pending", schoolIndex: 3 });
  });

  it("counts the applications, paid applications and amount paid of each account's e-mail", async () => {
    const res = await api("GET", `/api/admin/students?q=${tag}&sort=lastName:asc`, cookies.admissions);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json() as AdminStudentList;
    expect(body).toMatchObject({ total: 3, page: 1, pageSize: 25 });
    expect(body.items.map((s) => s.id)).toEqual([paidStudent.id, unverified.id, disabled.id]);
    expect(body.items[0]).toMatchObject({
      email: paidStudent.email,
      applicationCount: 2,
      paidApplicationCount: 1,
      amountPaid: 304500,
      emailVerified: true,
      disabled: false,
    });
    expect(body.items[1]).toMatchObject({
      applicationCount: 1,
      paidApplicationCount: 0,
      emailVerified: false,
    });
    expect(body.items[2]).toMatchObject({ applicationCount: 0, amountPaid: 0, disabled: true });
  });

  it("filters by verified, disabled, paid application and summer school; searches names and e-mail", async () => {
    const ids = async (query: string) =>
      (
        (await api("GET", `/api/admin/students?q=${tag}&${query}`, cookies.owner)).json() as AdminStudentList
      ).items
        .map((s) => s.id)
        .sort();
    expect(await ids("verified=no")).toEqual([unverified.id]);
    expect(await ids("disabled=yes")).toEqual([disabled.id]);
    expect(await ids("paid=yes")).toEqual([paidStudent.id]);
    expect(await ids("paid=no")).toEqual([unverified.id, disabled.id].sort());
    expect(await ids(`schoolId=${schools[3]!.id}`)).toEqual([paidStudent.id, unverified.id].sort());
    expect(await ids(`schoolId=${schools[0]!.id}`)).toEqual([]);
    const byEmail = (await api("GET", `/api/admin/students?q=${paidStudent.email}`, cookies.owner)).json();
    expect((byEmail as AdminStudentList).items.map((s) => s.id)).toEqual([paidStudent.id]);
    const byFullName = (await api("GET", `/api/admin/students?q=Mei%20${tag}Be`, cookies.owner)).json();
    expect((byFullName as AdminStudentList).items.map((s) => s.id)).toEqual([unverified.id]);
    // `%` and `_` are searched literally.
    expect((await api("GET", "/api/admin/students?q=%25", cookies.owner)).json()).toMatchObject({ total: 0 });
  });

  it("sorts by amount paid and pages without overlap", async () => {
    const sorted = (
      await api("GET", `/api/admin/students?q=${tag}&sort=amountPaid:desc`, cookies.owner)
    ).json() as AdminStudentList;
    expect(sorted.items[0]!.id).toBe(paidStudent.id);
    const first = (
      await api("GET", `/api/admin/students?q=${tag}&sort=lastName:asc&pageSize=2`, cookies.owner)
    ).json() as AdminStudentList;
    const second = (
      await api("GET", `/api/admin/students?q=${tag}&sort=lastName:asc&pageSize=2&page=2`, cookies.owner)
    ).json() as AdminStudentList;
    expect(first.items.map((s) => s.id)).toEqual([paidStudent.id, unverified.id]);
    expect(second.items.map((s) => s.id)).toEqual([disabled.id]);
    expect(second).toMatchObject({ total: 3, page: 2, pageSize: 2 });
  });

  it("answers 400 for a malformed query", async () => {
    for (const query of ["page=0", "pageSize=500", "sort=password:asc", "verified=maybe", "schoolId=42"]) {
      const res = await api("GET", `/api/admin/students?${query}`, cookies.owner);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().message).toEqual(expect.any(String));
    }
  });

  it("exports the filtered accounts as CSV (euros, BOM, attachment) and records the export", async () => {
    const res = await api("GET", `/api/admin/students.csv?q=${tag}&paid=yes`, cookies.finance);
    const lines = expectCsvDownload(res, "students");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("Amount paid (EUR)");
    expect(lines[1]).toContain(paidStudent.email);
    expect(lines[1]).toContain("3045.00");
    const entry = await latestAuditEntry(db(), { action: "students.export", actorId: adminIds.finance });
    expect(entry.after).toMatchObject({ rows: 1 });
  });
});

describe("POST /api/admin/students (add a student)", () => {
  it("creates the account without a password and e-mails a link that sets it (and confirms the address)", async () => {
    const email = uniqueEmail("added");
    const res = await api("POST", "/api/admin/students", cookies.admissions, {
      email: `  ${email.toUpperCase()} `,
      firstName: " Kwame ",
      lastName: "Mensah",
      language: "fr",
    });
    expect(res.statusCode).toBe(201);
    const detail = res.json() as AdminStudentDetail;
    expect(detail).toMatchObject({
      email,
      firstName: "Kwame",
      lastName: "Mensah",
      language: "fr",
      emailVerified: false,
      hasPassword: false,
      disabled: false,
      version: 1,
      applications: [],
      payments: [],
    });
    const [mail] = await mailsTo(email);
    expect(mail?.subject).toBe("Votre compte étudiant à l’Université d’été de La Haye");
    expect(mail?.textBody).toContain("/student/reset-password?token=");
    const [entry] = await auditOf(detail.id);
    expect(entry).toMatchObject({ action: "student.create", actorId: adminIds.admissions, before: null });
    expect(entry?.after).toMatchObject({ email, disabled: false });

    // No password yet: login fails like a wrong password.
    const refused = await api(
      "POST",
      "/api/student/login",
      undefined,
      { email, password: TEST_PASSWORD },
      { remoteAddress: "10.91.0.1" },
    );
    expect(refused.statusCode).toBe(401);
    const set = await api("POST", "/api/student/password-reset/confirm", undefined, {
      token: tokenOf(mail!.textBody),
      password: TEST_PASSWORD,
    });
    expect(set.statusCode).toBe(200);
    const login = await api(
      "POST",
      "/api/student/login",
      undefined,
      { email, password: TEST_PASSWORD },
      { remoteAddress: "10.91.0.2" },
    );
    expect(login.statusCode).toBe(200);
    expect(login.json().user).toMatchObject({ email, emailVerified: true });
  });

  it("answers 409 with the existing account's id when the address already has an account", async () => {
    const existing = await seedStudent();
    const res = await api("POST", "/api/admin/students", cookies.owner, {
      email: existing.email.toUpperCase(),
      firstName: "Other",
      lastName: "Person",
      language: "en",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      message: "A student account with this e-mail address already exists.",
      existingId: existing.id,
    });
    expect(await mailsTo(existing.email)).toHaveLength(0);
    expect(await auditOf(existing.id)).toHaveLength(0);
  });

  it("answers 400 with field errors for a missing name, an invalid e-mail or language", async () => {
    const res = await api("POST", "/api/admin/students", cookies.owner, {
      email: "not-an-address",
      firstName: "",
      lastName: "Mensah",
      language: "de",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toMatchObject({
      email: "Please enter a valid email address.",
      firstName: "This field is required.",
      language: "Please choose one of the options.",
    });
    const malformed = await api("POST", "/api/admin/students", cookies.owner, "{", {
      headers: { "content-type": "application/json" },
    });
    expect(malformed.statusCode).toBe(400);
  });
});

describe("GET /api/admin/students/:id (detail)", () => {
  it("shows the account, every application with its e-mail (saying which are paid) and their payments", async () => {
    const student = await seedStudent({ email: uniqueEmail("detail"), language: "zh" });
    const paid = await seedApplication(student.email, {
      amountPaidCents: 304500,
      payment: { amountCents: 304500, reference: "pi_offline_detail" },
    });
    const unpaid = await seedApplication(student.email, { paymentStatus: "unpaid", schoolIndex: 3 });
    await seedApplication(uniqueEmail("someone-else"));
    const res = await api("GET", `/api/admin/students/${student.id}`, cookies.finance);
    expect(res.statusCode).toBe(200);
    const detail = res.json() as AdminStudentDetail;
    expect(detail).toMatchObject({
      id: student.id,
      email: student.email,
      language: "zh",
      emailVerified: true,
    });
    expect(detail.applications.map((a) => [a.id, a.paid])).toEqual(
      expect.arrayContaining([
        [paid.applicationId, true],
        [unpaid.applicationId, false],
      ]),
    );
    expect(detail.applications).toHaveLength(2);
    expect(detail.payments).toEqual([
      expect.objectContaining({
        applicationId: paid.applicationId,
        amount: 304500,
        reference: "pi_offline_detail",
        currency: "EUR",
      }),
    ]);
    expect(detail.payments[0]!.programName).not.toBe("");
  });

  it("shows when a signed-in student's newest session started", async () => {
    const { student } = await loginAsStudent(t.app);
    const detail = (await api("GET", `/api/admin/students/${student.id}`, cookies.owner)).json();
    expect(Date.parse((detail as AdminStudentDetail).lastLoginAt ?? "")).toBeGreaterThan(Date.now() - 60_000);
  });

  it("answers 404 { error, message } for an unknown or malformed id", async () => {
    for (const id of [randomUUID(), "42", "not-a-uuid"]) {
      const res = await api("GET", `/api/admin/students/${id}`, cookies.owner);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ error: "not_found", message: expect.any(String) });
    }
  });
});

describe("PATCH /api/admin/students/:id (edit, disable, enable)", () => {
  it("changes names and language, bumps the version and audits only the changed fields", async () => {
    const student = await seedStudent();
    const res = await api("PATCH", `/api/admin/students/${student.id}`, cookies.admissions, {
      firstName: "Meilin",
      language: "zh",
      version: 1,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ firstName: "Meilin", lastName: "Zhang", language: "zh", version: 2 });
    const [entry] = await auditOf(student.id);
    expect(entry).toMatchObject({ action: "student.update", actorId: adminIds.admissions });
    expect(entry?.before).toEqual({ firstName: "Mei", language: "en", version: 1 });
    expect(entry?.after).toEqual({ firstName: "Meilin", language: "zh", version: 2 });
  });

  it("answers 409 with the current account on a stale version, and changes nothing", async () => {
    const student = await seedStudent();
    expect(
      (await api("PATCH", `/api/admin/students/${student.id}`, cookies.owner, { lastName: "Li", version: 1 }))
        .statusCode,
    ).toBe(200);
    const stale = await api("PATCH", `/api/admin/students/${student.id}`, cookies.admissions, {
      lastName: "Wang",
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    const body = stale.json() as { message: string; current: AdminStudentDetail };
    expect(body.message).toMatch(/changed by someone else/);
    expect(body.current).toMatchObject({ lastName: "Li", version: 2 });
    const [row] = await db().select().from(students).where(eq(students.id, student.id));
    expect(row).toMatchObject({ lastName: "Li", version: 2 });
    expect(await auditOf(student.id)).toHaveLength(1);
  });

  it("disabling ends the student's sessions and refuses their login; enabling lets them log in again (S2)", async () => {
    const { student, cookie, password } = await loginAsStudent(t.app);
    expect((await api("GET", "/api/student/me", cookie)).statusCode).toBe(200);
    const off = await api("PATCH", `/api/admin/students/${student.id}`, cookies.owner, {
      disabled: true,
      version: 1,
    });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({ disabled: true, version: 2 });
    expect((await api("GET", "/api/student/me", cookie)).statusCode).toBe(401);
    const live = await db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.role, "student"), eq(sessions.accountId, student.id)));
    expect(live).toHaveLength(0);
    const login = () =>
      api(
        "POST",
        "/api/student/login",
        undefined,
        { email: student.email, password },
        { remoteAddress: "10.92.0.1" },
      );
    expect((await login()).statusCode).toBe(401);
    expect((await auditOf(student.id))[0]).toMatchObject({
      action: "student.disable",
      before: { disabled: false, version: 1 },
      after: { disabled: true, version: 2 },
    });
    const on = await api("PATCH", `/api/admin/students/${student.id}`, cookies.admissions, {
      disabled: false,
      version: 2,
    });
    expect(on.json()).toMatchObject({ disabled: false, version: 3 });
    expect((await auditOf(student.id))[0]).toMatchObject({ action: "student.enable" });
    expect((await login()).statusCode).toBe(200);
  });

  it("answers 400 for an empty change, a missing version or an empty name; 404 for an unknown id", async () => {
    const student = await seedStudent();
    for (const body of [
      { version: 1 },
      { firstName: "A" },
      { firstName: "  ", version: 1 },
      { disabled: "yes", version: 1 },
    ]) {
      const res = await api("PATCH", `/api/admin/students/${student.id}`, cookies.owner, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const unknown = await api("PATCH", `/api/admin/students/${randomUUID()}`, cookies.owner, {
      firstName: "A",
      version: 1,
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe("admin actions: resend verification, send password reset", () => {
  it("resends the verification link to an unverified student; 409 once verified", async () => {
    const student = await seedStudent({ emailVerifiedAt: null });
    const res = await api(
      "POST",
      `/api/admin/students/${student.id}/resend-verification`,
      cookies.admissions,
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ sent: "verification", email: student.email } satisfies StudentLinkSent);
    const [mail] = await mailsTo(student.email);
    expect(mail?.textBody).toContain("/student/verify-email?token=");
    expect((await auditOf(student.id))[0]).toMatchObject({
      action: "student.resendVerification",
      actorId: adminIds.admissions,
    });
    const verify = await api("POST", "/api/student/verify-email", undefined, {
      token: tokenOf(mail!.textBody),
    });
    expect(verify.statusCode).toBe(200);
    const again = await api(
      "POST",
      `/api/admin/students/${student.id}/resend-verification`,
      cookies.admissions,
    );
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe("This student has already confirmed their e-mail address.");
  });

  it("sends a 1-hour reset link to a student with a password, the set-password link to one without", async () => {
    const withPassword = await seedStudent();
    const res = await api(
      "POST",
      `/api/admin/students/${withPassword.id}/send-password-reset`,
      cookies.owner,
    );
    expect(res.statusCode).toBe(202);
    expect(res.json()).toMatchObject({ sent: "passwordReset" });
    expect((await mailsTo(withPassword.email))[0]?.subject).toBe("Reset your password");
    expect((await auditOf(withPassword.id))[0]).toMatchObject({ action: "student.sendPasswordReset" });

    const withoutPassword = await seedStudent({ passwordHash: null, emailVerifiedAt: null });
    const res2 = await api(
      "POST",
      `/api/admin/students/${withoutPassword.id}/resend-verification`,
      cookies.owner,
    );
    expect(res2.json()).toMatchObject({ sent: "setPassword" });
    expect((await mailsTo(withoutPassword.email))[0]?.subject).toBe(
      "Your student account at The Hague Summer School",
    );
  });

  it("answers 409 for a disabled account and 404 for an unknown one", async () => {
    const student = await seedStudent({ disabledAt: new Date(), emailVerifiedAt: null });
    for (const action of ["resend-verification", "send-password-reset"]) {
      const res = await api("POST", `/api/admin/students/${student.id}/${action}`, cookies.owner);
      expect(res.statusCode).toBe(409);
      expect(
        (await api("POST", `/api/admin/students/${randomUUID()}/${action}`, cookies.owner)).statusCode,
      ).toBe(404);
    }
    expect(await mailsTo(student.email)).toHaveLength(0);
  });
});

describe("POST /api/{student|affiliate}/resend-verification (public)", () => {
  it("answers the same for an unverified, a verified and an unknown address; only the first gets an e-mail", async () => {
    const unverified = await seedStudent({ emailVerifiedAt: null });
    const verified = await seedStudent();
    const unknown = uniqueEmail("nobody");
    const answers = [];
    for (const [i, email] of [unverified.email, verified.email, unknown].entries()) {
      const res = await api(
        "POST",
        "/api/student/resend-verification",
        undefined,
        { email },
        { remoteAddress: `10.93.0.${i + 1}` },
      );
      answers.push({ status: res.statusCode, body: res.body, cache: res.headers["cache-control"] });
    }
    expect(answers[0]).toEqual({ status: 202, body: '{"ok":true}', cache: "no-store" });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const [mail] = await mailsTo(unverified.email);
    expect(mail?.subject).toBe("Please confirm your e-mail address");
    expect(await mailsTo(verified.email)).toHaveLength(0);
    expect(await mailsTo(unknown)).toHaveLength(0);
  });

  it("makes the earlier verification link stop working", async () => {
    const student = await seedStudent({ emailVerifiedAt: null });
    await api(
      "POST",
      "/api/student/resend-verification",
      undefined,
      { email: student.email },
      { remoteAddress: "10.93.1.1" },
    );
    await api(
      "POST",
      "/api/student/resend-verification",
      undefined,
      { email: student.email },
      { remoteAddress: "10.93.1.1" },
    );
    const [newest, older] = await mailsTo(student.email);
    const old = await api("POST", "/api/student/verify-email", undefined, {
      token: tokenOf(older!.textBody),
    });
    expect(old.statusCode).toBe(400);
    const fresh = await api("POST", "/api/student/verify-email", undefined, {
      token: tokenOf(newest!.textBody),
    });
    expect(fresh.statusCode).toBe(200);
  });

  it("resends an affiliate's verification link, with the same answer for an unknown address", async () => {
    const email = uniqueEmail("partner");
    const [affiliate] = await db()
      .insert(affiliates)
      .values({ email, name: "Harbour Education", passwordHash: "x" })
      .returning();
    const known = await api(
      "POST",
      "/api/affiliate/resend-verification",
      undefined,
      { email },
      { remoteAddress: "10.93.2.1" },
    );
    const unknown = await api(
      "POST",
      "/api/affiliate/resend-verification",
      undefined,
      { email: uniqueEmail("nobody") },
      { remoteAddress: "10.93.2.2" },
    );
    expect(known.statusCode).toBe(202);
    expect(unknown.body).toBe(known.body);
    const [mail] = await mailsTo(email);
    expect(mail?.textBody).toContain("/affiliate/verify-email?token=");
    expect(affiliate).toBeDefined();
  });

  it("answers 400 for a malformed address and 429 after 5 requests a minute for one address and e-mail", async () => {
    const bad = await api(
      "POST",
      "/api/student/resend-verification",
      undefined,
      { email: "nope" },
      { remoteAddress: "10.93.3.1" },
    );
    expect(bad.statusCode).toBe(400);
    const email = uniqueEmail("limited");
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (
          await api(
            "POST",
            "/api/student/resend-verification",
            undefined,
            { email },
            { remoteAddress: "10.93.3.2" },
          )
        ).statusCode,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([202, 202, 202, 202, 202]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});

describe("admin team: owners cannot lock themselves out", () => {
  it("refuses an owner disabling or demoting themselves (400) and lets them change another admin", async () => {
    const me = await loginAsAdmin(t.app, "owner");
    for (const body of [{ disabled: true }, { role: "finance" }]) {
      const res = await api("PATCH", `/api/admin/admins/${me.admin.id}`, me.cookie, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe("You cannot disable your own account or change your own role.");
    }
    const other = await loginAsAdmin(t.app, "admissions");
    const res = await api("PATCH", `/api/admin/admins/${other.admin.id}`, me.cookie, { role: "finance" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ role: "finance", status: "active" });
    expect((await api("GET", "/api/admin/admins", cookies.admissions)).statusCode).toBe(403);
  });
});

describe("GET /api/admin/audit: actor and action filters, CSV export, facets", () => {
  let studentId: string;

  beforeAll(async () => {
    const student = await seedStudent();
    studentId = student.id;
    await api("PATCH", `/api/admin/students/${studentId}`, cookies.admissions, {
      lastName: "One",
      version: 1,
    });
    await api("PATCH", `/api/admin/students/${studentId}`, cookies.owner, { lastName: "Two", version: 2 });
  });

  it("filters by actor and action, newest first", async () => {
    const byActor = await auditPage(`entityId=${studentId}&actorId=${adminIds.admissions}`);
    expect(byActor.items.map((e) => e.after)).toEqual([{ lastName: "One", version: 2 }]);
    expect(byActor.items[0]).toMatchObject({ actorEmail: expect.stringContaining("admin-admissions") });
    const byAction = await auditPage(`entityType=student&action=student.update&entityId=${studentId}`);
    expect(byAction.items.map((e) => (e.after as { lastName: string }).lastName)).toEqual(["Two", "One"]);
    const today = new Date().toISOString().slice(0, 10);
    const dated = await auditPage(`entityId=${studentId}&from=${today}&to=${today}`);
    expect(dated.total).toBe(2);
    const future = await auditPage(`entityId=${studentId}&from=2999-01-01`);
    expect(future.total).toBe(0);
  });

  it("exports the filtered entries as CSV and records the export", async () => {
    const res = await api("GET", `/api/admin/audit.csv?entityId=${studentId}`, cookies.owner);
    const lines = expectCsvDownload(res, "audit-log");
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain("student.update");
    expect(lines[1]).toContain('""lastName"":""Two""');
    expect(lines[2]).toContain('""lastName"":""One""');
    const entry = await latestAuditEntry(db(), { action: "audit.export" });
    expect(entry.after).toMatchObject({ rows: 2, filters: { entityId: studentId } });
  });

  it("lists the entity types, actions and admins for the filters", async () => {
    const facets = (await api("GET", "/api/admin/audit/facets", cookies.owner)).json() as AuditFacets;
    expectParses(auditFacetsSchema, facets);
    expect(facets.entityTypes).toContain("student");
    expect(facets.actions).toEqual(expect.arrayContaining(["student.update", "student.create"]));
    expect(facets.actors.map((a) => a.id)).toEqual(
      expect.arrayContaining([adminIds.owner, adminIds.admissions]),
    );
  });

  it("is for owners only (403 admissions and finance, 401 students) and answers 400 for a malformed filter", async () => {
    const routes = ["/api/admin/audit", "/api/admin/audit.csv", "/api/admin/audit/facets"].map(
      (url) => ["GET", url] as const,
    );
    await expectRouteStatuses(api, cookies, routes, {
      admissions: 403,
      finance: 403,
      student: 401,
      anonymous: 401,
    });
    for (const query of ["actorId=admin", "from=2026-02-31", "page=0"]) {
      expect((await api("GET", `/api/admin/audit?${query}`, cookies.owner)).statusCode, query).toBe(400);
    }
  });
});
