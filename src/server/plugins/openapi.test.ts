/**
 * The OpenAPI 3.1 document generated from the contracts (docs/product/api.md#openapi): the public part for
 * anyone at /api/openapi.json, the full document and its reference page for signed-in admins only,
 * and both pass Redocly's recommended lint rules.
 */
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { APPLY_CONTRACTS } from "../../shared/api/apply";
import { CONTRACTS } from "../../shared/api/registry";
import { loginAsAdmin } from "../testing/accounts";
import { createTestApp, type TestApp } from "../testing/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

/** Lints `document` with Redocly's `recommended` rules; returns the errors and warnings as lines. */
async function lint(document: unknown): Promise<string[]> {
  const config = await createConfig({ extends: ["recommended"], rules: { "info-license-url": "off" } });
  const problems = await lintFromString({
    source: JSON.stringify(document),
    absoluteRef: "openapi.json",
    config,
  });
  return problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ""}`);
}

describe("the OpenAPI document", () => {
  it("the public one lists exactly the public endpoints", async () => {
    const res = await t.app.inject({ url: "/api/openapi.json" });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe("3.1.0");
    const listed = Object.entries(doc.paths as Record<string, Record<string, { tags: string[] }>>).flatMap(
      ([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const served = new Set(t.app.routeTable.map((r) => `${r.method} ${r.url}`));
    const expected = CONTRACTS.filter(
      (c) => c.access === "public" && !c.undocumented && served.has(`${c.method} ${c.path}`),
    ).map((c) => `${c.method} ${c.path.replace(/:(\w+)/g, "{$1}")}`);
    expect(listed.sort()).toEqual(expected.sort());
    expect(listed).toContain("POST /api/applicants");
    expect(listed.some((op) => op.includes("/api/admin/summer-schools"))).toBe(false);
  });

  it("the full one and its reference page are for signed-in admins only", async () => {
    for (const url of ["/api/reference", "/api/reference/json"]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(401);
    }
    const { cookie } = await loginAsAdmin(t.app, "finance");
    const res = await t.app.inject({ url: "/api/reference/json", headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    for (const c of APPLY_CONTRACTS)
      expect(doc.paths[c.path.replace(/:(\w+)/g, "{$1}")]?.[c.method.toLowerCase()], c.path).toBeDefined();
    const page = await t.app.inject({ url: "/api/reference/", headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
  });

  it("lints clean (Redocly recommended), public and full", async () => {
    const pub = (await t.app.inject({ url: "/api/openapi.json" })).json();
    expect(await lint(pub)).toEqual([]);
    const { cookie } = await loginAsAdmin(t.app, "owner");
    const full = (await t.app.inject({ url: "/api/reference/json", headers: { cookie } })).json();
    expect(await lint(full)).toEqual([]);
  });
});
