/**
 * The student pass (docs/product/admissions.md#student-pass: "/student/qrcode, pass token + public check reasons"; decision 020):
 * the public check a checker opens by scanning the QR code says VALID only for an accepted
 * application paid in full of a cohort that has not ended, and otherwise why not; it shows nothing
 * of the holder beyond initials; the pass is its own token, not the application id, and the student
 * can replace it. The student's pass is theirs alone (another student, an affiliate, an anonymous
 * caller and an unverified account are refused).
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PassCheck,
  passCheckSchema,
  type StudentPass,
  studentPassListSchema,
  studentPassSchema,
} from "../../../shared/schemas/pass";
import { applications, studentPasses, summerSchools } from "../../db/schema";
import { loginAsAffiliate, loginAsStudent } from "../../testing/accounts";
import { adminRoles, apiOf, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { decodeQrSvg } from "../../testing/qr";

const WEBHOOK_SECRET = "whsec_pass_tests";
let t: TestApp;
let admins: RoleCookies;
/** Added to the clock of the app: moves "now" past a cohort's end. */
let clockOffsetMs = 0;
/** The app's log lines (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs: no pass token, no personal data). */
const logs: Array<Record<string, unknown>> = [];
const api = apiOf(() => t.app, SAME_ORIGIN);
const flow = paymentFlow(() => t, { addressPrefix: "10.61", webhookSecret: WEBHOOK_SECRET });
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp({
    now: () => new Date(Date.now() + clockOffsetMs),
    offlineWebhookSecret: WEBHOOK_SECRET,
    logs,
  });
  admins = await adminRoles(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A verified student who applied with their account's e-mail and paid the whole fee (3,045.00 EUR). */
async function paidStudent(person: { firstName?: string; lastName?: string } = {}) {
  const { cookie, student } = await loginAsStudent(t.app, person);
  const applied = await flow.newApplication(undefined, { email: student.email, ...person });
  await flow.payByWebhook(applied);
  return { cookie, student, applied, applicationId: applied.applicationId };
}

/** Moves an application through the admin workflow (admissions) to `statuses`, in order. */
async function adminMoves(applicationId: string, ...statuses: string[]) {
  for (const status of statuses) {
    const detail = await api("GET", `/api/admin/applications/${applicationId}`, admins.owner);
    const res = await api("PATCH", `/api/admin/applications/${applicationId}/status`, admins.admissions, {
      status,
      version: detail.json().version,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

async function myPass(applicationId: string, cookie: string): Promise<StudentPass> {
  const res = await api("GET", `/api/student/applications/${applicationId}/pass`, cookie);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["cache-control"]).toBe("no-store");
  return studentPassSchema.parse(res.json());
}

async function check(tokenOrUrl: string, language = "en"): Promise<PassCheck> {
  const token = tokenOrUrl.split("/student-pass/").pop()!;
  const res = await t.app.inject({
    url: `/api/student-pass/${token}`,
    headers: { "accept-language": language },
    // A client address per check: the check allows 30 a minute per address.
    remoteAddress: flow.nextAddress(),
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers["cache-control"]).toBe("no-store");
  expect(res.headers["x-robots-tag"]).toBe("noindex");
  return passCheckSchema.parse(res.json());
}

describe("the public check of a student pass", () => {
  it("says VALID for an accepted application paid in full, with initials and the cohort only; not before acceptance", async () => {
    const { cookie, applicationId } = await paidStudent({ firstName: "Amara", lastName: "Okafor" });
    const pass = await myPass(applicationId, cookie);
    expect(pass.url).toMatch(/^http:\/\/localhost:3000\/student-pass\/[A-Za-z0-9_-]{43}$/);
    expect(pass.url).not.toContain(applicationId);

    const waiting = await check(pass.url);
    expect(waiting).toMatchObject({ valid: false, reason: "awaiting_acceptance", initials: "A. O." });

    await adminMoves(applicationId, "under_review", "accepted");
    const valid = await check(pass.url);
    expect(valid).toMatchObject({ valid: true, reason: null, initials: "A. O." });
    expect(valid.cohort?.name).toContain("Summer School");
    const [school] = await db()
      .select()
      .from(summerSchools)
      .innerJoin(applications, eq(applications.summerSchoolId, summerSchools.id))
      .where(eq(applications.id, applicationId));
    expect(valid.cohort).toMatchObject({
      startDate: school!.summer_schools.startDate,
      endDate: school!.summer_schools.endDate,
    });
    // Nothing of the holder beyond initials: no name, e-mail, passport, date of birth, id, amount.
    const body = JSON.stringify(valid);
    expect(body).not.toMatch(/Amara|Okafor|@|A12345678|passport|304500|3045/i);
    expect(body).not.toContain(applicationId);
    expect(Object.keys(valid).sort()).toEqual(["checkedAt", "cohort", "initials", "reason", "valid"]);
    // The token is a bearer value: the access log names the route, not the token.
    const token = pass.url.split("/").pop()!;
    const logged = JSON.stringify(logs);
    expect(logged).toContain("/api/student-pass/[redacted]");
    expect(logged).not.toContain(token);
  });

  it("gives the cohort's name in the checker's language", async () => {
    const { cookie, applicationId } = await paidStudent();
    await adminMoves(applicationId, "under_review", "accepted");
    const { url } = await myPass(applicationId, cookie);
    const en = await check(url, "en");
    const zh = await check(url, "zh-CN,zh;q=0.9");
    expect(en.valid && zh.valid).toBe(true);
    expect(zh.cohort!.name).not.toBe(en.cohort!.name);
  });

  it("no longer validates the old address made of the application id: unknown, nothing shown", async () => {
    const { cookie, applicationId } = await paidStudent();
    await adminMoves(applicationId, "under_review", "accepted");
    await myPass(applicationId, cookie);
    expect(await check(applicationId)).toMatchObject({
      valid: false,
      reason: "unknown",
      initials: null,
      cohort: null,
    });
  });

  it("answers unknown, never an error, for a token nobody issued and for malformed ones", async () => {
    for (const token of [
      "A".repeat(43),
      "00000000-0000-4000-8000-000000000000",
      "1%20or%201%3D1",
      "%27%3B%20drop%20table%20student_passes%3B--",
    ]) {
      expect(await check(token), token).toMatchObject({ valid: false, reason: "unknown", initials: null });
    }
    // Longer than any route parameter may be: the router's plain 404 (the page says "unknown" too).
    const long = await t.app.inject({ url: `/api/student-pass/${"x".repeat(500)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json()).toEqual({ message: expect.any(String) });
  });

  /** One case of the reason table: what the application's row says, and what the check must answer. */
  const REASONS: Array<[string, Partial<typeof applications.$inferInsert>, PassCheck["reason"]]> = [
    [
      "not paid yet (pending payment)",
      { status: "pending_payment", paymentStatus: "unpaid", amountPaidCents: 0 },
      "awaiting_acceptance",
    ],
    ["paid, submitted", { status: "submitted" }, "awaiting_acceptance"],
    ["paid, under review", { status: "under_review" }, "awaiting_acceptance"],
    ["paid, on the waiting list", { status: "waitlisted" }, "awaiting_acceptance"],
    [
      "accepted, deposit only (30%)",
      { status: "accepted", paymentStatus: "deposit_paid", amountPaidCents: 91_350 },
      "balance_due",
    ],
    [
      "accepted, payment failed",
      { status: "accepted", paymentStatus: "failed", amountPaidCents: 0 },
      "balance_due",
    ],
    [
      "accepted, payment pending",
      { status: "accepted", paymentStatus: "pending", amountPaidCents: 0 },
      "balance_due",
    ],
    ["accepted, then withdrawn", { status: "withdrawn" }, "withdrawn"],
    ["cancelled by the school", { status: "cancelled" }, "cancelled"],
    ["rejected", { status: "rejected" }, "rejected"],
    ["accepted, fully refunded", { status: "accepted", paymentStatus: "refunded" }, "refunded"],
    [
      "accepted, part refunded (an add-on)",
      { status: "accepted", paymentStatus: "partially_refunded" },
      null,
    ],
    ["accepted, paid in full", { status: "accepted", paymentStatus: "paid" }, null],
  ];
  for (const [label, state, reason] of REASONS) {
    it(`${reason ?? "VALID"}: ${label}`, async () => {
      const { cookie, applicationId } = await paidStudent({ firstName: "Kwame", lastName: "Mensah" });
      const { url } = await myPass(applicationId, cookie);
      await db().update(applications).set(state).where(eq(applications.id, applicationId));
      const answer = await check(url);
      expect(answer).toMatchObject({ valid: reason === null, reason, initials: "K. M." });
      expect(answer.cohort).not.toBeNull();
      // The student's page says the same as the checker sees.
      expect((await myPass(applicationId, cookie)).check).toEqual({ valid: reason === null, reason });
    });
  }

  it("ended: the day after the cohort's last day in The Hague, not on it", async () => {
    const { cookie, applicationId } = await paidStudent();
    await adminMoves(applicationId, "under_review", "accepted");
    const { url } = await myPass(applicationId, cookie);
    const [{ endDate }] = (await db()
      .select({ endDate: summerSchools.endDate })
      .from(summerSchools)
      .innerJoin(applications, eq(applications.summerSchoolId, summerSchools.id))
      .where(eq(applications.id, applicationId))) as [{ endDate: string }];
    try {
      // 23:30 in The Hague on the last day (summer time, UTC+2): still valid.
      clockOffsetMs = Date.parse(`${endDate}T21:30:00Z`) - Date.now();
      expect(await check(url)).toMatchObject({ valid: true, reason: null });
      // 00:30 the next day in The Hague, still the last day in UTC: ended.
      clockOffsetMs = Date.parse(`${endDate}T22:30:00Z`) - Date.now();
      expect(await check(url)).toMatchObject({ valid: false, reason: "ended", initials: expect.any(String) });
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("erased: an erased applicant's pass is refused and shows neither initials nor cohort", async () => {
    const { cookie, applicationId, applied } = await paidStudent();
    await adminMoves(applicationId, "under_review", "accepted");
    const { url } = await myPass(applicationId, cookie);
    const erase = await api("POST", `/api/admin/applicants/${applied.applicantId}/erase`, admins.owner, {
      confirm: "ERASE",
    });
    expect(erase.statusCode, erase.body).toBe(200);
    expect(await check(url)).toMatchObject({ valid: false, reason: "erased", initials: null, cohort: null });
  });
});

describe("the student's pass and its QR code", () => {
  it("shows the same pass again, and its QR code reads back as the check's address", async () => {
    const { cookie, applicationId, student } = await paidStudent({ firstName: "Li", lastName: "Wei" });
    await adminMoves(applicationId, "under_review", "accepted");
    const first = await myPass(applicationId, cookie);
    const again = await myPass(applicationId, cookie);
    expect(again.url).toBe(first.url);
    expect(again.issuedAt).toBe(first.issuedAt);
    expect(first).toMatchObject({
      applicationId,
      holderName: "Li Wei",
      status: "accepted",
      paymentState: "paid",
      check: { valid: true, reason: null },
    });
    expect(first.holderName).not.toContain(student.email);
    expect(first.qrSvg.startsWith("<svg")).toBe(true);
    expect(decodeQrSvg(first.qrSvg)).toBe(first.url);
  });

  it("reissue: the old token answers revoked, the new one is valid and is the one shown from now on", async () => {
    const { cookie, applicationId } = await paidStudent();
    await adminMoves(applicationId, "under_review", "accepted");
    const old = await myPass(applicationId, cookie);
    const res = await api("POST", `/api/student/applications/${applicationId}/pass/reissue`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const fresh = studentPassSchema.parse(res.json());
    expect(fresh.url).not.toBe(old.url);
    expect(decodeQrSvg(fresh.qrSvg)).toBe(fresh.url);
    expect(await check(old.url)).toEqual({
      valid: false,
      reason: "revoked",
      initials: null,
      cohort: null,
      checkedAt: expect.any(String),
    });
    expect(await check(fresh.url)).toMatchObject({ valid: true, reason: null });
    expect((await myPass(applicationId, cookie)).url).toBe(fresh.url);
    const rows = await db()
      .select()
      .from(studentPasses)
      .where(eq(studentPasses.applicationId, applicationId));
    expect(rows.filter((row) => row.revokedAt === null)).toHaveLength(1);
    expect(rows).toHaveLength(2);
  });

  it("lists the pass of each of the student's own applications, and nobody else's", async () => {
    const { cookie, applicationId, student } = await paidStudent();
    const second = await flow.newApplication(undefined, { email: student.email });
    await paidStudent();
    const res = await api("GET", "/api/student/passes", cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const list = studentPassListSchema.parse(res.json());
    expect(list.map((pass) => pass.applicationId).sort()).toEqual(
      [applicationId, second.applicationId].sort(),
    );
    for (const pass of list) expect(decodeQrSvg(pass.qrSvg)).toBe(pass.url);
    // The same passes as one by one.
    expect((await myPass(applicationId, cookie)).url).toBe(
      list.find((p) => p.applicationId === applicationId)!.url,
    );

    const affiliate = (await loginAsAffiliate(t.app)).cookie;
    const unverified = (await loginAsStudent(t.app, { emailVerified: false })).cookie;
    expect((await api("GET", "/api/student/passes", undefined)).statusCode).toBe(401);
    expect((await api("GET", "/api/student/passes", affiliate)).statusCode).toBe(401);
    expect((await api("GET", "/api/student/passes", unverified)).statusCode).toBe(403);
    const other = (await loginAsStudent(t.app)).cookie;
    expect((await api("GET", "/api/student/passes", other)).json()).toEqual([]);
  });

  it("makes one pass when the page is opened twice at once", async () => {
    const { cookie, applicationId } = await paidStudent();
    const [a, b] = await Promise.all([myPass(applicationId, cookie), myPass(applicationId, cookie)]);
    expect(a.url).toBe(b.url);
  });

  it("is the student's alone: another student 404, an affiliate, an admin and an anonymous caller 401, an unverified account 403; nothing is made or revoked", async () => {
    const { cookie, applicationId, student } = await paidStudent();
    const mine = await myPass(applicationId, cookie);
    const other = (await loginAsStudent(t.app)).cookie;
    const affiliate = (await loginAsAffiliate(t.app)).cookie;
    const unverified = (
      await loginAsStudent(t.app, { emailVerified: false, email: `unverified-${student.email}` })
    ).cookie;
    const cases: Array<[string, string | undefined, number]> = [
      ["another student", other, 404],
      ["an affiliate", affiliate, 401],
      ["an admin", admins.owner, 401],
      ["anonymous", undefined, 401],
      ["an unverified student", unverified, 403],
    ];
    for (const [who, caller, status] of cases) {
      for (const [method, url] of [
        ["GET", `/api/student/applications/${applicationId}/pass`],
        ["POST", `/api/student/applications/${applicationId}/pass/reissue`],
      ] as const) {
        const res = await api(method, url, caller);
        expect(res.statusCode, `${who} ${method}`).toBe(status);
        expect(res.body, `${who} ${method}`).not.toContain("student-pass/");
      }
    }
    // The same answer for an id that does not exist, so ids cannot be probed.
    const unknown = await api(
      "GET",
      "/api/student/applications/00000000-0000-4000-8000-000000000000/pass",
      other,
    );
    expect(unknown.statusCode).toBe(404);
    expect((await api("GET", "/api/student/applications/not-an-id/pass", cookie)).statusCode).toBe(404);
    // The owner's session from another site (docs/product/security.md#s3-cross-site-requests-change-nothing): refused, nothing changes.
    const crossSite = await t.app.inject({
      method: "POST",
      url: `/api/student/applications/${applicationId}/pass/reissue`,
      headers: { cookie, origin: "https://evil.example" },
    });
    expect(crossSite.statusCode).toBe(403);
    // Nobody else's attempt replaced the pass.
    expect((await myPass(applicationId, cookie)).url).toBe(mine.url);
  });

  it("an unverified account whose e-mail is the applicant's still sees no pass until it verifies", async () => {
    const { student, cookie } = await loginAsStudent(t.app, { emailVerified: false });
    const applied = await flow.newApplication(undefined, { email: student.email });
    await flow.payByWebhook(applied);
    const res = await api("GET", `/api/student/applications/${applied.applicationId}/pass`, cookie);
    expect(res.statusCode).toBe(403);
    expect(
      await db().select().from(studentPasses).where(eq(studentPasses.applicationId, applied.applicationId)),
    ).toEqual([]);
  });
});
