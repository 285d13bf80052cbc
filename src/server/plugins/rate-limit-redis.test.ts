/**
 * Rate limits shared by several server processes through Redis (decision 011): a visitor who
 * spreads requests over two processes gets no more attempts than from one, and the limits keep
 * the site up when Redis is down. Needs a Redis server (TEST_REDIS_URL, e.g.
 * redis://127.0.0.1:6379, set by `.ci/run` when Redis answers); skipped otherwise.
 */
import { randomInt } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SAME_ORIGIN } from "../testing/admin";
import { createTestApp, type TestApp } from "../testing/harness";

const redisUrl = process.env.TEST_REDIS_URL;

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

  it("lets requests through when Redis cannot be reached", async () => {
    const offline = await createTestApp({ env: { REDIS_URL: "redis://127.0.0.1:1" } });
    try {
      for (let i = 0; i < 3; i++) expect((await validateCode(offline)).statusCode).toBe(200);
    } finally {
      await offline.close();
    }
  });
});
