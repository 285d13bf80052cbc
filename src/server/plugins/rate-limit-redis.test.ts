/**
 * Rate limits shared by several server processes through Redis (decision 011), and kept when
 * Redis is away (docs/product/security.md#s5-brute-force-and-rate-limits): a visitor who spreads requests over two processes gets no more
 * attempts than from one; while Redis cannot be reached each process counts in its own memory
 * and the log says so once. The tests with a real Redis need TEST_REDIS_URL (e.g.
 * redis://127.0.0.1:6379, set by `.ci/run` when Redis answers), those of two processes on one
 * database also TEST_DATABASE_URL; they are skipped otherwise.
 */
import { randomInt } from "node:crypto";
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAsStudent, TEST_PASSWORD } from "../testing/accounts";
import { SAME_ORIGIN } from "../testing/admin";
import { createTestApp, type TestApp } from "../testing/harness";

const redisUrl = process.env.TEST_REDIS_URL;
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);

// A visitor address of its own per run, so earlier runs' counters (one minute) do not count.
const visitor = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const validateCode = (t: TestApp, remoteAddress = visitor) =>
  t.app.inject({
    method: "POST",
    url: "/api/validate-code",
    remoteAddress,
    headers: { ...SAME_ORIGIN.headers, "content-type": "application/json" },
    payload: { code: "WELCOME10" },
  });

let counter = 0;
/** A client address never used before (address-based limits never apply). */
const nextAddress = () => {
  counter += 1;
  return `10.66.${randomInt(250)}.${(counter % 250) + 1}`;
};
const login = (t: TestApp, email: string, password: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/student/login",
    payload: { email, password },
    remoteAddress: nextAddress(),
  });
const resetRequest = (t: TestApp, email: string) =>
  t.app.inject({
    method: "POST",
    url: "/api/student/password-reset",
    payload: { email },
    remoteAddress: nextAddress(),
  });

/** Statuses of `n` code checks from `address`. */
async function codeChecks(t: TestApp, n: number, address: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await validateCode(t, address)).statusCode);
  return statuses;
}

/** Log lines whose message starts with `prefix`. */
const linesOf = (logs: Array<Record<string, unknown>>, prefix: string) =>
  logs.filter((l) => typeof l.msg === "string" && l.msg.startsWith(prefix));

/** Polls `check` every 50 ms until it is true, for at most `ms`. */
async function eventually(check: () => boolean, ms = 10_000) {
  const until = Date.now() + ms;
  while (!check() && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 50));
  return check();
}

describe.skipIf(!redisUrl)("rate limits shared through Redis", () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await createTestApp({ env: { REDIS_URL: redisUrl! } });
    second = await createTestApp({ env: { REDIS_URL: redisUrl! }, seed: false });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it("counts a visitor's code checks across both processes: the 21st in a minute is refused", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) statuses.push((await validateCode(i % 2 === 0 ? first : second)).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);

    const refused = await validateCode(second);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/too many/i);
    expect((await validateCode(first)).statusCode).toBe(429);
    // Another visitor is not affected.
    expect((await validateCode(first, `${visitor.split(".").slice(0, 3).join(".")}.0`)).statusCode).toBe(200);
  });

  it("docs/product/portals.md#sign-in-limits: the resume-link and sign-in limits of one address are counted apart", async () => {
    const address = nextAddress();
    const resume = (i: number) =>
      first.app.inject({
        method: "POST",
        url: "/api/resume-links",
        remoteAddress: address,
        headers: SAME_ORIGIN.headers,
        payload: { email: `someone.${i}.${randomInt(1e9)}@example.com` },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await resume(i)).statusCode);
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(statuses[30]).toBe(429);
    // The same address may still sign in: a wrong password is a 401, not a 429.
    const signIn = await second.app.inject({
      method: "POST",
      url: "/api/student/login",
      remoteAddress: address,
      headers: SAME_ORIGIN.headers,
      payload: { email: `nobody.${randomInt(1e9)}@example.com`, password: "not the password at all" },
    });
    expect(signIn.statusCode, signIn.body).toBe(401);
  });
});

describe("S5 limits while Redis cannot be reached", () => {
  let offline: TestApp;
  const logs: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    offline = await createTestApp({ env: { REDIS_URL: "redis://127.0.0.1:1" }, logs });
  });
  afterAll(async () => {
    await offline?.close();
  });

  it("S5 Redis unreachable: the 21st code check in a minute is still refused, and the log says so once", async () => {
    const statuses = await codeChecks(offline, 21, nextAddress());
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
    const warnings = linesOf(logs, "Redis unreachable");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.level).toBe(40);
    expect(warnings[0]!.msg).toMatch(/this process's memory/);
  });

  it("S5 Redis unreachable: the sign-in back-off still applies, whatever the client address", async () => {
    const { student } = await loginAsStudent(offline.app);
    for (let i = 0; i < 5; i++)
      expect((await login(offline, student.email, "wrong!wrong")).statusCode).toBe(401);
    const held = await login(offline, student.email, TEST_PASSWORD);
    expect(held.statusCode).toBe(429);
    expect(held.headers["retry-after"]).toBe("1");
    expect(linesOf(logs, "Redis unreachable")).toHaveLength(1);
  });
});

describe.skipIf(!redisUrl)("S5 Redis lost and back", () => {
  it("S5 Redis lost mid-way: counted in memory meanwhile, shared again once back; logged once each way", async () => {
    const target = new URL(redisUrl!);
    // A TCP relay to the real Redis that the test can cut and restore.
    const sockets = new Set<net.Socket>();
    const relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const [a, b] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        sockets.add(a);
        a.pipe(b);
        a.on("error", () => b.destroy());
        a.on("close", () => {
          sockets.delete(a);
          b.destroy();
        });
      }
    });
    const listen = (port: number) =>
      new Promise<number>((resolve) =>
        relay.listen(port, "127.0.0.1", () => resolve((relay.address() as net.AddressInfo).port)),
      );
    const port = await listen(0);
    const logs: Array<Record<string, unknown>> = [];
    const t = await createTestApp({ env: { REDIS_URL: `redis://127.0.0.1:${port}` }, logs });
    const address = nextAddress();
    try {
      expect(await codeChecks(t, 5, address)).toEqual(Array(5).fill(200)); // 5 counted in Redis

      relay.close();
      for (const socket of sockets) socket.destroy();
      expect(await eventually(() => linesOf(logs, "Redis unreachable").length > 0)).toBe(true);
      // This process's memory counts from zero: 20 pass, the 21st is refused.
      const during = await codeChecks(t, 21, address);
      expect(during.slice(0, 20)).toEqual(Array(20).fill(200));
      expect(during[20]).toBe(429);

      await listen(port);
      expect(await eventually(() => linesOf(logs, "Redis reachable again").length > 0)).toBe(true);
      // Redis's count resumes at 5: 15 more pass, then refused.
      const after = await codeChecks(t, 16, address);
      expect(after.slice(0, 15)).toEqual(Array(15).fill(200));
      expect(after[15]).toBe(429);

      expect(linesOf(logs, "Redis unreachable")).toHaveLength(1);
      expect(linesOf(logs, "Redis reachable again")).toHaveLength(1);
    } finally {
      await t.close();
      relay.close();
      for (const socket of sockets) socket.destroy();
    }
  });
});

describe.skipIf(!redisUrl || !onPostgres)(
  "S5 per-account limits shared by two processes on one database",
  () => {
    let first: TestApp;
    let second: TestApp;
    /** Both processes' clock (ms), frozen: the waits do not run out while the test runs. */
    const clock = Date.now();

    beforeAll(async () => {
      first = await createTestApp({ env: { REDIS_URL: redisUrl! }, now: () => new Date(clock) });
      second = await createTestApp({
        peerOf: first,
        env: { REDIS_URL: redisUrl! },
        now: () => new Date(clock),
      });
    });
    afterAll(async () => {
      await second?.close();
      await first?.close();
    });

    it("S5 the sign-in back-off and the reset limit count an account's attempts in both processes together", async () => {
      const { student } = await loginAsStudent(first.app);
      for (let i = 0; i < 5; i++) {
        const res = await login(i % 2 === 0 ? first : second, student.email, "wrong!wrong");
        expect(res.statusCode).toBe(401);
      }
      for (const t of [first, second]) {
        const held = await login(t, student.email, TEST_PASSWORD);
        expect(held.statusCode).toBe(429);
        expect(held.headers["retry-after"]).toBe("1");
      }

      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await resetRequest(i % 2 === 0 ? first : second, student.email)).statusCode);
      expect(statuses).toEqual([202, 202, 202, 429]);
      expect((await resetRequest(first, student.email)).statusCode).toBe(429);
    });
  },
);
