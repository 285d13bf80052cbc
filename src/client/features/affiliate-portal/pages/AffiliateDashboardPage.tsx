import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Suspense, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  getPartnerCommissionsContract,
  getPartnerStatsContract,
} from "../../../../shared/api/partner-portal";
import type { AffiliateStats } from "../../../../shared/schemas/affiliate-portal";
import { Notice } from "../../../components/account/auth";
import { inputClass } from "../../../components/ui/Field";
import { Card } from "../../../components/ui/Layout";
import { LoadBoundary, retryableLazy } from "../../../components/ui/LoadBoundary";
import { ScrollTable } from "../../../components/ui/ScrollTable";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useSignedInUser } from "../../../lib/session";
import { useSite } from "../../../lib/site";
import { AffiliatePage, affiliateKey, LoadError, plusDays, todayInTheHague } from "../components/shared";

/** recharts is loaded by this page only, after the figures (the other pages stay light). */
const StatsChart = retryableLazy(() => import("../components/StatsChart"));

/** The period choices of the overview, in days ending today (12 months: 365 days). */
const PERIODS = [
  { days: 7, key: "period7" },
  { days: 30, key: "period30" },
  { days: 90, key: "period90" },
  { days: 365, key: "period365" },
] as const;

/** One key figure. */
function Figure({ label, value, help }: { label: string; value: string; help?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4">
      <dt className="text-sm font-medium text-slate-700">{label}</dt>
      <dd className="mt-1 text-2xl font-bold text-brand-900">{value}</dd>
      {help ? <dd className="mt-1 text-xs text-slate-600">{help}</dd> : null}
    </div>
  );
}

/** The numbers of the chart, as a table (the accessible form of the chart). */
function StatsTable({ stats }: { stats: AffiliateStats }) {
  const { t } = useTranslation("affiliatePortal");
  const format = useFormat();
  const unit = t(stats.granularity === "week" ? "dashboard.unitWeek" : "dashboard.unitDay");
  const cell = "px-3 py-2 text-right tabular-nums";
  return (
    <ScrollTable
      caption={t("dashboard.tableCaption", { unit })}
      captionId="stats-caption"
      captionVisible
      minWidth="min-w-[36rem]"
      tableClassName="text-sm"
    >
      <thead>
        <tr className="border-b border-slate-300 text-slate-700">
          <th scope="col" className="px-3 py-2 text-left">
            {t("dashboard.date")}
          </th>
          <th scope="col" className="px-3 py-2 text-right">
            {t("dashboard.clicks")}
          </th>
          <th scope="col" className="px-3 py-2 text-right">
            {t("dashboard.applications")}
          </th>
          <th scope="col" className="px-3 py-2 text-right">
            {t("dashboard.paidEnrolments")}
          </th>
          <th scope="col" className="px-3 py-2 text-right">
            {t("dashboard.commissionEarned")}
          </th>
          <th scope="col" className="px-3 py-2 text-right">
            {t("dashboard.commissionClawedBack")}
          </th>
          <th scope="col" className="px-3 py-2 text-right">
            {t("dashboard.commissionNet")}
          </th>
        </tr>
      </thead>
      <tbody>
        {[...stats.buckets].reverse().map((b) => (
          <tr key={b.start} className="border-b border-slate-100">
            <th scope="row" className="px-3 py-2 text-left font-normal">
              {b.start === b.end
                ? format.date(b.start)
                : t("dashboard.week", { start: format.dayMonth(b.start), end: format.date(b.end) })}
            </th>
            <td className={cell}>{b.clicks}</td>
            <td className={cell}>{b.applications}</td>
            <td className={cell}>{b.paidEnrolments}</td>
            <td className={cell}>{format.money(b.commissionEarned)}</td>
            <td className={cell}>{format.money(b.commissionClawedBack)}</td>
            <td className={cell}>{format.money(b.commissionNet)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr className="border-t border-slate-300 font-semibold">
          <th scope="row" className="px-3 py-2 text-left">
            {t("dashboard.total")}
          </th>
          <td className={cell}>{stats.totals.clicks}</td>
          <td className={cell}>{stats.totals.applications}</td>
          <td className={cell}>{stats.totals.paidEnrolments}</td>
          <td className={cell}>{format.money(stats.totals.commissionEarned)}</td>
          <td className={cell}>{format.money(stats.totals.commissionClawedBack)}</td>
          <td className={cell}>{format.money(stats.totals.commissionNet)}</td>
        </tr>
      </tfoot>
    </ScrollTable>
  );
}

/**
 * The approved partner's overview (docs/product/portals.md#partner-area): key figures of the period
 * (GET /api/affiliate/stats), the commission by state (GET /api/affiliate/commissions), a chart over
 * time with period and campaign filters, and the same numbers in a table.
 */
function Overview() {
  const { t, i18n } = useTranslation("affiliatePortal");
  const format = useFormat();
  const periodId = useId();
  const campaignId = useId();
  const [days, setDays] = useState<number>(30);
  const [campaign, setCampaign] = useState("");
  const to = todayInTheHague();
  const from = plusDays(to, -(days - 1));
  const stats = useQuery({
    queryKey: affiliateKey("stats", from, to, campaign, i18n.language),
    queryFn: ({ signal }) => call(getPartnerStatsContract, { query: { from, to, campaign }, signal }),
    placeholderData: keepPreviousData,
  });
  const ledger = useQuery({
    queryKey: affiliateKey("commissions", i18n.language),
    queryFn: ({ signal }) => call(getPartnerCommissionsContract, { signal }),
  });
  const percent = (bp: number | null) =>
    bp === null
      ? t("dashboard.noConversion")
      : new Intl.NumberFormat(i18n.language, { style: "percent", maximumFractionDigits: 1 }).format(
          bp / 10_000,
        );

  return (
    <>
      <section aria-labelledby="filters-heading">
        <h2 id="filters-heading" className="sr-only">
          {t("dashboard.filters")}
        </h2>
        <div className="flex flex-wrap gap-4">
          <div>
            <label htmlFor={periodId} className="block text-sm font-medium text-slate-900">
              {t("dashboard.period")}
            </label>
            <select
              id={periodId}
              className={`${inputClass} mt-1`}
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
            >
              {PERIODS.map((p) => (
                <option key={p.days} value={p.days}>
                  {t(`dashboard.${p.key}`)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={campaignId} className="block text-sm font-medium text-slate-900">
              {t("dashboard.campaign")}
            </label>
            <select
              id={campaignId}
              className={`${inputClass} mt-1`}
              value={campaign}
              onChange={(event) => setCampaign(event.target.value)}
              aria-describedby={`${campaignId}-note`}
            >
              <option value="">{t("dashboard.allCampaigns")}</option>
              {(stats.data?.campaigns ?? []).map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p id={`${campaignId}-note`} className="mt-2 max-w-2xl text-sm text-slate-600">
          {t("dashboard.campaignNote")}
        </p>
      </section>

      {stats.isError ? <LoadError onRetry={() => void stats.refetch()} /> : null}
      {stats.isPending ? <Spinner /> : null}
      {stats.data ? (
        <section aria-labelledby="figures-heading">
          <h2 id="figures-heading" className="text-xl font-bold text-brand-900">
            {t("dashboard.figures")}
          </h2>
          <p className="mt-1 text-sm text-slate-700">
            {t("dashboard.range", { from: format.date(stats.data.from), to: format.date(stats.data.to) })}
          </p>
          <dl className="mt-4 grid grid-cols-2 gap-3 lg:grid-cols-4">
            <Figure label={t("dashboard.clicks")} value={String(stats.data.totals.clicks)} />
            <Figure label={t("dashboard.applications")} value={String(stats.data.totals.applications)} />
            <Figure label={t("dashboard.paidEnrolments")} value={String(stats.data.totals.paidEnrolments)} />
            <Figure
              label={t("dashboard.conversion")}
              value={percent(stats.data.totals.conversionBasisPoints)}
              help={t("dashboard.conversionHelp")}
            />
            <Figure
              label={t("dashboard.commissionEarned")}
              value={format.money(stats.data.totals.commissionEarned)}
            />
            <Figure
              label={t("dashboard.commissionClawedBack")}
              value={format.money(stats.data.totals.commissionClawedBack)}
              help={t("dashboard.commissionClawedBackHelp")}
            />
            <Figure
              label={t("dashboard.commissionNet")}
              value={format.money(stats.data.totals.commissionNet)}
            />
          </dl>
          <p className="mt-2 text-sm text-slate-700">{t("dashboard.paidEnrolmentsHelp")}</p>
        </section>
      ) : null}

      <section aria-labelledby="balances-heading">
        <h2 id="balances-heading" className="text-xl font-bold text-brand-900">
          {t("dashboard.balances")}
        </h2>
        {ledger.isError ? <LoadError onRetry={() => void ledger.refetch()} /> : null}
        {ledger.data ? (
          <>
            <dl className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
              <Figure label={t("dashboard.pending")} value={format.money(ledger.data.totals.pending)} />
              <Figure label={t("dashboard.approved")} value={format.money(ledger.data.totals.approved)} />
              <Figure label={t("dashboard.paid")} value={format.money(ledger.data.totals.paid)} />
            </dl>
            <p className="mt-3">
              <Link to="/affiliate/commissions" className="font-medium text-brand-700 underline">
                {t("dashboard.allCommissions")}
              </Link>
            </p>
          </>
        ) : null}
      </section>

      {stats.data ? (
        <section aria-labelledby="chart-heading">
          <Card>
            <h2 id="chart-heading" className="text-xl font-bold text-brand-900">
              {t("dashboard.chartTitle")}
            </h2>
            <p className="sr-only">{t("dashboard.chartAlt")}</p>
            <div className="mt-4">
              <LoadBoundary>
                <Suspense fallback={<p className="text-sm text-slate-600">{t("dashboard.loadingChart")}</p>}>
                  <StatsChart buckets={stats.data.buckets} />
                </Suspense>
              </LoadBoundary>
            </div>
            <div className="mt-6">
              <StatsTable stats={stats.data} />
            </div>
          </Card>
        </section>
      ) : null}
    </>
  );
}

/**
 * /affiliate/dashboard: the partner's overview once approved (docs/product/portals.md#partner-area); while pending, what happens
 * next; when suspended or rejected, who to write to.
 */
export default function AffiliateDashboardPage() {
  const { t } = useTranslation(["affiliatePortal", "account"]);
  const user = useSignedInUser("affiliate");
  const { supportEmail } = useSite();
  if (user.status === "approved") {
    return (
      <AffiliatePage
        title={t("account:affiliate.dashboard.heading", { name: user.name })}
        lead={t("dashboard.lead")}
      >
        <Overview />
      </AffiliatePage>
    );
  }
  return (
    <AffiliatePage title={t("account:affiliate.dashboard.heading", { name: user.name })}>
      <p className="max-w-2xl text-slate-700">
        {t("account:affiliate.dashboard.statusLine")}{" "}
        <strong className="font-semibold text-slate-900">
          {t(`account:affiliate.status.${user.status}`)}
        </strong>
      </p>
      {user.status === "pending" ? (
        <Card>
          <h2 className="text-xl font-bold text-brand-900">
            {t("account:affiliate.dashboard.pendingTitle")}
          </h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-700">
            <li>{t("account:affiliate.registerSuccess.step1")}</li>
            <li>{t("account:affiliate.registerSuccess.step2")}</li>
            <li>{t("account:affiliate.registerSuccess.step3")}</li>
          </ol>
        </Card>
      ) : (
        <Notice tone="error" title={t("account:affiliate.dashboard.suspendedTitle")}>
          <p>{t("account:affiliate.dashboard.suspended", { email: supportEmail })}</p>
        </Notice>
      )}
      <p className="text-slate-700">{t("account:affiliate.dashboard.questions", { email: supportEmail })}</p>
    </AffiliatePage>
  );
}
