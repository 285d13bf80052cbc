import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "./testing/harness";

/**
 * See docs/product/privacy.md#logs: no token of an address reaches the access log. The log writes each request's
 * path with the values of its route's parameters redacted, by the route's own pattern (the API's
 * routes, and the pages' route table of the built site), not by a list of prefixes: every route
 * whose address carries a token is requested here and its token looked for in the log. Ids that
 * are UUIDs stay, for tracing. Needs the built site (the unit phase of `npm test` runs after the
 * build), whose route table the pages use.
 */

const DIST = path.resolve(__dirname, "../../dist/server/entry-server.js");
const COHORT = "2ca45754-b877-48c1-867b-53dd5f566a5c";

describe("tokens in addresses are not logged (docs/product/privacy.md#logs)", () => {
  let t: TestApp;
  const logs: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    expect(existsSync(DIST), "the built site (npm run build) with the pages' route table").toBe(true);
    t = await createTestApp({ logs, withPages: true });
  });
  afterAll(async () => t?.close());

  /** The URLs logged for requests, as written to the log. */
  const loggedUrls = () =>
    logs.flatMap((line) => {
      const req = line.req as { url?: string } | undefined;
      return [req?.url, typeof line.url === "string" ? line.url : undefined].filter(
        (u): u is string => typeof u === "string",
      );
    });

  it.each([
    ["GET", "/en/waiting-list/offer/OFFERtoken0123456789"],
    ["GET", "/zh/waiting-list/leave/LEAVEtoken0123456789"],
    ["GET", "/waiting-list/offer/OFFERtokenNoLanguage01"],
    ["GET", "/fr/verify/visa-letter/VISAtoken0123456789ab"],
    ["GET", "/verify/visa-letter/VISAtokenNoLanguage012"],
    ["GET", "/en/student-pass/PASStoken0123456789abc"],
    ["GET", "/student-pass/PASStokenNoLanguage0123"],
    ["GET", "/api/visa-letters/APIvisaToken0123456789"],
    ["GET", "/api/student-pass/APIpassToken0123456789"],
    ["GET", "/api/checkout-sessions/cs_offline_SESSIONsecret01/verify"],
  ])("%s %s: the token is not in the log, the request is", async (method, url) => {
    logs.length = 0;
    const token = url.split("/").find((segment) => /[A-Z]{4,}[a-z]*[Tt]oken|SESSION/.test(segment))!;
    const res = await t.app.inject({ method: method as "GET" | "POST", url, remoteAddress: "10.20.30.40" });
    expect(res.statusCode).toBeLessThan(500);
    const urls = loggedUrls();
    expect(urls.length, "the request is logged").toBeGreaterThan(0);
    expect(urls.some((u) => u.includes("[redacted]"))).toBe(true);
    expect(JSON.stringify(logs)).not.toContain(token);
  });

  it("keeps an id that is a UUID, and a page without parameters, as they are", async () => {
    logs.length = 0;
    await t.app.inject({ url: `/en/waiting-list/${COHORT}` });
    await t.app.inject({ url: "/fr/program" });
    const urls = loggedUrls();
    expect(urls).toContain(`/en/waiting-list/${COHORT}`);
    expect(urls).toContain("/fr/program");
  });
});
