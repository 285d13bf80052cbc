import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { getBalanceSummaryContract } from "../../../../../shared/api/balances";
import { Notice } from "../../../../components/account/auth";
import { Spinner } from "../../../../components/ui/Spinner";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { Panel } from "../common";

/** Query key of the balance summary (under ["admin"], dropped at logout). */
export const balanceSummaryKey = () => ["admin", "balances", "summary"] as const;

/**
 * Outstanding and overdue balances (docs/product/payments.md#deposit-and-balance): the amount owed and the number of
 * applications, each a link to the application list filtered by that payment state
 * ("deposit paid, balance due" and "balance overdue"). Reads `GET /api/admin/balances/summary`
 * (applications:read), parsed with `balanceSummarySchema`. Used on /admin/dashboard and
 * /admin/finances.
 */
export function BalancesPanel({ id = "balances-heading" }: { id?: string }) {
  const { t } = useTranslation("admin");
  const format = useFormat();
  const summary = useQuery({
    queryKey: balanceSummaryKey(),
    queryFn: ({ signal }) => call(getBalanceSummaryContract, { signal }),
  });
  const overdue = summary.data?.overdue;
  const outstanding = summary.data?.outstanding;
  return (
    <Panel title={t("balances.title")} id={id}>
      {summary.isPending ? (
        <Spinner />
      ) : summary.isError || !outstanding || !overdue ? (
        <Notice tone="error" title={t("common:loadError")}>
          <p>{summary.error?.message}</p>
        </Notice>
      ) : (
        <>
          <dl className="grid gap-4 sm:grid-cols-2">
            <div className="rounded-lg bg-brand-50 p-4">
              <dt className="text-sm text-slate-700">{t("balances.due")}</dt>
              <dd className="mt-1 text-2xl font-bold break-words text-brand-900">
                {format.money(outstanding.amount - overdue.amount)}
              </dd>
              <dd className="mt-1 text-sm">
                <Link
                  to="/admin/applications?paymentStatus=deposit_paid"
                  className="text-brand-700 underline"
                >
                  {t("balances.applications", { count: outstanding.count - overdue.count })}
                </Link>
              </dd>
            </div>
            <div className={overdue.count > 0 ? "rounded-lg bg-red-50 p-4" : "rounded-lg bg-brand-50 p-4"}>
              <dt className="text-sm text-slate-700">{t("balances.overdue")}</dt>
              <dd
                className={`mt-1 text-2xl font-bold break-words ${overdue.count > 0 ? "text-red-800" : "text-brand-900"}`}
              >
                {format.money(overdue.amount)}
              </dd>
              <dd className="mt-1 text-sm">
                <Link
                  to="/admin/applications?paymentStatus=balance_overdue"
                  className="text-brand-700 underline"
                >
                  {t("balances.applications", { count: overdue.count })}
                </Link>
              </dd>
            </div>
          </dl>
          <p className="mt-3 font-medium text-slate-900">
            {t("balances.total", { amount: format.money(outstanding.amount) })}
          </p>
          <p className="mt-1 text-sm text-slate-700">{t("balances.help")}</p>
        </>
      )}
    </Panel>
  );
}
