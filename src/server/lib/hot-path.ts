import {
  type IncomingMessage,
  type ServerResponse,
  STATUS_CODES,
  validateHeaderName,
  validateHeaderValue,
} from "node:http";
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

/**
 * One answer of a page: its status, its headers (Content-Length included) and its body, and the
 * head Node would write for it on a kept-alive connection (`PreparedHead`).
 */
interface Answer {
  status: number;
  headers: HeaderLines;
  /** Empty for the answers without body (304s). */
  body: Buffer;
  head: PreparedHead;
}

/**
 * The head of one answer as Node's `writeHead` writes it on a connection kept alive (Node 20's
 * `_storeHeader` in lib/_http_outgoing.js): the status line, the answer's headers in their order,
 * then `Date`, `Connection: keep-alive` and `Keep-Alive`, then the blank line. Everything but the
 * date is the same for every request, so the text is made once per second (`date`), not per request:
 * Node's own path checks every header's name and value with a regular expression and joins the
 * text anew on each answer, a fifth of a bare server's instructions on a cached page
 * (docs/decisions/049-prepared-response-heads.md).
 */
interface PreparedHead {
  /** The status line and the header lines, validated once as Node validates them. */
  readonly fixed: string;
  /** The `Date` value `text` was made with. */
  date: string;
  /** The connection lines `text` was made with. */
  connection: string;
  text: string;
}

/**
 * `status` and `headers` as the fixed part of a `PreparedHead`: Node's status line and
 * `name: value` lines. Throws as `writeHead` would on a name or value it refuses.
 */
function prepareHead(status: number, headers: HeaderSet): PreparedHead {
  let fixed = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    fixed += `${name}: ${value}\r\n`;
  }
  return { fixed, date: "", connection: "", text: "" };
}

/** An answer of `status` with `headers` and `body`. */
function answerOf(status: number, headers: HeaderSet, body: Buffer = EMPTY): Answer {
  return { status, headers: lines(headers), body, head: prepareHead(status, headers) };
}

const EMPTY = Buffer.alloc(0);

/**
 * The parts of a Node 20 `ServerResponse` the prepared heads rely on (lib/_http_server.js,
 * lib/_http_outgoing.js; none is public API). `shouldKeepAlive` is false for a request that asked
 * for the connection to close (and for an HTTP/1.0 one that did not ask to keep it) and once the
 * server is closing connections; `maxRequestsOnConnectionReached` when the connection reached
 * `server.maxRequestsPerSocket`. With `_header` set and `_headerSent` false, `end` writes
 * `_header` before the body, as after `writeHead`.
 */
interface NodeServerResponse extends ServerResponse {
  _header: string | null;
  _headerSent: boolean;
  shouldKeepAlive: boolean;
  maxRequestsOnConnectionReached?: boolean;
  _keepAliveTimeout: number;
  _maxRequestsPerSocket: number;
  _defaultKeepAlive: boolean;
  _removedConnection: boolean;
  _hasBody: boolean;
}

/**
 * Writes `answer` on `response`: through the prepared head when the connection is kept alive as
 * Node keeps it (the common case: browsers and load balancers keep connections), else through
 * `writeHead`, which decides the rest (`Connection: close`). `withBody` false for HEAD. Returns
 * whether the prepared head was written.
 */
function send(response: ServerResponse, answer: Answer, withBody: boolean, clock: HttpDate): boolean {
  const node = response as NodeServerResponse;
  if (
    node.shouldKeepAlive === true &&
    node.maxRequestsOnConnectionReached !== true &&
    node.sendDate &&
    node._defaultKeepAlive === true &&
    node._removedConnection === false &&
    node._header === null
  ) {
    const head = answer.head;
    const date = clock.now();
    const connection = connectionLines(node._keepAliveTimeout, node._maxRequestsPerSocket);
    if (head.date !== date || head.connection !== connection) {
      head.text = `${head.fixed}Date: ${date}\r\n${connection}\r\n`;
      head.date = date;
      head.connection = connection;
    }
    node.statusCode = answer.status;
    if (answer.status === 304) node._hasBody = false;
    node._header = head.text;
    node._headerSent = false;
    end(response, answer, withBody);
    return true;
  }
  response.writeHead(answer.status, answer.headers);
  end(response, answer, withBody);
  return false;
}

function end(response: ServerResponse, answer: Answer, withBody: boolean): void {
  if (withBody && answer.body.length > 0) response.end(answer.body);
  else response.end();
}

let lastConnection = { timeout: -1, max: -1, lines: "" };

/** Node's `Connection` and `Keep-Alive` lines for a connection kept alive with these settings. */
function connectionLines(keepAliveTimeout: number, maxRequestsPerSocket: number): string {
  const last = lastConnection;
  if (last.timeout === keepAliveTimeout && last.max === maxRequestsPerSocket) return last.lines;
  let lines = "Connection: keep-alive\r\n";
  if (keepAliveTimeout) {
    const max = ~~maxRequestsPerSocket > 0 ? `, max=${maxRequestsPerSocket}` : "";
    lines += `Keep-Alive: timeout=${Math.floor(keepAliveTimeout / 1000)}${max}\r\n`;
  }
  lastConnection = { timeout: keepAliveTimeout, max: maxRequestsPerSocket, lines };
  return lines;
}

/**
 * The `Date` header's value (RFC 9110, section 6.6.1: the origin server's clock, to the second),
 * made once a second: `now()` reads the clock as a number and returns the same string until the
 * next second begins.
 */
class HttpDate {
  private value = "";
  private until = 0;

  now(): string {
    const ms = Date.now();
    if (ms >= this.until) {
      this.value = new Date(ms).toUTCString();
      this.until = ms - (ms % 1000) + 1000;
    }
    return this.value;
  }
}

/** Every answer of one rendered page, decided once (shared by the addresses that show it). */
interface Answers {
  br: Answer;
  gzip: Answer;
  identity: Answer;
  /** 304 to a GET whose If-None-Match is the page's ETag. */
  notModified: Answer;
  /** 304 to a HEAD (Fastify's HEAD route adds `content-length: 0` to an answer without body). */
  notModifiedHead: Answer;
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
 * Content-Length; 304 when If-None-Match is the ETag; HEAD without body. On a connection kept alive
 * the head is written as prepared text (`PreparedHead`, decision 049), the same Node would write. The access line and the
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
  /**
   * Of those, the answers written with a prepared head (`PreparedHead`): all but those on a
   * connection Node closes after the answer. Were it to stay at 0 on kept-alive connections, the
   * Node internals the prepared heads rely on would have changed (the tests check it).
   */
  preparedHeads = 0;
  private readonly entries = new Map<string, Entry>();
  private readonly answers = new WeakMap<HotPage, Answers>();
  /** API addresses whose answer depends on the visitor's language: kept per address and language. */
  private readonly byLanguage = new Set<string>();
  /** The content version of the last page remembered: a newer one empties the memory of the older pages. */
  private lastVersion = "";
  private readonly date = new HttpDate();

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
    const identity = answerOf(200, { ...base, "content-length": String(json.body.length) }, json.body);
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
        notModified: answerOf(304, base),
        notModifiedHead: answerOf(304, { ...base, "content-length": "0" }),
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
    const answer = (body: Buffer, encoding?: "br" | "gzip"): Answer =>
      answerOf(
        200,
        {
          ...base,
          ...(encoding ? { "content-encoding": encoding } : {}),
          "content-length": String(body.length),
        },
        body,
      );
    return {
      br: answer(page.br, "br"),
      gzip: answer(page.gzip, "gzip"),
      identity: answer(page.body),
      notModified: answerOf(304, base),
      notModifiedHead: answerOf(304, { ...base, "content-length": "0" }),
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
    let answer: Answer;
    if (headers["if-none-match"] === entry.etag) {
      answer = method === "HEAD" ? answers.notModifiedHead : answers.notModified;
    } else {
      const encoding = pickEncoding(headers["accept-encoding"]);
      answer = encoding === "br" ? answers.br : encoding === "gzip" ? answers.gzip : answers.identity;
    }
    if (send(response, answer, method !== "HEAD", this.date)) this.preparedHeads++;
    const status = answer.status;
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
