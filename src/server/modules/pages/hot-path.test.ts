import { existsSync } from "node:fs";
import http from "node:http";
import net, { type AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HotPages } from "../../lib/hot-path";
import { loginAsAdmin } from "../../testing/accounts";
import { SAME_ORIGIN } from "../../testing/admin";
import { createTestApp, type TestApp } from "../../testing/harness";
import type { RenderedPage } from "./renderer";

/**
 * The public pages' hot path (lib/hot-path.ts) answers what the normal path (the `/*`
 * route: `pages.get`, then `sendPage`) answers for the same request: the same status, the same
 * headers (security headers and CSP included) and the same bytes, for brotli, gzip, identity,
 * HEAD and If-None-Match; never a page of an older content version; and the same access line.
 * Over real HTTP (a listening app), as browsers and the throughput measure ask. Needs the built
 * site (`npm run build`).
 */

const DIST = path.resolve(__dirname, "../../../../dist/server/entry-server.js");

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

let t: TestApp;
let base = "";
let clock = Date.now();
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  expect(existsSync(DIST), "the built site (npm run build)").toBe(true);
  t = await createTestApp({ withPages: true, logs, now: () => new Date(clock) });
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => t?.close());

/** One request over HTTP, the body as sent (not decompressed). */
function request(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${base}${url}`,
      {
        method: options.method ?? "GET",
        // A GET's body is sent without framing unless its length is given.
        headers: {
          ...options.headers,
          ...(options.body === undefined
            ? {}
            : { "content-length": String(Buffer.byteLength(options.body)) }),
        },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}

/** Sends `text` as it is on a new connection and gives what came back until the server closed it. */
function rawRequest(text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("close", () => resolve(received));
    socket.on("error", reject);
    socket.write(text);
  });
}

const hot = () => t.app.services.hotPages;

/** The headers that may differ between two answers given at different times. */
const comparable = (headers: http.IncomingHttpHeaders) => {
  const { date: _date, ...rest } = headers;
  return rest;
};

/**
 * The normal path's answer (the hot path turned off), then the hot path's (checked to have
 * answered it), for the same request.
 */
async function bothPaths(url: string, options: Parameters<typeof request>[1] = {}) {
  hot().enabled = false;
  const normal = await request(url, options);
  hot().enabled = true;
  const before = hot().served;
  const fast = await request(url, options);
  expect(hot().served, `the hot path answered ${options.method ?? "GET"} ${url}`).toBe(before + 1);
  return { normal, fast };
}

function expectSameAnswer({ normal, fast }: { normal: RawAnswer; fast: RawAnswer }) {
  expect(fast.status).toBe(normal.status);
  expect(comparable(fast.headers)).toEqual(comparable(normal.headers));
  expect(fast.body.equals(normal.body), "the same bytes").toBe(true);
}

const BROWSER = { "accept-encoding": "gzip, deflate, br, zstd" };

describe("the hot path answers as the normal path does", () => {
  it.each([
    ["/en/", BROWSER, "br"],
    ["/en/", { "accept-encoding": "gzip" }, "gzip"],
    ["/en/", { "accept-encoding": "identity" }, undefined],
    ["/en/", {}, undefined],
    ["/zh/program", BROWSER, "br"],
    ["/fr", { "accept-encoding": "gzip, deflate" }, "gzip"],
    ["/en/program/", {}, undefined],
  ])("GET %s with %o: the same status, headers and bytes (%s)", async (url, headers, encoding) => {
    await request(url); // rendered and remembered by the normal path
    const answers = await bothPaths(url, { headers });
    expectSameAnswer(answers);
    expect(answers.fast.status).toBe(200);
    expect(answers.fast.headers["content-encoding"]).toBe(encoding);
    expect(answers.fast.headers["content-length"]).toBe(String(answers.fast.body.length));
    expect(answers.fast.headers["content-security-policy"]).toContain("default-src 'self'");
    expect(answers.fast.headers["content-language"]).toBe(url.slice(1, 3));
  });

  it("HEAD: the same headers, Content-Length of the body not sent", async () => {
    await request("/en/");
    const answers = await bothPaths("/en/", { method: "HEAD", headers: BROWSER });
    expectSameAnswer(answers);
    expect(answers.fast.body.length).toBe(0);
    expect(Number(answers.fast.headers["content-length"])).toBeGreaterThan(1000);
  });

  it("If-None-Match with the page's ETag: the same 304 to GET and to HEAD; another ETag: the page", async () => {
    const { headers } = await request("/en/", { headers: BROWSER });
    const etag = String(headers.etag);
    for (const method of ["GET", "HEAD"]) {
      const answers = await bothPaths("/en/", { method, headers: { ...BROWSER, "if-none-match": etag } });
      expectSameAnswer(answers);
      expect(answers.fast.status).toBe(304);
      expect(answers.fast.body.length).toBe(0);
    }
    const other = await bothPaths("/en/", { headers: { ...BROWSER, "if-none-match": '"other"' } });
    expectSameAnswer(other);
    expect(other.fast.status).toBe(200);
  });

  it("reads Accept-Encoding and If-None-Match in any case and repeated, as the normal path does", async () => {
    const { headers } = await request("/en/", { headers: BROWSER });
    const etag = String(headers.etag);
    const cases: Array<[Record<string, string | string[]>, number, string | undefined]> = [
      [{ "ACCEPT-ENCODING": "gzip" }, 200, "gzip"],
      [{ "Accept-Encoding": "identity" }, 200, undefined],
      // Repeated lines are one list ("gzip, br").
      [{ "accept-encoding": ["gzip", "br"] }, 200, "br"],
      [{ ...BROWSER, "IF-NONE-MATCH": etag }, 304, undefined],
      // Two lines are not the page's ETag alone: the page.
      [{ ...BROWSER, "if-none-match": [etag, '"other"'] }, 200, "br"],
    ];
    for (const [sent, status, encoding] of cases) {
      const answers = await bothPaths("/en/", { headers: sent as Record<string, string> });
      expectSameAnswer(answers);
      expect(answers.fast.status, JSON.stringify(sent)).toBe(status);
      expect(answers.fast.headers["content-encoding"], JSON.stringify(sent)).toBe(encoding);
    }
  });

  it("writes the same access line (method, path, status, address, time), and counts the request", async () => {
    await request("/en/program");
    logs.length = 0;
    await bothPaths("/en/program", { headers: BROWSER });
    const lines = logs.filter((line) => line.msg === "request completed");
    expect(lines).toHaveLength(2);
    const [normal, fast] = lines.map(({ reqId, time, responseTime, ...rest }) => {
      expect(typeof reqId).toBe("string");
      expect(typeof time).toBe("number");
      expect(typeof responseTime).toBe("number");
      return rest;
    });
    expect(fast).toEqual(normal);
    expect(fast).toMatchObject({
      method: "GET",
      url: "/en/program",
      statusCode: 200,
      remoteAddress: "127.0.0.1",
    });
    expect(lines[0]!.reqId).not.toBe(lines[1]!.reqId);

    const counted = async () => {
      const text = await t.app.services.metrics.text();
      return Number(
        /hss_http_requests_total\{method="GET",route="\/\*",status_class="2xx"\} (\d+)/.exec(text)?.[1],
      );
    };
    const before = await counted();
    await request("/en/program");
    expect(await counted()).toBe(before + 1);
  });

  it("GET, HEAD and their 304s on one address: each answer's own access line and count, in any order", async () => {
    const { headers } = await request("/en/faq");
    const etag = String(headers.etag);
    const asked: Array<{
      method: string;
      headers: Record<string, string>;
      statusCode: number;
      statusClass: string;
    }> = [
      { method: "HEAD", headers: { "if-none-match": etag }, statusCode: 304, statusClass: "3xx" },
      { method: "GET", headers: {}, statusCode: 200, statusClass: "2xx" },
      { method: "HEAD", headers: {}, statusCode: 200, statusClass: "2xx" },
      { method: "GET", headers: { "if-none-match": etag }, statusCode: 304, statusClass: "3xx" },
    ];
    const count = async (method: string, statusClass: string) =>
      Number(
        new RegExp(
          `hss_http_requests_total\\{method="${method}",route="/\\*",status_class="${statusClass}"\\} (\\d+)`,
        ).exec(await t.app.services.metrics.text())?.[1] ?? 0,
      );
    // Twice over: the first answer of a kind prepares its line and counter, the second uses them.
    for (const round of [1, 2]) {
      for (const { method, headers: sent, statusCode, statusClass } of asked) {
        const before = { served: hot().served, count: await count(method, statusClass) };
        logs.length = 0;
        const answer = await request("/en/faq", { method, headers: sent });
        expect(answer.status, `${method} round ${round}`).toBe(statusCode);
        expect(hot().served).toBe(before.served + 1);
        const lines = logs.filter((line) => line.msg === "request completed");
        expect(lines, `${method} ${statusCode} round ${round}`).toEqual([
          expect.objectContaining({ method, url: "/en/faq", statusCode }),
        ]);
        expect(await count(method, statusClass)).toBe(before.count + 1);
      }
    }
  });
});

/** One answer read off a connection: its head's lines as sent (status line first) and its body. */
interface WireAnswer {
  lines: string[];
  status: number;
  body: Buffer;
}

/**
 * Sends `requests` (each a request's text, ending with its blank line) on one new connection, each
 * once the previous answer is complete, or all at once when `pipelined`, and reads their answers
 * as sent: the head's lines and the body its Content-Length frames (none to HEAD or for a 304).
 * `closed`: whether the server closed the connection after the last answer (waited for 300 ms).
 */
async function onOneConnection(
  requests: string[],
  { pipelined = false } = {},
): Promise<{ answers: WireAnswer[]; closed: boolean }> {
  const socket = net.connect(Number(new URL(base).port), "127.0.0.1");
  let buffered = Buffer.alloc(0);
  let closed = false;
  let wake: () => void = () => undefined;
  socket.on("data", (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    wake();
  });
  socket.on("close", () => {
    closed = true;
    wake();
  });
  const more = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  const readAnswer = async (method: string): Promise<WireAnswer> => {
    for (;;) {
      const end = buffered.indexOf("\r\n\r\n");
      if (end >= 0) {
        const lines = buffered.subarray(0, end).toString("latin1").split("\r\n");
        const status = Number(lines[0]?.split(" ")[1]);
        const length = Number(
          lines.find((line) => /^content-length:/i.test(line))?.replace(/^[^:]*:\s*/, "") ?? 0,
        );
        const bodyLength = method === "HEAD" || status === 304 ? 0 : length;
        if (buffered.length >= end + 4 + bodyLength) {
          const body = Buffer.from(buffered.subarray(end + 4, end + 4 + bodyLength));
          buffered = buffered.subarray(end + 4 + bodyLength);
          return { lines, status, body };
        }
      }
      if (closed) throw new Error(`the connection closed before the answer to ${method}`);
      await more();
    }
  };
  const answers: WireAnswer[] = [];
  const methodOf = (text: string) => text.slice(0, text.indexOf(" "));
  if (pipelined) socket.write(requests.join(""));
  for (const text of requests) {
    if (!pipelined) socket.write(text);
    answers.push(await readAnswer(methodOf(text)));
  }
  if (!closed) await Promise.race([more(), new Promise((resolve) => setTimeout(resolve, 300))]);
  socket.destroy();
  return { answers, closed };
}

/** A request's text: `method path version`, Host, then `headers` (a name and value a line). */
const requestText = (method: string, path: string, headers: string[] = [], version = "HTTP/1.1") =>
  `${method} ${path} ${version}\r\nHost: 127.0.0.1\r\n${headers.map((line) => `${line}\r\n`).join("")}\r\n`;

/** A head's lines with the Date line's value left out (the second it was sent in). */
const withoutDate = (lines: string[]) => lines.map((line) => (/^date:/i.test(line) ? "Date: …" : line));

describe("on a connection kept alive, the hot path writes the head Node writes", () => {
  it("each kind of answer, of a page and of the catalogue: the normal path's head line for line, and its bytes", async () => {
    const page = await request("/en/program", { headers: BROWSER });
    await request("/api/summer-schools", { headers: { "accept-language": "fr" } });
    const list = await request("/api/summer-schools", { headers: { "accept-language": "fr" } });
    const asked: Array<[string, string, string[], string?]> = [
      ["GET", "/en/program", ["Accept-Encoding: gzip, deflate, br, zstd"]],
      ["GET", "/en/program", ["Accept-Encoding: gzip"]],
      ["GET", "/en/program", []],
      ["HEAD", "/en/program", ["Accept-Encoding: br"]],
      ["GET", "/en/program", [`If-None-Match: ${page.headers.etag}`]],
      ["HEAD", "/en/program", [`If-None-Match: ${page.headers.etag}`]],
      ["GET", "/api/summer-schools", ["Accept-Language: fr"]],
      ["HEAD", "/api/summer-schools", ["Accept-Language: fr"]],
      ["GET", "/api/summer-schools", ["Accept-Language: fr", `If-None-Match: ${list.headers.etag}`]],
      // Node decides these connections' lines itself (writeHead): the same as the normal path's too.
      ["GET", "/en/program", ["Connection: close"]],
      ["GET", "/en/program", [], "HTTP/1.0"],
      ["GET", "/en/program", ["Connection: keep-alive"], "HTTP/1.0"],
    ];
    for (const [method, path, headers, version] of asked) {
      const text = requestText(method, path, headers, version);
      const label = text.split("\r\n").join(" | ");
      // A connection the request asks to close answers that request alone.
      const closes =
        headers.includes("Connection: close") || (version === "HTTP/1.0" && headers.length === 0);
      const texts = closes ? [text] : [text, text];
      hot().enabled = false;
      const normal = await onOneConnection(texts).finally(() => {
        hot().enabled = true;
      });
      const before = { served: hot().served, prepared: hot().preparedHeads };
      const fast = await onOneConnection(texts);
      expect(hot().served - before.served, label).toBe(texts.length);
      // Node writes the head of an answer that closes the connection (writeHead).
      const kept = closes ? 0 : texts.length;
      expect(hot().preparedHeads - before.prepared, `${label}: prepared heads`).toBe(kept);
      expect(
        fast.answers.map((answer) => answer.status),
        label,
      ).toEqual(normal.answers.map((answer) => answer.status));
      for (const [index, answer] of fast.answers.entries()) {
        const normalAnswer = normal.answers[index]!;
        expect(withoutDate(answer.lines), label).toEqual(withoutDate(normalAnswer.lines));
        expect(answer.body.equals(normalAnswer.body), `${label}: the same bytes`).toBe(true);
      }
      expect(fast.closed, label).toBe(normal.closed);
    }
  });

  it("the Date line is the second the answer was sent in, whenever it is sent", async () => {
    await request("/en/");
    const text = requestText("GET", "/en/", ["Accept-Encoding: br"]);
    const dated = async () => {
      const { answers } = await onOneConnection([text]);
      const value = answers[0]!.lines.find((line) => line.startsWith("Date: "))!.slice(6);
      return { value, at: Date.now() };
    };
    const first = await dated();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await dated();
    for (const { value, at } of [first, second]) {
      expect(value).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
      // Sent in the second it names, read at most a few seconds later (a busy machine's latency).
      expect(at - Date.parse(value)).toBeGreaterThanOrEqual(0);
      expect(at - Date.parse(value)).toBeLessThan(5000);
    }
    expect(second.value).not.toBe(first.value);
  });

  it("answers asked all at once come back whole and in order, and the connection stays open", async () => {
    const { headers } = await request("/en/faq", { headers: BROWSER });
    const etag = String(headers.etag);
    const asked: Array<[string, string[], number]> = [
      ["GET", ["Accept-Encoding: br"], 200],
      ["HEAD", [], 200],
      ["GET", [`If-None-Match: ${etag}`], 304],
      ["GET", [], 200],
      ["HEAD", [`If-None-Match: ${etag}`], 304],
      ["GET", ["Accept-Encoding: gzip"], 200],
    ];
    const normal = (await request("/en/faq")).body;
    const before = { served: hot().served, prepared: hot().preparedHeads };
    const { answers, closed } = await onOneConnection(
      asked.map(([method, lines]) => requestText(method, "/en/faq", lines)),
      { pipelined: true },
    );
    expect(hot().served).toBe(before.served + asked.length);
    expect(hot().preparedHeads).toBe(before.prepared + asked.length);
    expect(answers.map((answer) => answer.status)).toEqual(asked.map(([, , status]) => status));
    expect(answers[3]!.body.equals(normal), "the identity answer's bytes").toBe(true);
    for (const answer of answers) expect(answer.lines).toContain("Connection: keep-alive");
    expect(closed).toBe(false);
  });

  it("a server that limits a connection's requests: Node's Keep-Alive line, and Connection: close on the last", async () => {
    await request("/en/");
    const text = requestText("GET", "/en/", ["Accept-Encoding: br"]);
    const server = t.app.server;
    server.maxRequestsPerSocket = 2;
    try {
      hot().enabled = false;
      const normal = await onOneConnection([text, text]).finally(() => {
        hot().enabled = true;
      });
      const fast = await onOneConnection([text, text]);
      expect(fast.answers.map((answer) => withoutDate(answer.lines))).toEqual(
        normal.answers.map((answer) => withoutDate(answer.lines)),
      );
      expect(fast.answers[0]!.lines).toContain("Keep-Alive: timeout=72, max=2");
      expect(fast.answers[1]!.lines).toContain("Connection: close");
      expect(fast.closed).toBe(normal.closed);
    } finally {
      server.maxRequestsPerSocket = 0;
    }
    const { answers } = await onOneConnection([text]);
    expect(answers[0]!.lines).toContain("Keep-Alive: timeout=72");
  });
});

describe("the catalogue's two lists, answered by the hot path per language", () => {
  it.each([
    ["/api/summer-schools", {}],
    ["/api/summer-schools", { "accept-language": "zh-CN,zh;q=0.9" }],
    ["/api/summer-schools", { cookie: "language=fr; other=1", "accept-language": "zh-CN" }],
    ["/api/catalogue/summary", { "accept-language": "fr-FR,fr;q=0.8" }],
  ])("GET %s with %o: the same status, headers and bytes", async (url, headers) => {
    await request(url, { headers }); // answered and remembered by the normal path
    const answers = await bothPaths(url, { headers });
    expectSameAnswer(answers);
    expect(answers.fast.status).toBe(200);
    expect(answers.fast.headers["content-type"]).toBe("application/json; charset=utf-8");
    expect(answers.fast.headers["content-security-policy"]).toContain("default-src 'self'");
  });

  it("answers each visitor in their language: English, Chinese and French lists differ and never mix", async () => {
    const bodies = new Map<string, string>();
    for (const [language, headers] of [
      ["en", { "accept-language": "en" }],
      ["zh", { "accept-language": "zh-CN" }],
      ["fr", { cookie: "language=fr" }],
    ] as const) {
      await request("/api/summer-schools", { headers });
      const { fast, normal } = await bothPaths("/api/summer-schools", { headers });
      expect(fast.body.equals(normal.body), language).toBe(true);
      bodies.set(language, fast.body.toString("utf8"));
    }
    expect(new Set(bodies.values()).size, "three languages, three answers").toBe(3);
  });

  it("HEAD, and If-None-Match with the list's ETag: the same answers; the access line and the count under the route", async () => {
    const { headers } = await request("/api/summer-schools");
    const etag = String(headers.etag);
    for (const method of ["GET", "HEAD"]) {
      const answers = await bothPaths("/api/summer-schools", { method, headers: { "if-none-match": etag } });
      expectSameAnswer(answers);
      expect(answers.fast.status).toBe(304);
    }
    const head = await bothPaths("/api/summer-schools", { method: "HEAD" });
    expectSameAnswer(head);
    expect(head.fast.status).toBe(200);
    expect(head.fast.body.length).toBe(0);

    logs.length = 0;
    await bothPaths("/api/summer-schools", {});
    const lines = logs
      .filter((line) => line.msg === "request completed")
      .map(({ reqId: _id, time: _time, responseTime: _ms, ...rest }) => rest);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual(lines[0]);
    const counted = async () =>
      Number(
        /hss_http_requests_total\{method="GET",route="\/api\/summer-schools",status_class="2xx"\} (\d+)/.exec(
          await t.app.services.metrics.text(),
        )?.[1],
      );
    const before = await counted();
    await request("/api/summer-schools");
    expect(await counted()).toBe(before + 1);
  });

  it("a catalogue change: the next request goes the normal way, then the hot path again", async () => {
    await request("/api/summer-schools");
    t.app.services.catalogue.invalidate();
    const before = hot().served;
    await request("/api/summer-schools");
    expect(hot().served).toBe(before);
    expectSameAnswer(await bothPaths("/api/summer-schools", {}));
  });

  it("an address with a query, and the catalogue's other calls, go the normal way", async () => {
    await request("/api/summer-schools?x=1");
    await request("/api/summer-schools?x=1");
    const before = hot().served;
    expect((await request("/api/summer-schools?x=1")).status).toBe(200);
    expect(hot().served).toBe(before);
  });
});

describe("what the hot path leaves to the normal path", () => {
  it("unprefixed addresses: the redirect to the visitor's language, by cookie or browser, every time", async () => {
    const before = hot().served;
    for (let i = 0; i < 2; i++) {
      const byCookie = await request("/program?x=1", { headers: { cookie: "language=fr" } });
      expect(byCookie.status).toBe(302);
      expect(byCookie.headers.location).toBe("/fr/program?x=1");
      const byBrowser = await request("/", { headers: { "accept-language": "zh-CN,zh;q=0.9" } });
      expect(byBrowser.status).toBe(302);
      expect(byBrowser.headers.location).toBe("/zh");
    }
    expect(hot().served).toBe(before);
  });

  it("an address with a query, an alias, a 404, a POST, a GET with a body", async () => {
    await request("/en/");
    const before = hot().served;
    const page = await request("/en/", { headers: BROWSER });
    const withQuery = await request("/en/?utm_source=mail", { headers: BROWSER });
    expect(withQuery.status).toBe(200);
    expect(withQuery.body.equals(page.body)).toBe(true);
    for (let i = 0; i < 2; i++) {
      expect((await request("/en/no-such-page")).status).toBe(404);
      expect((await request("/en/terms-conditions")).status).toBe(301);
    }
    const withBody = await request("/en/", { headers: { "content-type": "text/plain" }, body: "hello" });
    expect(withBody.status).toBe(200);
    expect((await request("/en/", { method: "POST", body: "" })).status).toBe(404);
    // Whatever the case of the header's name, and a body sent in chunks.
    for (const framing of [
      "CONTENT-LENGTH: 5\r\n\r\nhello",
      "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
    ]) {
      const answer = await rawRequest(
        `GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${framing}`,
      );
      expect(answer, framing).toMatch(/^HTTP\/1\.1 200 /);
    }
    expect(hot().served, "only the plain GET /en/").toBe(before + 1);
  });
});

describe("a content change is never answered from the hot path's memory", () => {
  const heroTitle = (body: Buffer) => /<h1[^>]*>(.*?)<\/h1>/s.exec(body.toString("utf8"))?.[1];

  it("a translation edited: the next request renders the page again, with the new text and ETag", async () => {
    await request("/en/");
    const old = await bothPaths("/en/", { headers: { "accept-encoding": "identity" } });
    const { cookie } = await loginAsAdmin(t.app);
    const edit = await t.app.inject({
      method: "PUT",
      url: "/api/admin/translations",
      headers: { ...SAME_ORIGIN.headers, cookie },
      payload: { namespace: "home", key: "hero.title", language: "en", value: "A summer by the sea" },
    });
    expect(edit.statusCode).toBe(200);

    const before = hot().served;
    const fresh = await request("/en/", { headers: { "accept-encoding": "identity" } });
    expect(hot().served, "the new content version goes the normal way").toBe(before);
    expect(heroTitle(fresh.body)).toContain("A summer by the sea");
    expect(heroTitle(old.fast.body)).not.toContain("A summer by the sea");
    expect(fresh.headers.etag).not.toBe(old.fast.headers.etag);
    // The answer of the new version, from the hot path from now on, as the normal path gives it.
    expectSameAnswer(await bothPaths("/en/", { headers: { "accept-encoding": "identity" } }));
    const revalidated = await request("/en/", {
      headers: { "if-none-match": String(old.fast.headers.etag) },
    });
    expect(revalidated.status, "the old ETag is not the page's any more").toBe(200);
  });

  it("the catalogue changed, or the day: the next request goes the normal way, then the hot path again", async () => {
    await request("/en/program");
    await request("/en/program");
    for (const change of [() => t.app.services.catalogue.invalidate(), () => (clock += 86_400_000)]) {
      change();
      const before = hot().served;
      await request("/en/program", { headers: BROWSER });
      expect(hot().served).toBe(before);
      expectSameAnswer(await bothPaths("/en/program", { headers: BROWSER }));
    }
  });
});

describe("HotPages.remember", () => {
  const page = (html: string): RenderedPage => ({
    status: 200,
    etag: `"${html}"`,
    language: "en",
    body: Buffer.from(html),
    br: Buffer.from(`br:${html}`),
    gzip: Buffer.from(`gz:${html}`),
  });

  /** A bare HTTP server answering with the hot path first, "route" when it left the request. */
  async function bare(version: { value: string }) {
    const hotPages = new HotPages({
      securityHeaders: { "x-test": "1" },
      contentVersion: () => version.value,
    });
    const server = http.createServer((req, res) => {
      if (!hotPages.answer(req, res)) res.end("route");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Without Accept-Encoding: the identity body.
    const get = (url: string) =>
      new Promise<string>((resolve, reject) => {
        http
          .get(`${origin}${url}`, { agent: false }, (res) => {
            let text = "";
            res.setEncoding("utf8");
            res.on("data", (chunk: string) => {
              text += chunk;
            });
            res.on("end", () => resolve(text));
          })
          .on("error", reject);
      });
    return { hotPages, get };
  }
  const servers: http.Server[] = [];
  afterAll(() => {
    for (const server of servers) server.close();
  });

  it("does not take a page rendered while the content changed for the new version's", async () => {
    const version = { value: "v1" };
    const { hotPages, get } = await bare(version);
    const asked = hotPages.version();
    version.value = "v2"; // a translation was edited while the page was rendered
    hotPages.remember("/en/", asked, page("old"), true);
    expect(await get("/en/")).toBe("route");
    hotPages.remember("/en/", hotPages.version(), page("new"), true);
    expect(await get("/en/")).toBe("new");
    version.value = "v3";
    expect(await get("/en/"), "never an older version's page").toBe("route");
  });

  it("remembers only 200 pages without parameters and without query", async () => {
    const { hotPages, get } = await bare({ value: "v1" });
    hotPages.remember("/en/partner/CODE", "v1", page("partner"), false);
    hotPages.remember("/en/nope", "v1", { ...page("missing"), status: 404 }, true);
    hotPages.remember("/en/?a=1", "v1", page("query"), true);
    for (const url of ["/en/partner/CODE", "/en/nope", "/en/?a=1"]) {
      expect(await get(url), url).toBe("route");
    }
    expect(hotPages.served).toBe(0);
  });
});

describe("a closing server", () => {
  it("leaves the pages to Fastify, which answers 503 and closes the connection, so the server can stop", async () => {
    const closing = await createTestApp({ withPages: true });
    await closing.app.listen({ port: 0, host: "127.0.0.1" });
    const port = (closing.app.server.address() as AddressInfo).port;
    const page = () =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: "/en/", agent: false }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          })
          .on("error", reject);
      });
    expect(await page()).toBe(200);
    const hotPages = closing.app.services.hotPages;
    const before = hotPages.served;
    expect(await page()).toBe(200);
    expect(hotPages.served, "the hot path answered the page").toBe(before + 1);

    // A connection busy with a request (its body half sent) when the server starts closing, which
    // then asks for the page on the same connection.
    const socket = net.connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    const ended = new Promise<void>((resolve) => socket.on("close", () => resolve()));
    const body = JSON.stringify({ email: "x" });
    socket.write(
      `POST /api/public/newsletter HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${SAME_ORIGIN.headers?.origin}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 4)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopped = closing.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.write(`${body.slice(4)}GET /en/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await ended;
    await stopped;
    const statuses = [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => Number(match[1]));
    expect(statuses).toHaveLength(2);
    expect(statuses[1], "the page asked while closing").toBe(503);
    expect(hotPages.served).toBe(before + 1);
  });
});
