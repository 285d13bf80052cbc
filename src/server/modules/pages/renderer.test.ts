import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import type { CatalogueSummaryDto, SummerSchoolDto } from "../../../shared/catalogue";
import { inlineStylesheets, PageCache } from "./renderer";

/** A stand-in for the built prerenderer: counts its renders in a global. */
const ENTRY = `
globalThis.__renders = [];
export const ALIASES = {};
export const PUBLIC_PATHS = ["/", "/program"];
export function matchRoute(pathname) {
  if (pathname.startsWith("/partner/")) return { path: "/partner/:code" };
  if (pathname === "/apply") return { path: "/apply", module: "src/client/features/apply/ApplyPage.tsx", data: "apply", script: "app-when-used" };
  if (pathname === "/contact") return { path: "/contact", module: "src/client/features/public-site/pages/ContactPage.tsx", script: "app-when-used" };
  if (pathname === "/program") return { path: pathname, script: "islands" };
  return ["/", "/apply"].includes(pathname) ? { path: pathname } : undefined;
}
export async function render({ url, language, schoolOptions }) {
  globalThis.__renders.push(url + "|" + language);
  const state = { of: url + " in " + language };
  if (schoolOptions) return { status: 200, html: "<p>options of " + schoolOptions.schoolId + " in " + language + "</p>", title: "T", description: "D", state };
  const status = matchRoute(url) ? 200 : 404;
  const mark = url === "/program" ? (globalThis.__programMark ?? "") : "";
  return { status, html: '<h1 class="title">' + url + " " + language + mark + '</h1>', title: "T", description: "D", state };
}
`;

/**
 * A build's manifest: the start and two pages, which share the framework; the islands' file,
 * which every page already loads, is imported by the start too.
 */
const MANIFEST = {
  "src/client/app/islands.ts": { file: "assets/islands.js" },
  "src/client/app/start.tsx": {
    file: "assets/start.js",
    imports: ["_framework.js", "src/client/app/islands.ts"],
  },
  "_framework.js": { file: "assets/framework.js" },
  "src/client/features/apply/ApplyPage.tsx": {
    file: "assets/ApplyPage.js",
    imports: ["_framework.js", "_wizard.js"],
  },
  "_wizard.js": { file: "assets/wizard.js", imports: ["_framework.js"] },
  "src/client/features/public-site/pages/ContactPage.tsx": {
    file: "assets/ContactPage.js",
    imports: ["_framework.js", "_zod.js"],
  },
  "_zod.js": { file: "assets/zod.js" },
};

const renders = () => (globalThis as unknown as { __renders: string[] }).__renders;

const STYLESHEET = ".title{color:red}.admin-table{color:blue}";

function makeCache(
  version: { value: string },
  { stylesheet = false, catalogue = undefined as CatalogueSummaryDto | undefined, islands = false } = {},
) {
  const dir = mkdtempSync(path.join(tmpdir(), "pages-"));
  const link = stylesheet ? '<link rel="stylesheet" crossorigin href="/assets/index-abc.css">' : "";
  if (stylesheet) {
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "assets", "index-abc.css"), STYLESHEET);
  }
  writeFileSync(
    path.join(dir, "index.html"),
    `<html lang="en"><head><!--head-->${link}<script type="module" src="/assets/index.js"></script></head><body><div id="root"><!--app--></div><!--state--></body></html>`,
  );
  if (islands)
    writeFileSync(
      path.join(dir, "islands.html"),
      `<html lang="en"><head><!--head--><script src="/assets/islands.js"></script></head><body><div id="root"><!--app--></div><!--state--></body></html>`,
    );
  if (islands)
    writeFileSync(
      path.join(dir, "islands-app.html"),
      `<html lang="en" data-start="when-used"><head><!--head--><script src="/assets/islands.js"></script></head><body><div id="root"><!--app--></div><!--state--></body></html>`,
    );
  if (islands) {
    mkdirSync(path.join(dir, ".vite"));
    writeFileSync(path.join(dir, ".vite", "manifest.json"), JSON.stringify(MANIFEST));
  }
  const entryPath = path.join(dir, `entry-${Math.random().toString(36).slice(2)}.mjs`);
  writeFileSync(entryPath, ENTRY);
  return new PageCache({
    clientDir: dir,
    serverEntryPath: entryPath,
    resources: () => ({}),
    site: {
      supportEmail: "office@example.org",
      paymentProvider: "offline",
      vat: { mode: "included", ratePercent: 21 },
      school: {
        legalName: "Stichting Example",
        address: "Street 1, The Hague",
        kvkNumber: "1",
        vatNumber: "NL1B01",
        phone: "+31 70 1",
        emergencyPhone: "+31 6 1",
      },
      partners: { releaseDaysBeforeStart: 29, minimumPayoutCents: 5000 },
      retention: { applicationMonths: 12, inquiryMonths: 24, outboxDays: 90 },
    },
    origin: "https://summer.example.org",
    contentVersion: () => version.value,
    today: () => "2027-01-10",
    catalogueSummary: async () => {
      if (!catalogue) throw new Error("not used");
      return catalogue;
    },
    schoolOptions: async (_language, schoolId) => ({ schoolId, packages: [], housing: [], addOns: [] }),
  });
}

describe("public pages rendered ahead of visitors (docs/product/catalogue-and-pricing.md#catalogue-cache)", () => {
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
    expect(page.body.toString()).toContain('<h1 class="title">/program zh</h1>');
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

  it("after a content change a page whose HTML is the same keeps its compressed bodies; a changed page is compressed anew", async () => {
    const version = { value: "v1" };
    const global = globalThis as unknown as { __programMark?: string };
    global.__programMark = " 12 places";
    onTestFinished(() => {
      delete global.__programMark;
    });
    cache = makeCache(version);
    await cache.init();
    await cache.warm(["en"]);
    const home = await cache.get("/", "en");
    const program = await cache.get("/program", "en");
    version.value = "v2";
    global.__programMark = " 11 places";
    const homeAgain = await cache.get("/", "en");
    const programAgain = await cache.get("/program", "en");
    expect(renders().filter((r) => r === "/|en")).toHaveLength(2);
    // Rendered again, but the same bytes: the very same compressed buffers, not a second compression.
    expect(homeAgain.br).toBe(home.br);
    expect(homeAgain.etag).toBe(home.etag);
    expect(programAgain.br).not.toBe(program.br);
    expect(programAgain.body.toString()).toContain("11 places");
    expect(programAgain.etag).not.toBe(program.etag);
  });
});

describe("the stylesheet of a page (docs/product/portals.md#public-site, decision 010)", () => {
  it.each(["/program", "/partner/ANY"])(
    "%s carries the whole stylesheet inline and links none, so nothing restyles the page once drawn",
    async (pathname) => {
      const cache = makeCache({ value: "v1" }, { stylesheet: true });
      await cache.init();
      const html = (await cache.get(pathname, "en")).body.toString();
      const head = html.slice(0, html.indexOf("</head>"));
      expect(head).toContain(`<style>${STYLESHEET}</style>`);
      expect(html).not.toContain('rel="stylesheet"');
      // The markup React rendered is untouched.
      expect(html).toContain(`<div id="root"><h1 class="title">${pathname} en</h1>`);
    },
  );

  it("a stylesheet cannot close its own style element early", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "inline-"));
    mkdirSync(path.join(dir, "assets"));
    writeFileSync(path.join(dir, "assets", "index-x.css"), 'a::after{content:"</style><script>"}');
    const html = inlineStylesheets('<link rel="stylesheet" crossorigin href="/assets/index-x.css">', dir);
    expect(html).toBe('<style>a::after{content:"<\\/style><script>"}</style>');
  });
});

/** A catalogue summary without schools, for the pages that show one. */
const EMPTY_CATALOGUE = {
  schools: [],
  fromPrice: 0,
  lengthDays: 14,
  insurance: { kind: "varies" },
  earlyDiscount: null,
} as CatalogueSummaryDto;

describe("the script of a page (decision 042)", () => {
  it("a content page and the page of an unknown address load only the islands; the others load the application", async () => {
    const cache = makeCache({ value: "v1" }, { islands: true, catalogue: EMPTY_CATALOGUE });
    await cache.init();
    const islands = '<script src="/assets/islands.js">';
    expect((await cache.get("/program", "en")).body.toString()).toContain(islands);
    expect((await cache.get("/no-such-page", "en")).body.toString()).toContain(islands);
    expect((await cache.get("/", "en")).body.toString()).not.toContain(islands);
    expect((await cache.get("/partner/ANY", "en")).body.toString()).not.toContain(islands);
    // /apply: islands until the visitor starts using it, with the application's files fetched ahead.
    const apply = (await cache.get("/apply", "zh")).body.toString();
    expect(apply).toContain('<html lang="zh" data-start="when-used">');
    expect(apply).toContain(islands);
    const prefetched = (html: string) =>
      [
        ...(/<template data-app-files>(.*?)<\/template>/.exec(html)?.[1] ?? "").matchAll(/href="([^"]+)"/g),
      ].map((match) => match[1]);
    // The start's files and the page's own, each once, without the one the page already runs.
    expect(prefetched(apply)).toEqual([
      "/assets/start.js",
      "/assets/framework.js",
      "/assets/ApplyPage.js",
      "/assets/wizard.js",
    ]);
    // A public form fetches its own page's files, not the wizard's.
    const contact = (await cache.get("/contact", "en")).body.toString();
    expect(contact).toContain('data-start="when-used"');
    expect(prefetched(contact)).toEqual([
      "/assets/start.js",
      "/assets/framework.js",
      "/assets/ContactPage.js",
      "/assets/zod.js",
    ]);
    expect((await cache.get("/program", "en")).body.toString()).not.toContain("data-app-files");
  });

  it("a build without the islands' page serves every page as the application", async () => {
    const cache = makeCache({ value: "v1" });
    await cache.init();
    expect((await cache.get("/program", "en")).body.toString()).toContain('<div id="root"><h1');
    // With its state: the application hydrates from it.
    expect((await cache.get("/program", "en")).body.toString()).toContain(STATE_OF("/program", "en"));
  });
});

/** The state element of a page as the stand-in prerenderer makes it. */
const STATE_OF = (url: string, language: string) =>
  `<script type="application/json" id="__state">{"of":"${url} in ${language}"}</script>`;
const ISLANDS_SCRIPT = '<script src="/assets/islands.js">';
const APPLICATION_SCRIPT = '<script type="module" src="/assets/index.js">';

describe("the application's state in a page (decision 042)", () => {
  const catalogue = EMPTY_CATALOGUE;

  it("a content page and the page of an unknown address go without it: islands.ts reads none of it", async () => {
    const cache = makeCache({ value: "v1" }, { islands: true, catalogue });
    await cache.init();
    for (const pathname of ["/program", "/no-such-page"]) {
      const html = (await cache.get(pathname, "fr")).body.toString();
      expect(html).toContain(ISLANDS_SCRIPT);
      expect(html).not.toContain('id="__state"');
      expect(html).not.toContain("<!--state-->");
    }
  });

  it("a partner's link asks for the content page as the application's: its script and its state, kept beside the islands' page", async () => {
    const cache = makeCache({ value: "v1" }, { islands: true, catalogue });
    await cache.init();
    for (let i = 0; i < 2; i++) {
      const html = (await cache.get("/program", "zh", { application: true })).body.toString();
      expect(html).toContain(APPLICATION_SCRIPT);
      expect(html).not.toContain(ISLANDS_SCRIPT);
      expect(html).toContain(STATE_OF("/program", "zh"));
      expect(html).toContain('<html lang="zh">');
      expect(html).toContain('<h1 class="title">/program zh</h1>');
      const islands = (await cache.get("/program", "zh")).body.toString();
      expect(islands).toContain(ISLANDS_SCRIPT);
      expect(islands).not.toContain('id="__state"');
    }
    // Each of the two rendered once, then from memory; each with its own ETag.
    expect(renders().filter((r) => r === "/program|zh")).toHaveLength(2);
    expect((await cache.get("/program", "zh", { application: true })).etag).not.toBe(
      (await cache.get("/program", "zh")).etag,
    );
    const unknown = (await cache.get("/no-such-page", "en", { application: true })).body.toString();
    expect(unknown).toContain(APPLICATION_SCRIPT);
    expect(unknown).toContain(STATE_OF("/__not_found__", "en"));
  });

  it("/apply and the application's pages carry it, asked for as the application's or not, as the same page", async () => {
    const cache = makeCache({ value: "v1" }, { islands: true, catalogue });
    await cache.init();
    const apply = await cache.get("/apply", "en");
    expect(apply.body.toString()).toContain('data-start="when-used"');
    expect(apply.body.toString()).toContain(STATE_OF("/apply", "en"));
    expect(await cache.get("/apply", "en", { application: true })).toBe(apply);
    const home = await cache.get("/", "en");
    expect(home.body.toString()).toContain(APPLICATION_SCRIPT);
    expect(home.body.toString()).toContain(STATE_OF("/", "en"));
    expect(await cache.get("/", "en", { application: true })).toBe(home);
    const partner = (await cache.get("/partner/ANY", "en", { application: true })).body.toString();
    expect(partner).toContain(STATE_OF("/partner/ANY", "en"));
  });
});

describe("the application page (decision 009)", () => {
  it("comes with the packages, housing and add-ons of the earliest school that takes applications", async () => {
    const school = (id: string, status: SummerSchoolDto["status"], startDate: string) =>
      ({ id, status, startDate }) as SummerSchoolDto;
    const catalogue: CatalogueSummaryDto = {
      schools: [
        school("june", "full", "2027-06-15"),
        school("july", "fewSpotsLeft", "2027-07-20"),
        school("august", "open", "2027-08-17"),
      ],
      fromPrice: 295000,
      lengthDays: 14,
      insurance: { kind: "varies" },
      earlyDiscount: null,
    };
    const cache = makeCache({ value: "v1" }, { catalogue });
    await cache.init();
    expect((await cache.get("/apply", "fr")).body.toString()).toContain("<p>options of july in fr</p>");
  });
});

describe("the page for an unknown address (docs/product/api.md#errors, docs/product/catalogue-and-pricing.md#catalogue-cache)", () => {
  it("answers 404 and keeps the spec's “404 Page Not Found” only in an HTML comment of the head", async () => {
    const cache = makeCache({ value: "v1" });
    await cache.init();
    const page = await cache.get("/summer-2019-brochure", "fr");
    expect(page.status).toBe(404);
    const html = page.body.toString();
    const head = html.slice(0, html.indexOf("</head>"));
    expect(head).toContain("<!-- 404 Page Not Found -->");
    expect(html.replace(/<!--[\s\S]*?-->/g, "")).not.toContain("404 Page Not Found");
    // A known page carries no such comment.
    expect((await cache.get("/program", "fr")).body.toString()).not.toContain("404 Page Not Found");
  });
});
