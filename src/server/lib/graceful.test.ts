/**
 * No request waits forever (decision 013): a stopping process finishes what it is answering and
 * cuts what is still running at its deadline; the server's timeouts end a request whose client
 * stalls and a connection whose handler never answers.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, it } from "vitest";
import { SERVER_TIMEOUTS } from "../app";
import { createTestApp, type TestApp } from "../testing/harness";
import { closeGracefully } from "./graceful";

/** The outcome of one request over a new connection: a status, or the error's code, and how long it took. */
function get(port: number, path: string, agent: http.Agent | false = false) {
  const started = Date.now();
  return new Promise<{ status?: number; error?: string; ms: number }>((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path, agent }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode, ms: Date.now() - started }));
      res.on("error", (err: NodeJS.ErrnoException) =>
        resolve({ error: err.code ?? err.message, ms: Date.now() - started }),
      );
    });
    req.on("error", (err: NodeJS.ErrnoException) =>
      resolve({ error: err.code ?? err.message, ms: Date.now() - started }),
    );
  });
}

const portOf = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("closeGracefully", () => {
  let app: FastifyInstance;
  afterEach(async () => {
    app.server.closeAllConnections();
    await app.close().catch(() => undefined);
  });

  async function start() {
    app = Fastify();
    app.get("/slow", async () => {
      await pause(300);
      return "done";
    });
    app.get("/never", () => new Promise(() => {}));
    await app.listen({ host: "127.0.0.1", port: 0 });
    return portOf(app);
  }

  it("lets a request in flight finish, refuses new connections, and does not wait for idle keep-alives", async () => {
    const port = await start();
    const agent = new http.Agent({ keepAlive: true });
    const idle = await get(port, "/slow", agent);
    expect(idle.status).toBe(200);
    const inFlight = get(port, "/slow", agent);
    await pause(50);
    const started = Date.now();
    const closing = closeGracefully(app, 5_000);
    await pause(20);
    expect((await get(port, "/slow")).error).toBe("ECONNREFUSED");
    expect((await inFlight).status).toBe(200);
    expect(await closing).toBe(true);
    expect(Date.now() - started).toBeLessThan(5_000);
    agent.destroy();
  });

  it("cuts a request still running at the deadline, so its client gets an error instead of waiting", async () => {
    const port = await start();
    const stuck = get(port, "/never");
    await pause(50);
    const started = Date.now();
    expect(await closeGracefully(app, 300)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5_000);
    const outcome = await stuck;
    expect(outcome.error).toBe("ECONNRESET");
    expect(outcome.status).toBeUndefined();
  });
});

describe("server timeouts", () => {
  let t: TestApp;
  afterEach(async () => {
    t.app.server.closeAllConnections();
    await t.close();
  });

  it("are set on the server (defaults in SERVER_TIMEOUTS)", async () => {
    t = await createTestApp();
    const server = t.app.server;
    expect(server.requestTimeout).toBe(SERVER_TIMEOUTS.requestTimeout);
    expect(server.headersTimeout).toBe(SERVER_TIMEOUTS.headersTimeout);
    expect(server.keepAliveTimeout).toBe(SERVER_TIMEOUTS.keepAliveTimeout);
    expect(server.timeout).toBe(SERVER_TIMEOUTS.connectionTimeout);
    expect(SERVER_TIMEOUTS.headersTimeout).toBeLessThanOrEqual(SERVER_TIMEOUTS.requestTimeout);
    expect(SERVER_TIMEOUTS.keepAliveTimeout).toBeLessThan(SERVER_TIMEOUTS.connectionTimeout);
  });

  it("end a request whose client stops sending, and a connection whose handler never answers", async () => {
    t = await createTestApp({
      serverTimeouts: {
        headersTimeout: 300,
        requestTimeout: 300,
        connectionTimeout: 600,
        connectionsCheckingInterval: 100,
      },
      setup: (app) => {
        app.get("/test/never", () => new Promise(() => {}));
      },
    });
    await t.app.listen({ host: "127.0.0.1", port: 0 });
    const port = portOf(t.app);

    // Headers that never end: answered 408 and closed.
    const started = Date.now();
    const stalled = await new Promise<string>((resolve) => {
      const socket = net.connect(port, "127.0.0.1", () =>
        socket.write("GET /api/health HTTP/1.1\r\nHost: x\r\n"),
      );
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString("latin1");
      });
      socket.on("close", () => resolve(received));
    });
    expect(stalled).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(5_000);

    const never = await get(port, "/test/never");
    expect(never.error).toBe("ECONNRESET");
    expect(never.ms).toBeLessThan(5_000);
  });
});
