import http from "node:http";
import type { AddressInfo } from "node:net";
import Fastify from "fastify";
import { afterAll, describe, expect, it } from "vitest";
import { clientAddressOf } from "./client-address";

/**
 * The hot path's access line names the visitor's address as Fastify's `request.ip` does for every
 * other request, behind a trusted proxy or not (TRUST_PROXY).
 */
const closers: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const close of closers) await close();
});

/** A Fastify app whose server notes `clientAddressOf`'s answer and whose route answers `request.ip`. */
async function server(trustProxy: boolean) {
  const seen: Array<string | undefined> = [];
  const address = clientAddressOf(trustProxy);
  const app = Fastify({
    trustProxy,
    serverFactory: (handler) =>
      http.createServer((req, res) => {
        seen.push(address(req));
        handler(req, res);
      }),
  });
  app.get("/", async (request) => request.ip);
  await app.listen({ port: 0, host: "127.0.0.1" });
  closers.push(() => app.close());
  const port = (app.server.address() as AddressInfo).port;
  const ask = (headers: Record<string, string>) =>
    new Promise<{ fastify: string; ours: string | undefined }>((resolve, reject) => {
      http
        .get({ host: "127.0.0.1", port, path: "/", headers, agent: false }, (res) => {
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ fastify: body, ours: seen.at(-1) }));
        })
        .on("error", reject);
    });
  return ask;
}

const HEADERS: Array<Record<string, string>> = [
  {},
  { "x-forwarded-for": "203.0.113.7" },
  { "x-forwarded-for": "203.0.113.7, 198.51.100.2" },
  { "x-forwarded-for": " 2001:db8::1 ,10.0.0.1" },
  { "x-forwarded-for": "" },
];

describe("clientAddressOf", () => {
  it.each([true, false])("gives what Fastify's request.ip gives, trustProxy %s", async (trustProxy) => {
    const ask = await server(trustProxy);
    for (const headers of HEADERS) {
      const { fastify, ours } = await ask(headers);
      expect(ours, JSON.stringify(headers)).toBe(fastify);
    }
    if (trustProxy)
      expect((await ask({ "x-forwarded-for": "203.0.113.7, 10.0.0.1" })).ours).toBe("203.0.113.7");
    else expect((await ask({ "x-forwarded-for": "203.0.113.7" })).ours).toBe("127.0.0.1");
  });
});
