import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loginAsAffiliate, loginAsStudent } from "../../testing/accounts";
import { createTestApp, type TestApp } from "../../testing/harness";

/**
 * Every route of the app as `METHOD /path`, read from Fastify's route tree (`printRoutes` prints
 * one line a node: the path below its parent and its methods), so a route added tomorrow is
 * covered by the checks below without anyone remembering to list it.
 */
function listRoutes(app: FastifyInstance): Array<{ method: string; url: string }> {
  const routes: Array<{ method: string; url: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^([│ ]*)[├└]── (\S+)(?: \(([^)]+)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const url = (depth > 0 ? stack[depth - 1]! : "") + match[2]!;
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (match[3] ?? "").split(", ").filter(Boolean)) {
      if (method !== "HEAD") routes.push({ method, url });
    }
  }
  return routes;
}

/** Admin routes anyone may call: signing in, the invitation, password reset, signing out, the session check. */
const PUBLIC_ADMIN_ROUTES = new Set([
  "POST /api/admin/login",
  "POST /api/admin/logout",
  "POST /api/admin/accept-invite",
  "POST /api/admin/password-reset",
  "POST /api/admin/password-reset/confirm",
]);

/**
 * See docs/product/back-office.md#access-errors and docs/product/security.md#s7-sessions-of-one-kind-do-not-open-another: every back-office API refuses anonymous callers
 * and the sessions of students and affiliates with 401 — checked on every route the app has, not
 * on a list kept by hand. (Each module's own tests check the 403s of the admin roles.)
 */
describe("every back-office route refuses callers who are not admins", () => {
  let t: TestApp;
  let adminRoutes: Array<{ method: string; url: string }>;
  const callers: Array<{ who: string; cookie?: string }> = [{ who: "anonymous" }];

  beforeAll(async () => {
    t = await createTestApp();
    adminRoutes = listRoutes(t.app)
      .filter((r) => r.url.startsWith("/api/admin/"))
      .filter((r) => !PUBLIC_ADMIN_ROUTES.has(`${r.method} ${r.url}`));
    callers.push({ who: "a student", cookie: (await loginAsStudent(t.app)).cookie });
    callers.push({ who: "an affiliate", cookie: (await loginAsAffiliate(t.app)).cookie });
  });
  afterAll(() => t.close());

  it("finds the back office's routes (the route tree was read)", () => {
    const urls = adminRoutes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain("GET /api/admin/applications");
    expect(urls).toContain("PATCH /api/admin/applications/:id/status");
    expect(urls.length).toBeGreaterThan(40);
  });

  it("answers 401 to anonymous callers, students and affiliates on every one of them", async () => {
    const failures: string[] = [];
    for (const route of adminRoutes) {
      const url = route.url.replace(/:[a-zA-Z]+/g, randomUUID());
      for (const caller of callers) {
        const res = await t.app.inject({
          method: route.method as "GET",
          url,
          headers: {
            origin: "http://localhost:3000",
            ...(caller.cookie ? { cookie: caller.cookie } : {}),
            ...(route.method === "GET" || route.method === "DELETE"
              ? {}
              : { "content-type": "application/json" }),
          },
          ...(route.method === "GET" || route.method === "DELETE" ? {} : { payload: "{}" }),
        });
        if (res.statusCode !== 401)
          failures.push(`${route.method} ${route.url} as ${caller.who}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
