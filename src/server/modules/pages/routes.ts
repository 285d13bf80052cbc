import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { localizedPath, splitLanguagePath } from "../../../shared/i18n/addresses";
import { bodyFor } from "../../lib/compression";
import { HttpError } from "../../lib/errors";
import type { HotPages } from "../../lib/hot-path";
import type { PageCache, RenderedPage } from "./renderer";

/**
 * Sends a cached page: 304 on a matching ETag, else the precompressed body (docs/product/portals.md#public-site). The
 * address decides the language (decision 029), so the page varies only with the encoding.
 */
export function sendPage(request: FastifyRequest, reply: FastifyReply, page: RenderedPage) {
  reply
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("vary", "Accept-Encoding")
    .header("content-language", page.language)
    .header("etag", page.etag);
  if (page.status === 200 && request.headers["if-none-match"] === page.etag) return reply.status(304).send();
  const { payload, encoding } = bodyFor(page, request.headers["accept-encoding"]);
  reply.status(page.status);
  if (encoding) reply.header("content-encoding", encoding);
  return reply.send(payload);
}

/**
 * robots.txt: the site may be crawled except the API and the protected areas in every language;
 * the sitemap is named with its absolute address (docs/product/languages.md#language-in-the-address).
 */
export function robotsTxt(origin: string): string {
  const areas = ["/admin/", "/student/", "/affiliate/"];
  return [
    "User-agent: *",
    "Disallow: /api/",
    ...areas.flatMap((area) => [`Disallow: ${area}`, `Disallow: /*${area}`]),
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

/**
 * Whether a page's query brings a partner's code (`?ref=CODE`,
 * docs/product/codes-and-partners.md#referral-link): the same test as app/islands.ts's. Such a
 * visit gets the application's page, with the state it hydrates from, even for a content page
 * (decision 042), so that the application records and keeps the code from the first moment.
 * @param query the address's query with its `?`, or ""
 */
export const bringsReferral = (query: string) => /[?&]ref=/.test(query);

/**
 * Every GET that no API or asset route answered (docs/product/languages.md#language-in-the-address, decision 029):
 * - `/{en|zh|fr}/<path>`: the server-rendered page for `<path>` in that language (404 page for
 *   unknown paths; aliases answer 301 to their canonical page in the same language);
 * - any other path (old links, the bare domain; the `x-default`): 302 to the same path in the
 *   visitor's language (stored choice, else the browser's language, else English), query kept,
 *   an alias straight to its canonical page;
 * - `/robots.txt` and `/sitemap.xml`.
 * A content page runs as islands, without the application's state (decision 042), unless the query
 * brings a partner's code (`?ref=CODE`): then it is the application's page, with the state.
 * With `hot`, each page without parameters answered here is remembered for the hot path
 * (lib/hot-path.ts), which answers the next requests for the same address before Fastify sees them;
 * never an address with a query, so never a partner's link.
 */
export async function pageRoutes(
  app: FastifyInstance,
  opts: { pages: PageCache; origin: string; hot?: HotPages },
) {
  const { pages, hot } = opts;
  const robots = robotsTxt(opts.origin);
  // The page's route pattern, which the log uses to leave tokens of addresses out (docs/product/privacy.md#logs).
  app.decorateRequest("pagePattern", function (this: FastifyRequest) {
    return pages.patternOf(this.url);
  });
  app.get("/robots.txt", async (_request, reply) =>
    reply.type("text/plain; charset=utf-8").header("cache-control", "public, max-age=3600").send(robots),
  );
  app.get("/sitemap.xml", async (_request, reply) => {
    if (!pages.ready) throw new HttpError(404, "errors.notFound");
    return reply
      .type("application/xml; charset=utf-8")
      .header("cache-control", "public, max-age=3600")
      .send(pages.sitemap());
  });
  app.get("/*", async (request, reply) => {
    const queryAt = request.url.indexOf("?");
    const pathname = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
    const query = queryAt < 0 ? "" : request.url.slice(queryAt);
    if (pathname.startsWith("/api/")) {
      throw new HttpError(404, "errors.notFound");
    }
    const localized = splitLanguagePath(pathname);
    if (!localized) {
      // The x-default: the page in the visitor's language. Not cached by shared caches: the
      // answer depends on the visitor's cookie and browser.
      return reply
        .header("cache-control", "private, no-cache")
        .header("vary", "Cookie, Accept-Language")
        .redirect(localizedPath(request.language, pages.aliasOf(pathname) ?? pathname) + query, 302);
    }
    if (!pages.ready) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The site has not been built yet. Run `npm run build` (npm start does it for you).");
    }
    const { language, rest } = localized;
    const alias = pages.aliasOf(rest);
    if (alias) return reply.redirect(localizedPath(language, alias) + query, 301);
    const version = hot?.version();
    const page = await pages.get(rest.length > 1 ? rest.replace(/\/$/, "") : rest, language, {
      application: bringsReferral(query),
    });
    if (hot && version !== undefined && !query) {
      // A page without parameters: its route pattern is its address (the log's pattern, kept in memory).
      const pattern = pages.patternOf(pathname);
      hot.remember(pathname, version, page, !pattern.includes(":") && !pattern.includes("*"));
    }
    return sendPage(request, reply, page);
  });
}
