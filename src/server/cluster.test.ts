/**
 * The server as several processes (decision 011), started the way an operator starts it:
 * `WEB_CONCURRENCY=2` with PostgreSQL and Redis gives two workers on one port, one of them
 * running the background jobs; simultaneous checkouts on both workers get one session; the
 * metrics are the sum over both workers (decision 013); a worker that dies is replaced, and one
 * killed under load leaves no client waiting (decision 013); SIGTERM stops everything cleanly.
 * Needs TEST_DATABASE_URL and TEST_REDIS_URL (`.ci/run` sets both when the servers answer).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaidReadyApplication, TEST_FILE_KEY } from "./testing/harness";
import { parseMetrics, sampleValue } from "./testing/metrics";

const adminUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

interface LogLine {
  pid: number;
  msg: string;
  /** Access lines: the request's URL. */
  url?: string;
}

/**
 * The part of `app.inject` that `createPaidReadyApplication` uses, over real HTTP: a new
 * connection per request (so requests spread over the workers, each accepting its own
 * connections), same-origin.
 */
function overHttp(origin: string): FastifyInstance {
  const inject = async (options: {
    method?: string;
    url: string;
    headers?: Record<string, string>;
    payload?: unknown;
  }) => {
    const body =
      options.payload === undefined
        ? undefined
        : Buffer.isBuffer(options.payload)
          ? new Uint8Array(options.payload)
          : JSON.stringify(options.payload);
    const res = await fetch(`${origin}${options.url}`, {
      method: options.method ?? "GET",
      headers: {
        connection: "close",
        ...(typeof body === "string" ? { "content-type": "application/json" } : {}),
        ...options.headers,
        origin,
      },
      body,
    });
    const text = await res.text();
    return {
      statusCode: res.status,
      body: text,
      json: () => JSON.parse(text),
      cookies: res.headers.getSetCookie().map((line) => {
        const [pair = ""] = line.split(";");
        const at = pair.indexOf("=");
        return { name: pair.slice(0, at), value: pair.slice(at + 1) };
      }),
    };
  };
  return { inject } as unknown as FastifyInstance;
}

/** Whether a process with this pid is still alive. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.skipIf(!adminUrl || !redisUrl)("several server processes (WEB_CONCURRENCY=2)", () => {
  const name = `t_cluster_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), "hss-cluster-"));
  const lines: LogLine[] = [];
  let server: ChildProcess;
  let exited: Promise<number | null>;

  /** Waits until `count` log lines match `test`, for at most `ms`; returns them. */
  const waitForLines = async (test: (line: LogLine) => boolean, count: number, ms = 60_000) => {
    const until = Date.now() + ms;
    while (lines.filter(test).length < count && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return lines.filter(test);
  };
  const listening = (line: LogLine) => line.msg.startsWith("Server listening at");

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const databaseUrl = new URL(adminUrl!);
    databaseUrl.pathname = `/${name}`;

    server = spawn(process.execPath, ["--import", "tsx", "src/server/main.ts"], {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: "test",
        HOST: "127.0.0.1",
        PORT: "0",
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl.toString(),
        FILE_ENCRYPTION_KEY: TEST_FILE_KEY,
        REDIS_URL: redisUrl,
        WEB_CONCURRENCY: "2",
        LOG_LEVEL: "info",
      },
      stdio: ["ignore", "pipe", "inherit"],
    });
    exited = new Promise((resolve) => server.once("exit", (code) => resolve(code)));
    let buffered = "";
    server.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString("utf8");
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const part of parts) {
        try {
          lines.push(JSON.parse(part) as LogLine);
        } catch {
          // Not a log line.
        }
      }
    });
  }, 30_000);

  afterAll(async () => {
    if (server && server.exitCode === null) server.kill("SIGKILL");
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("starts two workers on one port, one of which runs the jobs, and both answer", async () => {
    const started = await waitForLines(listening, 2);
    expect(new Set(started.map((l) => l.pid)).size).toBe(2);
    expect(started.every((l) => l.pid !== server.pid)).toBe(true);
    const port = Number(/:(\d+)$/.exec(started[0]!.msg)?.[1]);
    expect(started.map((l) => Number(/:(\d+)$/.exec(l.msg)?.[1]))).toEqual([port, port]);

    const jobsWorkers = await waitForLines((l) => l.msg.startsWith("The Hague Summer School is running"), 1);
    expect(jobsWorkers).toHaveLength(1);
    expect(jobsWorkers[0]!.msg).toContain("processes: 2");
    // Each worker runs with two malloc arenas, the caller having set none (decision 043).
    for (const { pid } of started) {
      const environment = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      expect(environment).toContain("MALLOC_ARENA_MAX=2");
    }

    // Several connections (no keep-alive), spread over the workers; every one is answered.
    for (let i = 0; i < 6; i++) {
      const res = await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { connection: "close" } });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ ok: true, database: "postgres" });
    }
  }, 90_000);

  it("gives simultaneous checkouts of one application one hosted page, whichever worker answers", async () => {
    const [first] = await waitForLines(listening, 2);
    const origin = `http://127.0.0.1:${/:(\d+)$/.exec(first!.msg)?.[1]}`;
    const http = overHttp(origin);
    const ready = await createPaidReadyApplication(http, {}, {});
    // A double click, or a retry after a lost answer, at the same moment: the new connections
    // spread over the workers, so both workers ask the payment provider at once.
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        http.inject({
          method: "POST",
          url: "/api/create-checkout-session",
          headers: { cookie: ready.cookie },
          payload: { applicationId: ready.applicationId, termsAccepted: true },
        }),
      ),
    );
    for (const res of answers) expect(res.statusCode, res.body).toBe(200);
    const sessions = answers.map((res) => res.json() as { sessionId: string; url: string });
    expect(new Set(sessions.map((s) => s.sessionId)).size).toBe(1);
    expect(new Set(sessions.map((s) => s.url)).size).toBe(1);
  }, 60_000);

  it("serves at /metrics the requests of both workers summed, with the process metrics", async () => {
    const [first] = await waitForLines(listening, 2);
    const origin = `http://127.0.0.1:${/:(\d+)$/.exec(first!.msg)?.[1]}`;
    const health = (l: LogLine) => l.msg === "request completed" && l.url === "/api/health";
    // New connections go to either worker; go on until both have answered some.
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${origin}/api/health`, { headers: { connection: "close" } });
      expect(res.status).toBe(200);
      await res.text();
      const answered = await waitForLines(health, 1, 0);
      if (i >= 20 && new Set(answered.map((l) => l.pid)).size === 2) break;
    }
    // Access lines are written at least once a second: wait until every request's line is in.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const answered = lines.filter(health);
    const perWorker = new Map<number, number>();
    for (const line of answered) perWorker.set(line.pid, (perWorker.get(line.pid) ?? 0) + 1);
    expect(perWorker.size).toBe(2);

    // From 127.0.0.1: this machine, no token needed.
    const res = await fetch(`${origin}/metrics`, { headers: { connection: "close" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    const samples = parseMetrics(await res.text());
    expect(
      sampleValue(samples, "hss_http_requests_total", { route: "/api/health", status_class: "2xx" }),
    ).toBe(answered.length);
    expect(sampleValue(samples, "hss_email_outbox_backlog", { status: "queued" })).toBeGreaterThanOrEqual(0);
    expect(sampleValue(samples, "hss_worker_exits_total")).toBe(0);
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
  }, 60_000);

  it("replaces a worker that dies", async () => {
    const [victim] = await waitForLines(listening, 2);
    process.kill(victim!.pid, "SIGKILL");
    const after = await waitForLines(listening, 3);
    expect(after).toHaveLength(3);
    expect(after[2]!.pid).not.toBe(victim!.pid);
    expect(alive(after[2]!.pid)).toBe(true);
  }, 90_000);

  it("leaves no client waiting when a worker is killed while requests are in flight", async () => {
    await waitForLines(listening, 2);
    let workers = lines.filter(listening).map((l) => l.pid);
    for (let i = 0; i < 300 && workers.filter(alive).length < 2; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      workers = lines.filter(listening).map((l) => l.pid);
    }
    const victim = workers.filter(alive).at(-1)!;
    const port = Number(/:(\d+)$/.exec(lines.find(listening)!.msg)?.[1]);

    // Every request gets an answer or an error; one with no byte for 15 s is hanging.
    const BOUND_MS = 15_000;
    const outcomes = { answered: 0, failed: 0, hanging: 0 };
    const request = () =>
      new Promise<void>((resolve) => {
        let settled = false;
        const settle = (outcome: keyof typeof outcomes) => {
          if (settled) return;
          settled = true;
          outcomes[outcome] += 1;
          resolve();
        };
        const req = http.get(
          { host: "127.0.0.1", port, path: "/api/summer-schools", agent: false },
          (res) => {
            res.resume();
            res.on("close", () => settle(res.complete ? "answered" : "failed"));
          },
        );
        req.on("error", () => settle("failed"));
        req.setTimeout(BOUND_MS, () => {
          settle("hanging");
          req.destroy();
        });
      });
    let loading = true;
    const clients = Array.from({ length: 48 }, async () => {
      while (loading) await request();
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    process.kill(victim, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 300));
    // Meanwhile the metrics still answer: the dead worker and its replacement, still starting,
    // are not waited for.
    const during = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { connection: "close" } });
    expect(during.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1700));
    loading = false;
    await Promise.all(clients);

    expect(outcomes.answered).toBeGreaterThan(0);
    expect(outcomes.hanging, JSON.stringify(outcomes)).toBe(0);

    // Both deaths (this one and the previous test's) show in the primary's metrics.
    await waitForLines(listening, 4);
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { headers: { connection: "close" } });
    expect(sampleValue(parseMetrics(await res.text()), "hss_worker_exits_total")).toBe(2);
  }, 60_000);

  it("stops every worker and exits 0 on SIGTERM", async () => {
    // Two were killed and replaced: four have listened.
    const workers = (await waitForLines(listening, 4)).map((l) => l.pid);
    server.kill("SIGTERM");
    const code = await exited;
    expect(code).toBe(0);
    // Workers exit before the primary does.
    expect(workers.filter(alive)).toEqual([]);
  }, 30_000);
});
