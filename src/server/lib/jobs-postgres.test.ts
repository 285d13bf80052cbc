/**
 * On PostgreSQL several server processes (or machines) may run the jobs on one database (decision
 * 039): two schedulers, each with its own advisory-lock connection, asked to run one job at the
 * same moment run it once; the other records the run as skipped, and the job runs again once the
 * first run ended. Needs TEST_DATABASE_URL (advisory locks are per database: the test uses that
 * one, under a job name of its own).
 */
import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { JobScheduler, postgresJobLock } from "./jobs";

const adminUrl = process.env.TEST_DATABASE_URL;
const quiet = { info() {}, warn() {}, error() {} };

describe.skipIf(!adminUrl)("jobs of two schedulers on one PostgreSQL database", () => {
  const name = `test-${randomUUID().slice(0, 8).replace(/[0-9]/g, "x")}`;
  const counts = { runs: 0, going: 0, mostAtOnce: 0 };
  const job = {
    name,
    everyMs: 60_000,
    run: async () => {
      counts.runs += 1;
      counts.going += 1;
      counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.going);
      await new Promise((resolve) => setTimeout(resolve, 300));
      counts.going -= 1;
    },
  };
  const schedulers = [0, 1].map(() => {
    const scheduler = new JobScheduler({ log: quiet, lock: postgresJobLock(adminUrl!, quiet) });
    scheduler.define([job]);
    return scheduler;
  });
  afterAll(async () => {
    for (const scheduler of schedulers) await scheduler.stop(2000);
  });

  it("runs a job once at a time, and again after the run ended", async () => {
    for (let round = 1; round <= 3; round++) {
      await Promise.all(schedulers.map((scheduler) => scheduler.runNow(name)));
      expect(counts.runs).toBe(round);
      expect(counts.mostAtOnce).toBe(1);
      const outcomes = schedulers.map((scheduler) => scheduler.status()[0]!.lastOutcome).sort();
      expect(outcomes).toEqual(["ok", "skipped"]);
    }
    // One after the other, both run: the lock was released.
    await schedulers[0]!.runNow(name);
    await schedulers[1]!.runNow(name);
    expect(counts.runs).toBe(5);
    expect(schedulers.map((scheduler) => scheduler.status()[0]!.lastOutcome)).toEqual(["ok", "ok"]);
  });
});
