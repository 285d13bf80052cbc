import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { getPartnerCommissionsContract } from "../../../../shared/api/partner-portal";
import { CommissionLedgerTable } from "../../../components/commissions/CommissionLedgerTable";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useVatContext } from "../../../lib/vat";
import { AffiliatePage, affiliateKey, LoadError, todayInTheHague } from "../components/shared";

/**
 * /affiliate/commissions (docs/product/portals.md#partner-area; decision 022): the ledger from GET /api/affiliate/commissions,
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
    queryFn: ({ signal }) => call(getPartnerCommissionsContract, { signal }),
  });
  const data = ledger.data;
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
                <CommissionLedgerTable
                  entries={data.entries}
                  captionId="entries-caption"
                  captionVisible
                  date={(iso) => format.date(todayInTheHague(new Date(iso)))}
                  labels={{
                    caption: t("commissions.caption"),
                    columns: {
                      date: t("commissions.date"),
                      kind: t("commissions.kind"),
                      student: t("commissions.student"),
                      state: t("commissions.state"),
                      amount: t("commissions.amount"),
                    },
                    kind: {
                      payment: t("commissions.kindPayment"),
                      refund: t("commissions.kindRefund"),
                      adjustment: t("commissions.kindAdjustment"),
                    },
                    state: {
                      pending: t("commissions.pending"),
                      approved: t("commissions.approved"),
                      in_payout: t("commissions.in_payout"),
                      paid: t("commissions.paid"),
                    },
                    noStudent: t("commissions.noStudent"),
                    heldUntil: (entry) =>
                      t("commissions.availableAt", {
                        date: format.date(todayInTheHague(new Date(entry.availableAt))),
                      }),
                  }}
                />
              )}
            </Card>
          </section>
        </>
      ) : null}
    </AffiliatePage>
  );
}
