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
import { loggerOptions } from "./lib/logging";
import { withTimeout } from "./lib/timeout";
import { runBalanceReminders } from "./modules/balances/reminders";
import { createFileStorage, prepareFileStorage } from "./modules/files/storage";
import { workerMetrics } from "./modules/ops/cluster-metrics";
import { processRegistry } from "./modules/ops/metrics";
import { runResumeReminders } from "./modules/resume/service";

/** How often the process that runs the background jobs queues the balance reminders (decision 016). */
const REMINDERS_EVERY_MS = 60 * 60_000;

/** How often the process that runs the background jobs ends lapsed waiting-list offers (issue 13). */
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
 * pages, and runs the background jobs (`runJobs`: e-mail sending every 30 s, payment
 * reconciliation every 5 min, the sweep of unreferenced files in DATA_DIR/files every 15 min,
 * the balance reminders every hour: decision 016).
 * On PostgreSQL it listens to the change feed, so that changes made by other processes reach its
 * caches and pages (decision 011). `offlineWebhookSecret`: the offline payment provider's secret
 * that the primary gave every worker (random otherwise). A worker of several serves the metrics of
 * all of them (decision 013).
 * SIGTERM or SIGINT (Ctrl-C reaches the primary and every worker) closes it once, gracefully:
 * no new connections, requests in flight finish within 8 s, then the connections left are cut
 * (exit 0). An uncaught exception or unhandled rejection is logged and closes it the same way,
 * with exit status 1 (the primary of several processes then starts a new one).
 */
async function runServer(
  env: Env,
  role: { prepare: boolean; runJobs: boolean; offlineWebhookSecret?: string },
) {
  const database = await openDatabase({ databaseUrl: env.DATABASE_URL, dataDir: env.DATA_DIR });
  if (role.prepare && env.SEED_DEMO) await seedDemoCatalogue(database.db, todayIso());
  const files = createFileStorage(database.db, env);
  // Log lines are collected into writes of 4 KB or once a second, written asynchronously: a
  // request never waits for the terminal or the disk, and a busy server makes one write per
  // dozen lines instead of one per line (decision 011). Shutting down writes what is left.
  const logStream = pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 1000 });
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

  /** Stuck webhook events first, then paid-but-unapplied checkout sessions (checklist D4, P12). */
  const recoverPayments = async () => {
    const { payments } = app.services;
    await payments.recoverStuckEvents().catch((err) => app.log.error({ err }, "event recovery failed"));
    await payments.reconcile().catch((err) => app.log.error({ err }, "reconciliation failed"));
  };
  const timers: NodeJS.Timeout[] = [];
  if (role.runJobs) {
    timers.push(
      setInterval(
        () => void app.services.mail.flush().catch((err) => app.log.error({ err }, "mail flush failed")),
        30_000,
      ),
      setInterval(() => void recoverPayments(), 5 * 60_000),
    );
    const sweep = () =>
      void files
        .sweep()
        .then(({ removed }) => {
          if (removed > 0) app.log.info({ removed }, "unreferenced files removed from DATA_DIR/files");
        })
        .catch((err) => app.log.error({ err }, "file sweep failed"));
    timers.push(setInterval(sweep, SWEEP_EVERY_MS));
    // Each reminder is queued once per application and kind, whichever process runs this and
    // however often (the outbox's dedupe key), so running it at start-up after a restart is safe.
    const remind = () =>
      void runBalanceReminders({
        db: database.db,
        mail: app.services.mail,
        now: () => new Date(),
        origin: env.APP_ORIGIN,
        supportEmail: env.SUPPORT_EMAIL,
      })
        .then((queued) => {
          if (queued > 0) app.log.info({ queued }, "balance reminders queued");
        })
        .catch((err) => app.log.error({ err }, "balance reminders failed"));
    // The abandoned-application reminder (decision 028), on the same hourly run: once per applicant.
    const remindAbandoned = () =>
      void runResumeReminders({
        db: database.db,
        mail: app.services.mail,
        now: () => new Date(),
        origin: env.APP_ORIGIN,
        supportEmail: env.SUPPORT_EMAIL,
      })
        .then((queued) => {
          if (queued > 0) app.log.info({ queued }, "abandoned-application reminders queued");
        })
        .catch((err) => app.log.error({ err }, "abandoned-application reminders failed"));
    timers.push(setInterval(remind, REMINDERS_EVERY_MS), setInterval(remindAbandoned, REMINDERS_EVERY_MS));
    // Lapsed waiting-list offers go to the next in line, and places freed meanwhile are offered
    // (issue 13, decision 027); cohort locks and the outbox's dedupe keys make concurrent runs safe.
    const offerPlaces = () => app.services.waitingList.runSoon();
    timers.push(setInterval(offerPlaces, WAITING_LIST_EVERY_MS));
    void app.services.mail.flush().catch(() => undefined);
    // At start-up as well: a crash may have left events half-processed or checkouts unapplied.
    void recoverPayments();
    sweep();
    remind();
    remindAbandoned();
    offerPlaces();
  }

  let stopping = false;
  const shutdown = async (signal: string, exitCode: number) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    // Whatever happens below (a database that does not answer), the process ends.
    setTimeout(() => process.exit(exitCode), SHUTDOWN_DEADLINE_MS + 6_000).unref();
    for (const t of timers) clearInterval(t);
    if (!(await closeGracefully(app, SHUTDOWN_DEADLINE_MS))) {
      app.log.warn(`requests still running after ${SHUTDOWN_DEADLINE_MS} ms were cut`);
    }
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
  // in the background: no visitor waits for a render (decisions.md §5).
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
