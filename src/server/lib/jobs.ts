import pg from "pg";
import { Counter, Gauge, type Registry } from "prom-client";
import type { JobOutcome, JobStatus } from "../../shared/ops";

/**
 * The background jobs of the server (decision 039): one table of named interval jobs, run by one
 * scheduler in the process that runs the jobs (`main.ts`, `role.runJobs`). The jobs themselves
 * live in their modules; the scheduler only times them, keeps them apart and records their runs.
 */

/** How long shutting down waits for the background jobs' runs going on, in ms. */
export const JOBS_STOP_MS = 5_000;

/** One background job of the table. */
export interface JobDefinition {
  /** Stable name, lower-case words with hyphens (`mail-flush`): the metrics' `job` label, the page's key. */
  name: string;
  /** Time between two runs, in ms (a run that takes longer delays nothing: the next tick finds it running and skips). */
  everyMs: number;
  /**
   * The work. It must be idempotent: a crash may cut a run short, and the next one does it again.
   * It may resolve to counts (`{ queued: 3 }`), logged at info level when one is not zero; never
   * personal data (anything else it resolves to is ignored). A rejection is a failed run.
   */
  run: () => Promise<unknown>;
  /** Also run once when the scheduler starts (work a crash may have left half done). */
  runAtStart?: boolean;
}

/**
 * Keeps a job's runs apart across processes: calls `run` when no other process runs the job
 * `name` and resolves true after it, or resolves false at once when another process does. A
 * failure of `run` rejects (after the job was released).
 */
export interface JobLock {
  runAlone(name: string, run: () => Promise<void>): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * The lock of the embedded database (PGlite): one process opens its data folder, so the
 * scheduler's own "already running" flag is the whole lock.
 */
export function processJobLock(): JobLock {
  return {
    async runAlone(_name, run) {
      await run();
      return true;
    },
    async close() {},
  };
}

/** The advisory lock key of job `name` (`hashtext`, a 32-bit number, of this text). */
export const jobLockKey = (name: string) => `hss-job:${name}`;

/**
 * The lock on PostgreSQL, where several processes (or machines) may run jobs on one database: a
 * session advisory lock per job (`pg_try_advisory_lock(hashtext('hss-job:<name>'))`), taken on a
 * dedicated connection (opened on first use, opened again after it dropped) and released after
 * the run. A connection that drops mid-run releases its locks on the server, so a job another
 * process then starts may overlap that run once: the jobs are idempotent (outbox dedupe keys, row
 * locks), this only spares work. `log`: a dropped connection, as a warning with the error.
 *
 * The jobs share that one connection, and at start several take or release their lock at once:
 * its queries go one after the other (`serially`). node-postgres queued a query sent while another
 * was running, with a deprecation warning at every start; pg 9 no longer queues them.
 */
export function postgresJobLock(
  connectionString: string,
  log: { warn: (obj: object, msg: string) => void },
): JobLock {
  let connection: Promise<pg.Client> | null = null;
  const connect = () => {
    connection ??= (async () => {
      const client = new pg.Client({ connectionString });
      client.on("error", (err) => {
        log.warn({ err }, "job lock connection closed");
        connection = null;
      });
      await client.connect();
      return client;
    })().catch((err: unknown) => {
      connection = null;
      throw err;
    });
    return connection;
  };
  // The connection's queries, one after the other: each waits for the one before to settle.
  let last: Promise<unknown> = Promise.resolve();
  const serially = <T>(query: () => Promise<T>): Promise<T> => {
    const result = last.then(query);
    last = result.catch(() => undefined);
    return result;
  };
  return {
    async runAlone(name, run) {
      const key = jobLockKey(name);
      const client = await connect();
      const { rows } = await serially(() =>
        client.query<{ got: boolean }>("select pg_try_advisory_lock(hashtext($1)) as got", [key]),
      );
      if (!rows[0]?.got) return false;
      try {
        await run();
      } finally {
        // On the connection that holds the lock; a dropped connection already released it on the server.
        await serially(() => client.query("select pg_advisory_unlock(hashtext($1))", [key])).catch(
          () => undefined,
        );
      }
      return true;
    },
    async close() {
      const open = connection;
      connection = null;
      const client = await open?.catch(() => null);
      await client?.end().catch(() => undefined);
    },
  };
}

/** `value` when it is an object of numbers (a job's counts), else undefined. */
function countsOf(value: unknown): Record<string, number> | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const entries = Object.entries(value);
  return entries.every(([, v]) => typeof v === "number") ? Object.fromEntries(entries) : undefined;
}

/** What the scheduler logs: a pino logger or anything with these methods. */
export interface JobLog {
  info: (obj: object, msg: string) => void;
  warn: (obj: object, msg: string) => void;
  error: (obj: object, msg: string) => void;
}

interface JobState {
  job: JobDefinition;
  running: Promise<void> | null;
  lastStartedAt: Date | null;
  lastDurationMs: number | null;
  lastOutcome: JobOutcome | null;
  failures: number;
}

/**
 * Runs a table of `JobDefinition`s. `define` gives it the table (every process does, so the back
 * office can list the jobs); `start` runs them, each every `everyMs` and once at start when
 * `runAtStart`, in the process that runs the jobs only. Per job:
 * - one run at a time in this process: a tick that finds the last run still going is skipped;
 * - one run at a time across processes through `lock` (on PostgreSQL `postgresJobLock`); a run
 *   another process holds is recorded as `skipped`;
 * - each run's start, duration (ms) and outcome (`ok`, `failed`, `skipped`) and the failures since
 *   start are kept in memory (`status()`) and in `registry` (when given):
 *   `hss_job_last_run_timestamp_seconds{job}`, `hss_job_last_duration_seconds{job}` (runs that
 *   ran, not skipped ones; combined over processes by maximum) and `hss_job_failures_total{job}`;
 * - a failure is logged with the job's name and the error through the logger's whitelist
 *   (lib/logging.ts: codes and names, never a statement's parameters or a person's data), and
 *   touches neither the other jobs nor the next run.
 * `stop` starts no new run and waits, bounded, for those going on. `now`: the clock (tests).
 */
export class JobScheduler {
  private readonly states = new Map<string, JobState>();
  private readonly timers: NodeJS.Timeout[] = [];
  private started = false;
  private stopping = false;
  private readonly lastRun?: Gauge<"job">;
  private readonly lastDuration?: Gauge<"job">;
  private readonly failureCount?: Counter<"job">;

  constructor(
    private readonly options: {
      log: JobLog;
      lock?: JobLock;
      registry?: Registry;
      now?: () => Date;
    },
  ) {
    const registers = options.registry ? [options.registry] : undefined;
    if (registers) {
      this.lastRun = new Gauge({
        name: "hss_job_last_run_timestamp_seconds",
        help: "Start of the last run of each background job that ran, in seconds since 1970.",
        labelNames: ["job"] as const,
        aggregator: "max",
        registers,
      });
      this.lastDuration = new Gauge({
        name: "hss_job_last_duration_seconds",
        help: "Duration of the last run of each background job that ran, in seconds.",
        labelNames: ["job"] as const,
        aggregator: "max",
        registers,
      });
      this.failureCount = new Counter({
        name: "hss_job_failures_total",
        help: "Failed runs of each background job since the process started.",
        labelNames: ["job"] as const,
        registers,
      });
    }
  }

  /** The job table. Throws on a repeated name or an interval below 1 s (a mistake, never data). */
  define(jobs: readonly JobDefinition[]): void {
    for (const job of jobs) {
      if (this.states.has(job.name)) throw new Error(`job ${job.name} is defined twice`);
      if (!(job.everyMs >= 1000)) throw new Error(`job ${job.name} must run at most once a second`);
      this.states.set(job.name, {
        job,
        running: null,
        lastStartedAt: null,
        lastDurationMs: null,
        lastOutcome: null,
        failures: 0,
      });
    }
  }

  /** Whether `start` was called: this process runs the jobs. */
  get runsHere(): boolean {
    return this.started;
  }

  /** Starts the timers, and the runs at start. Once; nothing after `stop`. */
  start(): void {
    if (this.started || this.stopping) return;
    this.started = true;
    for (const state of this.states.values()) {
      this.failureCount?.inc({ job: state.job.name }, 0);
      const timer = setInterval(() => void this.runNow(state.job.name), state.job.everyMs);
      timer.unref();
      this.timers.push(timer);
      if (state.job.runAtStart) void this.runNow(state.job.name);
    }
  }

  /**
   * Runs job `name` now, unless a run of it is going on in this process (then resolves when that
   * one ends, without a second run) or the scheduler is stopping. Never rejects: a failure is
   * logged and counted. Throws for an unknown name.
   */
  runNow(name: string): Promise<void> {
    const state = this.states.get(name);
    if (!state) throw new Error(`no job ${name}`);
    if (state.running) return state.running;
    if (this.stopping) return Promise.resolve();
    const run = this.runOnce(state).finally(() => {
      state.running = null;
    });
    state.running = run;
    return run;
  }

  private async runOnce(state: JobState): Promise<void> {
    const { job } = state;
    const { log } = this.options;
    const now = this.options.now ?? (() => new Date());
    const lock = this.options.lock ?? processJobLock();
    const startedAt = now();
    const clock = performance.now();
    let result: unknown;
    let outcome: JobOutcome;
    try {
      const ran = await lock.runAlone(job.name, async () => {
        result = await job.run();
      });
      outcome = ran ? "ok" : "skipped";
    } catch (err) {
      outcome = "failed";
      state.failures += 1;
      this.failureCount?.inc({ job: job.name });
      log.error({ err, job: job.name }, "background job failed");
    }
    const durationMs = Math.round(performance.now() - clock);
    state.lastStartedAt = startedAt;
    state.lastDurationMs = durationMs;
    state.lastOutcome = outcome;
    if (outcome !== "skipped") {
      this.lastRun?.set({ job: job.name }, startedAt.getTime() / 1000);
      this.lastDuration?.set({ job: job.name }, durationMs / 1000);
    }
    const counts = countsOf(result);
    if (counts && Object.values(counts).some((count) => count !== 0)) {
      log.info({ job: job.name, durationMs, ...counts }, "background job done");
    }
  }

  /** Each job of the table, in its order, with its last run (`JobStatus`, src/shared/ops.ts). */
  status(): JobStatus[] {
    return [...this.states.values()].map((s) => ({
      name: s.job.name,
      everyMs: s.job.everyMs,
      runAtStart: Boolean(s.job.runAtStart),
      running: s.running !== null,
      lastStartedAt: s.lastStartedAt?.toISOString() ?? null,
      lastDurationMs: s.lastDurationMs,
      lastOutcome: s.lastOutcome,
      failures: s.failures,
    }));
  }

  /**
   * Stops: no new run starts (timers cleared, `runNow` does nothing), then waits up to
   * `timeoutMs` for the runs going on and closes the lock's connection. Resolves true when every
   * run ended in time, false when some were still going (they are left to the process's end).
   * Calling it again waits again.
   */
  async stop(timeoutMs: number): Promise<boolean> {
    this.stopping = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const going = [...this.states.values()].flatMap((s) => (s.running ? [s.running] : []));
    let timer: NodeJS.Timeout | undefined;
    const ended = await Promise.race([
      Promise.all(going).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (!ended) this.options.log.warn({ timeoutMs }, "background jobs still running at shutdown");
    await this.options.lock?.close();
    return ended;
  }
}
