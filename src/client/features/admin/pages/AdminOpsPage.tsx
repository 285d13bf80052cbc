import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { listJobsContract } from "../../../../shared/api/ops";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import type { AdminJobs, JobStatus } from "../../../../shared/ops";
import { cn } from "../../../components/ui/cn";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";

/** Query key of the job table (under ["admin"], dropped at logout). */
const jobsKey = ["admin", "ops", "jobs"] as const;

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
 * /admin/operations (owners: permission `ops:read`, decision 039): the server's background jobs
 * (`GET /api/admin/ops/jobs`), each with its name, how often it runs, and its last run's start
 * (date and time in the page's language), duration, outcome and the failures since start-up.
 * Asks again every 30 s. A server process that does not run the jobs says so.
 */
export default function AdminOpsPage() {
  const { t } = useTranslation("admin");
  const jobs = useQuery({
    queryKey: jobsKey,
    queryFn: ({ signal }) => call(listJobsContract, { signal }),
    refetchInterval: REFRESH_MS,
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
    </div>
  );
}
