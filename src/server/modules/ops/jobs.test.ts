/**
 * The operations page's list of background jobs (decision 039): `GET /api/admin/ops/jobs` gives
 * each job of the table with its interval and last run (start, duration, outcome, failures), to
 * owners only (permission `ops:read`). The scheduler and its table are the ones `main.ts` uses:
 * the app's `services.jobs`, here given two jobs, one of which fails.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminJobsSchema } from "../../../shared/ops";
import { loginAsAdmin } from "../../testing/accounts";
import { createTestApp, type TestApp } from "../../testing/harness";

describe("GET /api/admin/ops/jobs", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ embedded: true });
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
