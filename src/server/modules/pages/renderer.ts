import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { withStaticImports } from "../../../shared/build-files";
import { type CatalogueSummaryDto, defaultSchool, type SchoolOptionsDto } from "../../../shared/catalogue";
import { localizedPath, splitLanguagePath } from "../../../shared/i18n/addresses";
import { LANGUAGES, type Language } from "../../../shared/i18n/languages";
import type { Resources } from "../../../shared/i18n/namespaces";
import type { SiteConfig, SiteFacts } from "../../../shared/site";
import { type CompressedBody, compressOnceAsync } from "../../lib/compression";
// Before React loads (decision 045): Node.js 20 lacks ArrayBuffer.prototype.detached.
import "../../lib/array-buffer-detached";

/** The prerenderer built from src/client/app/entry-server.tsx (`vite build --ssr`). */
export interface ServerEntry {
  render(input: {
    url: string;
    language: Language;
    resources: Resources;
    site: SiteConfig;
    catalogueSummary?: CatalogueSummaryDto;
    schoolOptions?: SchoolOptionsDto;
  }): Promise<{ status: 200 | 404; html: string; title: string; description: string; state: unknown }>;
  matchRoute(pathname: string):
    | {
        path: string;
        /** The page's module as the build's manifest names it (`src/client/features/…Page.tsx`). */
        module: string;
        data?: "catalogue" | "apply";
        layout: string;
        index?: boolean;
        canonical?: string;
        script?: "islands" | "app" | "app-when-used";
      }
    | undefined;
  ALIASES: Record<string, string>;
  /** Public pages without parameters (rendered ahead of the first visitor by `warm`). */
  PUBLIC_PATHS: string[];
  /** Pages listed in sitemap.xml (public, without parameters, indexable). */
  INDEXED_PATHS: string[];
}

/** A rendered page, ready to send: the body, its compressed forms and its ETag. */
export interface RenderedPage extends CompressedBody {
  status: number;
  etag: string;
  language: Language;
}

const STYLESHEET_LINK = /<link rel="stylesheet"[^>]*href="(\/assets\/[^"]+\.css)"[^>]*>/g;

/**
 * Replaces the built stylesheet links of the template by the stylesheets themselves (the
 * application's 67 KB, about 10 KB brotli; the content pages' own 47 KB, about 8 KB: decision 042):
 * nothing to fetch before the first paint, and no second stylesheet to apply to a page already
 * drawn, which would restyle every element while the page starts (decision 010).
 * The CSP allows inline styles.
 */
export function inlineStylesheets(template: string, clientDir: string): string {
  return template.replace(STYLESHEET_LINK, (tag, href: string) => {
    const file = path.join(clientDir, href);
    return existsSync(file) ? `<style>${styleText(readFileSync(file, "utf8"))}</style>` : tag;
  });
}

const styleText = (css: string) => css.replace(/<\/style/gi, "<\\/style");

const escapeAttribute = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The head links of an indexable page (docs/product/languages.md#language-in-the-address, decision 029): its
 * canonical address in its own language, the same page in each language (`hreflang`), and the
 * unprefixed address as `x-default` (it redirects to the visitor's language).
 * @param pathname the page's own path, without the language prefix (`/program`, `/`)
 */
export function alternateLinks(origin: string, pathname: string, language: Language): string {
  const href = (path: string) => escapeAttribute(`${origin}${path}`);
  return [
    `<link rel="canonical" href="${href(localizedPath(language, pathname))}" />`,
    ...LANGUAGES.map(
      (other) =>
        `<link rel="alternate" hreflang="${other}" href="${href(localizedPath(other, pathname))}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${href(pathname)}" />`,
  ].join("\n    ");
}

/** Makes JSON safe inside a `<script type="application/json">` element. */
export const jsonForScript = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

/**
 * Vite's manifest of the browser build (dist/client/.vite/manifest.json): for each source module
 * that is a file of its own, and each shared file (keys `_name-hash.js`), its file and the keys of
 * the files it imports statically.
 */
export type BuildManifest = Record<string, { file: string; imports?: string[] }>;

/** The application's start (app/start.tsx), which islands.ts imports when the visitor uses the page. */
const START_MODULE = "src/client/app/start.tsx";

/**
 * The files a page that runs as islands until it is used (`script: "app-when-used"`, decision 042)
 * fetches ahead for the application: the start's file and the page module's (`pageModule`, as the
 * manifest names it), with every file they import statically, as `<link rel="prefetch">` inside an
 * inert `<template data-app-files>`. islands.ts puts the links into the head once the page has
 * loaded and the browser is idle, so they do not compete with the page's own start on a slow phone
 * (decision 042's amendment: in the HTML itself they cost /apply 0.5 s of largest paint in
 * Lighthouse's mobile preset). Files the page already loads (`template` names them) are left out;
 * a module the manifest lacks adds nothing.
 */
export function appFilesTemplate(manifest: BuildManifest, pageModule: string, template: string): string {
  const keys = withStaticImports([START_MODULE, pageModule], (key) => manifest[key]?.imports);
  const links = [...keys]
    .map((key) => manifest[key]?.file)
    .filter((file): file is string => file !== undefined && !template.includes(`/${file}"`))
    .map((file) => `<link rel="prefetch" crossorigin href="/${file}">`)
    .join("");
  return `<template data-app-files>${links}</template>`;
}

/** The cache key's suffix of a page asked for as the application's (`PageCache.get`). */
const APPLICATION_VARIANT = "|application";

/** Whether a route's page runs as islands (decision 042): a content page, or the page of an unknown address. */
const runsAsIslands = (route: ReturnType<ServerEntry["matchRoute"]>) => !route || route.script === "islands";

/**
 * Renders public pages once per (path, language, content version) and keeps them in memory with
 * brotli and gzip bodies and an ETag (docs/product/portals.md#public-site). The content version changes when the
 * catalogue, paid places, translations or the date change, so live figures are never stale.
 * Pages with parameters (e.g. /partner/CODE) and unknown paths share one cached entry per route
 * pattern only when their HTML does not depend on the parameter; otherwise they are rendered per
 * request (cheap, and bounded by the 404 entry for unknown paths).
 * A page that runs as islands (decision 042) goes without the application's state; the visit of a
 * partner's link asks for its second form, the application's page with the state (`get`'s
 * `application`), kept in memory beside it.
 */
export class PageCache {
  private cache = new Map<string, Promise<RenderedPage>>();
  /**
   * The last rendering of each page kept in memory, across content versions: the SHA-1 of its HTML
   * and its compressed page, so a page whose HTML did not change is not compressed again (brotli's
   * highest level costs 50-150 ms of CPU a page; a payment used to recompress all 60 public pages).
   */
  private bodies = new Map<string, { digest: string; status: number; page: Promise<RenderedPage> }>();
  private cachedVersion = "";
  /** index.html as built (the application's page), with its stylesheets inline. */
  private template = "";
  /**
   * islands.html as built: the same page with only the content pages' script and without the
   * state (decision 042); index.html's when the build has none.
   */
  private islandsTemplate = "";
  /** Whether the build has islands.html (`islandsTemplate` is not index.html's). */
  private hasIslands = false;
  /**
   * islands-app.html as built: the islands' page that the application takes over when used (/apply,
   * the public forms).
   */
  private whenUsedTemplate = "";
  /** The build's manifest (empty when the build has none: such a page then fetches nothing ahead). */
  private manifest: BuildManifest = {};
  /** `appFilesTemplate` of each page module that runs as islands until used, as first needed. */
  private readonly appFiles = new Map<string, string>();
  private entry: ServerEntry | null = null;
  private warming = false;
  /** Called with the languages to render again after the content version changed (set by main.ts). */
  onContentChange: (() => void) | null = null;

  constructor(
    private readonly opts: {
      clientDir: string;
      serverEntryPath: string;
      /** Every namespace of a language as visitors see it (files + the back office's overrides). */
      resources: (language: Language) => Resources;
      site: SiteFacts;
      /** Public origin, for absolute canonical links. */
      origin: string;
      contentVersion: () => string;
      today: () => string;
      catalogueSummary: (language: Language) => Promise<CatalogueSummaryDto>;
      /** Packages, housing and add-ons of a school (prerendered into /apply for the default school). */
      schoolOptions: (language: Language, schoolId: string) => Promise<SchoolOptionsDto>;
    },
  ) {}

  /** Loads the HTML template and the prerenderer; false when the client has not been built. */
  async init(): Promise<boolean> {
    const templatePath = path.join(this.opts.clientDir, "index.html");
    if (!existsSync(templatePath) || !existsSync(this.opts.serverEntryPath)) return false;
    this.template = inlineStylesheets(readFileSync(templatePath, "utf8"), this.opts.clientDir);
    const islandsPath = path.join(this.opts.clientDir, "islands.html");
    this.hasIslands = existsSync(islandsPath);
    this.islandsTemplate = this.hasIslands
      ? inlineStylesheets(readFileSync(islandsPath, "utf8"), this.opts.clientDir)
      : this.template;
    const whenUsedPath = path.join(this.opts.clientDir, "islands-app.html");
    this.whenUsedTemplate = existsSync(whenUsedPath)
      ? inlineStylesheets(readFileSync(whenUsedPath, "utf8"), this.opts.clientDir)
      : this.template;
    const manifestPath = path.join(this.opts.clientDir, ".vite", "manifest.json");
    this.manifest = existsSync(manifestPath)
      ? (JSON.parse(readFileSync(manifestPath, "utf8")) as BuildManifest)
      : {};
    this.appFiles.clear();
    this.entry = (await import(pathToFileURL(this.opts.serverEntryPath).href)) as ServerEntry;
    return true;
  }

  get ready() {
    return this.entry !== null;
  }

  /**
   * Renders every public page in every language, one after the other, so that the first visitor
   * after a start or a content change also gets a page from memory (docs/product/portals.md#public-site). Runs in
   * the background (main.ts starts it after listening, and again after each content change when
   * `rewarm` is on); a page that fails is left for the first request to retry. Returns the number
   * of pages rendered.
   */
  async warm(languages: readonly Language[]): Promise<number> {
    const entry = this.entry;
    if (!entry || this.warming) return 0;
    this.warming = true;
    let count = 0;
    try {
      for (const pathname of entry.PUBLIC_PATHS) {
        for (const language of languages) {
          await this.get(pathname, language).then(
            () => count++,
            () => undefined,
          );
          // Let requests in between two renders: a few milliseconds, so that a request needing
          // several turns of the event loop (connection, headers, answer) is served meanwhile, not
          // one turn per render (a loaded machine made chunks wait seconds behind a re-render).
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      }
    } finally {
      this.warming = false;
    }
    return count;
  }

  /**
   * sitemap.xml (docs/product/languages.md#supported-languages): every indexable page in each language, each with its alternates in the
   * other languages (the sitemaps protocol's `xhtml:link`). Empty until the pages are built.
   */
  sitemap(): string {
    const paths = this.entry?.INDEXED_PATHS ?? [];
    const url = (path: string) => escapeAttribute(`${this.opts.origin}${path}`);
    const entries = paths.flatMap((pathname) =>
      LANGUAGES.map((language) =>
        [
          "  <url>",
          `    <loc>${url(localizedPath(language, pathname))}</loc>`,
          ...LANGUAGES.map(
            (other) =>
              `    <xhtml:link rel="alternate" hreflang="${other}" href="${url(localizedPath(other, pathname))}"/>`,
          ),
          `    <xhtml:link rel="alternate" hreflang="x-default" href="${url(pathname)}"/>`,
          "  </url>",
        ].join("\n"),
      ),
    );
    return [
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ...entries,
      "</urlset>",
      "",
    ].join("\n");
  }

  /**
   * The route pattern of a page address, for the log (docs/product/privacy.md#logs): `/en/waiting-list/offer/:token`
   * for `/en/waiting-list/offer/<token>`, `/student-pass/:token` without a language; the path
   * itself for a page without parameters. Before the pages are built, where the route table is
   * unknown, `/<language>/*` (or `/*`): everything after the language is left out of the log.
   */
  patternOf(url: string): string {
    const queryAt = url.indexOf("?");
    const pathname = queryAt < 0 ? url : url.slice(0, queryAt);
    // The hot path: a page without parameters was matched before (one lookup, not the route table).
    const known = this.patterns.get(pathname);
    if (known !== undefined) return known;
    const localized = splitLanguagePath(pathname);
    const prefix = localized ? `/${localized.language}` : "";
    const route = this.entry?.matchRoute(localized ? localized.rest : pathname);
    if (!this.entry) return `${prefix}/*`;
    if (!route) return pathname;
    const pattern = route.path === "/" ? prefix || "/" : `${prefix}${route.path}`;
    // Only addresses without parameters are kept (a token never stays in memory), at most 1,000.
    if (!route.path.includes(":") && !route.path.includes("*")) {
      if (this.patterns.size >= 1000) this.patterns.clear();
      this.patterns.set(pathname, pattern);
    }
    return pattern;
  }

  /** Route patterns of page addresses without parameters, by address (`patternOf`'s memory). */
  private readonly patterns = new Map<string, string>();

  /** Canonical path of an alias (/terms-conditions → /terms), or undefined. */
  aliasOf(pathname: string): string | undefined {
    return this.entry?.ALIASES[pathname];
  }

  /**
   * The page for `pathname` in `language`, from memory when possible.
   * `application`: the page as the application's (index.html, with the state it hydrates from)
   * even when it runs as islands: a visit bringing a partner's code (`?ref=CODE`, routes.ts), which
   * the application handles from the first moment (decision 042). Kept in memory beside the
   * islands' page of the same address; the same page as without it where the page is the
   * application's anyway (or /apply's, which starts the application itself).
   */
  get(pathname: string, language: Language, { application = false } = {}): Promise<RenderedPage> {
    const entry = this.entry;
    if (!entry) throw new Error("pages not built");
    const version = this.opts.contentVersion();
    if (version !== this.cachedVersion) {
      const changed = this.cachedVersion !== "";
      this.cache.clear();
      this.cachedVersion = version;
      if (changed && this.onContentChange) setImmediate(this.onContentChange);
    }
    const variant = application ? APPLICATION_VARIANT : "";
    // The hot path: a public page already in memory, found without matching the route table.
    const cached = this.cache.get(`${pathname}|${language}${variant}`);
    if (cached) return cached;
    const route = entry.matchRoute(pathname);
    // Only a page that runs as islands has a page of its own for the application.
    if (application && !runsAsIslands(route)) return this.get(pathname, language);
    const cacheable = route ? !route.path.includes(":") : false;
    const key = route ? `${pathname}|${language}${variant}` : `404|${language}${variant}`;
    if (!cacheable && route) return this.render(pathname, language, { application });
    let page = this.cache.get(key);
    if (!page) {
      page = this.render(route ? pathname : "/__not_found__", language, { key, application });
      page.catch(() => this.cache.delete(key));
      this.cache.set(key, page);
    }
    return page;
  }

  /** The files a page of `pageModule` fetches ahead for the application (`appFilesTemplate`). */
  private appFilesOf(pageModule: string): string {
    let files = this.appFiles.get(pageModule);
    if (files === undefined) {
      files = appFilesTemplate(this.manifest, pageModule, this.whenUsedTemplate);
      this.appFiles.set(pageModule, files);
    }
    return files;
  }

  /**
   * Renders one page, in memory or per request (see `get`), with its compressed bodies and ETag.
   * `key`: the page's place in memory; when its HTML is the same as the last time it was rendered
   * (most pages after a payment: only those showing places or prices change), the bodies already
   * compressed are kept instead of compressing them again.
   * `application`: a page that runs as islands is rendered as the application's (see `get`).
   */
  private async render(
    pathname: string,
    language: Language,
    { key, application = false }: { key?: string; application?: boolean } = {},
  ): Promise<RenderedPage> {
    const entry = this.entry!;
    const route = entry.matchRoute(pathname);
    const catalogueSummary = route?.data ? await this.opts.catalogueSummary(language) : undefined;
    // /apply shows the default school's packages, housing and add-ons at once (decision 009).
    const school =
      route?.data === "apply" && catalogueSummary ? defaultSchool(catalogueSummary.schools) : undefined;
    const out = await entry.render({
      url: pathname,
      language,
      resources: this.opts.resources(language),
      site: { ...this.opts.site, today: this.opts.today() },
      catalogueSummary,
      schoolOptions: school ? await this.opts.schoolOptions(language, school.id) : undefined,
    });
    const head =
      route?.layout === "public" && route.index !== false
        ? alternateLinks(this.opts.origin, route.canonical ?? pathname, language)
        : '<meta name="robots" content="noindex" />';
    // A content page (and the page of an unknown address) runs as islands, unless asked for as the
    // application's; the rest as the application.
    const islands = runsAsIslands(route) && !application;
    const template = islands
      ? this.islandsTemplate
      : route?.script === "app-when-used"
        ? this.whenUsedTemplate.replace("</head>", () => `  ${this.appFilesOf(route.module)}\n  </head>`)
        : this.template;
    // The state (the language's texts, the site's facts, the catalogue summary: some 34 KB) is what
    // the application hydrates from; islands.ts reads none of it, so an islands page goes without.
    // With no islands.html in the build, every page is the application's and carries it.
    const state =
      islands && this.hasIslands
        ? ""
        : `<script type="application/json" id="__state">${jsonForScript(out.state)}</script>`;
    const html = template
      .replace('<html lang="en"', `<html lang="${language}"`)
      .replace(
        "<!--head-->",
        // The spec's "404 Page Not Found" (§8), for those who read the source; visitors read the page's plain words.
        `${out.status === 404 ? "<!-- 404 Page Not Found -->\n    " : ""}<title>${out.title}</title>\n    <meta name="description" content="${out.description}" />\n    ${head}`,
      )
      .replace("<!--app-->", () => out.html)
      .replace("<!--state-->", () => state);
    const digest = createHash("sha1").update(html).digest("base64url");
    const previous = key ? this.bodies.get(key) : undefined;
    if (previous?.digest === digest && previous.status === out.status) {
      const same = await previous.page.catch(() => undefined);
      if (same) return same;
    }
    const page = compressOnceAsync(html).then((compressed) => ({
      status: out.status,
      ...compressed,
      etag: `"${createHash("sha1").update(compressed.body).digest("base64url")}"`,
      language,
    }));
    if (key) this.bodies.set(key, { digest, status: out.status, page });
    return page;
  }
}
