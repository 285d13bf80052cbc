import cluster from "node:cluster";
import pino from "pino";
import { todayIso } from "../shared/age";
import { LANGUAGES } from "../shared/i18n/languages";
import { buildApp } from "./app";
import { JOBS_WORKER_VARIABLE, OFFLINE_SECRET_VARIABLE, runPrimary } from "./cluster";
import { openDatabase } from "./db/client";
import { seedDemoCatalogue } from "./db/seed";
import { type Env, loadEnv } from "./env";
import { type ChangeFeed, localChangeFeed, postgresChangeFeed } from "./lib/change-feed";
import { closeGracefully, SHUTDOWN_DEADLINE_MS } from "./lib/graceful";
import { JOBS_STOP_MS } from "./lib/jobs";
import { BatchedLog } from "./lib/log-destination";
import { loggerOptions } from "./lib/logging";
import { settleTickObjects } from "./lib/settle-ticks";
import { withTimeout } from "./lib/timeout";
import { runBalanceReminders } from "./modules/balances/reminders";
import { createFileStorage, prepareFileStorage } from "./modules/files/storage";
import { workerMetrics } from "./modules/ops/cluster-metrics";
import { processRegistry } from "./modules/ops/metrics";
import { runResumeReminders } from "./modules/resume/service";

/** How often the process that runs the background jobs queues the balance reminders (decision 016). */
const REMINDERS_EVERY_MS = 60 * 60_000;

/** How often the process that runs the background jobs ends lapsed waiting-list offers (docs/product/admissions.md#waiting-list). */
const WAITING_LIST_EVERY_MS = 5 * 60_000;

/** How often the process that runs the background jobs sweeps DATA_DIR/files (decision 012). */
const SWEEP_EVERY_MS = 15 * 60_000;

/**
 * Starts the server: validates the configuration, then either runs one server process, or, with
 * WEB_CONCURRENCY > 1, a primary that prepares the database and starts that many server
 * processes (decision 011).
 */
async function main() {
  const env = loadEnv();
  if (env.WEB_CONCURRENCY > 1 && cluster.isPrimary) {
    const log = pino(loggerOptions(env.LOG_LEVEL));
    await runPrimary(env, { info: (msg) => log.info(msg), error: (msg) => log.error(msg) });
    return;
  }
  await runServer(env, {
    // A single process does everything; of several, the primary prepared the database and
    // chose the one worker that runs the background jobs.
    prepare: cluster.isPrimary,
    runJobs: cluster.isPrimary || process.env[JOBS_WORKER_VARIABLE] === "1",
    offlineWebhookSecret: process.env[OFFLINE_SECRET_VARIABLE] ?? env.OFFLINE_WEBHOOK_SECRET,
  });
}

/**
 * One server process: opens the database (PGlite in DATA_DIR unless DATABASE_URL is set) and
 * migrates it, seeds the demo catalogue on first start and moves files kept on disk into the
 * database when FILE_STORAGE is `database` (`prepare`; decision 012), listens, renders the public
 * pages, and runs the background jobs (`runJobs`; one scheduler, decision 039: e-mail sending
 * every 30 s, payment recovery every 5 min, the sweep of unreferenced files in DATA_DIR/files
 * every 15 min, the balance and abandoned-application reminders every hour: decision 016, the
 * waiting-list offers every 5 min; each also at start-up).
 * On PostgreSQL it listens to the change feed, so that changes made by other processes reach its
 * caches and pages (decision 011). `offlineWebhookSecret`: the offline payment provider's secret
 * that the primary gave every worker (random otherwise). A worker of several serves the metrics of
 * all of them (decision 013).
 * SIGTERM or SIGINT (Ctrl-C reaches the primary and every worker) closes it once, gracefully:
 * no new connections and no new job run, job runs going on get 5 s, requests in flight finish
 * within 8 s, then the connections left are cut
 * (exit 0). An uncaught exception or unhandled rejection is logged and closes it the same way,
 * with exit status 1 (the primary of several processes then starts a new one).
 */
async function runServer(
  env: Env,
  role: { prepare: boolean; runJobs: boolean; offlineWebhookSecret?: string },
) {
  // Before any other work, so that every request's ticks stay cheap (lib/settle-ticks.ts).
  await settleTickObjects();
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  if (role.prepare && env.SEED_DEMO) await seedDemoCatalogue(database.db, todayIso());
  const files = createFileStorage(database.db, env);
  // Log lines are collected into writes of 64 KB or once a second, as nginx's buffered access log
  // (BatchedLog), and written asynchronously: a request never waits for the terminal or the disk,
  // and a busy server makes one write per few hundred lines (decision 011, decision 045).
  // Shutting down writes what is left.
  const stdout = pino.destination({ dest: 1, sync: false, minLength: 0, contentMode: "buffer" });
  const logStream = new BatchedLog({
    // In contentMode "buffer" sonic-boom takes Buffers; its type declares only strings.
    write: (chunk) => stdout.write(chunk as unknown as string),
    flushSync: () => stdout.flushSync(),
  });
  const feedLog = pino(loggerOptions(env.LOG_LEVEL), logStream);
  if (role.prepare) {
    await prepareFileStorage(files, { info: (msg) => feedLog.info(msg), error: (msg) => feedLog.error(msg) });
  }
  let changeFeed: ChangeFeed = localChangeFeed();
  if (env.DATABASE_URL) {
    const feed = postgresChangeFeed({ connectionString: env.DATABASE_URL, log: feedLog });
    await feed.ready;
    changeFeed = feed;
  }
  const sharedMetrics = cluster.isWorker ? workerMetrics() : null;
  const app = await buildApp({
    env,
    database,
    logStream,
    changeFeed,
    offlineWebhookSecret: role.offlineWebhookSecret,
    metricsText: sharedMetrics?.text,
    files,
  });
  sharedMetrics?.serve([processRegistry(), app.services.metrics.registry]);
  if (!app.services.pages.ready) app.log.warn("dist/ is missing: run `npm run build` to serve the pages");

  // The background jobs (decision 039): the table is known to every process (the operations page
  // lists it), and runs in the one process that runs the jobs. Each job is idempotent: a crash
  // may cut a run short, and every job also runs at start-up to finish what one left.
  const { jobs, mail, mailings, payments, retention, waitingList } = app.services;
  const reminderDeps = () => ({
    db: database.db,
    mail,
    now: () => new Date(),
    origin: env.APP_ORIGIN,
    supportEmail: env.SUPPORT_EMAIL,
  });
  jobs.define([
    // Sends the queued e-mails, retrying failures up to five times (decision 016).
    {
      name: "mail-flush",
      everyMs: 30_000,
      runAtStart: true,
      run: async () => ({ sent: await mail.flush() }),
    },
    // Stuck webhook events first, then paid-but-unapplied checkout sessions (docs/product/security.md#d4-crash-safety, docs/product/security.md#p12-the-webhook-never-arrives);
    // a failure of the first does not keep the second from running.
    {
      name: "payment-recovery",
      everyMs: 5 * 60_000,
      runAtStart: true,
      run: () => payments.recoverAndReconcile(),
    },
    // Unreferenced files in DATA_DIR/files (decision 012).
    {
      name: "file-sweep",
      everyMs: SWEEP_EVERY_MS,
      runAtStart: true,
      run: async () => ({ removed: (await files.sweep()).removed }),
    },
    // Queued once per application and kind, however often (the outbox's dedupe key; decision 016).
    {
      name: "balance-reminders",
      everyMs: REMINDERS_EVERY_MS,
      runAtStart: true,
      run: async () => ({ queued: await runBalanceReminders(reminderDeps()) }),
    },
    // The abandoned-application reminder (decision 028): once per applicant.
    {
      name: "resume-reminders",
      everyMs: REMINDERS_EVERY_MS,
      runAtStart: true,
      run: async () => ({ queued: await runResumeReminders(reminderDeps()) }),
    },
    // Lapsed waiting-list offers go to the next in line, and places freed meanwhile are offered
    // (docs/product/admissions.md#application-wizard, decision 027); cohort locks and the outbox's dedupe keys make concurrent runs safe.
    {
      name: "waiting-list-offers",
      everyMs: WAITING_LIST_EVERY_MS,
      runAtStart: true,
      run: () => waitingList.runScheduled(),
    },
    // Messages to people (docs/product/back-office.md#messages): recipients not yet queued get their
    // e-mail, throttled by MAIL_RATE_PER_MINUTE; what a crash cut short is taken up again.
    {
      name: "mailings-queue",
      everyMs: 30_000,
      runAtStart: true,
      run: () => mailings.queueDue(),
    },
    // The privacy page's retention periods, applied once a day and audited with counts
    // (docs/product/privacy.md#retention-periods); a run again the same day removes nothing more.
    {
      name: "retention",
      everyMs: 24 * 60 * 60_000,
      runAtStart: true,
      run: () => retention.run(),
    },
  ]);
  if (role.runJobs) jobs.start();

  let stopping = false;
  const shutdown = async (signal: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    // Whatever happens below (a database that does not answer), the process ends.
    setTimeout(() => process.exit(exitCode), SHUTDOWN_DEADLINE_MS + 6_000).unref();
    // No new job run from now; the runs going on get JOBS_STOP_MS, while requests finish.
    const jobsStopped = jobs.stop(JOBS_STOP_MS);
    if (!(await closeGracefully(app, SHUTDOWN_DEADLINE_MS))) {
      app.log.warn(`requests still running after ${SHUTDOWN_DEADLINE_MS} ms were cut`);
    }
    await jobsStopped;
    await withTimeout(changeFeed.close(), 1000).catch(() => undefined);
    // The embedded database writes what it holds in memory to the data folder as it closes.
    await withTimeout(database.close(), 3000).catch(() => undefined);
    try {
      logStream.flushSync();
    } catch {
      // Nothing left to write, or standard output is gone.
    }
    process.exit(exitCode);
  };
  process.once("SIGINT", () => void shutdown("SIGINT", 0));
  process.once("SIGTERM", () => void shutdown("SIGTERM", 0));
  const fail = (kind: string) => (err: unknown) => {
    app.log.fatal({ err }, `${kind}: stopping this process`);
    void shutdown(kind, 1);
  };
  process.on("uncaughtException", fail("uncaught exception"));
  process.on("unhandledRejection", fail("unhandled rejection"));

  if (env.HOST) await app.listen({ port: env.PORT, host: env.HOST });
  else {
    // Dual-stack when the machine has IPv6, so both localhost addresses (::1 and 127.0.0.1) answer.
    await app
      .listen({ port: env.PORT, host: "::" })
      .catch(() => app.listen({ port: env.PORT, host: "0.0.0.0" }));
  }

  // Every public page in every language is rendered once now, and again after a content change,
  // in the background: no visitor waits for a render (docs/product/portals.md#public-site).
  const { pages } = app.services;
  const warm = () =>
    void pages
      .warm(LANGUAGES)
      .then((count) => app.log.info({ pages: count }, "public pages rendered"))
      .catch((err) => app.log.error({ err }, "rendering the public pages failed"));
  pages.onContentChange = warm;
  warm();
  if (role.prepare || role.runJobs) {
    app.log.info(
      `The Hague Summer School is running at ${env.APP_ORIGIN} (payments: ${app.services.provider.name}, database: ${database.kind}, processes: ${env.WEB_CONCURRENCY})`,
    );
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
