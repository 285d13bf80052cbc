/**
 * Checklist S5, per account: the sign-in back-off of the three roles and the password-reset limit
 * hold whatever the client address (every request here comes from a new one; TRUST_PROXY is off),
 * answer an unknown e-mail exactly like a known one, and say how long to wait. The app's clock is
 * frozen and moved by hand, so the whole back-off curve is measured without sleeping.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailOutbox } from "../../db/schema";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent, TEST_PASSWORD } from "../../testing/accounts";
import { createTestApp, type TestApp } from "../../testing/harness";

const WRONG = "not the password";
type Role = "student" | "affiliate" | "admin";

let t: TestApp;
/** The app's clock (ms): frozen, moved only forward by the tests. */
let clock = Date.now();
let counter = 0;
/** A client address never used before: address-based limits never apply here. */
const nextAddress = () => {
  counter += 1;
  return `10.55.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`;
};
const uniqueEmail = (prefix: string) => {
  counter += 1;
  return `${prefix}-${counter}-${Date.now().toString(36)}@example.com`;
};

beforeAll(async () => {
  t = await createTestApp({ now: () => new Date(clock) });
});
afterAll(async () => {
  await t?.close();
});

/** A POST, then the work the route left for after its answer (a reset e-mail: docs/product/portals.md#password-reset). */
async function post(url: string, payload: object, options: { app?: TestApp; language?: string } = {}) {
  const app = (options.app ?? t).app;
  const res = await app.inject({
    method: "POST",
    url,
    payload,
    remoteAddress: nextAddress(),
    headers: options.language ? { cookie: `language=${options.language}` } : {},
  });
  await app.services.background.settled();
  return res;
}
const login = (
  role: Role,
  email: string,
  password: string,
  options: { app?: TestApp; language?: string } = {},
) => post(`/api/${role}/login`, { email, password }, options);

/** A new account of `role` with TEST_PASSWORD (created and signed in once by the test helpers). */
async function accountOf(role: Role): Promise<string> {
  if (role === "student") return (await loginAsStudent(t.app)).student.email;
  if (role === "affiliate") return (await loginAsAffiliate(t.app)).affiliate.email;
  return (await loginAsAdmin(t.app, "owner")).admin.email;
}

/** Fails `times` sign-ins of `email`, each from a new address, each answered 401. */
async function fail(role: Role, email: string, times: number, app?: TestApp) {
  for (let i = 0; i < times; i++) {
    const res = await login(role, email, WRONG, { app });
    expect(res.statusCode, `failure ${i + 1}: ${res.body}`).toBe(401);
  }
}

describe("S5 sign-in back-off per account", () => {
  it("S5 after 5 failures from 5 addresses a student, an affiliate and an admin are held back, even with the right password", async () => {
    for (const role of ["student", "affiliate", "admin"] as const) {
      const email = await accountOf(role);
      await fail(role, email, 5);
      const held = await login(role, email, TEST_PASSWORD);
      expect(held.statusCode, role).toBe(429);
      expect(held.json()).toEqual({
        message: "Too many attempts for this account. Try again in 1 second.",
        retryAfterSeconds: 1,
      });
      expect(held.headers["retry-after"]).toBe("1");
      expect(held.cookies).toHaveLength(0);
    }
  });

  it("S5 the 429 says how long to wait in the visitor's language (Retry-After, retryAfterSeconds, message)", async () => {
    const email = await accountOf("admin");
    await fail("admin", email, 5);
    const english = await login("admin", email, WRONG);
    const french = await login("admin", email, WRONG, { language: "fr" });
    const chinese = await login("admin", email, WRONG, { language: "zh" });
    expect(english.json().message).toBe("Too many attempts for this account. Try again in 1 second.");
    expect(french.json().message).toBe("Trop de tentatives pour ce compte. Réessayez dans 1 seconde.");
    expect(chinese.json().message).toBe("此账户的尝试次数过多。请您在 1 秒后重试。");
    // Six more failures, each after its wait: the next wait is 64 s, told in minutes.
    for (let i = 0; i < 6; i++) {
      clock += Number((await login("admin", email, WRONG)).headers["retry-after"]) * 1000;
      expect((await login("admin", email, WRONG)).statusCode).toBe(401);
    }
    const later = await login("admin", email, WRONG, { language: "fr" });
    expect(later.headers["retry-after"]).toBe("64");
    expect(later.json()).toEqual({
      message: "Trop de tentatives pour ce compte. Réessayez dans 2 minutes.",
      retryAfterSeconds: 64,
    });
  });

  it("S5 back-off curve: 1 s after the 5th failure, doubling up to the 5-minute cap; refused until the last millisecond", async () => {
    const email = await accountOf("student");
    /** [attempts counted so far, wait in seconds before the next one goes through]. */
    const curve: Array<[number, number]> = [];
    let counted = 0;
    while (counted < 16) {
      const res = await login("student", email, WRONG);
      if (res.statusCode === 401) {
        counted += 1;
        continue;
      }
      expect(res.statusCode).toBe(429);
      const wait = Number(res.headers["retry-after"]);
      expect(res.json().retryAfterSeconds).toBe(wait);
      curve.push([counted, wait]);
      clock += wait * 1000 - 1;
      const early = await login("student", email, TEST_PASSWORD);
      expect(early.statusCode).toBe(429);
      expect(early.headers["retry-after"]).toBe("1");
      clock += 1;
    }
    expect(curve).toEqual([
      [5, 1],
      [6, 2],
      [7, 4],
      [8, 8],
      [9, 16],
      [10, 32],
      [11, 64],
      [12, 128],
      [13, 256],
      [14, 300],
      [15, 300],
    ]);
    // The wait is over: the right password works.
    clock += 300_000;
    expect((await login("student", email, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it("S5 the wait expires and the right password works again; a success forgets the failures", async () => {
    const email = await accountOf("affiliate");
    await fail("affiliate", email, 5);
    expect((await login("affiliate", email, TEST_PASSWORD)).statusCode).toBe(429);
    clock += 1000;
    expect((await login("affiliate", email, TEST_PASSWORD)).statusCode).toBe(200);
    // Forgotten: five free failures again.
    await fail("affiliate", email, 5);
    expect((await login("affiliate", email, WRONG)).statusCode).toBe(429);
    // Four failures, then a success: the count starts again.
    const other = await accountOf("student");
    await fail("student", other, 4);
    expect((await login("student", other, TEST_PASSWORD)).statusCode).toBe(200);
    await fail("student", other, 5);
  });

  it("S5 setting a new password through the e-mailed link ends the back-off others' guesses built up", async () => {
    const email = await accountOf("student");
    await fail("student", email, 5);
    for (let i = 0; i < 4; i++) {
      clock += Number((await login("student", email, WRONG)).headers["retry-after"]) * 1000;
      expect((await login("student", email, WRONG)).statusCode).toBe(401);
    }
    expect((await login("student", email, TEST_PASSWORD)).headers["retry-after"]).toBe("16");
    expect((await post("/api/student/password-reset", { email })).statusCode).toBe(202);
    const [mail] = await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email));
    const token = mail!.textBody.match(/reset-password\?token=([A-Za-z0-9_-]+)/)![1]!;
    const newPassword = "lantern over the canal";
    const confirmed = await post("/api/student/password-reset/confirm", { token, password: newPassword });
    expect(confirmed.statusCode).toBe(200);
    expect((await login("student", email, newPassword)).statusCode).toBe(200);
  });

  it("S5 an unknown e-mail gets the same statuses, messages and waits as a known account", async () => {
    const known = await accountOf("admin");
    const unknown = uniqueEmail("nobody");
    const answers = { known: [] as string[], unknown: [] as string[] };
    for (let step = 0; step < 12; step++) {
      for (const [which, email] of [
        ["known", known],
        ["unknown", unknown],
      ] as const) {
        const res = await login("admin", email, WRONG);
        answers[which].push(`${res.statusCode} ${res.headers["retry-after"] ?? "-"} ${res.body}`);
      }
      // Every third step, wait for the longer of the two waits.
      if (step % 3 === 2) clock += 8000;
    }
    expect(answers.unknown).toEqual(answers.known);
    expect(answers.known.filter((a) => a.startsWith("429")).length).toBeGreaterThan(0);
    expect(answers.known[0]).toMatch(/^401 - /);
  });

  it("S5 attempts sent at once get no more than the 5 free ones", async () => {
    const email = await accountOf("student");
    const statuses = (
      await Promise.all(Array.from({ length: 12 }, () => login("student", email, WRONG)))
    ).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(7);
  });

  it("S5 configured back-off: LOGIN_FREE_ATTEMPTS=2 and LOGIN_BACKOFF_MAX_SECONDS=3 give waits 1, 2, 3, 3 s", async () => {
    const configured = await createTestApp({
      now: () => new Date(clock),
      env: { LOGIN_FREE_ATTEMPTS: "2", LOGIN_BACKOFF_MAX_SECONDS: "3" },
    });
    try {
      const email = (await loginAsStudent(configured.app)).student.email;
      await fail("student", email, 2, configured);
      const waits: number[] = [];
      for (let i = 0; i < 4; i++) {
        const held = await login("student", email, WRONG, { app: configured });
        expect(held.statusCode).toBe(429);
        waits.push(Number(held.headers["retry-after"]));
        clock += waits.at(-1)! * 1000;
        expect((await login("student", email, WRONG, { app: configured })).statusCode).toBe(401);
      }
      expect(waits).toEqual([1, 2, 3, 3]);
    } finally {
      await configured.close();
    }
  });
});

describe("S5 password-reset requests per account", () => {
  const mailsTo = async (email: string) =>
    (await t.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email))).length;

  it("S5 3 reset requests an hour per account whatever the address, then 429 with the wait; unknown e-mails alike", async () => {
    const known = await accountOf("student");
    const unknown = uniqueEmail("nobody");
    const answers = { known: [] as string[], unknown: [] as string[] };
    for (let i = 0; i < 5; i++) {
      for (const [which, email] of [
        ["known", known],
        ["unknown", unknown],
      ] as const) {
        const res = await post("/api/student/password-reset", { email });
        answers[which].push(`${res.statusCode} ${res.headers["retry-after"] ?? "-"} ${res.body}`);
      }
    }
    expect(answers.unknown).toEqual(answers.known);
    expect(answers.known.map((a) => a.slice(0, 3))).toEqual(["202", "202", "202", "429", "429"]);
    const held = await post("/api/student/password-reset", { email: known });
    expect(held.headers["retry-after"]).toBe("3600");
    expect(held.json()).toEqual({
      message: "Too many attempts for this account. Try again in 60 minutes.",
      retryAfterSeconds: 3600,
    });
    expect(await mailsTo(known)).toBe(3);
    expect(await mailsTo(unknown)).toBe(0);
    // Another role's account of the same address has its own count.
    expect((await post("/api/admin/password-reset", { email: known })).statusCode).toBe(202);
    // The hour is over.
    clock += 3600_000;
    expect((await post("/api/student/password-reset", { email: known })).statusCode).toBe(202);
    expect(await mailsTo(known)).toBe(4);
  });
});
