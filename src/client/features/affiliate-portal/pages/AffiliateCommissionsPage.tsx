import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { type CommissionEntryDto, commissionLedgerSchema } from "../../../../shared/schemas/commissions";
import { Card } from "../../../components/ui/Layout";
import { ScrollRegion } from "../../../components/ui/ScrollRegion";
import { Spinner } from "../../../components/ui/Spinner";
import { apiParsed } from "../../../lib/api";
import { useFormat } from "../../../lib/format";
import { useVatContext } from "../../../lib/vat";
import { AffiliatePage, affiliateKey, LoadError, todayInTheHague } from "../components/shared";

const KIND_KEYS: Record<CommissionEntryDto["kind"], string> = {
  payment: "commissions.kindPayment",
  refund: "commissions.kindRefund",
  adjustment: "commissions.kindAdjustment",
};

/**
 * /affiliate/commissions (issue 12; decision 022): the ledger from GET /api/affiliate/commissions,
 * the same as the admin's affiliate detail: the rate, totals by state, the minimum payout and the
 * hold explained from the data, then every entry (kind, with an adjustment's reason; state; amount;
 * date and end of the hold; student's short name and cohort).
 */
export default function AffiliateCommissionsPage() {
  const { t, i18n } = useTranslation("affiliatePortal");
  const vatCtx = useVatContext();
  const format = useFormat();
  const ledger = useQuery({
    queryKey: affiliateKey("commissions", i18n.language),
    queryFn: ({ signal }) => apiParsed(commissionLedgerSchema, "/api/affiliate/commissions", { signal }),
  });
  const data = ledger.data;
  const head = "px-3 py-2 text-left font-semibold";
  return (
    <AffiliatePage title={t("commissions.title")} lead={t("commissions.lead")}>
      {ledger.isPending ? <Spinner /> : null}
      {ledger.isError ? <LoadError onRetry={() => void ledger.refetch()} /> : null}
      {data ? (
        <>
          <section aria-labelledby="totals-heading">
            <Card>
              <h2 id="totals-heading" className="text-xl font-bold text-brand-900">
                {t("commissions.totals")}
              </h2>
              <p className="mt-2 text-slate-700">
                {t("commissions.rateLine", {
                  rate:
                    data.rate.type === "percentage"
                      ? t("commissions.ratePercent", { percent: data.rate.percent, context: vatCtx })
                      : t("commissions.rateFixed", { amount: format.money(data.rate.fixedCents) }),
                })}
              </p>
              <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
                {(
                  [
                    ["pending", data.totals.pending],
                    ["approved", data.totals.approved],
                    ["in_payout", data.totals.inPayout],
                    ["paid", data.totals.paid],
                    ["clawedBack", data.totals.clawedBack],
                  ] as const
                ).map(([key, amount]) => (
                  <div key={key} className="rounded-lg border border-slate-200 bg-white p-3">
                    <dt className="text-sm text-slate-700">{t(`commissions.${key}`)}</dt>
                    <dd className="mt-1 text-lg font-bold text-brand-900 tabular-nums">
                      {format.money(amount)}
                    </dd>
                  </div>
                ))}
              </dl>
              <h3 className="mt-6 font-semibold text-brand-900">{t("commissions.holdTitle")}</h3>
              <p className="mt-1 max-w-2xl text-slate-700">{t("commissions.hold")}</p>
              <p className="mt-2 max-w-2xl text-slate-700">
                {t("commissions.minimum", { amount: format.money(data.minimumPayout) })}{" "}
                {data.totals.approved >= data.minimumPayout && data.totals.approved > 0
                  ? t("commissions.minimumReached")
                  : t("commissions.minimumMissing", {
                      amount: format.money(data.minimumPayout - Math.max(0, data.totals.approved)),
                    })}
              </p>
            </Card>
          </section>
          <section aria-labelledby="entries-caption">
            <Card>
              {data.entries.length === 0 ? (
                <p id="entries-caption" className="text-slate-700">
                  {t("commissions.none")}
                </p>
              ) : (
                <ScrollRegion labelledBy="entries-caption">
                  <table className="w-full min-w-[44rem] text-sm">
                    <caption id="entries-caption" className="mb-2 text-left font-semibold text-brand-900">
                      {t("commissions.caption")}
                    </caption>
                    <thead>
                      <tr className="border-b border-slate-300 text-slate-700">
                        <th scope="col" className={head}>
                          {t("commissions.date")}
                        </th>
                        <th scope="col" className={head}>
                          {t("commissions.kind")}
                        </th>
                        <th scope="col" className={head}>
                          {t("commissions.student")}
                        </th>
                        <th scope="col" className={head}>
                          {t("commissions.state")}
                        </th>
                        <th scope="col" className="px-3 py-2 text-right font-semibold">
                          {t("commissions.amount")}
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {data.entries.map((entry) => (
                        <tr key={entry.id} className="border-b border-slate-100 align-top">
                          <th scope="row" className="px-3 py-2 text-left font-normal whitespace-nowrap">
                            {format.date(todayInTheHague(new Date(entry.createdAt)))}
                          </th>
                          <td className="px-3 py-2">
                            {t(KIND_KEYS[entry.kind])}
                            {entry.kind === "adjustment" && entry.reason ? (
                              <span className="block text-slate-600">{entry.reason}</span>
                            ) : null}
                          </td>
                          <td className="px-3 py-2">
                            {entry.application ? (
                              <>
                                {entry.application.studentName}
                                <span className="block text-slate-600">{entry.application.cohortName}</span>
                              </>
                            ) : (
                              t("commissions.noStudent")
                            )}
                          </td>
                          <td className="px-3 py-2">
                            {t(`commissions.${entry.state}`)}
                            {entry.state === "pending" ? (
                              <span className="block text-slate-600">
                                {t("commissions.availableAt", {
                                  date: format.date(todayInTheHague(new Date(entry.availableAt))),
                                })}
                              </span>
                            ) : null}
                          </td>
                          <td className="px-3 py-2 text-right tabular-nums">{format.money(entry.amount)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </ScrollRegion>
              )}
            </Card>
          </section>
        </>
      ) : null}
    </AffiliatePage>
  );
}
