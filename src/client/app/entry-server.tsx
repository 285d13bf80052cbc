import { QueryClient } from "@tanstack/react-query";
// The build without Node.js streams: React's Node.js build runs each render inside an
// AsyncLocalStorage, whose async hook then stays on for the life of the process and taxes every
// request, the hot path's included (docs/decisions/045-render-without-async-hooks-buffered-access-log.md).
import { prerender } from "react-dom/static.browser";
import { StaticRouter } from "react-router";
import type { CatalogueSummaryDto, SchoolOptionsDto } from "../../shared/catalogue";
import { localizedPath } from "../../shared/i18n/addresses";
import type { Language } from "../../shared/i18n/languages";
import { browserTexts, type Namespace, type Resources } from "../../shared/i18n/namespaces";
import { seedCatalogue } from "../lib/catalogue";
import { createI18n } from "../lib/i18n";
import type { SiteConfig } from "../lib/site";
import { App, preloadRoute } from "./App";
import { matchRoute, metaKeys, ROUTES } from "./routes";
import type { InitialState } from "./state";

export { ALIASES, matchRoute } from "./routes";

/** Paths of the public pages without parameters: the server renders them ahead of the first visitor. */
export const PUBLIC_PATHS = ROUTES.filter(
  (route) => route.layout === "public" && !route.path.includes(":"),
).map((route) => route.path);

/** Pages listed in sitemap.xml and indexable, each in the three languages (see `RouteDef.index`). */
export const INDEXED_PATHS = ROUTES.filter(
  (route) => route.layout === "public" && !route.path.includes(":") && route.index !== false,
).map((route) => route.path);

export interface RenderInput {
  /** The page's own path and query, without the language prefix (`/program?x=1`). */
  url: string;
  language: Language;
  /** All namespaces of `language`. */
  resources: Resources;
  site: SiteConfig;
  catalogueSummary?: CatalogueSummaryDto;
  /** On /apply: the default school's options (decision 009). */
  schoolOptions?: SchoolOptionsDto;
}

export interface RenderOutput {
  status: 200 | 404;
  html: string;
  title: string;
  description: string;
  state: InitialState;
}

/** Escapes text for an HTML attribute or text node. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Renders one page to HTML, waiting for its lazy module and translations (React's prerender), for
 * the server's page cache (docs/product/portals.md#public-site). The returned state holds only the namespaces the page
 * uses, so the browser hydrates without another request.
 */
export async function render(input: RenderInput): Promise<RenderOutput> {
  const pathname = new URL(input.url, "http://x").pathname;
  const route = matchRoute(pathname);
  const i18n = createI18n(input.language, { [input.language]: input.resources });
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  seedCatalogue(queryClient, input.language, input);

  const preloaded = await preloadRoute(pathname);
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <StaticRouter basename={`/${input.language}`} location={localizedPath(input.language, input.url)}>
      <App i18n={i18n} queryClient={queryClient} site={input.site} preloaded={preloaded} />
    </StaticRouter>,
    // No outlined boundaries: they are completed by inline scripts, which the CSP forbids.
    { onError: (error) => void errors.push(error), progressiveChunkSize: Number.MAX_SAFE_INTEGER },
  );
  if (errors.length) console.error("page prerender error", input.url, errors[0]);
  const html = await new Response(prelude).text();

  const keys = route ? metaKeys(route) : { title: "notFound.title", description: "notFound.help" };
  const used = new Set(["common", ...(route?.namespaces ?? [])]);
  const resources = Object.fromEntries(
    Object.entries(input.resources)
      .filter(([ns]) => used.has(ns))
      .map(([ns, texts]) => [ns, browserTexts(ns as Namespace, texts)]),
  ) as Resources;
  return {
    status: route ? 200 : 404,
    html,
    title: `${escapeHtml(i18n.t(keys.title))} | ${escapeHtml(i18n.t("brand.name"))}`,
    description: escapeHtml(i18n.t(keys.description)),
    state: {
      language: input.language,
      resources,
      site: input.site,
      ...(route?.data && input.catalogueSummary ? { catalogueSummary: input.catalogueSummary } : {}),
      ...(route?.data === "apply" && input.schoolOptions ? { schoolOptions: input.schoolOptions } : {}),
    },
  };
}
