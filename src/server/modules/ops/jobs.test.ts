/**
 * The operations page's list of background jobs (decision 039): `GET /api/admin/ops/jobs` gives
 * each job of the table with its interval and last run (start, duration, outcome, failures), to
 * owners only (permission `ops:read`). The scheduler and its table are the ones `main.ts` uses:
 * the app's `services.jobs`, here given two jobs, one of which fails.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { adminJobsSchema } from "../../../shared/ops";
import { loginAsAdmin } from "../../testing/accounts";
import { createTestApp, type TestApp } from "../../testing/harness";

describe("GET /api/admin/ops/jobs", () => {
  let t: TestApp;
  beforeAll(async () => {
    // On PostgreSQL when TEST_DATABASE_URL is set: the runs then go through the advisory lock.
    t = await createTestApp();
    t.app.services.jobs.define([
      { name: "mail-flush", everyMs: 30_000, runAtStart: true, run: async () => ({ sent: 0 }) },
      {
        name: "file-sweep",
        everyMs: 15 * 60_000,
        run: async () => {
          throw new Error("disk full");
        },
      },
    ]);
  });
  afterAll(async () => {
    await t.close();
  });

  const list = (cookie?: string) =>
    t.app.inject({ method: "GET", url: "/api/admin/ops/jobs", headers: cookie ? { cookie } : {} });

  it("lists the jobs for an owner: interval, last run, duration, outcome and failures", async () => {
    const { cookie } = await loginAsAdmin(t.app, "owner");
    const before = adminJobsSchema.parse((await list(cookie)).json());
    expect(before).toEqual({
      runsHere: false,
      jobs: [
        {
          name: "mail-flush",
          everyMs: 30_000,
          runAtStart: true,
          running: false,
          lastStartedAt: null,
          lastDurationMs: null,
          lastOutcome: null,
          failures: 0,
        },
        expect.objectContaining({
          name: "file-sweep",
          everyMs: 900_000,
          runAtStart: false,
          lastOutcome: null,
        }),
      ],
    });

    const startedAt = Date.now();
    t.app.services.jobs.start();
    await t.app.services.jobs.runNow("mail-flush");
    await t.app.services.jobs.runNow("file-sweep");
    await t.app.services.jobs.runNow("file-sweep");
    const res = await list(cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const after = adminJobsSchema.parse(res.json());
    expect(after.runsHere).toBe(true);
    const [mail, sweep] = after.jobs;
    expect(mail).toMatchObject({ name: "mail-flush", lastOutcome: "ok", failures: 0, running: false });
    expect(sweep).toMatchObject({ name: "file-sweep", lastOutcome: "failed", failures: 2 });
    expect(Date.parse(mail!.lastStartedAt!)).toBeGreaterThanOrEqual(startedAt - 1000);
    expect(mail!.lastDurationMs).toBeGreaterThanOrEqual(0);
  });

  it("refuses the other roles (403) and a visitor without a session (401)", async () => {
    for (const role of ["admissions", "finance"] as const) {
      const { cookie } = await loginAsAdmin(t.app, role);
      expect((await list(cookie)).statusCode, role).toBe(403);
    }
    expect((await list()).statusCode).toBe(401);
  });
});

describe("the services' job functions main.ts lists", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ embedded: true });
  });
  afterAll(async () => {
    await t.close();
  });

  it("payment recovery reconciles even when the recovery of stuck events failed, then reports the failure", async () => {
    const { payments } = t.app.services;
    const failure = new Error("provider down");
    const recover = vi.spyOn(payments, "recoverStuckEvents").mockRejectedValueOnce(failure);
    const reconcile = vi.spyOn(payments, "reconcile").mockResolvedValueOnce(2);
    await expect(payments.recoverAndReconcile()).rejects.toBe(failure);
    expect(reconcile).toHaveBeenCalledOnce();
    recover.mockResolvedValueOnce(1);
    reconcile.mockResolvedValueOnce(0);
    await expect(payments.recoverAndReconcile()).resolves.toEqual({ recovered: 1, reconciled: 0 });
  });

  it("the waiting-list run rejects on a failure (to be counted) and never overlaps a run already going on", async () => {
    const { waitingList } = t.app.services;
    let going = 0;
    let mostAtOnce = 0;
    const run = vi.spyOn(waitingList, "run").mockImplementation(async () => {
      going += 1;
      mostAtOnce = Math.max(mostAtOnce, going);
      await new Promise((resolve) => setTimeout(resolve, 50));
      going -= 1;
      return { enrolled: 0, expired: 0, offered: 0 };
    });
    waitingList.runSoon();
    await waitingList.runScheduled();
    expect(run).toHaveBeenCalledTimes(2);
    expect(mostAtOnce).toBe(1);
    run.mockRejectedValueOnce(new Error("cohort lock timeout"));
    await expect(waitingList.runScheduled()).rejects.toThrow("cohort lock timeout");
    run.mockRestore();
  });
});
