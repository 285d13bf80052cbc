import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { bodyFor } from "../../lib/compression";
import { HttpError } from "../../lib/errors";
import type { PageCache, RenderedPage } from "./renderer";

/** Sends a cached page: 304 on a matching ETag, else the precompressed body (decisions.md §5). */
export function sendPage(request: FastifyRequest, reply: FastifyReply, page: RenderedPage) {
  reply
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-cache")
    .header("vary", "Accept-Encoding, Cookie, Accept-Language")
    .header("content-language", page.language)
    .header("etag", page.etag);
  if (page.status === 200 && request.headers["if-none-match"] === page.etag) return reply.status(304).send();
  const { payload, encoding } = bodyFor(page, request.headers["accept-encoding"]);
  reply.status(page.status);
  if (encoding) reply.header("content-encoding", encoding);
  return reply.send(payload);
}

/**
 * Every GET that no API or asset route answered: the server-rendered page for that path, in the
 * visitor's language (404 page for unknown paths; aliases redirect to their canonical page).
 */
export async function pageRoutes(app: FastifyInstance, opts: { pages: PageCache }) {
  const { pages } = opts;
  app.get("/*", async (request, reply) => {
    const [pathname = "/", query] = request.url.split("?");
    if (pathname.startsWith("/api/")) {
      throw new HttpError(404, "errors.notFound");
    }
    if (!pages.ready) {
      return reply
        .status(503)
        .type("text/plain; charset=utf-8")
        .send("The site has not been built yet. Run `npm run build` (npm start does it for you).");
    }
    const alias = pages.aliasOf(pathname);
    if (alias) return reply.redirect(query ? `${alias}?${query}` : alias, 301);
    const page = await pages.get(
      pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname,
      request.language,
    );
    return sendPage(request, reply, page);
  });
}
