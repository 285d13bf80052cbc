// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, render, screen, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import enAdmin from "../../../../shared/i18n/locales/en/admin.json";
import enCommon from "../../../../shared/i18n/locales/en/common.json";
import frAdmin from "../../../../shared/i18n/locales/fr/admin.json";
import frCommon from "../../../../shared/i18n/locales/fr/common.json";
import zhAdmin from "../../../../shared/i18n/locales/zh/admin.json";
import zhCommon from "../../../../shared/i18n/locales/zh/common.json";
import type { AdminJobs } from "../../../../shared/ops";
import { createI18n } from "../../../lib/i18n";
import AdminOpsPage from "./AdminOpsPage";

const JOBS: AdminJobs = {
  runsHere: true,
  jobs: [
    {
      name: "payment-recovery",
      everyMs: 5 * 60_000,
      runAtStart: true,
      running: false,
      lastStartedAt: "2026-11-28T09:05:00.000Z",
      lastDurationMs: 1500,
      lastOutcome: "failed",
      failures: 2,
    },
    {
      name: "balance-reminders",
      everyMs: 60 * 60_000,
      runAtStart: true,
      running: false,
      lastStartedAt: null,
      lastDurationMs: null,
      lastOutcome: null,
      failures: 0,
    },
  ],
};

const RESOURCES = {
  en: { common: enCommon, admin: enAdmin },
  fr: { common: frCommon, admin: frAdmin },
  zh: { common: zhCommon, admin: zhAdmin },
};

function show(language: "en" | "fr" | "zh", data: AdminJobs = JOBS) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(["admin", "ops", "jobs"], data);
  render(
    <I18nextProvider i18n={createI18n(language, RESOURCES)}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <AdminOpsPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

/** The cells of the row whose header names `job`. */
const rowOf = (job: string) =>
  within(screen.getByRole("rowheader", { name: new RegExp(job) }).closest("tr")!)
    .getAllByRole("cell")
    .map((cell) => cell.textContent);

afterEach(() => cleanup());

describe("the operations page's background jobs", () => {
  it("lists each job with its interval, last run, duration, outcome and failures", () => {
    show("en");
    expect(screen.getByRole("heading", { level: 1, name: "Operations" })).toBeTruthy();
    expect(rowOf("Payment recovery")).toEqual([
      "Every 5 minutesand at start-up",
      expect.stringMatching(/^28 Nov 2026, \d\d:05$/),
      "1.5 s",
      "Failed",
      "2",
    ]);
    expect(rowOf("Balance reminders")).toEqual(["Every hourand at start-up", "Not run yet", "—", "—", "0"]);
    expect(screen.queryByText(/does not run the background jobs/)).toBeNull();
  });

  it("writes them in French and Chinese, dates and numbers included", () => {
    show("fr");
    expect(rowOf("Reprise et rapprochement des paiements")).toEqual([
      "Toutes les 5 minuteset au démarrage",
      expect.stringMatching(/^28 nov\. 2026, \d\d:05$/),
      "1,5\u00a0s",
      "Échec",
      "2",
    ]);
    expect(rowOf("Rappels de solde")[0]).toBe("Toutes les heureset au démarrage");
    cleanup();
    show("zh");
    expect(rowOf("付款恢复与对账").slice(2)).toEqual(["1.5 秒", "失败", "2"]);
    expect(rowOf("尾款提醒")[0]).toBe("每小时启动时也运行");
  });

  it("says so when the answering process does not run the jobs", () => {
    show("en", { ...JOBS, runsHere: false });
    expect(screen.getByText(/does not run the background jobs/)).toBeTruthy();
  });
});
