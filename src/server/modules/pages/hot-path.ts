import type { IncomingMessage, ServerResponse } from "node:http";
import { pickEncoding } from "../../lib/compression";
import type { RenderedPage } from "./renderer";

/** Response headers as Node writes them: lower-case names to values. */
export type HeaderSet = Readonly<Record<string, string>>;

/** One answer of a page: its headers, Content-Length included, and its body. */
interface Answer {
  headers: HeaderSet;
  body: Buffer;
}

/** Every answer of one rendered page, decided once (shared by the addresses that show it). */
interface Answers {
  br: Answer;
  gzip: Answer;
  identity: Answer;
  /** 304 to a GET whose If-None-Match is the page's ETag. */
  notModified: HeaderSet;
  /** 304 to a HEAD (Fastify's HEAD route adds `content-length: 0` to an answer without body). */
  notModifiedHead: HeaderSet;
}

/** A page address the normal path answered: the content version it was rendered for, its answers. */
interface Entry {
  version: string;
  etag: string;
  answers: Answers;
}

/** Addresses kept at most; past this the memory is emptied (a case-insensitive route table lets a visitor make up addresses). */
const MAX_ENTRIES = 1000;

/**
 * What the server does after the hot path answered a request: the access line and the request
 * counted for the metrics, as Fastify does for every other request (app.ts).
 * `method`, `url` (the page address, never with a query), `statusCode`, `startedAt`
 * (`performance.now()` in ms when the request reached the server).
 */
export type Answered = (request: IncomingMessage, statusCode: number, startedAt: number) => void;

/**
 * The public pages' hot path (the public site as fast as a static file server:
 * docs/product/portals.md#public-site). A page already rendered for the current content version is
 * answered by the HTTP server itself, before Fastify sees the request (`answer`, called by the
 * server's request listener: app.ts's `serverFactory`), with one look-up by its address (the
 * address carries the language, decision 029) and headers decided once per page and encoding: no
 * Fastify request or reply, no hooks (cookies, request language, security headers, CSRF check),
 * no route handler, no promise.
 *
 * What it answers is what the normal path (routes.ts: `pages.get`, then `sendPage`) sent for the
 * same address, byte for byte: the security headers of every answer (`securityHeaders`, CSP
 * included), Content-Type, Cache-Control, Vary, Content-Language, ETag, Content-Encoding and
 * Content-Length; 304 when If-None-Match is the ETag; HEAD without body. The access line and the
 * metrics' count are the server's (`answered`), with the page's route pattern, as Fastify writes
 * them for every other request.
 *
 * Only the normal path adds addresses (`remember`), so redirects (unprefixed addresses, aliases),
 * 404s, pages with parameters and anything not rendered yet never come here. An address is
 * answered here only while the content version it was rendered for is current: after a catalogue
 * or translation change, or at midnight, the next request goes the normal way, which renders the
 * page again and remembers the new answers. Requests with a body (Content-Length or
 * Transfer-Encoding) go the normal way too, whose lingering close they need (lib/lingering-close.ts),
 * and so does everything once the server is closing (`enabled` false: Fastify then answers 503).
 */
export class HotPages {
  /** Whether the hook answers at all; the tests turn it off to read the normal path's answer. */
  enabled = true;
  /** Requests answered by the hot path since start. */
  served = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly answers = new WeakMap<RenderedPage, Answers>();
  /** The content version of the last page remembered: a newer one empties the memory of the older pages. */
  private lastVersion = "";

  /**
   * @param opts.securityHeaders the headers every answer carries (`securityHeaders(env)` of plugins/security.ts)
   * @param opts.contentVersion the pages' content version (the one `PageCache` renders for), read on every request
   * @param opts.answered called after each answer the hot path gave (the access line, the metrics)
   */
  constructor(
    private readonly opts: {
      securityHeaders: HeaderSet;
      contentVersion: () => string;
      answered?: Answered;
    },
  ) {}

  /** The current content version: the route reads it before `pages.get`, to give it to `remember`. */
  version(): string {
    return this.opts.contentVersion();
  }

  /**
   * Remembers what the normal path answered for `url` (a page address without query, e.g. `/en/`):
   * `page`, rendered for content `version` (read before the page was asked for, so a page
   * rendered while the content changed is never taken for the new version's). Only 200 pages of
   * addresses without parameters: the caller says so with `cacheable`.
   */
  remember(url: string, version: string, page: RenderedPage, cacheable: boolean): void {
    if (!cacheable || page.status !== 200 || url.includes("?")) return;
    // The content changed while the page was being rendered: it is not the current version's
    // (the hook would never answer it), and remembering it would empty the newer version's memory.
    if (version !== this.opts.contentVersion()) return;
    if (version !== this.lastVersion) {
      // The addresses of the older version are never answered again: their pages may go.
      this.entries.clear();
      this.lastVersion = version;
    }
    const known = this.entries.get(url);
    if (known && known.version === version && known.etag === page.etag) return;
    let answers = this.answers.get(page);
    if (!answers) {
      answers = this.answersOf(page);
      this.answers.set(page, answers);
    }
    if (!known && this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(url, { version, etag: page.etag, answers });
  }

  /** The headers and bodies of a page, in the order the normal path sets them (security headers first). */
  private answersOf(page: RenderedPage): Answers {
    const base: HeaderSet = {
      ...this.opts.securityHeaders,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      vary: "Accept-Encoding",
      "content-language": page.language,
      etag: page.etag,
    };
    const answer = (body: Buffer, encoding?: "br" | "gzip"): Answer => ({
      headers: Object.freeze({
        ...base,
        ...(encoding ? { "content-encoding": encoding } : {}),
        "content-length": String(body.length),
      }),
      body,
    });
    return {
      br: answer(page.br, "br"),
      gzip: answer(page.gzip, "gzip"),
      identity: answer(page.body),
      notModified: Object.freeze(base),
      notModifiedHead: Object.freeze({ ...base, "content-length": "0" }),
    };
  }

  /**
   * Answers a request for a remembered page and returns true, or returns false at once and leaves
   * the request untouched for Fastify. Called by the HTTP server's request listener, first
   * (app.ts's `serverFactory`).
   */
  readonly answer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const entry = this.entries.get(request.url as string);
    if (entry === undefined || !this.enabled) return false;
    const method = request.method;
    const headers = request.headers;
    if (
      (method !== "GET" && method !== "HEAD") ||
      headers["content-length"] !== undefined ||
      headers["transfer-encoding"] !== undefined ||
      entry.version !== this.opts.contentVersion()
    )
      return false;
    const startedAt = performance.now();
    this.served++;
    const answers = entry.answers;
    let status = 200;
    if (headers["if-none-match"] === entry.etag) {
      status = 304;
      response.writeHead(304, method === "HEAD" ? answers.notModifiedHead : answers.notModified);
      response.end();
    } else {
      const encoding = pickEncoding(headers["accept-encoding"]);
      const answer = encoding === "br" ? answers.br : encoding === "gzip" ? answers.gzip : answers.identity;
      response.writeHead(200, answer.headers);
      if (method === "HEAD") response.end();
      else response.end(answer.body);
    }
    this.opts.answered?.(request, status, startedAt);
    return true;
  };
}
