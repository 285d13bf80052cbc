import type { IncomingMessage, ServerResponse } from "node:http";
import type { Language } from "../../shared/i18n/languages";
import { pickEncoding } from "./compression";

/** A rendered public page as the hot path keeps it (modules/pages/renderer.ts's `RenderedPage`). */
export interface HotPage {
  status: number;
  etag: string;
  language: Language;
  /** The page's HTML, uncompressed. */
  body: Buffer;
  br: Buffer;
  gzip: Buffer;
}

/**
 * A public API answer the same for every visitor of one language (the catalogue's lists:
 * modules/catalogue/routes.ts): its JSON bytes, its ETag and the headers its route sets.
 */
export interface HotJson {
  etag: string;
  body: Buffer;
  /** The route's own headers (Cache-Control, Vary), as it sets them. */
  headers: HeaderSet;
}

/** Response headers as Node writes them: lower-case names to values. */
export type HeaderSet = Readonly<Record<string, string>>;

/**
 * Response headers as `writeHead` takes them flat: name, value, name, value… Node serialises such a
 * list with indexed reads, where an object costs a property look-up per header in code that every
 * other response's headers have made megamorphic (`_storeHeader`).
 */
type HeaderLines = string[];

/** `headers` as `HeaderLines`, in their order. */
function lines(headers: HeaderSet): HeaderLines {
  return Object.entries(headers).flat();
}

/** One answer of a page: its headers, Content-Length included, and its body. */
interface Answer {
  headers: HeaderLines;
  body: Buffer;
}

/** Every answer of one rendered page, decided once (shared by the addresses that show it). */
interface Answers {
  br: Answer;
  gzip: Answer;
  identity: Answer;
  /** 304 to a GET whose If-None-Match is the page's ETag. */
  notModified: HeaderLines;
  /** 304 to a HEAD (Fastify's HEAD route adds `content-length: 0` to an answer without body). */
  notModifiedHead: HeaderLines;
}

/**
 * An address the normal path answered: the content version it was rendered for, its answers, and
 * the route pattern the metrics count it under (`/*` for the pages, the API route's own).
 */
interface Entry {
  version: string;
  etag: string;
  answers: Answers;
  route: string;
  /**
   * What the server does after each answer of this address (`Answered`'s result), prepared at the
   * first answer of each kind: GET 200, HEAD 200, GET 304, HEAD 304 (`doneIndex`).
   */
  done: (AfterAnswer | undefined)[];
}

/** The place of an answer's kind in `Entry.done`. */
const doneIndex = (method: string, status: number) => (method === "HEAD" ? 1 : 0) + (status === 304 ? 2 : 0);

/** Addresses kept at most; past this the memory is emptied (a case-insensitive route table lets a visitor make up addresses). */
const MAX_ENTRIES = 1000;

/**
 * What the server does after the hot path answered a request: the access line and the request
 * counted for the metrics, as Fastify does for every other request (app.ts). Called with the
 * request and `startedAt` (`performance.now()` in ms when the request reached the server).
 */
export type AfterAnswer = (request: IncomingMessage, startedAt: number) => void;

/**
 * Prepares what the server does after the hot path's answers of one kind (`AfterAnswer`), once per
 * remembered address and kind, so that what is the same for all of them (the access line's method,
 * address and status; the metrics' counter) is made once: `method`, `url` (the address, never with
 * a query), `statusCode`, `route` (the route pattern the normal path would have matched: `/*` for a
 * page).
 */
export type Answered = (method: string, url: string, statusCode: number, route: string) => AfterAnswer;

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
 * The catalogue's two public lists (`GET /api/summer-schools`, `GET /api/catalogue/summary`: the same
 * for every visitor of one language) are kept the same way by their route (`rememberJson`), per
 * address and language: the language is decided from the request as the normal path decides it
 * (`languageOf`: the language cookie, else Accept-Language), so each visitor gets their language's
 * list, with the route's own headers.
 *
 * Only the normal path adds addresses (`remember`, `rememberJson`), so redirects (unprefixed addresses, aliases),
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
  private readonly answers = new WeakMap<HotPage, Answers>();
  /** API addresses whose answer depends on the visitor's language: kept per address and language. */
  private readonly byLanguage = new Set<string>();
  /** The content version of the last page remembered: a newer one empties the memory of the older pages. */
  private lastVersion = "";

  /**
   * @param opts.securityHeaders the headers every answer carries (`securityHeaders(env)` of plugins/security.ts)
   * @param opts.contentVersion the pages' content version (the one `PageCache` renders for), read on every request
   * @param opts.answered called after each answer the hot path gave (the access line, the metrics)
   * @param opts.languageOf the visitor's language as the normal path decides it (API answers per language)
   */
  constructor(
    private readonly opts: {
      securityHeaders: HeaderSet;
      contentVersion: () => string;
      answered?: Answered;
      /**
       * The language the normal path would answer a request in (`request.language`: the language
       * cookie, else Accept-Language), for the API answers kept per language.
       */
      languageOf?: (request: IncomingMessage) => Language;
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
  remember(url: string, version: string, page: HotPage, cacheable: boolean): void {
    if (!cacheable || page.status !== 200 || url.includes("?")) return;
    if (!this.current(version)) return;
    const known = this.entries.get(url);
    if (known && known.version === version && known.etag === page.etag) return;
    let answers = this.answers.get(page);
    if (!answers) {
      answers = this.answersOf(page);
      this.answers.set(page, answers);
    }
    this.keep(url, { version, etag: page.etag, answers, route: "/*", done: [] });
  }

  /**
   * Remembers what an API route answered for `url` (without query) in `language`, for content
   * `version` (read before the answer was made, as for `remember`): `json`'s bytes with the
   * security headers, the route's headers, ETag, Content-Type and Content-Length; 304 on a
   * matching If-None-Match. `route`: the route's pattern, for the metrics. Only for an answer that
   * is the same for every visitor of that language (no session, no personal data).
   */
  rememberJson(url: string, language: Language, version: string, json: HotJson, route: string): void {
    if (url.includes("?") || !this.opts.languageOf) return;
    if (!this.current(version)) return;
    const key = `${url}\n${language}`;
    const known = this.entries.get(key);
    if (known && known.version === version && known.etag === json.etag) return;
    const base: HeaderSet = {
      ...this.opts.securityHeaders,
      ...json.headers,
      etag: json.etag,
      "content-type": "application/json; charset=utf-8",
    };
    const identity: Answer = {
      headers: lines({ ...base, "content-length": String(json.body.length) }),
      body: json.body,
    };
    this.byLanguage.add(url);
    this.keep(key, {
      version,
      etag: json.etag,
      route,
      done: [],
      answers: {
        br: identity,
        gzip: identity,
        identity,
        notModified: lines(base),
        notModifiedHead: lines({ ...base, "content-length": "0" }),
      },
    });
  }

  /**
   * False when `version` is not the current content version any more (the content changed while
   * the answer was being made: it is not the current version's, the hot path would never answer
   * it, and remembering it would empty the newer version's memory). A newer version empties the
   * memory of the older one's addresses, which are never answered again.
   */
  private current(version: string): boolean {
    if (version !== this.opts.contentVersion()) return false;
    if (version !== this.lastVersion) {
      this.entries.clear();
      this.lastVersion = version;
    }
    return true;
  }

  private keep(key: string, entry: Entry): void {
    if (!this.entries.has(key) && this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, entry);
  }

  /** The headers and bodies of a page, in the order the normal path sets them (security headers first). */
  private answersOf(page: HotPage): Answers {
    const base: HeaderSet = {
      ...this.opts.securityHeaders,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
      vary: "Accept-Encoding",
      "content-language": page.language,
      etag: page.etag,
    };
    const answer = (body: Buffer, encoding?: "br" | "gzip"): Answer => ({
      headers: lines({
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
      notModified: lines(base),
      notModifiedHead: lines({ ...base, "content-length": "0" }),
    };
  }

  /**
   * Answers a request for a remembered page and returns true, or returns false at once and leaves
   * the request untouched for Fastify. Called by the HTTP server's request listener, first
   * (app.ts's `serverFactory`).
   */
  readonly answer = (request: IncomingMessage, response: ServerResponse): boolean => {
    const url = request.url as string;
    let entry = this.entries.get(url);
    if (entry === undefined) {
      if (!this.byLanguage.has(url)) return false;
      entry = this.entries.get(`${url}\n${this.opts.languageOf!(request)}`);
      if (entry === undefined) return false;
    }
    if (!this.enabled) return false;
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
    const answered = this.opts.answered;
    if (answered) {
      const index = doneIndex(method, status);
      let done = entry.done[index];
      if (done === undefined) {
        done = answered(method, url, status, entry.route);
        entry.done[index] = done;
      }
      done(request, startedAt);
    }
    return true;
  };
}
