import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { listJobsContract } from "../../../../shared/api/ops";
import { getRetentionContract, type RetentionOverviewDto } from "../../../../shared/api/retention";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import type { AdminJobs, JobStatus } from "../../../../shared/ops";
import { RETENTION_KINDS } from "../../../../shared/retention";
import { cn } from "../../../components/ui/cn";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";

/** Query key of the job table (under ["admin"], dropped at logout). */
const jobsKey = ["admin", "ops", "jobs"] as const;

/** Query key of the retention panel (under ["admin"], dropped at logout). */
const retentionKey = ["admin", "ops", "retention"] as const;

/** How often the page asks again, in ms: a mail flush runs every 30 s. */
const REFRESH_MS = 30_000;

/** The interval `everyMs` for people: "Every 5 minutes" (hours, minutes or seconds, whichever divides it). */
function useInterval() {
  const { t } = useTranslation("admin");
  return (everyMs: number) => {
    const seconds = Math.round(everyMs / 1000);
    const [unit, count] =
      seconds % 3600 === 0
        ? (["hour", seconds / 3600] as const)
        : seconds % 60 === 0
          ? (["minute", seconds / 60] as const)
          : (["second", seconds] as const);
    // "Every hour", or "Every 2 hours" (a count of 2 or more: no plural rules needed).
    return count === 1 ? t(`ops.every.${unit}`) : t(`ops.every.${unit}s`, { count });
  };
}

const OUTCOME_CLASS: Record<NonNullable<JobStatus["lastOutcome"]>, string> = {
  ok: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-900",
  skipped: "bg-slate-100 text-slate-800",
};

/** The job table: one row per job, with its last run in the process that runs the jobs. */
function JobTable({ data }: { data: AdminJobs }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const { dateTime } = useDateTime();
  const interval = useInterval();
  const seconds = (ms: number) =>
    t("ops.seconds", {
      seconds: new Intl.NumberFormat(LOCALE_OF[language], {
        maximumFractionDigits: ms < 1000 ? 3 : 1,
      }).format(ms / 1000),
    });
  const headers = ["job", "interval", "lastRun", "duration", "outcome", "failures"] as const;
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[52rem] text-left text-sm" aria-describedby="ops-jobs-caption">
        <caption id="ops-jobs-caption" className="sr-only">
          {t("ops.caption")}
        </caption>
        <thead className="border-b border-slate-200 text-slate-700">
          <tr>
            {headers.map((column) => (
              <th key={column} scope="col" className="px-3 py-2 font-semibold">
                {t(`ops.columns.${column}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {data.jobs.map((job) => (
            <tr key={job.name} className="align-top">
              <th scope="row" className="px-3 py-3 font-normal">
                <div className="font-semibold text-slate-900">
                  {t(`ops.jobs.${job.name}`, { defaultValue: job.name })}
                </div>
                <div className="font-mono text-xs text-slate-700">{job.name}</div>
              </th>
              <td className="px-3 py-3 text-slate-800">
                {interval(job.everyMs)}
                {job.runAtStart ? <div className="text-xs text-slate-700">{t("ops.atStart")}</div> : null}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                {job.lastStartedAt ? dateTime(job.lastStartedAt) : t("ops.notRunYet")}
                {job.running ? (
                  <div className="text-xs font-semibold text-brand-800">{t("ops.running")}</div>
                ) : null}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                {job.lastDurationMs === null ? "—" : seconds(job.lastDurationMs)}
              </td>
              <td className="px-3 py-3">
                {job.lastOutcome ? (
                  <span
                    className={cn(
                      "rounded-full px-2 py-0.5 text-xs font-semibold",
                      OUTCOME_CLASS[job.lastOutcome],
                    )}
                  >
                    {t(`ops.outcome.${job.lastOutcome}`)}
                  </span>
                ) : (
                  "—"
                )}
              </td>
              <td
                className={cn(
                  "px-3 py-3 tabular-nums",
                  job.failures > 0 ? "font-semibold text-red-800" : "text-slate-800",
                )}
              >
                {new Intl.NumberFormat(LOCALE_OF[language]).format(job.failures)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * The retention panel's content (docs/product/privacy.md#retention-periods): the periods in force in
 * words (the settings, with the fixed rules of the waiting list and the newsletter), then one table
 * row per kind with what the next run will remove (the server's dry run: viewing removes nothing)
 * and, once the job has run, what its last run removed, with that run's date and time.
 */
function RetentionOverview({ data }: { data: RetentionOverviewDto }) {
  const { t } = useTranslation("admin");
  const language = useLanguage();
  const { dateTime } = useDateTime();
  const number = new Intl.NumberFormat(LOCALE_OF[language]);
  const { periods, next, lastRun } = data;
  const rules = [
    t("ops.retention.periods.applicants", { count: periods.applicationMonths }),
    t("ops.retention.periods.inquiries", { count: periods.inquiryMonths }),
    t("ops.retention.periods.outboxBodies", { count: periods.outboxDays }),
    t("ops.retention.periods.waitingList"),
    t("ops.retention.periods.newsletter"),
    t("ops.retention.periods.invoices"),
  ];
  return (
    <>
      <h3 className="text-base font-semibold text-slate-900">{t("ops.retention.periodsTitle")}</h3>
      <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-slate-800">
        {rules.map((rule) => (
          <li key={rule}>{rule}</li>
        ))}
      </ul>
      <h3 className="mt-6 text-base font-semibold text-slate-900">{t("ops.retention.nextTitle")}</h3>
      <p className="mt-1 text-sm text-slate-700">{t("ops.retention.dryRun")}</p>
      <p className="mt-1 text-sm text-slate-700">
        {lastRun ? t("ops.retention.lastRun", { at: dateTime(lastRun.at) }) : t("ops.retention.neverRun")}
      </p>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[32rem] text-left text-sm" aria-describedby="ops-retention-caption">
          <caption id="ops-retention-caption" className="sr-only">
            {t(lastRun ? "ops.retention.captionWithLast" : "ops.retention.caption")}
          </caption>
          <thead className="border-b border-slate-200 text-slate-700">
            <tr>
              <th scope="col" className="px-3 py-2 font-semibold">
                {t("ops.retention.columns.kind")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t("ops.retention.columns.next")}
              </th>
              {lastRun ? (
                <th scope="col" className="px-3 py-2 text-right font-semibold">
                  {t("ops.retention.columns.last")}
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {RETENTION_KINDS.map((kind) => (
              <tr key={kind}>
                <th scope="row" className="px-3 py-2 font-normal text-slate-900">
                  {t(`ops.retention.kinds.${kind}`)}
                </th>
                <td className="px-3 py-2 text-right tabular-nums text-slate-800">
                  {number.format(next[kind])}
                </td>
                {lastRun ? (
                  <td className="px-3 py-2 text-right tabular-nums text-slate-800">
                    {number.format(lastRun.counts[kind])}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

/**
 * /admin/operations (owners: permission `ops:read`, decision 039): the server's background jobs
 * (`GET /api/admin/ops/jobs`), each with its name, how often it runs, and its last run's start
 * (date and time in the page's language), duration, outcome and the failures since start-up.
 * Asks again every 30 s. A server process that does not run the jobs says so. Below, the retention
 * panel (`GET /api/admin/retention`, asked once per visit): the periods in force, what the next run
 * will remove (a dry run) and the last run (docs/product/privacy.md#retention-periods).
 */
export default function AdminOpsPage() {
  const { t } = useTranslation("admin");
  const jobs = useQuery({
    queryKey: jobsKey,
    queryFn: ({ signal }) => call(listJobsContract, { signal }),
    refetchInterval: REFRESH_MS,
  });
  const retention = useQuery({
    queryKey: retentionKey,
    queryFn: ({ signal }) => call(getRetentionContract, { signal }),
  });
  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader title={t("ops.title")} lead={t("ops.lead")} />
      <Panel title={t("ops.jobsTitle")} id="ops-jobs" className="mt-6">
        {jobs.isPending ? (
          <p className="text-sm text-slate-700" role="status">
            {t("list.loading")}
          </p>
        ) : jobs.isError ? (
          <p className="text-sm text-red-800" role="alert">
            {t("ops.loadFailed")}
          </p>
        ) : (
          <>
            {jobs.data.runsHere ? null : (
              <p className="mb-4 text-sm text-slate-700">{t("ops.otherProcess")}</p>
            )}
            <JobTable data={jobs.data} />
          </>
        )}
      </Panel>
      <Panel title={t("ops.retention.title")} id="ops-retention" className="mt-6">
        <p className="mb-4 text-sm text-slate-700">{t("ops.retention.lead")}</p>
        {retention.isPending ? (
          <p className="text-sm text-slate-700" role="status">
            {t("list.loading")}
          </p>
        ) : retention.isError ? (
          <p className="text-sm text-red-800" role="alert">
            {t("ops.retention.loadFailed")}
          </p>
        ) : (
          <RetentionOverview data={retention.data} />
        )}
      </Panel>
    </div>
  );
}
