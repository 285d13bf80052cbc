/**
 * Throughput of a prerendered public page against nginx serving the same bytes from disk
 * (docs/product/portals.md#public-site: goal ≥ 0.5 of nginx, with security headers and request logging on).
 * Not part of `npm test`; needs the Debian packages `wrk` and `nginx`, and a running server:
 *   npm run serve            # in another terminal, LOG_LEVEL=info to keep request logging on
 *   npm run measure:throughput -- [baseUrl] [path]
 * nginx logs every request as production runs it, to a buffered access log (64 KB, flushed each
 * second). Every server gets the same load (wrk, 2 threads, 50 connections, 10 s, no compression asked),
 * one after the other, three rounds; the median of each is reported. nginx runs with one worker
 * process and with one per core; compare the latter with this server started with
 * WEB_CONCURRENCY=auto (decision 011). On a machine busy with other work the figures mean little.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import path from "node:path";

const base = process.argv[2] ?? "http://localhost:3000";
const pagePath = process.argv[3] ?? "/";
const nginxPort = 8089;

function wrk(url: string): number {
  const out = execFileSync("wrk", ["-t2", "-c50", "-d10s", "--latency", url], { encoding: "utf8" });
  const match = /Requests\/sec:\s+([\d.]+)/.exec(out);
  if (!match) throw new Error(`wrk printed no rate:\n${out}`);
  return Number(match[1]);
}

const res = await fetch(`${base}${pagePath}`, { headers: { "accept-encoding": "identity" } });
const body = Buffer.from(await res.arrayBuffer());
const dir = mkdtempSync(path.join(tmpdir(), "throughput-"));
writeFileSync(path.join(dir, "index.html"), body);
const nginxConf = (workers: number) => {
  const file = path.join(dir, `nginx-${workers}.conf`);
  writeFileSync(
    file,
    `worker_processes ${workers};
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  access_log ${dir}/access.log combined buffer=64k flush=1s;
  client_body_temp_path ${dir}; proxy_temp_path ${dir}; fastcgi_temp_path ${dir}; uwsgi_temp_path ${dir}; scgi_temp_path ${dir};
  server {
    listen 127.0.0.1:${nginxPort};
    root ${dir};
    location / { try_files /index.html =404; default_type text/html; }
  }
}
`,
  );
  return file;
};

/** Requests per second of nginx with `workers` worker processes serving the page's bytes. */
async function nginxRate(workers: number): Promise<number> {
  const nginx = spawn("nginx", ["-c", nginxConf(workers), "-g", "daemon off;"], { stdio: "inherit" });
  await new Promise((r) => setTimeout(r, 500));
  try {
    return wrk(`http://127.0.0.1:${nginxPort}/`);
  } finally {
    nginx.kill();
    await new Promise((r) => setTimeout(r, 500));
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const cores = availableParallelism();
const rounds = { ours: [] as number[], one: [] as number[], all: [] as number[] };
console.log(`Page ${pagePath}: ${(body.length / 1024).toFixed(1)} KB uncompressed; ${cores} cores`);
for (let round = 0; round < 3; round++) {
  rounds.ours.push(wrk(`${base}${pagePath}`));
  rounds.one.push(await nginxRate(1));
  rounds.all.push(await nginxRate(cores));
}
const [ours, one, all] = [median(rounds.ours), median(rounds.one), median(rounds.all)];
console.log(
  `This server: ${ours.toFixed(0)} requests/s (rounds: ${rounds.ours.map((r) => r.toFixed(0)).join(", ")})`,
);
console.log(`nginx, 1 worker: ${one.toFixed(0)} requests/s → ratio ${(ours / one).toFixed(2)}`);
console.log(
  `nginx, ${cores} workers: ${all.toFixed(0)} requests/s → ratio ${(ours / all).toFixed(2)} (goal ≥ 0.5)`,
);
