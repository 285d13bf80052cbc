/**
 * Throughput of the public site against static baselines (docs/product/portals.md#public-site,
 * decisions.md §5). Not part of `npm test`; needs the Debian packages `nginx` and `wrk`, and a build:
 *   npm run build
 *   npm run measure:throughput -- [baseUrl] [--duration=10] [--pairs=3] [--path=/en/] [--cpu-prof[=dir]]
 *     [--database=pglite|postgres[=url]] [--memory-only] [--ports=FROM-TO]
 * Without `baseUrl` it starts this server itself (`scripts/serve.sh`, the compiled server as `npm start` runs it, one process,
 * NODE_ENV=production, LOG_LEVEL=info so every request is logged, MALLOC_ARENA_MAX=2 as scripts/serve.sh sets it
 * (unless the calling shell set another), a fresh DATA_DIR in a temporary
 * folder, a free port), waits for GET /api/ready (up to 300 s) and then for its log line "public pages
 * rendered" (the background rendering of every public page after a start compresses each page at
 * brotli's highest level on libuv's threads for half a minute or more: measured meanwhile, the
 * server would share the machine with it), and stops it at the end.
 *
 * What it measures, each with wrk, ONE thread, 50 connections, `--duration` seconds (after a 2 s
 * warm-up of each server that is not counted), in `--pairs` interleaved pairs (ours, baseline, ours,
 * baseline…), reporting the median of each and their ratio:
 * - the page (`/en/` by default) as browsers ask for it (`Accept-Encoding: gzip, br`), against nginx
 *   with one worker process serving the very bytes this server sent, with the same headers
 *   (Content-Type, Content-Encoding, Vary, Cache-Control, Content-Language and the security
 *   headers; nginx's own Date, ETag and Content-Length); goal ≥ 0.5 of nginx;
 * - the same page without compression (identity), the same way; goal ≥ 0.5 of nginx;
 * - the catalogue (`GET /api/summer-schools`, the public cohort list) against a bare Fastify 5 server
 *   (no logging, no hooks) whose one route returns the same JSON body, cached, with the same
 *   Content-Type; goal ≥ 0.6 of bare Fastify.
 * nginx runs as production runs it: one worker, access log written through a 64 KB buffer flushed
 * each second. nginx and the bare Fastify server are started by the script and stopped at the end.
 *
 * For the page, a third server runs in each pair, after nginx: a bare `node:http` server (one
 * process, no logging, nothing but `writeHead` and `end`) sending the same headers and bytes. It
 * is not a goal but the machine's ceiling for any Node.js server: the medians show this server's
 * rate as a share of it, and its own rate as a share of nginx's. On a machine where Node.js itself
 * serves the page at less than half of nginx's rate, the goal of 0.5 cannot be met by a Node.js
 * process, and the share of the bare server tells what this server's own work costs.
 *
 * Each run also counts the CPU time (user and system, from /proc/<pid>/stat) the serving process spent
 * (nginx's worker under its master included), divided by the requests wrk completed: printed per run
 * beside the rate and as medians, with the ratio they give (the baseline's CPU time a request over
 * this server's: the rates' ratio if each server had a core to itself). Where the machine's other
 * load makes a server's rate vary by a factor of two between runs, its CPU time a request varies by
 * about a tenth: the two readings side by side tell a change of the server from a change of the
 * machine. The goals are judged on the rates, as written.
 *
 * The machine's core count and load average are printed before and after, with a warning when the
 * 1-minute load average is above 1.5: on a busy machine the figures mean little.
 *
 * Memory (only when the script starts the server; Linux): every 250 ms the script reads the server
 * process's resident set (VmRSS in /proc/<pid>/status, plus its descendants' if it started any) and
 * prints the peak and the median per phase: start-up idle (from the spawn until the first run: the
 * migrations, the demo catalogue, the public pages rendered in the background, then 3 s idle),
 * page load (this server's runs of the page, warm-ups included), API load (its catalogue runs), and
 * idle between runs (while the baselines run); then overall. The budget of README.md#performance
 * (500 MB on the embedded database, 200 MB on PostgreSQL) is for the server under the load, so the
 * line `memory under load: peak X MB (budget Y MB) OK|OVER` takes the phases after start-up; the
 * line `memory at start-up: peak X MB, the server alone Y MB` follows it (on a new data folder the
 * embedded database's cluster is created once by a child process, counted with the server while
 * it runs: decision 044). Each phase also shows the V8 heap (used of committed)
 * and the external memory the server's own GET /metrics reported at the end of the phase; external
 * holds the Buffers (the pages kept in memory) and PGlite's WebAssembly memory. The rest of the
 * resident set is the node binary's mapped pages (the "file" part) and native memory (compiled
 * code, malloc).
 *
 * `--database=postgres[=url]`: the server runs on PostgreSQL instead of the embedded database. The
 * script creates a scratch database `throughput_<random>` on the server of `url` (by default
 * postgres://postgres@127.0.0.1:5432/postgres; the URL's own database is only used to create and
 * drop the scratch one), starts this server with DATABASE_URL pointing at it (the server migrates
 * it and seeds the demo catalogue at start, as it does the embedded one) and a random
 * FILE_ENCRYPTION_KEY, and drops it at the end. `--database=pglite` is the default.
 *
 * `--memory-only`: no nginx (not needed then; wrk is) and no bare Fastify: only this server's
 * runs, for the memory figures and the request rates without their ratios.
 * `--ports=FROM-TO`: the ports the script's servers listen on are taken from this range (the first
 * free ones) instead of any free port the system gives.
 *
 * `--cpu-prof[=dir]` (only when the script starts the server): after the pairs, runs this server
 * once more under `node --cpu-prof` for one identity run of the page, then one run of the catalogue,
 * and prints for each the 15 frames with
 * the most self time during that run (samples outside the wrk run, such as start-up, are left out),
 * as `function file:line:column`, 1-based (the server's own frames are lines of dist/node/main.js, the
 * compiled server, whose comments name each source file). The profile is kept in `dir` (a temporary
 * folder by default).
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import pg from "pg";
import { printMachine, serverEnv, sleep, startServer, stop, waitFor } from "./measure-support";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The compiled server (`npm run build`, decision 044), which `scripts/serve.sh` runs. */
const SERVER_FILE = path.join(ROOT, "dist", "node", "main.js");
const WARM_UP_SECONDS = 2;
const BROWSER_ENCODING = "gzip, br";
/** How often the server's resident set is read, in milliseconds. */
const SAMPLE_EVERY_MS = 250;
/** Seconds of idle sampled after the public pages were rendered at start-up. */
const IDLE_SECONDS = 3;
/** The memory budgets under this load, in MB of resident set (README.md#performance). */
const MEMORY_BUDGET_MB = { pglite: 500, postgres: 200 } as const;
const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const USAGE =
  "usage: npm run measure:throughput -- [baseUrl] [--duration=10] [--pairs=3] [--path=/en/] [--cpu-prof[=dir]] [--database=pglite|postgres[=url]] [--memory-only] [--ports=FROM-TO]";

/** Command-line options (see the header comment and `USAGE`). */
interface Options {
  baseUrl?: string;
  durationSeconds: number;
  pairs: number;
  pagePath: string;
  cpuProfDir?: string;
  /** The database this server runs on; `postgresUrl`: the PostgreSQL server to create the scratch database on. */
  database: "pglite" | "postgres";
  postgresUrl: string;
  memoryOnly: boolean;
  /** The range of ports to listen on, inclusive; any free port when absent. */
  ports?: { from: number; to: number };
}

/** Parses the command line; exits with a usage line on an unknown or invalid option. */
function parseOptions(argv: string[]): Options {
  const options: Options = {
    durationSeconds: 10,
    pairs: 3,
    pagePath: "/en/",
    database: "pglite",
    postgresUrl: DEFAULT_POSTGRES_URL,
    memoryOnly: false,
  };
  const usage = () => {
    console.error(USAGE);
    process.exit(2);
  };
  for (const arg of argv) {
    const [name, value] = arg.startsWith("--")
      ? [arg.split("=")[0], arg.split("=").slice(1).join("=")]
      : [arg, ""];
    if (name === "--duration") options.durationSeconds = Number(value);
    else if (name === "--pairs") options.pairs = Number(value);
    else if (name === "--path") options.pagePath = value;
    else if (name === "--cpu-prof") options.cpuProfDir = value || "";
    else if (name === "--memory-only" && !value) options.memoryOnly = true;
    else if (name === "--database" && (value === "pglite" || value === "embedded"))
      options.database = "pglite";
    else if (name === "--database" && (value === "postgres" || value.startsWith("postgres="))) {
      options.database = "postgres";
      if (value.startsWith("postgres=")) options.postgresUrl = value.slice("postgres=".length);
    } else if (name === "--ports" && /^\d+-\d+$/.test(value)) {
      const [from, to] = value.split("-").map(Number) as [number, number];
      options.ports = { from, to };
    } else if (!arg.startsWith("--") && !options.baseUrl) options.baseUrl = arg.replace(/\/$/, "");
    else usage();
  }
  if (!Number.isInteger(options.durationSeconds) || options.durationSeconds < 1) usage();
  if (!Number.isInteger(options.pairs) || options.pairs < 1) usage();
  if (!options.pagePath.startsWith("/")) usage();
  if (
    options.ports &&
    (options.ports.from < 1 || options.ports.to > 65535 || options.ports.from > options.ports.to)
  ) {
    usage();
  }
  for (const [given, name] of [
    [options.cpuProfDir !== undefined, "--cpu-prof"],
    [options.database === "postgres", "--database=postgres"],
  ] as const) {
    if (given && options.baseUrl) {
      console.error(`${name} needs the script to start the server itself (leave out baseUrl)`);
      process.exit(2);
    }
  }
  return options;
}

/** `--ports`: the range the servers' ports are taken from (any free port when null). */
let portRange: { from: number; to: number } | null = null;
/** Ports of the range already handed out (each server gets its own). */
const portsGiven = new Set<number>();

/** Listens on `port` (0: any) of 127.0.0.1 and closes again: the port, or null when it is taken. */
function tryPort(port: number): Promise<number | null> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(null));
    server.listen(port, "127.0.0.1", () => {
      const { port: bound } = server.address() as net.AddressInfo;
      server.close(() => resolve(bound));
    });
  });
}

/** A TCP port free on 127.0.0.1 at the time of asking, from `--ports` when given; throws when none is left. */
async function freePort(): Promise<number> {
  if (!portRange) {
    const port = await tryPort(0);
    if (port === null) throw new Error("no free port on 127.0.0.1");
    return port;
  }
  for (let port = portRange.from; port <= portRange.to; port++) {
    if (portsGiven.has(port) || (await tryPort(port)) === null) continue;
    portsGiven.add(port);
    return port;
  }
  throw new Error(`no free port left in ${portRange.from}-${portRange.to}`);
}

/** One GET with the raw (not decompressed) body: status, headers and bytes. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
        );
        res.on("error", reject);
      })
      .on("error", reject);
  });
}

const execFileAsync = promisify(execFile);

/** One wrk run's result: requests per second, and the server's CPU time per request when known. */
interface RunResult {
  rate: number;
  /** Microseconds of CPU time (user and system, all threads and child processes) a request. */
  cpuPerRequestUs?: number;
}

/**
 * One wrk run: requests per second; warns about errors and statuses other than 2xx/3xx. wrk runs
 * in a process of its own while this one keeps sampling the server's memory. With the serving
 * process's `pid`, also the CPU time it spent per request during the run (`cpuSeconds`): on a
 * machine whose other load changes a server's requests a second from one run to the next, the CPU
 * time each request costs moves much less.
 */
async function wrk(
  url: string,
  seconds: number,
  headers: Record<string, string>,
  pid?: number,
): Promise<RunResult> {
  const headerArgs = Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
  const cpuBefore = pid === undefined ? null : cpuSeconds(pid);
  const { stdout: out } = await execFileAsync("wrk", ["-t1", "-c50", `-d${seconds}s`, ...headerArgs, url], {
    encoding: "utf8",
  });
  const cpuAfter = pid === undefined ? null : cpuSeconds(pid);
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match) throw new Error(`wrk printed no rate:\n${out}`);
  const problems = out.split("\n").filter((l) => /Non-2xx|Socket errors/.test(l));
  for (const line of problems) console.log(`  WARNING ${url}: ${line.trim()}`);
  const requests = Number(/(\d+) requests in/.exec(out)?.[1] ?? 0);
  const result: RunResult = { rate: Number(match[1]) };
  if (cpuBefore !== null && cpuAfter !== null && requests > 0)
    result.cpuPerRequestUs = ((cpuAfter - cpuBefore) * 1e6) / requests;
  return result;
}

/** The text of /proc/<pid>/<file>; null when the process is gone. Linux only. */
function readProc(pid: number, file: string): string | null {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return null;
  }
}

/** The kernel's clock ticks a second, the unit of /proc/<pid>/stat's CPU times. */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * CPU time in seconds (user and system, all threads) used so far by `pid` and its descendants
 * (nginx's worker under its master), from /proc/<pid>/stat; null when the process is gone. Linux only.
 */
function cpuSeconds(pid: number): number | null {
  const stat = readProc(pid, "stat");
  if (stat === null) return null;
  // After the command in parentheses (which may hold spaces): utime and stime are fields 14 and 15.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  let total = (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  for (const child of childPids(pid)) total += cpuSeconds(child) ?? 0;
  return total;
}

/** The log file `startServer` writes this server's lines to. */
const serverLog = (dataDir: string, port: number) => path.join(dataDir, `server-${port}.log`);

/**
 * Starts this server (`startServer`: `scripts/serve.sh`, the compiled server with `npm start`'s
 * options, `nodeFlags` added), waits for GET /api/ready and for its public pages to be rendered
 * (up to 10 min; throws when they are not). `databaseUrl`: PostgreSQL instead of the embedded
 * database in `dataDir` (with a random file key); `onSpawn` is called with the process as soon as
 * it exists (to sample its memory from the start).
 */
async function startOurs(
  dataDir: string,
  port: number,
  nodeFlags: string[] = [],
  databaseUrl?: string,
  onSpawn?: (child: ChildProcess) => void,
): Promise<ChildProcess> {
  const logFile = serverLog(dataDir, port);
  // One process on the embedded database in a fresh DATA_DIR, whatever the calling shell set.
  const env = serverEnv(port, dataDir);
  if (databaseUrl) {
    env.DATABASE_URL = databaseUrl;
    env.FILE_ENCRYPTION_KEY = randomBytes(32).toString("base64");
  }
  const started = await startServer({
    root: ROOT,
    port,
    env,
    logFile,
    renderedWithinMs: 600_000,
    nodeFlags,
    ...(onSpawn ? { onSpawn } : {}),
  });
  if (started.renderedSeconds === null) {
    await stop(started.child);
    throw new Error(`${logFile}: the public pages were not rendered within 600 s`);
  }
  console.log(
    `This server on port ${port}, pid ${started.child.pid}, ${databaseUrl ? "PostgreSQL" : "embedded database"}, MALLOC_ARENA_MAX=${env.MALLOC_ARENA_MAX ?? "2 (scripts/serve.sh)"}, its public pages rendered ${(started.renderedSeconds - started.readySeconds).toFixed(0)} s after it was ready (log lines in ${logFile})`,
  );
  return started.child;
}

/**
 * Headers nginx writes itself (its own Content-Type from `default_type`, Content-Length, Date, the
 * connection's, its own ETag): every other header of this server's answer is added to nginx's.
 */
const NGINX_OWN_HEADERS = new Set([
  "content-type",
  "content-length",
  "date",
  "connection",
  "keep-alive",
  "etag",
  "last-modified",
  "transfer-encoding",
  "accept-ranges",
  "server",
]);

/**
 * The headers of this server's answer that nginx is told to send too (`add_header … always`): the
 * security headers, Cache-Control, Vary, Content-Language, Content-Encoding. nginx then answers
 * with the same headers and body, as a production nginx serving these pages would, so that the
 * two servers are compared on the same bytes.
 */
function copiedHeaders(headers: http.IncomingHttpHeaders): Array<[string, string]> {
  return Object.entries(headers)
    .filter(([name]) => !NGINX_OWN_HEADERS.has(name))
    .map(([name, value]) => {
      const text = Array.isArray(value) ? value.join(", ") : String(value);
      if (/["$\\]/.test(text)) throw new Error(`header ${name} cannot be written in nginx's configuration`);
      return [name, text];
    });
}

/** nginx with one worker and a buffered access log, serving `files` (location → file, this server's headers). */
function nginxConfig(
  dir: string,
  port: number,
  locations: Array<{ location: string; file: string; headers: http.IncomingHttpHeaders }>,
): string {
  const blocks = locations.map(({ location, file, headers }) => {
    const extra = copiedHeaders(headers)
      .map(([name, value]) => `add_header ${name} "${value}" always;`)
      .join(" ");
    return `    location = ${location} { default_type "${headers["content-type"]}"; ${extra} try_files /${file} =404; }`;
  });
  const file = path.join(dir, "nginx.conf");
  writeFileSync(
    file,
    `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log combined buffer=64k flush=1s;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  sendfile on; tcp_nopush on; keepalive_requests 100000;
  server {
    listen 127.0.0.1:${port};
    root ${dir};
${blocks.join("\n")}
  }
}
`,
  );
  return file;
}

/** A bare Fastify 5 server in a process of its own: one GET route returning `body` with `contentType`. */
async function startBareFastify(
  dir: string,
  port: number,
  body: Buffer,
  contentType: string,
): Promise<ChildProcess> {
  const fastifyUrl = pathToFileURL(createRequire(path.join(ROOT, "package.json")).resolve("fastify")).href;
  writeFileSync(path.join(dir, "catalogue.json"), body);
  const file = path.join(dir, "bare-fastify.mjs");
  writeFileSync(
    file,
    `import { readFileSync } from "node:fs";
import Fastify from ${JSON.stringify(fastifyUrl)};
const cached = readFileSync(${JSON.stringify(path.join(dir, "catalogue.json"))}, "utf8");
const app = Fastify({ logger: false });
app.get("/api/summer-schools", async (_request, reply) => {
  reply.header("content-type", ${JSON.stringify(contentType)});
  return cached;
});
process.on("SIGTERM", () => app.close().then(() => process.exit(0)));
await app.listen({ port: ${port}, host: "127.0.0.1" });
`,
  );
  const child = spawn(process.execPath, [file], { stdio: "inherit" });
  await waitFor(`http://127.0.0.1:${port}/api/summer-schools`, 30_000, child);
  return child;
}

/**
 * A bare `node:http` server in a process of its own: `/compressed` and `/identity` answer with
 * `writeHead` and `end`, with this server's headers (without Date, Connection, Keep-Alive and
 * Transfer-Encoding, which Node.js writes itself) and bytes. No logging, no timeouts, no hooks.
 */
async function startBareNode(
  dir: string,
  port: number,
  answers: Record<"compressed" | "identity", { body: Buffer; headers: http.IncomingHttpHeaders }>,
): Promise<ChildProcess> {
  const nodeOwn = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
  const table: Record<string, { file: string; headers: Record<string, string> }> = {};
  for (const [name, { body, headers }] of Object.entries(answers)) {
    const file = path.join(dir, `bare-node.${name}`);
    writeFileSync(file, body);
    const kept = Object.entries(headers).filter(([header]) => !nodeOwn.has(header));
    table[`/${name}`] = {
      file,
      headers: Object.fromEntries(
        kept.map(([header, value]) => [header, Array.isArray(value) ? value.join(", ") : String(value)]),
      ),
    };
  }
  const file = path.join(dir, "bare-node.mjs");
  writeFileSync(
    file,
    `import { readFileSync } from "node:fs";
import http from "node:http";
const answers = new Map(Object.entries(${JSON.stringify(table)}).map(([path, { file, headers }]) => [path, { headers, body: readFileSync(file) }]));
const server = http.createServer((request, response) => {
  const answer = answers.get(request.url);
  if (!answer) { response.writeHead(404); response.end(); return; }
  response.writeHead(200, answer.headers);
  response.end(answer.body);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
server.listen(${port}, "127.0.0.1");
`,
  );
  const child = spawn(process.execPath, [file], { stdio: "inherit" });
  await waitFor(`http://127.0.0.1:${port}/identity`, 30_000, child);
  return child;
}

/** The 15 frames with the most self time in the samples taken between `fromUs` and `toUs` (monotonic µs). */
function printTopFrames(profileFile: string, fromUs: number, toUs: number) {
  interface ProfileNode {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  }
  const profile = JSON.parse(readFileSync(profileFile, "utf8")) as {
    nodes: ProfileNode[];
    startTime: number;
    samples: number[];
    timeDeltas: number[];
  };
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const shorten = (url: string) => {
    const inModules = url.lastIndexOf("node_modules/");
    if (inModules >= 0) return url.slice(inModules);
    return url.replace(`${pathToFileURL(ROOT).href}/`, "").replace(`${ROOT}/`, "");
  };
  const collect = (windowed: boolean) => {
    const selfTime = new Map<string, number>();
    let total = 0;
    let at = profile.startTime;
    profile.samples.forEach((id, i) => {
      const delta = profile.timeDeltas[i] ?? 0;
      at += delta;
      if (windowed && (at < fromUs || at > toUs)) return;
      const frame = nodes.get(id)!.callFrame;
      const where = frame.url
        ? ` ${shorten(frame.url)}:${frame.lineNumber + 1}:${frame.columnNumber + 1}`
        : "";
      const key = `${frame.functionName || "(anonymous)"}${where}`;
      selfTime.set(key, (selfTime.get(key) ?? 0) + delta);
      total += delta;
    });
    return { selfTime, total };
  };
  let { selfTime, total } = collect(true);
  if (total === 0) {
    console.log("(no samples fell within the wrk run; the whole profile, start-up included)");
    ({ selfTime, total } = collect(false));
  }
  console.log(`Top 15 self-time frames (${(total / 1e6).toFixed(1)} s sampled; ${profileFile}):`);
  const top = [...selfTime.entries()].sort((a, b) => b[1] - a[1]).slice(0, 15);
  for (const [key, time] of top) {
    console.log(
      `  ${((100 * time) / total).toFixed(1).padStart(5)}%  ${(time / 1000).toFixed(0).padStart(6)} ms  ${key}`,
    );
  }
}

/** A process's resident set in kB (from /proc/<pid>/status): in all, anonymous, file-backed, shared. */
interface Rss {
  total: number;
  /** The process's own resident set, without its descendants'. */
  own: number;
  anon: number;
  file: number;
  shmem: number;
}

/** The pids of a process's children (all its threads'), from /proc; none when it is gone. */
function childPids(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) => {
      const text = readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      return text ? text.split(/\s+/).map(Number) : [];
    });
  } catch {
    return [];
  }
}

/**
 * The resident set of `pid` and of its descendants, summed (pages shared between them are counted
 * once per process); null when the process is gone. Linux only.
 */
function readRss(pid: number): Rss | null {
  const status = readProc(pid, "status");
  if (status === null) return null;
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  const rss: Rss = {
    total: field("VmRSS"),
    own: field("VmRSS"),
    anon: field("RssAnon"),
    file: field("RssFile"),
    shmem: field("RssShmem"),
  };
  for (const child of childPids(pid)) {
    const more = readRss(child);
    if (!more) continue;
    rss.total += more.total;
    rss.anon += more.anon;
    rss.file += more.file;
    rss.shmem += more.shmem;
  }
  return rss;
}

const mb = (kb: number) => (kb / 1024).toFixed(0);

/** The server's own account of its memory (GET /metrics, prom-client's defaults), in bytes. */
interface HeapReport {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
}

/** Reads GET /metrics of the server at `base` (answered to the machine itself); null when it does not answer. */
async function heapReport(base: string): Promise<HeapReport | null> {
  try {
    const res = await rawGet(`${base}/metrics`, {});
    if (res.status !== 200) return null;
    const text = res.body.toString("utf8");
    const value = (name: string) =>
      Number(new RegExp(`^${name} ([\\d.e+]+)`, "m").exec(text)?.[1] ?? Number.NaN);
    return {
      rss: value("process_resident_memory_bytes"),
      heapUsed: value("nodejs_heap_size_used_bytes"),
      heapTotal: value("nodejs_heap_size_total_bytes"),
      external: value("nodejs_external_memory_bytes"),
    };
  } catch {
    return null;
  }
}

const PHASES = ["start-up idle", "page load", "API load", "idle between runs"] as const;
type Phase = (typeof PHASES)[number];

/**
 * Samples a process's resident set every SAMPLE_EVERY_MS while it runs, each sample marked with the
 * phase set at the time (`phase`), and the server's heap report at the end of each phase (`note`).
 */
class MemorySampler {
  phase: Phase = "start-up idle";
  private readonly samples: Array<{ phase: Phase; rss: Rss }> = [];
  private readonly reports = new Map<Phase, HeapReport>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.sample();
    this.timer = setInterval(() => this.sample(), SAMPLE_EVERY_MS);
  }

  private sample() {
    const rss = readRss(this.pid);
    if (rss) this.samples.push({ phase: this.phase, rss });
  }

  /** Keeps the server's heap report for the current phase (the last one given wins). */
  async note(base: string) {
    const report = await heapReport(base);
    if (report) this.reports.set(this.phase, report);
  }

  stop() {
    clearInterval(this.timer);
  }

  /**
   * Prints the peak and median per phase and overall, the peak under load (every phase after
   * start-up) against `budgetMb`, and the peak at start-up with and without the server's child
   * processes; true when the peak under load is within the budget.
   */
  print(budgetMb: number): boolean {
    const line = (name: string, samples: Array<{ rss: Rss }>, report?: HeapReport) => {
      const totals = samples.map((s) => s.rss.total);
      const peak = samples.reduce((a, b) => (b.rss.total > a.rss.total ? b : a));
      const heap = report
        ? `; at its end heap ${(report.heapUsed / 2 ** 20).toFixed(0)} of ${(report.heapTotal / 2 ** 20).toFixed(0)} MB, external ${(report.external / 2 ** 20).toFixed(0)} MB`
        : "";
      console.log(
        `  ${name}: peak ${mb(peak.rss.total)} MB (anonymous ${mb(peak.rss.anon)}, file ${mb(peak.rss.file)}, shared ${mb(peak.rss.shmem)}), median ${mb(median(totals))} MB, ${samples.length} samples${heap}`,
      );
    };
    console.log(`Resident memory of this server (every ${SAMPLE_EVERY_MS} ms, /proc/${this.pid}/status):`);
    for (const phase of PHASES) {
      const samples = this.samples.filter((s) => s.phase === phase);
      if (samples.length > 0) line(phase, samples, this.reports.get(phase));
    }
    if (this.samples.length === 0) {
      console.log("memory: no sample taken (no /proc?)");
      return true;
    }
    line("overall", this.samples);
    const loaded = this.samples.filter((s) => s.phase !== "start-up idle");
    const startUp = this.samples.filter((s) => s.phase === "start-up idle");
    const peakOf = (samples: Array<{ rss: Rss }>, of: "total" | "own") =>
      Math.max(0, ...samples.map((s) => s.rss[of]));
    const peak = peakOf(loaded, "total");
    const ok = loaded.length > 0 && peak / 1024 <= budgetMb;
    console.log(
      loaded.length > 0
        ? `memory under load: peak ${mb(peak)} MB (budget ${budgetMb} MB) ${ok ? "OK" : "OVER"}`
        : "memory under load: no sample taken",
    );
    if (startUp.length > 0) {
      console.log(
        `memory at start-up: peak ${mb(peakOf(startUp, "total"))} MB, the server alone ${mb(peakOf(startUp, "own"))} MB`,
      );
    }
    return ok;
  }
}

/** A scratch database on the PostgreSQL server of `adminUrl`: its URL, and `drop` to remove it. */
async function createScratchDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `throughput_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  console.log(`Scratch database ${name} on ${url.host}`);
  return {
    url: url.href,
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
        console.log(`Scratch database ${name} dropped`);
      } finally {
        await client.end();
      }
    },
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (rate: number) => `${(rate / 1000).toFixed(2)}k`;

/**
 * A comparison: this server's URL against a baseline's (none with `--memory-only`), with the
 * request headers, the goal and the memory phase its runs belong to.
 */
interface Comparison {
  name: string;
  ours: string;
  phase: Phase;
  /** `pid`: the process (and its descendants) whose CPU time is counted. */
  baseline?: { url: string; name: string; pid?: number };
  /** Not a goal: a bare node:http server sending the same bytes (the machine's ceiling for Node.js). */
  reference?: { url: string; name: string; pid?: number };
  headers: Record<string, string>;
  goal: number;
  rates: { ours: number[]; baseline: number[]; reference: number[] };
  /** CPU microseconds a request, per run (`RunResult.cpuPerRequestUs`), where the pid was known. */
  cpu: { ours: number[]; baseline: number[]; reference: number[] };
}

/**
 * The medians of the runs' CPU time a request (`RunResult.cpuPerRequestUs`) and the ratio they
 * give: the baseline's CPU time a request over this server's, the ratio of requests a second the
 * two would reach each with a core to itself. The machine's other load moves it less than the
 * rates' ratio. Null when this server's CPU time was not measured (a `baseUrl` given).
 */
function cpuMedians(c: Comparison): string | null {
  if (c.cpu.ours.length === 0) return null;
  const o = median(c.cpu.ours);
  let text = `CPU time a request (medians): this server ${o.toFixed(1)} µs`;
  if (c.baseline && c.cpu.baseline.length > 0) {
    const b = median(c.cpu.baseline);
    text += `, ${c.baseline.name} ${b.toFixed(1)} µs → ratio by CPU time ${(b / o).toFixed(2)}`;
  }
  if (c.reference && c.cpu.reference.length > 0) {
    const r = median(c.cpu.reference);
    text += `; ${c.reference.name} ${r.toFixed(1)} µs, this server at ${(r / o).toFixed(2)} of it`;
  }
  return text;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  portRange = options.ports ?? null;
  printMachine("Before");
  const dir = mkdtempSync(path.join(tmpdir(), "throughput-"));
  chmodSync(dir, 0o755); // nginx's worker runs as another user when started by root
  const children: ChildProcess[] = [];
  let ours: ChildProcess | undefined;
  // Set when the server process exists (startServer's onSpawn), read after the runs.
  const memory: { sampler?: MemorySampler } = {};
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  try {
    let base = options.baseUrl;
    const dataDir = path.join(dir, "data");
    if (!base) {
      if (
        !existsSync(path.join(ROOT, "dist", "client")) ||
        !existsSync(path.join(ROOT, "dist", "server")) ||
        !existsSync(SERVER_FILE)
      ) {
        console.error("dist/ is missing: run `npm run build` first (the server would serve no pages)");
        process.exitCode = 1;
        return;
      }
      console.log("dist/ found (built by `npm run build`)");
      mkdirSync(dataDir);
      if (options.database === "postgres") scratch = await createScratchDatabase(options.postgresUrl);
      const port = await freePort();
      ours = await startOurs(dataDir, port, [], scratch?.url, (child) => {
        if (child.pid) memory.sampler = new MemorySampler(child.pid);
      });
      base = `http://127.0.0.1:${port}`;
      // The start-up's idle phase ends a few idle seconds after the pages rendered in the background
      // (`startOurs` waited for them).
      await sleep(IDLE_SECONDS * 1000);
      await memory.sampler?.note(base);
    }

    // What this server sends: the page both ways, and the catalogue's JSON.
    const compressed = await rawGet(`${base}${options.pagePath}`, { "accept-encoding": BROWSER_ENCODING });
    const identity = await rawGet(`${base}${options.pagePath}`, { "accept-encoding": "identity" });
    const catalogue = await rawGet(`${base}/api/summer-schools`, {});
    for (const [what, res] of [
      [options.pagePath, compressed],
      [`${options.pagePath} (identity)`, identity],
      ["/api/summer-schools", catalogue],
    ] as const) {
      if (res.status !== 200) throw new Error(`${what} answered ${res.status}, not 200`);
    }
    const encoding = String(compressed.headers["content-encoding"] ?? "identity");
    console.log(
      `Page ${options.pagePath}: ${identity.body.length} bytes identity; asked "${BROWSER_ENCODING}": ${compressed.body.length} bytes, Content-Encoding ${encoding}`,
    );
    console.log(
      `Catalogue /api/summer-schools: ${catalogue.body.length} bytes, ${catalogue.headers["content-type"]}${catalogue.headers["content-encoding"] ? `, ${catalogue.headers["content-encoding"]}` : ""}`,
    );

    let nginxBase = "";
    let fastifyBase = "";
    let bareNodeBase = "";
    const pids: { nginx?: number; fastify?: number; bareNode?: number } = {};
    if (!options.memoryOnly) {
      // nginx serving the same bytes with the same headers.
      writeFileSync(path.join(dir, "page.compressed"), compressed.body);
      writeFileSync(path.join(dir, "page.identity"), identity.body);
      const nginxPort = await freePort();
      const conf = nginxConfig(dir, nginxPort, [
        { location: "/compressed", file: "page.compressed", headers: compressed.headers },
        { location: "/identity", file: "page.identity", headers: identity.headers },
      ]);
      const nginx = spawn(
        "nginx",
        ["-p", dir, "-e", path.join(dir, "error.log"), "-c", conf, "-g", "daemon off;"],
        {
          stdio: "inherit",
        },
      );
      children.push(nginx);
      pids.nginx = nginx.pid;
      nginxBase = `http://127.0.0.1:${nginxPort}`;
      await waitFor(`${nginxBase}/identity`, 10_000, nginx);
      const check = await rawGet(`${nginxBase}/compressed`, { "accept-encoding": BROWSER_ENCODING });
      if (
        !check.body.equals(compressed.body) ||
        check.headers["content-encoding"] !== compressed.headers["content-encoding"]
      ) {
        throw new Error("nginx does not send the server's compressed bytes with the same Content-Encoding");
      }
      for (const [name, value] of copiedHeaders(compressed.headers)) {
        if (String(check.headers[name]) !== value)
          throw new Error(`nginx does not send the server's ${name} header`);
      }

      const fastifyPort = await freePort();
      const fastify = await startBareFastify(
        dir,
        fastifyPort,
        catalogue.body,
        String(catalogue.headers["content-type"]),
      );
      children.push(fastify);
      pids.fastify = fastify.pid;
      fastifyBase = `http://127.0.0.1:${fastifyPort}`;

      const bareNodePort = await freePort();
      const bareNode = await startBareNode(dir, bareNodePort, { compressed, identity });
      children.push(bareNode);
      pids.bareNode = bareNode.pid;
      bareNodeBase = `http://127.0.0.1:${bareNodePort}`;
      const bare = await rawGet(`${bareNodeBase}/compressed`, { "accept-encoding": BROWSER_ENCODING });
      if (!bare.body.equals(compressed.body))
        throw new Error("the bare node:http server does not send the server's compressed bytes");
    }
    const baseline = (url: string, name: string, pid: number | undefined) =>
      options.memoryOnly ? undefined : { url, name, ...(pid === undefined ? {} : { pid }) };
    const noFigures = () => ({ ours: [], baseline: [], reference: [] });

    const comparisons: Comparison[] = [
      {
        name: `${options.pagePath}, Accept-Encoding: ${BROWSER_ENCODING} (${encoding})`,
        ours: `${base}${options.pagePath}`,
        phase: "page load",
        baseline: baseline(`${nginxBase}/compressed`, "nginx, 1 worker", pids.nginx),
        reference: baseline(`${bareNodeBase}/compressed`, "bare node:http", pids.bareNode),
        headers: { "Accept-Encoding": BROWSER_ENCODING },
        goal: 0.5,
        rates: noFigures(),
        cpu: noFigures(),
      },
      {
        name: `${options.pagePath}, identity`,
        ours: `${base}${options.pagePath}`,
        phase: "page load",
        baseline: baseline(`${nginxBase}/identity`, "nginx, 1 worker", pids.nginx),
        reference: baseline(`${bareNodeBase}/identity`, "bare node:http", pids.bareNode),
        headers: { "Accept-Encoding": "identity" },
        goal: 0.5,
        rates: noFigures(),
        cpu: noFigures(),
      },
      {
        name: "GET /api/summer-schools",
        ours: `${base}/api/summer-schools`,
        phase: "API load",
        baseline: baseline(`${fastifyBase}/api/summer-schools`, "bare Fastify", pids.fastify),
        headers: {},
        goal: 0.6,
        rates: noFigures(),
        cpu: noFigures(),
      },
    ];

    /** One run against this server, its samples marked with the comparison's phase. */
    const runOurs = async (c: Comparison, seconds: number) => {
      const sampler = memory.sampler;
      if (sampler) sampler.phase = c.phase;
      const result = await wrk(c.ours, seconds, c.headers, ours?.pid);
      if (sampler) {
        await sampler.note(base);
        sampler.phase = "idle between runs";
      }
      return result;
    };
    /** Keeps a run's figures in `into` (its rate, and its CPU time a request when measured). */
    const keep = (c: Comparison, into: "ours" | "baseline" | "reference", result: RunResult) => {
      c.rates[into].push(result.rate);
      if (result.cpuPerRequestUs !== undefined) c.cpu[into].push(result.cpuPerRequestUs);
    };
    /** " (41.9 µs)": the CPU time a request of the last run of `into`, when it was measured. */
    const cpuText = (c: Comparison, into: "ours" | "baseline" | "reference", runs: number) =>
      c.cpu[into].length === runs ? ` (${c.cpu[into].at(-1)!.toFixed(1)} µs)` : "";

    console.log(
      `wrk -t1 -c50 -d${options.durationSeconds}s, ${options.pairs} ${options.memoryOnly ? "rounds (no baselines)" : "interleaved pairs"}, after a ${WARM_UP_SECONDS} s warm-up of each`,
    );
    for (const c of comparisons) {
      await runOurs(c, WARM_UP_SECONDS);
      if (c.baseline) await wrk(c.baseline.url, WARM_UP_SECONDS, c.headers);
      if (c.reference) await wrk(c.reference.url, WARM_UP_SECONDS, c.headers);
    }
    for (let pair = 1; pair <= options.pairs; pair++) {
      for (const c of comparisons) {
        keep(c, "ours", await runOurs(c, options.durationSeconds));
        const ourText = `ours ${fmt(c.rates.ours.at(-1)!)}${cpuText(c, "ours", pair)}`;
        if (c.baseline) {
          keep(c, "baseline", await wrk(c.baseline.url, options.durationSeconds, c.headers, c.baseline.pid));
          if (c.reference)
            keep(
              c,
              "reference",
              await wrk(c.reference.url, options.durationSeconds, c.headers, c.reference.pid),
            );
          const reference = c.reference
            ? `, ${c.reference.name} ${fmt(c.rates.reference.at(-1)!)}${cpuText(c, "reference", pair)}`
            : "";
          console.log(
            `  pair ${pair}, ${c.name}: ${ourText}, ${c.baseline.name} ${fmt(c.rates.baseline.at(-1)!)}${cpuText(c, "baseline", pair)}${reference} requests/s (CPU time a request)`,
          );
        } else {
          console.log(`  round ${pair}, ${c.name}: ${ourText} requests/s (CPU time a request)`);
        }
      }
    }
    console.log("Medians:");
    for (const c of comparisons) {
      const o = median(c.rates.ours);
      if (!c.baseline) {
        console.log(`  ${c.name}: this server ${fmt(o)} requests/s`);
        continue;
      }
      const b = median(c.rates.baseline);
      const ratio = o / b;
      console.log(
        `  ${c.name}: this server ${fmt(o)} requests/s, ${c.baseline.name} ${fmt(b)} → ratio ${ratio.toFixed(2)} (goal ≥ ${c.goal}: ${ratio >= c.goal ? "met" : "NOT met"})`,
      );
      if (c.reference) {
        const r = median(c.rates.reference);
        console.log(
          `    ${c.reference.name} ${fmt(r)} requests/s, ${(r / b).toFixed(2)} of ${c.baseline.name} (the ceiling of a Node.js process here); this server at ${(o / r).toFixed(2)} of it`,
        );
      }
      const cpu = cpuMedians(c);
      if (cpu) console.log(`    ${cpu}`);
    }

    if (memory.sampler) {
      memory.sampler.stop();
      memory.sampler.print(MEMORY_BUDGET_MB[options.database]);
    } else {
      console.log("memory: not measured (the script did not start the server)");
    }

    if (options.cpuProfDir !== undefined && ours) {
      await stop(ours);
      const profDir = options.cpuProfDir ? path.resolve(options.cpuProfDir) : path.join(dir, "cpu-prof");
      mkdirSync(profDir, { recursive: true });
      const before = new Set(readdirSync(profDir));
      const port = await freePort();
      ours = await startOurs(dataDir, port, ["--cpu-prof", `--cpu-prof-dir=${profDir}`], scratch?.url);
      // One window per load, the page's (identity) then the catalogue's, in one profile.
      const windows: Array<{ label: string; fromUs: number; toUs: number }> = [];
      for (const [label, url, headers] of [
        [
          `${options.pagePath} identity`,
          `http://127.0.0.1:${port}${options.pagePath}`,
          { "Accept-Encoding": "identity" },
        ],
        ["GET /api/summer-schools", `http://127.0.0.1:${port}/api/summer-schools`, {}],
      ] as const) {
        await wrk(url, WARM_UP_SECONDS, headers);
        const fromUs = Number(process.hrtime.bigint() / 1000n);
        const { rate } = await wrk(url, options.durationSeconds, headers);
        const toUs = Number(process.hrtime.bigint() / 1000n);
        console.log(`Under the profiler, ${label}: ${fmt(rate)} requests/s`);
        windows.push({ label, fromUs, toUs });
      }
      await stop(ours);
      ours = undefined;
      const written = readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
      if (written.length === 0) throw new Error(`no .cpuprofile written in ${profDir}`);
      for (const { label, fromUs, toUs } of windows) {
        console.log(`${label}:`);
        printTopFrames(path.join(profDir, written[0]!), fromUs, toUs);
      }
    }
  } finally {
    memory.sampler?.stop();
    await stop(ours);
    for (const child of children.reverse()) await stop(child);
    await scratch
      ?.drop()
      .catch((err) => console.log(`WARNING: the scratch database was not dropped: ${err}`));
    if (options.cpuProfDir === undefined) rmSync(dir, { recursive: true, force: true });
    else console.log(`Temporary files kept in ${dir}`);
    printMachine("After");
  }
}

await main();
