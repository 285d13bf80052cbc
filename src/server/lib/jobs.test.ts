/**
 * The background jobs' scheduler (decision 039): each job runs at its interval, and once at start
 * when asked; a run still going is never started again; a failing job is logged and counted and
 * the others go on; shutdown starts no new run and waits, bounded, for the runs going on. Fake
 * timers: an hour of the schedule passes in a moment.
 */
import { Registry } from "prom-client";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type JobDefinition, JobScheduler } from "./jobs";

/** A logger that keeps what it was given. */
function memoryLog() {
  const lines: Array<{ level: string; obj: Record<string, unknown>; msg: string }> = [];
  const at = (level: string) => (obj: object, msg: string) =>
    void lines.push({ level, obj: obj as Record<string, unknown>, msg });
  return { lines, info: at("info"), warn: at("warn"), error: at("error") };
}

/** A job that counts its runs, each taking `takesMs` (on the fake clock). */
function countingJob(
  name: string,
  everyMs: number,
  options: { runAtStart?: boolean; takesMs?: number } = {},
) {
  const counts = { runs: 0, going: 0, mostAtOnce: 0 };
  const job: JobDefinition = {
    name,
    everyMs,
    runAtStart: options.runAtStart,
    run: async () => {
      counts.runs += 1;
      counts.going += 1;
      counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.going);
      if (options.takesMs) await new Promise((resolve) => setTimeout(resolve, options.takesMs));
      counts.going -= 1;
    },
  };
  return { job, counts };
}

const statusOf = (scheduler: JobScheduler, name: string) => scheduler.status().find((s) => s.name === name);

describe("JobScheduler", () => {
  let scheduler: JobScheduler;
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-11-28T10:00:00Z") });
  });
  afterEach(async () => {
    const stopped = scheduler?.stop(0);
    await vi.runOnlyPendingTimersAsync();
    await stopped;
    vi.useRealTimers();
  });

  it("runs each job every interval, and at start only the jobs that ask for it", async () => {
    const mail = countingJob("mail-flush", 30_000, { runAtStart: true });
    const reminders = countingJob("balance-reminders", 60 * 60_000);
    scheduler = new JobScheduler({ log: memoryLog() });
    scheduler.define([mail.job, reminders.job]);
    expect(scheduler.runsHere).toBe(false);
    scheduler.start();
    expect(scheduler.runsHere).toBe(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(mail.counts.runs).toBe(1);
    expect(reminders.counts.runs).toBe(0);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    // At start, then 120 times in the hour.
    expect(mail.counts.runs).toBe(121);
    expect(reminders.counts.runs).toBe(1);
    expect(statusOf(scheduler, "balance-reminders")).toMatchObject({
      everyMs: 3_600_000,
      runAtStart: false,
      lastStartedAt: "2026-11-28T11:00:00.000Z",
      lastOutcome: "ok",
      failures: 0,
    });
  });

  it("never starts a job again while its run is going on", async () => {
    // Runs every second and takes 2.5 s: the ticks in between find it running.
    const slow = countingJob("file-sweep", 1000, { runAtStart: true, takesMs: 2500 });
    scheduler = new JobScheduler({ log: memoryLog() });
    scheduler.define([slow.job]);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(slow.counts.mostAtOnce).toBe(1);
    // At 0 (until 2.5 s), 3 s (until 5.5 s), 6 s (until 8.5 s), 9 s.
    expect(slow.counts.runs).toBe(4);
    // Asking for a run while one is going on (9 s to 11.5 s) joins it.
    const before = slow.counts.runs;
    await Promise.all([
      scheduler.runNow("file-sweep"),
      scheduler.runNow("file-sweep"),
      vi.advanceTimersByTimeAsync(1900),
    ]);
    expect(slow.counts.runs).toBe(before);
    expect(slow.counts.mostAtOnce).toBe(1);
  });

  it("logs and counts a failing job, in memory and in the metrics, and runs the others", async () => {
    const log = memoryLog();
    const registry = new Registry();
    let attempts = 0;
    const failing: JobDefinition = {
      name: "payment-recovery",
      everyMs: 5 * 60_000,
      runAtStart: true,
      run: async () => {
        attempts += 1;
        throw Object.assign(new Error("connection refused"), { code: "ECONNREFUSED" });
      },
    };
    const mail = countingJob("mail-flush", 30_000, { runAtStart: true });
    scheduler = new JobScheduler({ log, registry });
    scheduler.define([failing, mail.job]);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(attempts).toBe(3);
    expect(mail.counts.runs).toBe(21);
    expect(statusOf(scheduler, "payment-recovery")).toMatchObject({ lastOutcome: "failed", failures: 3 });
    expect(statusOf(scheduler, "mail-flush")).toMatchObject({ lastOutcome: "ok", failures: 0 });
    const errors = log.lines.filter((line) => line.level === "error");
    expect(errors).toHaveLength(3);
    // The job's name and the error (the logger's serializer whitelists what of it is written).
    expect(Object.keys(errors[0]!.obj).sort()).toEqual(["err", "job"]);
    expect(errors[0]).toMatchObject({ obj: { job: "payment-recovery" }, msg: "background job failed" });
    const text = await registry.metrics();
    expect(text).toContain('hss_job_failures_total{job="payment-recovery"} 3');
    expect(text).toContain('hss_job_failures_total{job="mail-flush"} 0');
    // The last run of each: 10:10 for both (epoch seconds), a duration of 0 s on the fake clock.
    const tenPastTen = Date.parse("2026-11-28T10:10:00Z") / 1000;
    expect(text).toContain(`hss_job_last_run_timestamp_seconds{job="payment-recovery"} ${tenPastTen}`);
    expect(text).toContain(`hss_job_last_run_timestamp_seconds{job="mail-flush"} ${tenPastTen}`);
    expect(text).toMatch(/hss_job_last_duration_seconds\{job="mail-flush"\} 0/);
  });

  it("logs a job's counts when it did something", async () => {
    const log = memoryLog();
    let queued = 0;
    scheduler = new JobScheduler({ log });
    scheduler.define([
      { name: "resume-reminders", everyMs: 60_000, run: async () => ({ queued: queued++ }) },
    ]);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(120_000);
    const done = log.lines.filter((line) => line.msg === "background job done");
    expect(done).toHaveLength(1);
    expect(done[0]!.obj).toMatchObject({ job: "resume-reminders", queued: 1 });
  });

  it("on shutdown starts no new run and waits for the run going on", async () => {
    const sweep = countingJob("file-sweep", 1000, { runAtStart: true, takesMs: 1500 });
    scheduler = new JobScheduler({ log: memoryLog() });
    scheduler.define([sweep.job]);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(500);
    expect(sweep.counts.going).toBe(1);
    let stopped: boolean | undefined;
    void scheduler.stop(5000).then((ended) => {
      stopped = ended;
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(stopped).toBeUndefined();
    await vi.advanceTimersByTimeAsync(600);
    expect(stopped).toBe(true);
    expect(sweep.counts.going).toBe(0);
    await scheduler.runNow("file-sweep");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sweep.counts.runs).toBe(1);
  });

  it("gives up waiting for a run that does not end by the deadline", async () => {
    const log = memoryLog();
    scheduler = new JobScheduler({ log });
    scheduler.define([
      { name: "mail-flush", everyMs: 30_000, runAtStart: true, run: () => new Promise(() => {}) },
    ]);
    scheduler.start();
    let stopped: boolean | undefined;
    void scheduler.stop(5000).then((ended) => {
      stopped = ended;
    });
    await vi.advanceTimersByTimeAsync(4999);
    expect(stopped).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(stopped).toBe(false);
    expect(log.lines.some((line) => line.msg === "background jobs still running at shutdown")).toBe(true);
  });

  it("refuses a table with a name twice", () => {
    scheduler = new JobScheduler({ log: memoryLog() });
    const job = countingJob("mail-flush", 30_000).job;
    expect(() => scheduler.define([job, job])).toThrow(/twice/);
  });
});
