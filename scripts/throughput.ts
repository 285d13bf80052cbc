/**
 * Throughput of the public site against static baselines (docs/product/portals.md#public-site,
 * decisions.md §5). Not part of `npm test`; needs the Debian packages `nginx` and `wrk`, and a build:
 *   npm run build
 *   npm run measure:throughput -- [baseUrl] [--duration=10] [--pairs=3] [--path=/en/] [--cpu-prof[=dir]]
 * Without `baseUrl` it starts this server itself (`node --import tsx src/server/main.ts`, one process,
 * NODE_ENV=production, LOG_LEVEL=info so every request is logged, a fresh DATA_DIR in a temporary
 * folder, a free port), waits for GET /api/ready and then for its log line "public pages
 * rendered" (the background rendering of every public page after a start compresses each page at
 * brotli's highest level on libuv's threads for half a minute or more: measured meanwhile, the
 * server would share the machine with it), and stops it at the end.
 *
 * What it measures, each with wrk, ONE thread, 50 connections, `--duration` seconds (after a 2 s
 * warm-up of each server that is not counted), in `--pairs` interleaved pairs (ours, baseline, ours,
 * baseline…), reporting the median of each and their ratio:
 * - the page (`/en/` by default) as browsers ask for it (`Accept-Encoding: gzip, br`), against nginx
 *   with one worker process serving the very bytes this server sent, with the same Content-Type,
 *   Content-Encoding and Vary; goal ≥ 0.5 of nginx;
 * - the same page without compression (identity), the same way; goal ≥ 0.5 of nginx;
 * - the catalogue (`GET /api/summer-schools`, the public cohort list) against a bare Fastify 5 server
 *   (no logging, no hooks) whose one route returns the same JSON body, cached, with the same
 *   Content-Type; goal ≥ 0.6 of bare Fastify.
 * nginx runs as production runs it: one worker, access log written through a 64 KB buffer flushed
 * each second. nginx and the bare Fastify server are started by the script and stopped at the end.
 *
 * The machine's core count and load average are printed before and after, with a warning when the
 * 1-minute load average is above 1.5: on a busy machine the figures mean little.
 *
 * `--cpu-prof[=dir]` (only when the script starts the server): after the pairs, runs this server
 * once more under `node --cpu-prof` for one identity run of the page and prints the 15 frames with
 * the most self time during that run (samples outside the wrk run, such as start-up, are left out),
 * as `function file:line:column`, 1-based; tsx compiles each TypeScript file to one line, so for
 * `src/` the column tells the place. The profile is kept in `dir` (a temporary folder by default).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import { createRequire } from "node:module";
import net from "node:net";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LOAD_WARNING = 1.5;
const WARM_UP_SECONDS = 2;
const BROWSER_ENCODING = "gzip, br";

/** Command-line options: `[baseUrl] [--duration=10] [--pairs=3] [--path=/en/] [--cpu-prof[=dir]]`. */
interface Options {
  baseUrl?: string;
  durationSeconds: number;
  pairs: number;
  pagePath: string;
  cpuProfDir?: string;
}

/** Parses the command line; exits with a usage line on an unknown or invalid option. */
function parseOptions(argv: string[]): Options {
  const options: Options = { durationSeconds: 10, pairs: 3, pagePath: "/en/" };
  const usage = () => {
    console.error(
      "usage: npm run measure:throughput -- [baseUrl] [--duration=10] [--pairs=3] [--path=/en/] [--cpu-prof[=dir]]",
    );
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
    else if (!arg.startsWith("--") && !options.baseUrl) options.baseUrl = arg.replace(/\/$/, "");
    else usage();
  }
  if (!Number.isInteger(options.durationSeconds) || options.durationSeconds < 1) usage();
  if (!Number.isInteger(options.pairs) || options.pairs < 1) usage();
  if (!options.pagePath.startsWith("/")) usage();
  if (options.cpuProfDir !== undefined && options.baseUrl) {
    console.error("--cpu-prof needs the script to start the server itself (leave out baseUrl)");
    process.exit(2);
  }
  return options;
}

/** The machine's core count and load averages, with a warning when the 1-minute average is above 1.5. */
function printMachine(when: string) {
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

/** A TCP port free on 127.0.0.1 at the time of asking. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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

/** Polls `url` until it answers 200, for up to `timeoutMs`; throws if `child` exits first. */
async function waitFor(url: string, timeoutMs: number, child?: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`${url}: the process exited (${child.exitCode})`);
    try {
      if ((await rawGet(url, {})).status === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs / 1000} s`);
}

/** Sends SIGTERM and waits for the exit (SIGKILL after 20 s). */
async function stop(child: ChildProcess | undefined) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
  await exited;
  clearTimeout(timer);
}

/** One wrk run: requests per second; warns about errors and statuses other than 2xx/3xx. */
function wrk(url: string, seconds: number, headers: Record<string, string>): number {
  const headerArgs = Object.entries(headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
  const out = execFileSync("wrk", ["-t1", "-c50", `-d${seconds}s`, ...headerArgs, url], { encoding: "utf8" });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match) throw new Error(`wrk printed no rate:\n${out}`);
  const problems = out.split("\n").filter((l) => /Non-2xx|Socket errors/.test(l));
  for (const line of problems) console.log(`  WARNING ${url}: ${line.trim()}`);
  return Number(match[1]);
}

/** Starts this server (`node --import tsx src/server/main.ts`) and waits for GET /api/ready. */
async function startServer(dataDir: string, port: number, nodeFlags: string[] = []): Promise<ChildProcess> {
  const logFile = path.join(dataDir, `server-${port}.log`);
  const out = openSync(logFile, "a");
  // One process on the embedded database in a fresh DATA_DIR, whatever the calling shell set.
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
  for (const name of ["DATABASE_URL", "REDIS_URL", "FILE_STORAGE", "NODE_OPTIONS"]) delete env[name];
  const child = spawn(process.execPath, [...nodeFlags, "--import", "tsx", "src/server/main.ts"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", out, out],
  });
  await waitFor(`http://127.0.0.1:${port}/api/ready`, 180_000, child);
  const started = Date.now();
  await waitForLine(logFile, PAGES_RENDERED, 600_000, child);
  console.log(
    `This server on port ${port}, its public pages rendered ${((Date.now() - started) / 1000).toFixed(0)} s after it was ready (log lines in ${logFile})`,
  );
  return child;
}

/** What main.ts logs when every public page is rendered and compressed (`PageCache.warm`). */
const PAGES_RENDERED = '"msg":"public pages rendered"';

/** Polls `file` until it holds `text`, for up to `timeoutMs`; throws if `child` exits first. */
async function waitForLine(file: string, text: string, timeoutMs: number, child: ChildProcess) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
    if (readFileSync(file, "utf8").includes(text)) return;
    await sleep(500);
  }
  throw new Error(`${file}: no "${text}" within ${timeoutMs / 1000} s`);
}

/** nginx with one worker and a buffered access log, serving `files` (location → file, headers). */
function nginxConfig(
  dir: string,
  port: number,
  locations: Array<{ location: string; file: string; headers: http.IncomingHttpHeaders }>,
): string {
  const blocks = locations.map(({ location, file, headers }) => {
    const extra = ["content-encoding", "vary"]
      .filter((h) => headers[h])
      .map((h) => `add_header ${h} "${headers[h]}";`)
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

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const fmt = (rate: number) => `${(rate / 1000).toFixed(2)}k`;

/** A comparison: this server's URL against a baseline's, with the request headers and the goal. */
interface Comparison {
  name: string;
  ours: string;
  baseline: string;
  baselineName: string;
  headers: Record<string, string>;
  goal: number;
  rates: { ours: number[]; baseline: number[] };
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  printMachine("Before");
  const dir = mkdtempSync(path.join(tmpdir(), "throughput-"));
  chmodSync(dir, 0o755); // nginx's worker runs as another user when started by root
  const children: ChildProcess[] = [];
  let ours: ChildProcess | undefined;
  try {
    let base = options.baseUrl;
    const dataDir = path.join(dir, "data");
    if (!base) {
      if (!existsSync(path.join(ROOT, "dist", "client")) || !existsSync(path.join(ROOT, "dist", "server"))) {
        console.error("dist/ is missing: run `npm run build` first (the server would serve no pages)");
        process.exitCode = 1;
        return;
      }
      console.log("dist/ found (built by `npm run build`)");
      mkdirSync(dataDir);
      const port = await freePort();
      ours = await startServer(dataDir, port);
      base = `http://127.0.0.1:${port}`;
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
    const nginxBase = `http://127.0.0.1:${nginxPort}`;
    await waitFor(`${nginxBase}/identity`, 10_000, nginx);
    const check = await rawGet(`${nginxBase}/compressed`, { "accept-encoding": BROWSER_ENCODING });
    if (
      !check.body.equals(compressed.body) ||
      check.headers["content-encoding"] !== compressed.headers["content-encoding"]
    ) {
      throw new Error("nginx does not send the server's compressed bytes with the same Content-Encoding");
    }

    const fastifyPort = await freePort();
    children.push(
      await startBareFastify(dir, fastifyPort, catalogue.body, String(catalogue.headers["content-type"])),
    );

    const comparisons: Comparison[] = [
      {
        name: `${options.pagePath}, Accept-Encoding: ${BROWSER_ENCODING} (${encoding})`,
        ours: `${base}${options.pagePath}`,
        baseline: `${nginxBase}/compressed`,
        baselineName: "nginx, 1 worker",
        headers: { "Accept-Encoding": BROWSER_ENCODING },
        goal: 0.5,
        rates: { ours: [], baseline: [] },
      },
      {
        name: `${options.pagePath}, identity`,
        ours: `${base}${options.pagePath}`,
        baseline: `${nginxBase}/identity`,
        baselineName: "nginx, 1 worker",
        headers: { "Accept-Encoding": "identity" },
        goal: 0.5,
        rates: { ours: [], baseline: [] },
      },
      {
        name: "GET /api/summer-schools",
        ours: `${base}/api/summer-schools`,
        baseline: `http://127.0.0.1:${fastifyPort}/api/summer-schools`,
        baselineName: "bare Fastify",
        headers: {},
        goal: 0.6,
        rates: { ours: [], baseline: [] },
      },
    ];

    console.log(
      `wrk -t1 -c50 -d${options.durationSeconds}s, ${options.pairs} interleaved pairs, after a ${WARM_UP_SECONDS} s warm-up of each`,
    );
    for (const c of comparisons) {
      wrk(c.ours, WARM_UP_SECONDS, c.headers);
      wrk(c.baseline, WARM_UP_SECONDS, c.headers);
    }
    for (let pair = 1; pair <= options.pairs; pair++) {
      for (const c of comparisons) {
        c.rates.ours.push(wrk(c.ours, options.durationSeconds, c.headers));
        c.rates.baseline.push(wrk(c.baseline, options.durationSeconds, c.headers));
        console.log(
          `  pair ${pair}, ${c.name}: ours ${fmt(c.rates.ours.at(-1)!)}, ${c.baselineName} ${fmt(c.rates.baseline.at(-1)!)} requests/s`,
        );
      }
    }
    console.log("Medians:");
    for (const c of comparisons) {
      const [o, b] = [median(c.rates.ours), median(c.rates.baseline)];
      const ratio = o / b;
      console.log(
        `  ${c.name}: this server ${fmt(o)} requests/s, ${c.baselineName} ${fmt(b)} → ratio ${ratio.toFixed(2)} (goal ≥ ${c.goal}: ${ratio >= c.goal ? "met" : "NOT met"})`,
      );
    }

    if (options.cpuProfDir !== undefined && ours) {
      await stop(ours);
      const profDir = options.cpuProfDir ? path.resolve(options.cpuProfDir) : path.join(dir, "cpu-prof");
      mkdirSync(profDir, { recursive: true });
      const before = new Set(readdirSync(profDir));
      const port = await freePort();
      ours = await startServer(dataDir, port, ["--cpu-prof", `--cpu-prof-dir=${profDir}`]);
      const url = `http://127.0.0.1:${port}${options.pagePath}`;
      wrk(url, WARM_UP_SECONDS, { "Accept-Encoding": "identity" });
      const fromUs = Number(process.hrtime.bigint() / 1000n);
      const rate = wrk(url, options.durationSeconds, { "Accept-Encoding": "identity" });
      const toUs = Number(process.hrtime.bigint() / 1000n);
      console.log(`Under the profiler, ${options.pagePath} identity: ${fmt(rate)} requests/s`);
      await stop(ours);
      ours = undefined;
      const written = readdirSync(profDir).filter((f) => f.endsWith(".cpuprofile") && !before.has(f));
      if (written.length === 0) throw new Error(`no .cpuprofile written in ${profDir}`);
      printTopFrames(path.join(profDir, written[0]!), fromUs, toUs);
    }
  } finally {
    await stop(ours);
    for (const child of children.reverse()) await stop(child);
    if (options.cpuProfDir === undefined) rmSync(dir, { recursive: true, force: true });
    else console.log(`Temporary files kept in ${dir}`);
    printMachine("After");
  }
}

await main();
