import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PageCache } from "./renderer";

/** A stand-in for the built prerenderer: counts its renders in a global. */
const ENTRY = `
globalThis.__renders = [];
export const ALIASES = {};
export const PUBLIC_PATHS = ["/", "/program"];
export function matchRoute(pathname) {
  return ["/", "/program", "/apply"].includes(pathname) ? { path: pathname } : undefined;
}
export async function render({ url, language }) {
  globalThis.__renders.push(url + "|" + language);
  return { status: 200, html: "<h1>" + url + " " + language + "</h1>", title: "T", description: "D", state: {} };
}
`;

const renders = () => (globalThis as unknown as { __renders: string[] }).__renders;

function makeCache(version: { value: string }) {
  const dir = mkdtempSync(path.join(tmpdir(), "pages-"));
  writeFileSync(
    path.join(dir, "index.html"),
    '<html lang="en"><head><!--head--></head><body><div id="root"><!--app--></div><!--state--></body></html>',
  );
  const entryPath = path.join(dir, `entry-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(entryPath, ENTRY);
  return new PageCache({
    clientDir: dir,
    serverEntryPath: entryPath,
    resources: () => ({}),
    site: { supportEmail: "office@example.org", paymentProvider: "offline" },
    origin: "https://summer.example.org",
    contentVersion: () => version.value,
    today: () => "2027-01-10",
    catalogueSummary: async () => {
      throw new Error("not used");
    },
  });
}

describe("public pages rendered ahead of visitors (decisions.md §5)", () => {
  let cache: PageCache;

  it("warm renders every public page in every language once; visitors then get them from memory", async () => {
    const version = { value: "v1" };
    cache = makeCache(version);
    expect(await cache.init()).toBe(true);
    expect(await cache.warm(["en", "zh", "fr"])).toBe(6);
    expect(renders().sort()).toEqual(
      ["/|en", "/|fr", "/|zh", "/program|en", "/program|fr", "/program|zh"].sort(),
    );
    const page = await cache.get("/program", "zh");
    expect(page.body.toString()).toContain("<h1>/program zh</h1>");
    expect(page.body.toString()).toContain('<html lang="zh">');
    expect(renders()).toHaveLength(6);
  });

  it("after a content change the next request renders anew and the others are rendered again in the background", async () => {
    const version = { value: "v1" };
    cache = makeCache(version);
    await cache.init();
    await cache.warm(["en"]);
    const changes: string[] = [];
    cache.onContentChange = () => changes.push(version.value);
    await cache.get("/", "en");
    expect(changes).toEqual([]);
    version.value = "v2";
    await cache.get("/", "en");
    await new Promise((resolve) => setImmediate(resolve));
    expect(changes).toEqual(["v2"]);
    expect(renders().filter((r) => r === "/|en")).toHaveLength(2);
  });
});
