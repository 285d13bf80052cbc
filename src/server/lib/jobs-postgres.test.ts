/**
 * On PostgreSQL several server processes (or machines) may run the jobs on one database (decision
 * 039): two schedulers, each with its own advisory-lock connection, asked to run one job at the
 * same moment run it once; the other records the run as skipped, and the job runs again once the
 * first run ended. Needs TEST_DATABASE_URL (advisory locks are per database: the test uses that
 * one, under a job name of its own).
 */
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, it, vi } from "vitest";
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

describe.skipIf(!adminUrl)("the lock's connection, shared by jobs that start together", () => {
  it("sends it one query at a time (pg 9 refuses a query while another runs)", async () => {
    const inFlight = new Map<pg.Client, number>();
    let mostAtOnce = 0;
    const query = pg.Client.prototype.query;
    const spy = vi.spyOn(pg.Client.prototype, "query").mockImplementation(function (
      this: pg.Client,
      ...args: unknown[]
    ) {
      const going = (inFlight.get(this) ?? 0) + 1;
      inFlight.set(this, going);
      mostAtOnce = Math.max(mostAtOnce, going);
      const result = (query as (...a: unknown[]) => unknown).apply(this, args);
      void Promise.resolve(result)
        .catch(() => undefined)
        .finally(() => inFlight.set(this, (inFlight.get(this) ?? 1) - 1));
      return result as never;
    });
    const lock = postgresJobLock(adminUrl!, quiet);
    try {
      let runs = 0;
      const names = [0, 1, 2, 3].map((i) => `test-${randomUUID().slice(0, 8).replace(/[0-9]/g, "x")}-${i}`);
      const ran = await Promise.all(
        names.map((name) =>
          lock.runAlone(name, async () => {
            runs += 1;
            await new Promise((resolve) => setTimeout(resolve, 50));
          }),
        ),
      );
      expect(ran).toEqual([true, true, true, true]);
      expect(runs).toBe(4);
      expect(mostAtOnce).toBe(1);
    } finally {
      spy.mockRestore();
      await lock.close();
    }
  });
});
