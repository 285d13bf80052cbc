/**
 * Every endpoint of the API is declared from one contract (`src/shared/api/`): the routes under
 * /api/ the app serves are exactly the contracts of the registry, each contract names a schema for
 * every parameter of its path, and each is served with its method and path. What is not the API
 * (the pages, their assets, robots.txt, the sitemap, the OpenAPI reference's own files) is outside.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTRACTS } from "../shared/api/registry";
import { API_REFERENCE_PREFIX } from "./plugins/openapi";
import { createTestApp, type TestApp } from "./testing/harness";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const isApi = (url: string) =>
  url.startsWith("/api/") && !url.startsWith(API_REFERENCE_PREFIX) && url !== "/api/openapi.json";

describe("one contract per endpoint", () => {
  it("every route of the API is declared from a contract", () => {
    const loose = t.app.routeTable
      .filter((r) => isApi(r.url) && !r.contract)
      .map((r) => `${r.method} ${r.url}`);
    expect(loose).toEqual([]);
  });

  it("every contract is in the registry, once, and served with its method and path", () => {
    const served = t.app.routeTable.filter((r) => r.contract).map((r) => `${r.method} ${r.url}`);
    const declared = CONTRACTS.map((c) => `${c.method} ${c.path}`);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...served].sort()).toEqual([...declared].sort());
  });

  it("every parameter of a contract's path has a schema", () => {
    for (const c of CONTRACTS) {
      const names = [...c.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      const shape = c.params?.shape ?? {};
      expect(Object.keys(shape).sort(), c.path).toEqual(names.sort());
    }
  });

  it("every contract says what it answers: a JSON schema or the media type of its file", () => {
    for (const c of CONTRACTS) expect(Boolean(c.response) !== Boolean(c.produces), c.path).toBe(true);
  });
});
