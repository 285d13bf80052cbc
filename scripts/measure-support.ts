/**
 * What the measurement scripts (throughput.ts, lighthouse.ts) share: the machine's load, a free
 * port, a server's environment, starting the built server and waiting for it to answer and to
 * finish its start-up's rendering, and stopping it. The tests that start the built server as production runs it use
 * `freePort`, `serverEnv` and `stop` too (src/server/lib/settle-ticks.test.ts).
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, openSync, readFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { availableParallelism, loadavg } from "node:os";
import path from "node:path";

/** Above this 1-minute load average the machine is busy with other work and timings mean little. */
export const LOAD_WARNING = 1.5;

/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Prints the machine's core count and load averages under the heading `when`, with a warning when
 * the 1-minute average is above `LOAD_WARNING`: figures taken on a busy machine mean little.
 */
export function printMachine(when: string) {
  const [one, five, fifteen] = loadavg().map((l) => l.toFixed(2));
  console.log(
    `${when}: ${availableParallelism()} cores, load average ${one} ${five} ${fifteen} (1, 5, 15 min)`,
  );
  if (loadavg()[0]! > LOAD_WARNING) {
    console.log(
      `WARNING: the 1-minute load average is above ${LOAD_WARNING}: other work is using the machine, the figures mean little`,
    );
  }
}

/** The status of one GET of `url` (the body is read and dropped). */
export function statusOf(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

/** Polls `url` until it answers 200, for up to `timeoutMs`; throws if `child` exits first. */
export async function waitFor(url: string, timeoutMs: number, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    try {
      if ((await statusOf(url)) === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/**
 * What main.ts logs when its background rendering of every public page in every language, each
 * compressed with brotli and gzip, has finished (`PageCache.warm`): until then the server keeps both
 * cores of a small machine busy for half a minute or more, so a measurement waits for it.
 */
export const PAGES_RENDERED = '"msg":"public pages rendered"';

/**
 * Polls the log `file` every 250 ms until it holds `text`, for up to `timeoutMs`: true when it did,
 * false when the time ran out; throws if `child` exits first.
 */
export async function waitForLine(
  file: string,
  text: string,
  timeoutMs: number,
  child?: ChildProcess,
): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${file}: the process exited (${child.exitCode})`);
    if (existsSync(file) && readFileSync(file, "utf8").includes(text)) return true;
    await sleep(250);
  }
  return false;
}

/** A server started by `startServer`: its process and the seconds until it was ready and had rendered. */
export interface StartedServer {
  child: ChildProcess;
  readySeconds: number;
  /** Null when the server did not log `PAGES_RENDERED` within `renderedWithinMs`. */
  renderedSeconds: number | null;
}

/**
 * Starts the server of the checkout at `root` as production runs it and waits until it is ready to
 * be measured. `scripts/serve.sh` runs the compiled dist/node/main.js of `npm run build` with
 * `nodeFlags` added; a checkout older than the compiled server runs `node --import tsx
 * src/server/main.ts`. `env` is the process's whole environment (`serverEnv`, plus what the caller
 * adds); its output goes to `logFile`; `onSpawn` gets the process as soon as it exists.
 *
 * Waits for GET /api/ready on `port` (up to 5 min); when it does not come, kills the process and
 * throws with the log's last 15 lines. Then waits up to `renderedWithinMs` for `PAGES_RENDERED`, so
 * that no measurement shares the cores with the start-up's background rendering.
 */
export async function startServer(opts: {
  root: string;
  port: number;
  env: NodeJS.ProcessEnv;
  logFile: string;
  renderedWithinMs: number;
  nodeFlags?: string[];
  onSpawn?: (child: ChildProcess) => void;
}): Promise<StartedServer> {
  const { root, port, env, logFile, nodeFlags = [] } = opts;
  const out = openSync(logFile, "a");
  const compiled = existsSync(path.join(root, "dist", "node", "main.js"));
  const [command, args] = compiled
    ? ["sh", [path.join(root, "scripts", "serve.sh"), ...nodeFlags]]
    : [process.execPath, [...nodeFlags, "--import", "tsx", "src/server/main.ts"]];
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", out, out] });
  opts.onSpawn?.(child);
  const started = Date.now();
  try {
    await waitFor(`http://127.0.0.1:${port}/api/ready`, 300_000, child);
  } catch (error) {
    child.kill("SIGKILL");
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").trimEnd().split("\n") : [];
    throw new Error(`${(error as Error).message}; the end of its log:\n${log.slice(-15).join("\n")}`);
  }
  const readySeconds = (Date.now() - started) / 1000;
  const rendered = await waitForLine(logFile, PAGES_RENDERED, opts.renderedWithinMs, child);
  return { child, readySeconds, renderedSeconds: rendered ? (Date.now() - started) / 1000 : null };
}

/** Sends SIGTERM to `child` and waits for its exit (SIGKILL after 20 s); nothing when it has ended. */
export async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * The environment of a server process started on its own by a script or a test: production, on
 * 127.0.0.1:`port`, `dataDir` as DATA_DIR (the embedded database), info-level logs, one process;
 * the calling shell's DATABASE_URL, REDIS_URL, FILE_STORAGE, NODE_OPTIONS and FILE_ENCRYPTION_KEY
 * left out, so that what the shell has set does not change what is measured or tested.
 */
export function serverEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    APP_ORIGIN: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: "info",
    WEB_CONCURRENCY: "1",
  };
  for (const name of ["DATABASE_URL", "REDIS_URL", "FILE_STORAGE", "NODE_OPTIONS", "FILE_ENCRYPTION_KEY"]) {
    delete env[name];
  }
  return env;
}
