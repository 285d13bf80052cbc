import cluster, { type Worker } from "node:cluster";
import { randomBytes } from "node:crypto";
import { todayIso } from "../shared/age";
import { openDatabase } from "./db/client";
import { seedDemoCatalogue } from "./db/seed";
import type { Env } from "./env";
import { SHUTDOWN_DEADLINE_MS } from "./lib/graceful";
import { createFileStorage, prepareFileStorage } from "./modules/files/storage";
import { servePrimaryMetrics } from "./modules/ops/cluster-metrics";

/** Environment variable the primary sets on the one worker that runs the background jobs. */
export const JOBS_WORKER_VARIABLE = "HSS_RUNS_JOBS";
/**
 * Environment variable that carries the offline payment provider's secret, the same in every
 * worker: it signs the simulated checkout's events and derives session ids from idempotency keys,
 * so a retried checkout gets the same session whichever worker answers.
 */
export const OFFLINE_SECRET_VARIABLE = "HSS_OFFLINE_WEBHOOK_SECRET";

/** A worker that dies sooner than this after it started counts as a failed start. */
const QUICK_EXIT_MS = 10_000;
/** After this many failed starts in a row the primary gives up and exits. */
const MAX_FAILED_STARTS = 5;
/** Workers that have not exited this long after SIGTERM are killed (they stop their own requests sooner). */
const SHUTDOWN_GRACE_MS = SHUTDOWN_DEADLINE_MS + 2_000;

interface PrimaryLog {
  info(msg: string): void;
  error(msg: string): void;
}

/**
 * The primary process of a server with several processes (WEB_CONCURRENCY > 1, decision 011).
 * It prepares what must happen once: migrations, the demo catalogue, the passport encryption key
 * in DATA_DIR (when FILE_ENCRYPTION_KEY is not set), and the move of files kept on disk into the
 * database (decision 012). Then it starts WEB_CONCURRENCY workers that share the port (each
 * accepts its own connections, see below). Exactly one worker runs the background jobs (e-mail
 * sending, payment reconciliation, the sweep of DATA_DIR/files). All workers share the offline
 * payment provider's secret.
 * A worker that dies is replaced, in the same role. After five failed starts in a row the
 * primary exits with status 1. SIGTERM or SIGINT stops every worker gracefully (killed after
 * 10 s), then the primary exits 0.
 *
 * Connections: each worker accepts its own from the shared listening socket (SCHED_NONE), rather
 * than the primary accepting them and handing each to a worker (node:cluster's round-robin
 * default). With round-robin, a connection handed to a worker that dies before it acknowledged
 * it stays open in the primary and is never answered nor closed: its client waits until it gives
 * up (decision 013; nodejs/node-v0.x-archive#7006). With SCHED_NONE a worker that dies takes only
 * the connections it had accepted with it, which the kernel closes, so their clients get an
 * error at once, and the connections waiting to be accepted go to the other workers.
 *
 * Metrics (decision 013): a worker asked for `/metrics` asks the primary, which sums every
 * worker's registries and adds its own `hss_worker_exits_total` (workers that died other than
 * by a shutdown); see modules/ops/cluster-metrics.ts.
 */
export async function runPrimary(env: Env, log: PrimaryLog): Promise<void> {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  try {
    if (env.SEED_DEMO) await seedDemoCatalogue(database.db, todayIso());
    // Creating the storage also generates the key file once, when no key is configured.
    await prepareFileStorage(createFileStorage(database.db, env), log);
  } finally {
    await database.close();
  }

  cluster.schedulingPolicy = cluster.SCHED_NONE;

  const { workerExits } = servePrimaryMetrics();

  let stopping = false;
  let failedStarts = 0;
  const started = new Map<Worker, { jobs: boolean; at: number }>();

  // One secret for every process (and, when set, for every machine: OFFLINE_WEBHOOK_SECRET).
  const offlineSecret =
    env.OFFLINE_WEBHOOK_SECRET ?? `whsec_offline_${randomBytes(24).toString("base64url")}`;
  const fork = (jobs: boolean) => {
    const worker = cluster.fork({
      // glibc's malloc with two arenas, unless the operator chose: the threads that compress pages
      // otherwise keep arenas of freed memory (~100 MB per process under load; decision 043).
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? "2",
      [OFFLINE_SECRET_VARIABLE]: offlineSecret,
      ...(jobs ? { [JOBS_WORKER_VARIABLE]: "1" } : {}),
    });
    started.set(worker, { jobs, at: Date.now() });
  };

  cluster.on("exit", (worker, code, signal) => {
    const info = started.get(worker);
    started.delete(worker);
    if (stopping) {
      if (started.size === 0) process.exit(process.exitCode ?? 0);
      return;
    }
    workerExits.inc();
    const quick = info ? Date.now() - info.at < QUICK_EXIT_MS : true;
    failedStarts = quick ? failedStarts + 1 : 0;
    log.error(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`})`);
    if (failedStarts >= MAX_FAILED_STARTS) {
      log.error(`workers failed to start ${failedStarts} times in a row: stopping`);
      stopping = true;
      for (const other of started.keys()) other.process.kill("SIGTERM");
      process.exitCode = 1;
      if (started.size === 0) process.exit(1);
      return;
    }
    // A worker that keeps failing is started again after a pause, not in a tight loop.
    setTimeout(() => fork(info?.jobs ?? false), quick ? 1000 * failedStarts : 0);
  });

  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping ${started.size} workers`);
    if (started.size === 0) process.exit(0);
    for (const worker of started.keys()) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of started.keys()) worker.process.kill("SIGKILL");
      process.exit(process.exitCode ?? 0);
    }, SHUTDOWN_GRACE_MS).unref();
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));

  for (let i = 0; i < env.WEB_CONCURRENCY; i++) fork(i === 0);
  log.info(`started ${env.WEB_CONCURRENCY} server processes`);
}
