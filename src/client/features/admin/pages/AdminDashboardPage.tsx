import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { AuditEntryDto } from "../../../../shared/admin";
import { getDashboardContract } from "../../../../shared/api/admin-applications";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import { APPLICATION_STATUSES } from "../../../../shared/schemas/admin";
import { Notice } from "../../../components/account/auth";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useVatContext } from "../../../lib/vat";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import { BalancesPanel } from "../components/finance/BalancesPanel";
import { adminKeys } from "../permissions";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** One audit entry in words: what was done, by whom, when; a link to the application when there is one. */
function ActivityItem({ entry }: { entry: AuditEntryDto }) {
  const { t } = useTranslation("admin");
  const { dateTime } = useDateTime();
  const action = t(`activity.actions.${entry.action.replace(/\./g, "_")}`, { defaultValue: entry.action });
  const after = entry.after as { status?: string } | null;
  const detail =
    entry.action === "application.status" && typeof after?.status === "string"
      ? t("activity.statusTo", { status: t(`status.${after.status}`, { defaultValue: after.status }) })
      : null;
  return (
    <li className="flex flex-col gap-1 border-b border-slate-100 py-3 last:border-0 sm:flex-row sm:items-baseline sm:justify-between sm:gap-4">
      <div className="min-w-0">
        <p className="font-medium text-slate-900">
          {entry.entityType === "application" && UUID.test(entry.entityId) ? (
            <Link to={`/admin/applications/${entry.entityId}`} className="text-brand-700 underline">
              {action}
            </Link>
          ) : (
            action
          )}
          {detail ? <span className="font-normal text-slate-700"> · {detail}</span> : null}
        </p>
        <p className="text-sm break-words text-slate-700">
          {entry.actorEmail ?? t(`activity.actors.${entry.actorRole}`)}
        </p>
      </div>
      <p className="shrink-0 text-sm text-slate-700">
        <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
      </p>
    </li>
  );
}

/**
 * /admin/dashboard: applications by status (each a link to the filtered list), paid revenue, the
 * fill rate of each cohort as a bar with its figures in words, and the latest activity.
 */
export default function AdminDashboardPage() {
  const { t } = useTranslation("admin");
  const vatCtx = useVatContext();
  const format = useFormat();
  const dashboard = useQuery({
    queryKey: adminKeys.dashboard(),
    queryFn: () => call(getDashboardContract),
  });
  const percent = new Intl.NumberFormat(LOCALE_OF[format.language], {
    style: "percent",
    maximumFractionDigits: 0,
  });

  let body: ReactNode;
  if (dashboard.isPending) body = <Spinner />;
  else if (dashboard.isError)
    body = (
      <Notice tone="error" title={t("common:loadError")}>
        <p>{dashboard.error.message}</p>
      </Notice>
    );
  else {
    const data = dashboard.data;
    const total = APPLICATION_STATUSES.reduce((sum, status) => sum + (data.byStatus[status] ?? 0), 0);
    body = (
      <div className="grid gap-6 xl:grid-cols-2">
        <Panel title={t("dashboard.figures")} id="figures-heading">
          <dl className="grid gap-4 sm:grid-cols-2">
            <div className="rounded-lg bg-brand-50 p-4">
              <dt className="text-sm text-slate-700">{t("dashboard.revenue")}</dt>
              <dd className="mt-1 text-2xl font-bold break-words text-brand-900">
                {format.money(data.paidRevenue)}
              </dd>
            </div>
            <div className="rounded-lg bg-brand-50 p-4">
              <dt className="text-sm text-slate-700">{t("dashboard.total")}</dt>
              <dd className="mt-1 text-2xl font-bold text-brand-900">{total}</dd>
            </div>
          </dl>
          <p className="mt-3 text-sm text-slate-700">{t("dashboard.revenueHelp", { context: vatCtx })}</p>
        </Panel>
        <BalancesPanel />
        <Panel title={t("dashboard.byStatus")} id="status-heading">
          <ul className="grid gap-2 sm:grid-cols-2">
            {APPLICATION_STATUSES.map((status) => (
              <li key={status}>
                <Link
                  to={`/admin/applications?status=${status}`}
                  className="flex items-center justify-between rounded-lg border border-slate-200 px-3 py-2 hover:bg-brand-50"
                >
                  <span className="text-brand-800 underline">{t(`status.${status}`)}</span>
                  <span className="font-semibold text-slate-900">{data.byStatus[status] ?? 0}</span>
                </Link>
              </li>
            ))}
          </ul>
        </Panel>
        <Panel title={t("dashboard.cohorts")} id="cohorts-heading">
          {data.cohorts.length === 0 ? (
            <p className="text-slate-700">{t("dashboard.noCohorts")}</p>
          ) : (
            <ul className="space-y-4">
              {data.cohorts.map((cohort) => (
                <li key={cohort.id}>
                  <div className="flex flex-wrap items-baseline justify-between gap-x-3">
                    <p className="font-medium text-slate-900">
                      {cohort.name}{" "}
                      <span className="font-normal text-slate-700">· {format.date(cohort.startDate)}</span>
                    </p>
                    <p className="text-sm text-slate-800">
                      {t("dashboard.fill", {
                        paid: cohort.paid,
                        capacity: cohort.capacity,
                        percent: percent.format(cohort.fillRate),
                      })}
                    </p>
                  </div>
                  <div className="mt-2 h-3 overflow-hidden rounded-full bg-slate-200" aria-hidden="true">
                    <div
                      className={cohort.fillRate >= 1 ? "h-full bg-accent-600" : "h-full bg-brand-600"}
                      style={{ width: `${Math.min(100, Math.round(cohort.fillRate * 100))}%` }}
                    />
                  </div>
                </li>
              ))}
            </ul>
          )}
        </Panel>
        <Panel title={t("dashboard.recent")} id="recent-heading">
          {data.recent.length === 0 ? (
            <p className="text-slate-700">{t("dashboard.noActivity")}</p>
          ) : (
            <ul>
              {data.recent.map((entry) => (
                <ActivityItem key={entry.id} entry={entry} />
              ))}
            </ul>
          )}
        </Panel>
      </div>
    );
  }

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader title={t("dashboard.title")} lead={t("dashboard.lead")} />
      <div className="mt-6">{body}</div>
    </div>
  );
}
