/**
 * The public site as validators nobody here wrote read it (docs/product/portals.md#newsletter, docs/product/portals.md#public-site, docs/product/languages.md#language-in-the-address): every page
 * the server prerenders, in the three languages, passes html-validate's checks of the HTML
 * standard and of a document (`.htmlvalidate.json`: `html-validate:standard` and
 * `html-validate:document`, without `require-sri`, which concerns scripts from other origins: every
 * script and stylesheet here is the site's own); the sitemap validates against the sitemaps.org
 * schema with its `xhtml:link` alternates (`../shared/standards/`, read with xmllint) and lists no
 * page that an e-mailed link with a token opens; those pages say `noindex`; a partner's landing
 * page names `/partners`, the page it repeats, as its canonical address; every page's footer links
 * the newsletter's sign-up. Needs the built site
 * (the unit phase of `npm test` runs after the build).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { FileSystemConfigLoader, HtmlValidate } from "html-validate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LANGUAGES } from "../../../shared/i18n/languages";
import { createTestApp, type TestApp } from "../../testing/harness";

const ROOT = path.resolve(__dirname, "../../../..");
const DIST = path.join(ROOT, "dist/server/entry-server.js");
const STANDARDS = path.resolve(ROOT, "../shared/standards");

/** Pages an e-mailed link with a token (in the path or the query) opens. */
const TOKEN_PAGES = [
  "/newsletter/confirm?token=CONFIRMtoken0123456789",
  "/newsletter/unsubscribe?token=UNSUBtoken0123456789",
  "/apply/resume?token=RESUMEtoken0123456789",
  "/apply/reminders/stop?token=STOPtoken0123456789",
  "/waiting-list/offer/OFFERtoken0123456789",
  "/waiting-list/leave/LEAVEtoken0123456789",
  "/student-pass/PASStoken0123456789",
  "/verify/visa-letter/LETTERtoken0123456789",
];

describe("the public site, checked by outside validators (docs/product/portals.md#public-site, docs/product/languages.md#language-in-the-address)", () => {
  let t: TestApp;
  let publicPaths: string[];

  beforeAll(async () => {
    expect(existsSync(DIST), "the built site (npm run build)").toBe(true);
    publicPaths = ((await import(pathToFileURL(DIST).href)) as { PUBLIC_PATHS: string[] }).PUBLIC_PATHS;
    t = await createTestApp({ withPages: true });
  });
  afterAll(async () => t?.close());

  const get = async (url: string) => {
    const res = await t.app.inject({ method: "GET", url });
    expect(res.statusCode, url).toBe(200);
    return res.body;
  };

  it("every prerendered page in English, Chinese and French has no HTML error and links the newsletter", async () => {
    const validator = new HtmlValidate(new FileSystemConfigLoader());
    const errors: string[] = [];
    const withoutNewsletter: string[] = [];
    const pages = [...publicPaths, "/partner/HARBOUR", ...TOKEN_PAGES];
    for (const language of LANGUAGES)
      for (const page of pages) {
        const url = `/${language}${page === "/" ? "" : page}`;
        const html = await get(url);
        // The newsletter's sign-up is reachable from the footer of every public page (item 8).
        if (!html.includes(`href="/${language}/newsletter"`)) withoutNewsletter.push(url);
        const report = await validator.validateString(html, path.join(ROOT, "page.html"));
        for (const result of report.results)
          for (const m of result.messages)
            errors.push(`${url} ${m.line}:${m.column} ${m.ruleId}: ${m.message}`);
      }
    expect(pages.length).toBeGreaterThan(30);
    expect(errors).toEqual([]);
    expect(withoutNewsletter).toEqual([]);
  }, 240_000);

  it("the sitemap validates against the sitemaps.org schema and lists no page opened by a token", async () => {
    const xsd = path.join(STANDARDS, "sitemap-with-xhtml.xsd");
    expect(existsSync(xsd), `${xsd} (every checkout has ../shared/standards)`).toBe(true);
    const sitemap = await get("/sitemap.xml");
    const file = path.join(mkdtempSync(path.join(tmpdir(), "sitemap-")), "sitemap.xml");
    writeFileSync(file, sitemap);
    // xmllint exits non-zero, with the schema's complaint, when the file does not validate.
    execFileSync("xmllint", ["--noout", "--schema", xsd, file], { stdio: "pipe" });
    const locs = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
    expect(locs).toContain("/zh/for-parents");
    for (const page of TOKEN_PAGES) {
      const pathname = page.split("?")[0]!;
      expect(locs.filter((loc) => loc.endsWith(pathname))).toEqual([]);
    }
    expect(locs.filter((loc) => loc.includes("/partner/"))).toEqual([]);
  });

  it("pages opened by a token say noindex and name no canonical address", async () => {
    for (const page of TOKEN_PAGES) {
      const html = await get(`/fr${page}`);
      expect(html.includes('<meta name="robots" content="noindex"'), page).toBe(true);
      expect(html.includes('rel="canonical"'), page).toBe(false);
    }
  });

  it("a partner's landing page names /partners, the page it repeats, as its canonical address", async () => {
    const html = await get("/zh/partner/HARBOUR");
    const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1];
    expect(new URL(canonical!).pathname).toBe("/zh/partners");
  });
});
