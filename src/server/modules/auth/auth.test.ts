import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { and, eq, like } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTeamListSchema, adminTeamMemberSchema } from "../../../shared/schemas/students-admin";
import { openDatabase } from "../../db/client";
import {
  accountTokens,
  admins,
  affiliates,
  auditLog,
  codes,
  emailOutbox,
  sessions,
  students,
} from "../../db/schema";
import { hashToken } from "../../lib/tokens";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent, TEST_PASSWORD } from "../../testing/accounts";
import { cookiesFrom, createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";
import { hashPassword, isCommonPassword, passwordPolicyIssue, verifyPassword } from "./passwords";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const fr = JSON.parse(
  readFileSync(new URL("../../../shared/i18n/locales/fr/common.json", import.meta.url), "utf8"),
) as { errors: Record<string, string> };

const MSG = {
  invalidCredentials: "Invalid login credentials",
  registrationFailed: "Registration failed",
  tooShort: "Your password must be at least 8 characters long.",
  tooLong: "Your password can be at most 128 characters long.",
  common: "This password is too common and easy to guess. Please choose another one.",
  invalidToken: "This link is invalid, has expired or has already been used. Please ask for a new one.",
  verifyFirst: "Please confirm your e-mail address first: open the link we sent you when you registered.",
  tooMany: "Too many attempts. Please wait a minute and try again.",
};
const PASSWORD = "violet tulip harbour 42";

let t: TestApp;
/** Added to the real time: the app's clock (token expiry, session idle limits). */
let clockOffsetMs = 0;
let counter = 0;
/** A fresh client address (rate limits count per address). */
const nextAddress = () => {
  counter += 1;
  return `10.7.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
};
const uniqueEmail = (prefix: string) => {
  counter += 1;
  return `${prefix}-${counter}-${Date.now().toString(36)}@example.com`;
};

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(Date.now() + clockOffsetMs) });
});
afterAll(async () => {
  await t?.close();
});

const db = () => t.database.db;

/** A POST, then the work the route left for after its answer (a reset e-mail: docs/product/portals.md#password-reset). */
async function post(
  url: string,
  payload: unknown,
  options: { cookie?: string; address?: string; headers?: Record<string, string>; app?: TestApp } = {},
) {
  const app = (options.app ?? t).app;
  const res = await app.inject({
    method: "POST",
    url,
    payload: payload as Record<string, unknown>,
    headers: { ...options.headers, ...(options.cookie ? { cookie: options.cookie } : {}) },
    remoteAddress: options.address ?? nextAddress(),
  });
  await app.services.background.settled();
  return res;
}

function get(url: string, cookie?: string) {
  return t.app.inject({ url, headers: cookie ? { cookie } : {}, remoteAddress: nextAddress() });
}

function patch(url: string, payload: unknown, cookie: string) {
  return t.app.inject({
    method: "PATCH",
    url,
    payload: payload as Record<string, unknown>,
    headers: { cookie },
    remoteAddress: nextAddress(),
  });
}

/** The raw Set-Cookie header of a session cookie. */
function setCookieHeader(res: LightMyRequestResponse, name: string): string {
  const raw = res.headers["set-cookie"];
  const all = Array.isArray(raw) ? raw : raw ? [raw] : [];
  const found = all.filter((c) => c.startsWith(`${name}=`));
  expect(found, `one ${name} cookie`).toHaveLength(1);
  return found[0]!;
}

/** Queued e-mails to an address, oldest first. */
async function mailTo(address: string) {
  const rows = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
}

/** The token of the newest e-mail to `address` whose link goes to `page`. */
async function tokenSentTo(address: string, page: string): Promise<string> {
  const rows = (await mailTo(address)).filter((r) => r.textBody.includes(page));
  const last = rows.at(-1);
  expect(last, `an e-mail to ${address} with ${page}`).toBeDefined();
  const match = last!.textBody.match(new RegExp(`${page.replace(/[/?]/g, "\\$&")}\\?token=([A-Za-z0-9_-]+)`));
  expect(match, last!.textBody).not.toBeNull();
  return match![1]!;
}

async function registerStudent(overrides: Record<string, unknown> = {}, address = nextAddress()) {
  const email = (overrides.email as string | undefined) ?? uniqueEmail("student");
  const res = await post(
    "/api/student/register",
    { firstName: "Noor", lastName: "Visser", email, password: PASSWORD, ...overrides },
    { address },
  );
  return { res, email };
}

describe("passwords (docs/product/security.md#s4-password-storage-and-policy)", () => {
  it("hashes with argon2id (OWASP parameters) and verifies", async () => {
    const stored = await hashPassword(PASSWORD);
    expect(stored.startsWith("$argon2id$v=19$m=19456,t=2,p=1$")).toBe(true);
    expect(await verifyPassword(stored, PASSWORD)).toBe(true);
    expect(await verifyPassword(stored, `${PASSWORD}x`)).toBe(false);
    expect(await verifyPassword("not a hash", PASSWORD)).toBe(false);
  });

  it("verifies unknown accounts against a dummy hash and says no", async () => {
    expect(await verifyPassword(null, PASSWORD)).toBe(false);
    expect(await verifyPassword(undefined, "dummy password for unknown accounts")).toBe(false);
  });

  it("applies the policy: 8-128 characters, no composition rules, common passwords refused", () => {
    expect(passwordPolicyIssue("short77")).toBe("errors.passwordTooShort");
    expect(passwordPolicyIssue("eightch8")).toBeNull();
    expect(passwordPolicyIssue("alllowercaseletters")).toBeNull();
    expect(passwordPolicyIssue("密码很长很安全的句子")).toBeNull();
    expect(passwordPolicyIssue("🔒🔒🔒🔒🔒🔒🔒")).toBe("errors.passwordTooShort");
    expect(passwordPolicyIssue("a".repeat(128).replace(/^a/, "b"))).toBeNull();
    expect(passwordPolicyIssue("x".repeat(129))).toBe("errors.passwordTooLong");
    for (const p of ["password", "password123", "PASSWORD1", "qwertyuiop", "iloveyou", "12345678"]) {
      expect(passwordPolicyIssue(p), p).toBe("errors.passwordCommon");
    }
  });

  it("ships a list of about 1,000 common passwords", () => {
    const list = readFileSync(new URL("./common-passwords.txt", import.meta.url), "utf8")
      .split("\n")
      .filter(Boolean);
    expect(list.length).toBeGreaterThanOrEqual(1000);
    expect(isCommonPassword("sunshine")).toBe(true);
    expect(isCommonPassword(PASSWORD)).toBe(false);
  });
});

describe("test helpers (src/server/testing/accounts.ts)", () => {
  it("logs in an admin of each role, a student and an affiliate", async () => {
    for (const role of ["owner", "admissions", "finance"] as const) {
      const { cookie, admin } = await loginAsAdmin(t.app, role);
      const me = await get("/api/admin/me", cookie);
      expect(me.statusCode).toBe(200);
      expect(me.json()).toEqual({ user: admin });
      expect(admin.role).toBe(role);
    }
    const s = await loginAsStudent(t.app, { firstName: "Ines" });
    expect((await get("/api/student/me", s.cookie)).json()).toEqual({ user: s.student });
    const a = await loginAsAffiliate(t.app);
    const me = (await get("/api/affiliate/me", a.cookie)).json();
    expect(me.user).toMatchObject({ id: a.affiliate.id, status: "approved", referralCode: null });
  });
});

describe("login, session check and logout", () => {
  it("logs a student in: 200 { user }, cookie flags of S1, only the token's hash stored", async () => {
    const { student } = await loginAsStudent(t.app);
    const res = await post("/api/student/login", { email: student.email, password: TEST_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user: student });
    const header = setCookieHeader(res, "sid_student");
    expect(header).toMatch(/; HttpOnly/);
    expect(header).toMatch(/; SameSite=Lax/);
    expect(header).toMatch(/; Path=\/(;|$)/);
    expect(header).not.toMatch(/; Secure/);
    const token = res.cookies.find((c) => c.name === "sid_student")!.value;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes = 256 bits
    const rows = await db().select().from(sessions).where(eq(sessions.accountId, student.id));
    expect(rows.map((r) => r.tokenHash)).toContain(hashToken(token));
    expect(rows.some((r) => JSON.stringify(r).includes(token))).toBe(false);
    expect(res.headers["cache-control"]).toBe("no-store");
  });

  it("sets Secure on session cookies when NODE_ENV=production", async () => {
    const prod = await createTestApp({ env: { NODE_ENV: "production" } });
    try {
      const { student } = await loginAsStudent(prod.app);
      const res = await post(
        "/api/student/login",
        { email: student.email, password: TEST_PASSWORD },
        { app: prod },
      );
      expect(res.statusCode).toBe(200);
      const header = setCookieHeader(res, "sid_student");
      expect(header).toMatch(/; Secure/);
      expect(header).toMatch(/; HttpOnly/);
    } finally {
      await prod.close();
    }
  });

  it("rotates the session on login: the old cookie stops working (S2, no fixation)", async () => {
    const { cookie: first, student } = await loginAsStudent(t.app);
    expect((await get("/api/student/me", first)).statusCode).toBe(200);
    const again = await post(
      "/api/student/login",
      { email: student.email, password: TEST_PASSWORD },
      { cookie: first },
    );
    expect(again.statusCode).toBe(200);
    const second = cookiesFrom(again);
    expect(second).not.toBe(first);
    expect((await get("/api/student/me", first)).statusCode).toBe(401);
    expect((await get("/api/student/me", second)).statusCode).toBe(200);
    // A cookie value chosen by an attacker is never adopted.
    const fixed = await post(
      "/api/student/login",
      { email: student.email, password: TEST_PASSWORD },
      { cookie: "sid_student=attacker-chosen-value" },
    );
    expect(fixed.cookies.find((c) => c.name === "sid_student")!.value).not.toBe("attacker-chosen-value");
  });

  it("logout answers 204, clears the cookie and deletes the session", async () => {
    for (const login of [loginAsStudent, loginAsAffiliate] as const) {
      const { cookie } = await login(t.app);
      const role = cookie.startsWith("sid_student") ? "student" : "affiliate";
      const res = await post(`/api/${role}/logout`, {}, { cookie });
      expect(res.statusCode).toBe(204);
      const cleared = setCookieHeader(res, `sid_${role}`);
      expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/);
      expect((await get(`/api/${role}/me`, cookie)).statusCode).toBe(401);
      const token = cookie.split("=")[1]!;
      expect(
        await db()
          .select()
          .from(sessions)
          .where(eq(sessions.tokenHash, hashToken(token))),
      ).toHaveLength(0);
    }
    const { cookie } = await loginAsAdmin(t.app, "finance");
    expect((await post("/api/admin/logout", {}, { cookie })).statusCode).toBe(204);
    expect((await get("/api/admin/me", cookie)).statusCode).toBe(401);
  });

  it("answers the same 401 for an unknown e-mail and a wrong password (S5, ASVS 6.3)", async () => {
    const { student } = await loginAsStudent(t.app);
    const unknown = await post("/api/student/login", { email: uniqueEmail("nobody"), password: PASSWORD });
    const wrong = await post("/api/student/login", { email: student.email, password: "wrong password!" });
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ message: MSG.invalidCredentials });
    expect(wrong.body).toBe(unknown.body);
    expect(unknown.cookies).toHaveLength(0);
    const french = await post(
      "/api/admin/login",
      { email: uniqueEmail("nobody"), password: PASSWORD },
      { headers: { cookie: "language=fr" } },
    );
    expect(french.json().message).toBe(fr.errors.invalidCredentials);
  });

  it("refuses a disabled student, an admin who has not accepted the invitation, an affiliate not approved", async () => {
    const { student } = await loginAsStudent(t.app);
    await db().update(students).set({ disabledAt: new Date() }).where(eq(students.id, student.id));
    const s = await post("/api/student/login", { email: student.email, password: TEST_PASSWORD });
    expect(s.statusCode).toBe(401);
    expect(s.json().message).toBe(MSG.invalidCredentials);

    const email = uniqueEmail("invited");
    await db().insert(admins).values({ email, name: "Invited", role: "admissions" });
    const a = await post("/api/admin/login", { email, password: TEST_PASSWORD });
    expect(a.statusCode).toBe(401);
    expect(a.json().message).toBe(MSG.invalidCredentials);

    const affiliateEmail = uniqueEmail("pending");
    await db()
      .insert(affiliates)
      .values({ email: affiliateEmail, name: "Pending", passwordHash: await hashPassword(TEST_PASSWORD) });
    // A pending affiliate with a wrong password gets the same 401; with the right one, why (docs/product/portals.md#sessions).
    const p = await post("/api/affiliate/login", { email: affiliateEmail, password: "not the password" });
    expect(p.statusCode).toBe(401);
    expect(p.json().message).toBe(MSG.invalidCredentials);
    const reviewed = await post("/api/affiliate/login", { email: affiliateEmail, password: TEST_PASSWORD });
    expect(reviewed.statusCode).toBe(403);
    expect(reviewed.json().message).toContain("being reviewed");
  });

  it("validates the login body: 400 for a missing password, an invalid e-mail, malformed JSON", async () => {
    const missing = await post("/api/student/login", { email: "a@example.com" });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fieldErrors.password).toBeTruthy();
    const invalid = await post("/api/student/login", { email: "not-an-email", password: "x" });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().fieldErrors.email).toBe("Please enter a valid email address.");
    const malformed = await t.app.inject({
      method: "POST",
      url: "/api/student/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
      remoteAddress: nextAddress(),
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.body).not.toMatch(/stack|at \//);
  });

  it("refuses a cross-site login post (S3)", async () => {
    const { student } = await loginAsStudent(t.app);
    const res = await post(
      "/api/student/login",
      { email: student.email, password: TEST_PASSWORD },
      { headers: { origin: "https://evil.example" } },
    );
    expect(res.statusCode).toBe(403);
    expect(res.cookies).toHaveLength(0);
  });

  it("expires an idle admin session after 60 minutes", async () => {
    const { cookie } = await loginAsAdmin(t.app, "admissions");
    clockOffsetMs = 61 * 60_000;
    try {
      expect((await get("/api/admin/me", cookie)).statusCode).toBe(401);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe("role separation (S6, S7)", () => {
  it("a student session opens no admin or affiliate route; an admin session no student route", async () => {
    const { cookie: studentCookie } = await loginAsStudent(t.app);
    expect((await get("/api/admin/me", studentCookie)).statusCode).toBe(401);
    expect((await get("/api/affiliate/me", studentCookie)).statusCode).toBe(401);
    expect((await get("/api/admin/admins", studentCookie)).statusCode).toBe(401);
    expect((await get("/api/admin/applications", studentCookie)).statusCode).toBe(401);
    // The same token presented under another role's cookie name is not a session of that role.
    const token = studentCookie.split("=")[1]!;
    expect((await get("/api/admin/me", `sid_admin=${token}`)).statusCode).toBe(401);
    expect((await get("/api/affiliate/me", `sid_affiliate=${token}`)).statusCode).toBe(401);

    const { cookie: adminCookie } = await loginAsAdmin(t.app);
    expect((await get("/api/student/me", adminCookie)).statusCode).toBe(401);
    expect((await get("/api/student/applications", adminCookie)).statusCode).toBe(401);
    expect((await get("/api/affiliate/me", adminCookie)).statusCode).toBe(401);
    const adminToken = adminCookie.split("=")[1]!;
    expect((await get("/api/student/me", `sid_student=${adminToken}`)).statusCode).toBe(401);
  });

  it("answers the admin session check with no-store, and 401 without a session", async () => {
    const { cookie } = await loginAsAdmin(t.app);
    const me = await get("/api/admin/me", cookie);
    expect(me.headers["cache-control"]).toBe("no-store");
    const anonymous = await get("/api/admin/me");
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers["cache-control"]).toBe("no-store");
    expect((await get("/api/student/me")).statusCode).toBe(401);
    expect((await get("/api/affiliate/me")).statusCode).toBe(401);
  });
});

describe("rate limits (S5)", () => {
  it("login: 5 attempts a minute per address and e-mail, then 429 even with the right password", async () => {
    const { student } = await loginAsStudent(t.app);
    const address = nextAddress();
    for (let i = 0; i < 5; i++) {
      const res = await post(
        "/api/student/login",
        { email: student.email, password: "wrong!wrong" },
        { address },
      );
      expect(res.statusCode).toBe(401);
    }
    const blocked = await post(
      "/api/student/login",
      { email: student.email, password: TEST_PASSWORD },
      { address },
    );
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(MSG.tooMany);
    // Another e-mail from the same address still has its own attempts.
    const other = await loginAsStudent(t.app);
    const ok = await post(
      "/api/student/login",
      { email: other.student.email, password: TEST_PASSWORD },
      { address },
    );
    expect(ok.statusCode).toBe(200);
    // The limit lifts after a minute (the limiter keeps real time).
  });

  it("login: at most 30 attempts a minute from one address, whatever the e-mail", async () => {
    const address = nextAddress();
    const codesSeen: number[] = [];
    for (let i = 0; i < 31; i++) {
      const res = await post(
        "/api/admin/login",
        { email: uniqueEmail("spray"), password: "guess-guess" },
        { address },
      );
      codesSeen.push(res.statusCode);
    }
    expect(codesSeen.slice(0, 30).every((c) => c === 401)).toBe(true);
    expect(codesSeen[30]).toBe(429);
  });

  it("ignores X-Forwarded-For without TRUST_PROXY", async () => {
    const email = uniqueEmail("xff");
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(
        "/api/affiliate/login",
        { email, password: "wrong!wrong" },
        { address, headers: { "x-forwarded-for": `203.0.113.${i + 1}` } },
      );
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it("trusts X-Forwarded-For only with TRUST_PROXY", async () => {
    // The account's own back-off (5 attempts whatever the address) would stop this e-mail first.
    const proxied = await createTestApp({ env: { TRUST_PROXY: "true", LOGIN_FREE_ATTEMPTS: "20" } });
    try {
      const email = uniqueEmail("proxied");
      const address = nextAddress();
      for (let i = 0; i < 6; i++) {
        const res = await post(
          "/api/affiliate/login",
          { email, password: "wrong!wrong" },
          { app: proxied, address, headers: { "x-forwarded-for": `203.0.113.${i + 1}` } },
        );
        expect(res.statusCode).toBe(401);
      }
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await post(
          "/api/affiliate/login",
          { email, password: "wrong!wrong" },
          { app: proxied, address, headers: { "x-forwarded-for": "198.51.100.7" } },
        );
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    } finally {
      await proxied.close();
    }
  });

  it("password reset: 3 an hour per account, and 5 a minute per address and e-mail, then 429", async () => {
    const address = nextAddress();
    const email = uniqueEmail("reset-limit");
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 6; i++) {
      answers.push(await post("/api/admin/password-reset", { email }, { address }));
    }
    expect(answers.map((r) => r.statusCode)).toEqual([202, 202, 202, 429, 429, 429]);
    expect(answers[3]!.json().message).toBe("Too many attempts for this account. Try again in 60 minutes.");
    expect(answers[5]!.json().message).toBe(MSG.tooMany);
  });

  it("registration: 5 a minute per address, then 429", async () => {
    const address = nextAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await registerStudent({}, address)).res.statusCode);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
    const affiliateAddress = nextAddress();
    const affiliateStatuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await post(
        "/api/affiliate/register",
        { name: "Spam Partner", email: uniqueEmail("aff"), password: PASSWORD },
        { address: affiliateAddress },
      );
      affiliateStatuses.push(res.statusCode);
    }
    expect(affiliateStatuses).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe("student registration and e-mail verification", () => {
  it("registers: 201 { user } and a session, argon2id hash stored, verification e-mail queued", async () => {
    const { res, email } = await registerStudent({
      email: "  Mixed.Case@Example.com ".replace("Mixed.Case", `mixed.${counter}`),
    });
    expect(res.statusCode).toBe(201);
    const user = res.json().user;
    expect(user).toMatchObject({
      email: email.trim().toLowerCase(),
      firstName: "Noor",
      lastName: "Visser",
      emailVerified: false,
    });
    expect(Object.keys(user).sort()).toEqual(["email", "emailVerified", "firstName", "id", "lastName"]);
    const cookie = cookiesFrom(res);
    expect(cookie).toMatch(/^sid_student=/);
    expect((await get("/api/student/me", cookie)).json()).toEqual({ user });
    const [row] = await db().select().from(students).where(eq(students.id, user.id));
    expect(row!.passwordHash!.startsWith("$argon2id$")).toBe(true);
    expect(row!.passwordHash).not.toContain(PASSWORD);
    const mails = await mailTo(user.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Please confirm your e-mail address");
    expect(mails[0]!.textBody).toContain("Dear Noor,");
    expect(mails[0]!.textBody).toContain("http://localhost:3000/en/student/verify-email?token=");
  });

  it("applies the password policy: 7 characters and common passwords refused, long passphrases accepted", async () => {
    const short = await registerStudent({ password: "seven77" });
    expect(short.res.statusCode).toBe(400);
    expect(short.res.json()).toEqual({ message: MSG.tooShort, fieldErrors: { password: MSG.tooShort } });
    const common = await registerStudent({ password: "Password123" });
    expect(common.res.statusCode).toBe(400);
    expect(common.res.json().message).toBe(MSG.common);
    const tooLong = await registerStudent({ password: "y".repeat(129) });
    expect(tooLong.res.statusCode).toBe(400);
    expect(tooLong.res.json().message).toBe(MSG.tooLong);
    expect(await db().select().from(students).where(eq(students.email, short.email))).toHaveLength(0);

    const eight = await registerStudent({ password: "harbour8" });
    expect(eight.res.statusCode).toBe(201);
    const passphrase =
      "the quick brown fox jumps over the lazy dog while the hague summer school sun sets over the northsea";
    expect(passphrase).toHaveLength(100);
    const long = await registerStudent({ password: passphrase });
    expect(long.res.statusCode).toBe(201);
    const login = await post("/api/student/login", { email: long.email, password: passphrase });
    expect(login.statusCode).toBe(200);
  });

  it("validates the registration body (400 with field errors)", async () => {
    const res = await post("/api/student/register", { email: uniqueEmail("v"), password: PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fieldErrors).sort()).toEqual(["firstName", "lastName"]);
    const bad = await post("/api/student/register", {
      firstName: "A",
      lastName: "B",
      email: uniqueEmail("v"),
      password: PASSWORD,
      language: "de",
    });
    expect(bad.statusCode).toBe(400);
  });

  it("an address already registered: 400 'Registration failed', no session, an e-mail to that address", async () => {
    const { student } = await loginAsStudent(t.app, { language: "fr", firstName: "Chloé" });
    const before = await db().select().from(students).where(eq(students.email, student.email));
    const { res } = await registerStudent({
      email: student.email.toUpperCase(),
      password: "another pass 99",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: MSG.registrationFailed });
    expect(res.cookies).toHaveLength(0);
    const after = await db().select().from(students).where(eq(students.email, student.email));
    expect(after).toEqual(before);
    const mails = await mailTo(student.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Quelqu’un a tenté de s’inscrire avec votre adresse e-mail");
    expect(mails[0]!.textBody).toContain("Bonjour Chloé,");
    expect(mails[0]!.textBody).toContain("http://localhost:3000/fr/student/reset-password");
    // The school's legal facts (configuration) at its foot, in French.
    expect(mails[0]!.textBody).toMatch(/\n-- \n.+ · Chambre de commerce \(KvK\) \S+ · TVA \S+\n/);
    // A second attempt within the hour sends no second e-mail.
    await registerStudent({ email: student.email, password: "another pass 99" });
    expect(await mailTo(student.email)).toHaveLength(1);
  });

  it("sends the verification e-mail in the student's language", async () => {
    const { res, email } = await registerStudent({ language: "zh", firstName: "伟" });
    expect(res.statusCode).toBe(201);
    const [mail] = await mailTo(email);
    expect(mail!.subject).toBe("请确认您的电子邮箱地址");
    expect(mail!.htmlBody).toContain('lang="zh"');
  });

  it("verifies the e-mail once with the link's token; 400 for a used, unknown or expired token", async () => {
    const { res, email } = await registerStudent();
    const cookie = cookiesFrom(res);
    const token = await tokenSentTo(email, "/student/verify-email");
    const [stored] = await db()
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect(stored).toMatchObject({ purpose: "email_verification", role: "student", usedAt: null });
    expect(JSON.stringify(await db().select().from(accountTokens))).not.toContain(token);

    // Another role's endpoint does not accept it.
    expect((await post("/api/affiliate/verify-email", { token })).statusCode).toBe(400);
    const ok = await post("/api/student/verify-email", { token });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ verified: true });
    expect((await get("/api/student/me", cookie)).json().user.emailVerified).toBe(true);
    const again = await post("/api/student/verify-email", { token });
    expect(again.statusCode).toBe(400);
    expect(again.json().message).toBe(MSG.invalidToken);
    expect((await post("/api/student/verify-email", { token: "x".repeat(43) })).statusCode).toBe(400);
    expect((await post("/api/student/verify-email", { token: "" })).statusCode).toBe(400);
    expect((await post("/api/student/verify-email", { token: "<script>" })).statusCode).toBe(400);

    const late = await registerStudent();
    const lateToken = await tokenSentTo(late.email, "/student/verify-email");
    clockOffsetMs = 25 * 3600_000;
    try {
      expect((await post("/api/student/verify-email", { token: lateToken })).statusCode).toBe(400);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe("password reset", () => {
  it("answers 202 { ok: true } whether or not the address exists; only an account gets an e-mail", async () => {
    const { student } = await loginAsStudent(t.app);
    const unknownEmail = uniqueEmail("unknown");
    const known = await post("/api/student/password-reset", { email: student.email });
    const unknown = await post("/api/student/password-reset", { email: unknownEmail });
    expect(known.statusCode).toBe(202);
    expect(unknown.statusCode).toBe(202);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ ok: true });
    expect(await mailTo(unknownEmail)).toHaveLength(0);
    const [mail] = await mailTo(student.email);
    expect(mail!.subject).toBe("Reset your password");
    expect(mail!.textBody).toContain("http://localhost:3000/en/student/reset-password?token=");
    expect((await post("/api/student/password-reset", { email: "nope" })).statusCode).toBe(400);
  });

  it("docs/product/portals.md#password-reset: answers before looking the account up, for an account and a stranger alike", async () => {
    const { student } = await loginAsStudent(t.app);
    const background = t.app.services.background;
    background.hold();
    try {
      for (const email of [student.email, uniqueEmail("stranger")]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/student/password-reset",
          payload: { email },
          remoteAddress: nextAddress(),
        });
        expect(res.statusCode).toBe(202);
      }
      expect(await mailTo(student.email)).toHaveLength(0);
    } finally {
      background.release();
    }
    await background.settled();
    expect(await mailTo(student.email)).toHaveLength(1);
  });

  it("stores the token hashed, valid 1 hour, single use; resetting ends every session (S2)", async () => {
    const { student, cookie } = await loginAsStudent(t.app);
    const second = cookiesFrom(
      await post("/api/student/login", { email: student.email, password: TEST_PASSWORD }),
    );
    const requestedAt = Date.now();
    await post("/api/student/password-reset", { email: student.email });
    const token = await tokenSentTo(student.email, "/student/reset-password");
    const [stored] = await db()
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.tokenHash, hashToken(token)));
    expect(stored!.purpose).toBe("password_reset");
    expect(Math.abs(stored!.expiresAt.getTime() - requestedAt - 3600_000)).toBeLessThan(10_000);

    // A password that breaks the policy does not use up the token.
    const weak = await post("/api/student/password-reset/confirm", { token, password: "letmein1" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(MSG.common);

    const res = await post("/api/student/password-reset/confirm", { token, password: "new harbour lights" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await get("/api/student/me", cookie)).statusCode).toBe(401);
    expect((await get("/api/student/me", second)).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.accountId, student.id))).toHaveLength(0);
    expect(
      (await post("/api/student/login", { email: student.email, password: TEST_PASSWORD })).statusCode,
    ).toBe(401);
    expect(
      (await post("/api/student/login", { email: student.email, password: "new harbour lights" })).statusCode,
    ).toBe(200);

    const reused = await post("/api/student/password-reset/confirm", { token, password: "another harbour" });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().message).toBe(MSG.invalidToken);
  });

  it("expires the reset token after 1 hour; a newer request replaces the older link", async () => {
    const { student } = await loginAsStudent(t.app);
    await post("/api/student/password-reset", { email: student.email });
    const first = await tokenSentTo(student.email, "/student/reset-password");
    await post("/api/student/password-reset", { email: student.email });
    const second = await tokenSentTo(student.email, "/student/reset-password");
    expect(second).not.toBe(first);
    expect(
      (await post("/api/student/password-reset/confirm", { token: first, password: "fresh harbour" }))
        .statusCode,
    ).toBe(400);

    clockOffsetMs = 61 * 60_000;
    try {
      const late = await post("/api/student/password-reset/confirm", {
        token: second,
        password: "fresh harbour",
      });
      expect(late.statusCode).toBe(400);
      expect(late.json().message).toBe(MSG.invalidToken);
    } finally {
      clockOffsetMs = 0;
    }
    clockOffsetMs = 59 * 60_000;
    try {
      await post("/api/student/password-reset", { email: student.email });
      const third = await tokenSentTo(student.email, "/student/reset-password");
      clockOffsetMs += 59 * 60_000;
      expect(
        (await post("/api/student/password-reset/confirm", { token: third, password: "fresh harbour" }))
          .statusCode,
      ).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("resets an affiliate's password (and confirms its e-mail) and an admin's (link to /admin/accept-invite)", async () => {
    const { affiliate, cookie } = await loginAsAffiliate(t.app, { emailVerified: false });
    await post("/api/affiliate/password-reset", { email: affiliate.email });
    const token = await tokenSentTo(affiliate.email, "/affiliate/reset-password");
    expect(
      (await post("/api/student/password-reset/confirm", { token, password: "partner harbour" })).statusCode,
    ).toBe(400);
    expect(
      (await post("/api/affiliate/password-reset/confirm", { token, password: "partner harbour" }))
        .statusCode,
    ).toBe(200);
    expect((await get("/api/affiliate/me", cookie)).statusCode).toBe(401);
    const [row] = await db().select().from(affiliates).where(eq(affiliates.id, affiliate.id));
    expect(row!.emailVerifiedAt).not.toBeNull();

    const { admin, cookie: adminCookie } = await loginAsAdmin(t.app, "admissions");
    await post("/api/admin/password-reset", { email: admin.email });
    const adminToken = await tokenSentTo(admin.email, "/admin/accept-invite");
    const res = await post("/api/admin/password-reset/confirm", {
      token: adminToken,
      password: "admin harbour",
    });
    expect(res.statusCode).toBe(200);
    expect((await get("/api/admin/me", adminCookie)).statusCode).toBe(401);
    expect(
      (await post("/api/admin/login", { email: admin.email, password: "admin harbour" })).statusCode,
    ).toBe(200);
  });

  it("sends no reset e-mail to a disabled admin", async () => {
    const { admin } = await loginAsAdmin(t.app, "finance");
    await db().update(admins).set({ disabledAt: new Date() }).where(eq(admins.id, admin.id));
    const res = await post("/api/admin/password-reset", { email: admin.email });
    expect(res.statusCode).toBe(202);
    expect(await mailTo(admin.email)).toHaveLength(0);
  });
});

describe("affiliates: registration, verification, approval", () => {
  it("registers pending (201, no session), verifies, cannot log in until approved, then gets a referral code", async () => {
    const email = uniqueEmail("partner");
    const res = await post("/api/affiliate/register", {
      name: "Leiden Student Société",
      email,
      password: PASSWORD,
      website: "https://leiden-students.example",
      country: "nl",
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: "pending" });
    expect(res.cookies).toHaveLength(0);
    const [row] = await db().select().from(affiliates).where(eq(affiliates.email, email));
    expect(row).toMatchObject({ status: "pending", country: "NL", emailVerifiedAt: null });
    expect(row!.passwordHash!.startsWith("$argon2id$")).toBe(true);

    const token = await tokenSentTo(email, "/affiliate/verify-email");
    expect((await post("/api/affiliate/verify-email", { token })).json()).toEqual({ verified: true });

    const refused = await post("/api/affiliate/login", { email, password: PASSWORD });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toContain("being reviewed");

    const { cookie: admissions } = await loginAsAdmin(t.app, "admissions");
    expect(
      (await post(`/api/admin/affiliates/${row!.id}/approve`, {}, { cookie: admissions })).statusCode,
    ).toBe(403);
    expect((await get("/api/admin/affiliates", admissions)).statusCode).toBe(403);

    const { cookie: finance } = await loginAsAdmin(t.app, "finance");
    const approved = await post(`/api/admin/affiliates/${row!.id}/approve`, {}, { cookie: finance });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({
      id: row!.id,
      status: "approved",
      referralCode: "LEIDENSTUDEN",
      referralLink: "http://localhost:3000/partner/LEIDENSTUDEN",
      emailVerified: true,
    });
    // Idempotent: a second approval keeps the code.
    const again = await post(`/api/admin/affiliates/${row!.id}/approve`, {}, { cookie: finance });
    expect(again.json().referralCode).toBe("LEIDENSTUDEN");
    const [code] = await db().select().from(codes).where(eq(codes.affiliateId, row!.id));
    expect(code).toMatchObject({ code: "LEIDENSTUDEN", codeType: "referral", discountValue: 0 });
    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, "affiliate"), eq(auditLog.entityId, row!.id)));
    expect(audits.map((a) => a.action)).toEqual(["affiliate.approve", "affiliate.approve"]);

    const list = await get("/api/admin/affiliates", finance);
    expect(list.statusCode).toBe(200);
    expect(list.json().items.find((a: { id: string }) => a.id === row!.id)).toMatchObject({
      email,
      website: "https://leiden-students.example",
      referralCode: "LEIDENSTUDEN",
    });

    const login = await post("/api/affiliate/login", { email, password: PASSWORD });
    expect(login.statusCode).toBe(200);
    expect(login.json()).toEqual({
      user: {
        id: row!.id,
        email,
        name: "Leiden Student Société",
        status: "approved",
        referralCode: "LEIDENSTUDEN",
        referralLink: "http://localhost:3000/partner/LEIDENSTUDEN",
      },
    });

    // A second affiliate with the same name gets a numbered code.
    const twinEmail = uniqueEmail("twin");
    await post("/api/affiliate/register", {
      name: "Leiden Student Société",
      email: twinEmail,
      password: PASSWORD,
    });
    const [twin] = await db().select().from(affiliates).where(eq(affiliates.email, twinEmail));
    const twinApproved = await post(`/api/admin/affiliates/${twin!.id}/approve`, {}, { cookie: finance });
    expect(twinApproved.json().referralCode).toBe("LEIDENSTUDEN2");
    expect((await post("/api/admin/affiliates/not-a-uuid/approve", {}, { cookie: finance })).statusCode).toBe(
      404,
    );
    expect(
      (
        await post(
          "/api/admin/affiliates/00000000-0000-4000-8000-000000000000/approve",
          {},
          { cookie: finance },
        )
      ).statusCode,
    ).toBe(404);
  });

  it("answers an existing address like a new one and tells the owner by e-mail", async () => {
    const { affiliate } = await loginAsAffiliate(t.app);
    const res = await post("/api/affiliate/register", {
      name: "Impostor",
      email: affiliate.email,
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ status: "pending" });
    const [row] = await db().select().from(affiliates).where(eq(affiliates.id, affiliate.id));
    expect(row!.name).toBe(affiliate.name);
    const mails = await mailTo(affiliate.email);
    expect(mails.map((m) => m.subject)).toEqual(["Someone tried to register with your e-mail address"]);
    expect(mails[0]!.textBody).toContain("/affiliate/reset-password");
  });

  it("validates the affiliate registration (password policy, website)", async () => {
    const weak = await post("/api/affiliate/register", {
      name: "A",
      email: uniqueEmail("w"),
      password: "abc12345",
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(MSG.common);
    const site = await post("/api/affiliate/register", {
      name: "A",
      email: uniqueEmail("w"),
      password: PASSWORD,
      website: "javascript:alert(1)",
    });
    expect(site.statusCode).toBe(400);
  });
});

describe("admins: invitations, acceptance, roles", () => {
  it("an owner invites an admin, who accepts with a password and gets a session", async () => {
    const { cookie: owner, admin: ownerAdmin } = await loginAsAdmin(t.app, "owner");
    const email = uniqueEmail("new-admin");
    const res = await post(
      "/api/admin/admins",
      { email, name: "Sanne de Vries", role: "admissions" },
      { cookie: owner },
    );
    expect(res.statusCode).toBe(201);
    const invited = res.json();
    expectParses(adminTeamMemberSchema, invited);
    expect(invited).toMatchObject({ email, name: "Sanne de Vries", role: "admissions", status: "invited" });
    const [mail] = await mailTo(email);
    expect(mail!.subject).toBe("Your invitation to the back office of The Hague Summer School");
    expect(mail!.textBody).toContain("with the role Admissions");
    const token = await tokenSentTo(email, "/admin/accept-invite");

    // Not usable before acceptance.
    expect((await post("/api/admin/login", { email, password: PASSWORD })).statusCode).toBe(401);
    const weak = await post("/api/admin/accept-invite", { token, password: "short" });
    expect(weak.statusCode).toBe(400);
    expect(weak.json().message).toBe(MSG.tooShort);

    const accepted = await post("/api/admin/accept-invite", { token, password: PASSWORD, name: "Sanne" });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toEqual({ user: { id: invited.id, email, name: "Sanne", role: "admissions" } });
    const cookie = cookiesFrom(accepted);
    expect(cookie).toMatch(/^sid_admin=/);
    expect((await get("/api/admin/me", cookie)).json().user.id).toBe(invited.id);
    expect((await post("/api/admin/accept-invite", { token, password: PASSWORD })).statusCode).toBe(400);
    expect((await post("/api/admin/login", { email, password: PASSWORD })).statusCode).toBe(200);

    const [row] = await db().select().from(admins).where(eq(admins.id, invited.id));
    expect(row!.invitedBy).toBe(ownerAdmin.id);
    const audits = await db().select().from(auditLog).where(eq(auditLog.entityId, invited.id));
    expect(audits[0]).toMatchObject({ action: "admin.invite", actorRole: "admin", actorId: ownerAdmin.id });

    const list = await get(`/api/admin/admins?q=${encodeURIComponent(email)}`, owner);
    expect(list.statusCode).toBe(200);
    expectParses(adminTeamListSchema, list.json());
    expect(list.json().items.find((a: { id: string }) => a.id === invited.id)).toMatchObject({
      status: "active",
    });
    // An active admin cannot be invited again.
    const dup = await post("/api/admin/admins", { email, name: "Again", role: "finance" }, { cookie: owner });
    expect(dup.statusCode).toBe(409);
  });

  it("a pending invitation can be sent again (the old link stops working); it expires after 24 hours", async () => {
    const { cookie: owner } = await loginAsAdmin(t.app, "owner");
    const email = uniqueEmail("reinvite");
    await post("/api/admin/admins", { email, name: "First", role: "finance" }, { cookie: owner });
    const first = await tokenSentTo(email, "/admin/accept-invite");
    const again = await post(
      "/api/admin/admins",
      { email, name: "Second", role: "admissions" },
      { cookie: owner },
    );
    expect(again.statusCode).toBe(201);
    expectParses(adminTeamMemberSchema, again.json());
    expect(again.json()).toMatchObject({ name: "Second", role: "admissions", status: "invited" });
    const second = await tokenSentTo(email, "/admin/accept-invite");
    expect((await post("/api/admin/accept-invite", { token: first, password: PASSWORD })).statusCode).toBe(
      400,
    );
    clockOffsetMs = 25 * 3600_000;
    try {
      expect((await post("/api/admin/accept-invite", { token: second, password: PASSWORD })).statusCode).toBe(
        400,
      );
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("only owners manage admins: finance and admissions get 403", async () => {
    for (const role of ["finance", "admissions"] as const) {
      const { cookie } = await loginAsAdmin(t.app, role);
      const res = await post(
        "/api/admin/admins",
        { email: uniqueEmail("x"), name: "X", role: "owner" },
        { cookie },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("You do not have permission to do this.");
      expect((await get("/api/admin/admins", cookie)).statusCode).toBe(403);
      expect(
        (await patch("/api/admin/admins/00000000-0000-4000-8000-000000000000", { role: "owner" }, cookie))
          .statusCode,
      ).toBe(403);
    }
    expect(
      (await post("/api/admin/admins", { email: uniqueEmail("x"), name: "X", role: "owner" })).statusCode,
    ).toBe(401);
  });

  it("validates invitations and changes (400), unknown admins (404)", async () => {
    const { cookie } = await loginAsAdmin(t.app, "owner");
    expect(
      (await post("/api/admin/admins", { email: "bad", name: "X", role: "owner" }, { cookie })).statusCode,
    ).toBe(400);
    expect(
      (await post("/api/admin/admins", { email: uniqueEmail("x"), name: "X", role: "superuser" }, { cookie }))
        .statusCode,
    ).toBe(400);
    expect((await patch("/api/admin/admins/not-a-uuid", { role: "finance" }, cookie)).statusCode).toBe(404);
    expect(
      (await patch("/api/admin/admins/00000000-0000-4000-8000-000000000000", { role: "finance" }, cookie))
        .statusCode,
    ).toBe(404);
    const { admin } = await loginAsAdmin(t.app, "finance");
    expect((await patch(`/api/admin/admins/${admin.id}`, {}, cookie)).statusCode).toBe(400);
    expect((await patch(`/api/admin/admins/${admin.id}`, { disabled: "yes" }, cookie)).statusCode).toBe(400);
  });

  it("disabling an admin ends their sessions and refuses their login; enabling lets them back (S2)", async () => {
    const { cookie: owner, admin: ownerAdmin } = await loginAsAdmin(t.app, "owner");
    const { cookie, admin, password } = await loginAsAdmin(t.app, "admissions");
    const res = await patch(`/api/admin/admins/${admin.id}`, { disabled: true }, owner);
    expect(res.statusCode).toBe(200);
    expectParses(adminTeamMemberSchema, res.json());
    expect(res.json()).toMatchObject({ id: admin.id, status: "disabled" });
    expect((await get("/api/admin/me", cookie)).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.accountId, admin.id))).toHaveLength(0);
    const login = await post("/api/admin/login", { email: admin.email, password });
    expect(login.statusCode).toBe(401);
    expect(login.json().message).toBe(MSG.invalidCredentials);

    const enabled = await patch(`/api/admin/admins/${admin.id}`, { disabled: false, role: "finance" }, owner);
    expectParses(adminTeamMemberSchema, enabled.json());
    expect(enabled.json()).toMatchObject({ status: "active", role: "finance" });
    const back = await post("/api/admin/login", { email: admin.email, password });
    expect(back.statusCode).toBe(200);
    expect(back.json().user.role).toBe("finance");

    const audits = await db()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, admin.id), eq(auditLog.action, "admin.update")));
    expect(audits).toHaveLength(2);
    expect(audits[0]).toMatchObject({ actorId: ownerAdmin.id });
  });

  it("an owner cannot disable themselves or change their own role", async () => {
    const { cookie, admin } = await loginAsAdmin(t.app, "owner");
    const disable = await patch(`/api/admin/admins/${admin.id}`, { disabled: true }, cookie);
    expect(disable.statusCode).toBe(400);
    expect(disable.json().message).toBe("You cannot disable your own account or change your own role.");
    expect((await patch(`/api/admin/admins/${admin.id}`, { role: "finance" }, cookie)).statusCode).toBe(400);
    expect(
      (await patch(`/api/admin/admins/${admin.id}`, { role: "owner", disabled: false }, cookie)).statusCode,
    ).toBe(200);
    expect((await get("/api/admin/me", cookie)).statusCode).toBe(200);
  });
});

describe("student invitation after payment and the student's applications", () => {
  /** Pays an application of `email` with the full-scholarship code (zero payment). */
  async function paidApplication(email: string) {
    const address = nextAddress();
    const created = await createPaidReadyApplication(t.app, { email }, { remoteAddress: address });
    const code = await t.app.inject({
      method: "POST",
      url: "/api/validate-code",
      headers: { cookie: created.cookie },
      payload: { code: "FULLSCHOLAR", applicationId: created.applicationId },
      remoteAddress: address,
    });
    expect(code.json().isValid, code.body).toBe(true);
    const zero = await t.app.inject({
      method: "POST",
      url: "/api/process-zero-payment",
      headers: { cookie: created.cookie },
      payload: { applicationId: created.applicationId, termsAccepted: true },
      remoteAddress: address,
    });
    expect(zero.statusCode, zero.body).toBe(200);
    return created;
  }

  it("queues the invitation once per address, and none when a student account exists", async () => {
    const email = uniqueEmail("applicant");
    await paidApplication(email);
    await paidApplication(email);
    const invites = await db()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `student-invite:${email}`));
    expect(invites).toHaveLength(1);
    expect(invites[0]!.subject).toBe("Create your student account");
    expect(invites[0]!.textBody).toContain(
      `http://localhost:3000/en/student/register?email=${encodeURIComponent(email)}`,
    );
    expect(invites[0]!.textBody).toContain("Dear Amara,");
    // A 100 % scholarship: nothing was paid, and the e-mail does not say so (docs/product/payments.md#zero-payment).
    expect(invites[0]!.textBody).toContain(
      "your scholarship covers the whole fee, so there is nothing to pay",
    );
    expect(invites[0]!.textBody).not.toContain("received your payment");

    const { student } = await loginAsStudent(t.app);
    await paidApplication(student.email);
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.dedupeKey, `student-invite:${student.email}`)),
    ).toHaveLength(0);
  });

  it("GET /api/student/applications: 401 signed out, 403 until verified, then only the student's own", async () => {
    const email = uniqueEmail("portal");
    const paid = await paidApplication(email);
    const unpaid = await createPaidReadyApplication(t.app, { email }, { remoteAddress: nextAddress() });
    await paidApplication(uniqueEmail("someone-else"));

    expect((await get("/api/student/applications")).statusCode).toBe(401);
    const { cookie: unverified } = await loginAsStudent(t.app, { email, emailVerified: false });
    const refused = await get("/api/student/applications", unverified);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MSG.verifyFirst);

    await db().update(students).set({ emailVerifiedAt: new Date() }).where(eq(students.email, email));
    const res = await get("/api/student/applications", unverified);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const list = res.json() as Array<Record<string, unknown>>;
    expect(list.map((a) => a.id).sort()).toEqual([paid.applicationId, unpaid.applicationId].sort());
    const paidItem = list.find((a) => a.id === paid.applicationId)!;
    expect(Object.keys(paidItem).sort()).toEqual(
      [
        "amountPaid",
        "balanceDue",
        "dueDate",
        "endDate",
        "id",
        "paymentState",
        "programName",
        "startDate",
        "status",
        "totalAmount",
      ].sort(),
    );
    expect(paidItem).toMatchObject({
      status: "submitted",
      paymentState: "paid",
      totalAmount: 0,
      amountPaid: 0,
      balanceDue: 0,
      dueDate: null,
    });
    expect(list.find((a) => a.id === unpaid.applicationId)).toMatchObject({
      status: "pending_payment",
      paymentState: "unpaid",
      totalAmount: 304500,
    });
    expect(typeof paidItem.programName).toBe("string");

    const { cookie: other } = await loginAsStudent(t.app);
    expect((await get("/api/student/applications", other)).json()).toEqual([]);
  });
});

describe("npm run admin:create", () => {
  const run = promisify(execFile);
  const tsx = path.join(ROOT, "node_modules", ".bin", "tsx");

  it("creates an owner and prints a one-time link; exit 1 for an invalid e-mail", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hss-cli-"));
    const env = {
      ...process.env,
      DATA_DIR: dataDir,
      APP_ORIGIN: "https://school.example",
      DATABASE_URL: "",
      SMTP_URL: "",
      LOG_LEVEL: "silent",
    };
    try {
      const { stdout } = await run(
        tsx,
        ["src/server/cli/create-admin.ts", "Owner@School.example", "--name", "Olga Owner"],
        {
          cwd: ROOT,
          env,
        },
      );
      const match = stdout.match(
        /https:\/\/school\.example\/admin\/accept-invite\?token=([A-Za-z0-9_-]{43})/,
      );
      expect(match, stdout).not.toBeNull();

      const failed = await run(tsx, ["src/server/cli/create-admin.ts", "not-an-email"], {
        cwd: ROOT,
        env,
      }).then(
        () => null,
        (err: { code: number; stderr: string }) => err,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stderr).toMatch(/not a valid e-mail address/);

      const database = await openDatabase({ dataDir });
      try {
        const [owner] = await database.db
          .select()
          .from(admins)
          .where(eq(admins.email, "owner@school.example"));
        expect(owner).toMatchObject({ role: "owner", name: "Olga Owner", passwordHash: null });
        const [token] = await database.db
          .select()
          .from(accountTokens)
          .where(eq(accountTokens.tokenHash, hashToken(match![1]!)));
        expect(token).toMatchObject({ purpose: "admin_invite", role: "admin", accountId: owner!.id });
        const [mail] = await database.db
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.toAddress, "owner@school.example"));
        expect(mail!.textBody).toContain(match![0]);
      } finally {
        await database.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
