// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { cleanup, getDefaultNormalizer, render, screen, within } from "@testing-library/react";
import { I18nextProvider } from "react-i18next";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import type { RetentionOverviewDto } from "../../../../shared/api/retention";
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

const RETENTION: RetentionOverviewDto = {
  periods: { applicationMonths: 12, inquiryMonths: 24, outboxDays: 90 },
  next: {
    applicants: 3,
    files: 5,
    waitingList: 0,
    inquiries: 1,
    newsletter: 7,
    outboxBodies: 1250,
    invoices: 0,
  },
  lastRun: {
    at: "2026-11-28T03:00:00.000Z",
    counts: {
      applicants: 2,
      files: 4,
      waitingList: 11,
      inquiries: 0,
      newsletter: 1,
      outboxBodies: 40,
      invoices: 0,
    },
  },
};

const RESOURCES = {
  en: { common: enCommon, admin: enAdmin },
  fr: { common: frCommon, admin: frAdmin },
  zh: { common: zhCommon, admin: zhAdmin },
};

function show(
  language: "en" | "fr" | "zh",
  data: AdminJobs = JOBS,
  retention: RetentionOverviewDto = RETENTION,
) {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: false, staleTime: Number.POSITIVE_INFINITY } },
  });
  client.setQueryData(["admin", "ops", "jobs"], data);
  client.setQueryData(["admin", "ops", "retention"], retention);
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

/** The retention panel (the section named by its heading). */
const retentionPanel = (title: string) => within(screen.getByRole("region", { name: title }));

/** The retention table's rows as [kind, count…], header row left out. */
const retentionRows = (title: string) =>
  retentionPanel(title)
    .getAllByRole("row")
    .slice(1)
    .map((row) => [...row.querySelectorAll("th, td")].map((cell) => cell.textContent));

describe("the operations page's retention panel", () => {
  it("states the periods in force and what the next and the last run remove", () => {
    show("en");
    const panel = retentionPanel("Retention");
    expect(
      panel.getByText("Applicants’ personal data and files: 12 months after their cohort ends"),
    ).toBeTruthy();
    expect(
      panel.getByText(/^Partnership inquiries and form messages: 24 months after the last reply/),
    ).toBeTruthy();
    expect(panel.getByText("Text of sent e-mails: 90 days after sending")).toBeTruthy();
    expect(panel.getByText("Waiting list: when the cohort starts")).toBeTruthy();
    expect(panel.getByText(/unconfirmed sign-ups when their confirmation link lapses/)).toBeTruthy();
    expect(panel.getByText(/^Invoices and credit notes: kept as issued for 7 years/)).toBeTruthy();
    expect(panel.getByRole("heading", { level: 3, name: "The next run will remove" })).toBeTruthy();
    expect(panel.getByText(/viewing this page removes nothing/)).toBeTruthy();
    expect(panel.getByText(/^Last run: 28 Nov 2026, \d\d:00$/)).toBeTruthy();
    expect(panel.getByRole("table", { name: /What the next run will remove/ })).toBeTruthy();
    expect(retentionRows("Retention")).toEqual([
      ["Applicants (personal data erased)", "3", "2"],
      ["Passport and insurance files", "5", "4"],
      ["Waiting list entries", "0", "11"],
      ["Partnership inquiries and form messages", "1", "0"],
      ["Newsletter addresses (unconfirmed or unsubscribed)", "7", "1"],
      ["Texts of sent e-mails", "1,250", "40"],
      ["Names and addresses on invoices and credit notes", "0", "0"],
    ]);
  });

  it("says the job has not run yet, and writes a period of one in the singular", () => {
    show("en", JOBS, {
      ...RETENTION,
      periods: { applicationMonths: 1, inquiryMonths: 24, outboxDays: 1 },
      lastRun: null,
    });
    const panel = retentionPanel("Retention");
    expect(panel.getByText("Last run: not run yet")).toBeTruthy();
    expect(
      panel.getByText("Applicants’ personal data and files: 1 month after their cohort ends"),
    ).toBeTruthy();
    expect(panel.getByText("Text of sent e-mails: 1 day after sending")).toBeTruthy();
    expect(panel.getAllByRole("columnheader").map((cell) => cell.textContent)).toEqual(["Data", "Next run"]);
    expect(retentionRows("Retention")[5]).toEqual(["Texts of sent e-mails", "1,250"]);
  });

  it("writes the panel in French and Chinese", () => {
    show("fr");
    const fr = retentionPanel("Conservation des données");
    // The narrow no-break space kept (the default normalizer would read it as a plain space).
    expect(
      fr.getByText("Texte des e-mails envoyés\u202f: 90 jours après l’envoi", {
        normalizer: getDefaultNormalizer({ collapseWhitespace: false }),
      }),
    ).toBeTruthy();
    expect(retentionRows("Conservation des données")[5]).toEqual([
      "Textes des e-mails envoyés",
      "1\u202f250",
      "40",
    ]);
    cleanup();
    show("zh", JOBS, { ...RETENTION, lastRun: null });
    const zh = retentionPanel("数据保存期限");
    expect(zh.getByText("申请人的个人信息和文件：其班期结束后 12 个月")).toBeTruthy();
    expect(zh.getByText("上次运行：尚未运行")).toBeTruthy();
  });

  it("names the retention and mailing jobs in the job table", () => {
    const idle: AdminJobs["jobs"][number] = {
      name: "",
      everyMs: 60_000,
      runAtStart: true,
      running: false,
      lastStartedAt: null,
      lastDurationMs: null,
      lastOutcome: null,
      failures: 0,
    };
    show("en", {
      runsHere: true,
      jobs: [
        { ...idle, name: "retention", everyMs: 24 * 3_600_000 },
        { ...idle, name: "mailings-queue" },
      ],
    });
    expect(rowOf("Retention: deletes what")[0]).toBe("Every 24 hoursand at start-up");
    expect(screen.getByRole("rowheader", { name: /Messages: queues the e-mails/ })).toBeTruthy();
  });
});
