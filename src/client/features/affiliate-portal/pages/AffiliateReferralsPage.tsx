import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { listPartnerReferralsContract } from "../../../../shared/api/partner-portal";
import type { Referral } from "../../../../shared/schemas/affiliate-portal";
import { Card } from "../../../components/ui/Layout";
import { ScrollTable } from "../../../components/ui/ScrollTable";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { AffiliatePage, affiliateKey, LoadError, todayInTheHague } from "../components/shared";

/** The commission of one referral, by state (only the states with an amount). */
function CommissionSummary({ commission }: { commission: Referral["commission"] }) {
  const { t } = useTranslation("affiliatePortal");
  const format = useFormat();
  const states = (["pending", "approved", "in_payout", "paid"] as const).filter((s) => commission[s] !== 0);
  if (states.length === 0) return <>{t("referrals.commissionNone")}</>;
  return (
    <ul>
      {states.map((s) => (
        <li key={s}>
          {t("referrals.commissionLine", {
            state: t(`commissions.${s}`),
            amount: format.money(commission[s]),
          })}
        </li>
      ))}
    </ul>
  );
}

/**
 * /affiliate/referrals (docs/product/catalogue-and-pricing.md#code-discounts): the applications made with the partner's code or link, from GET
 * /api/affiliate/referrals: first name and initial only (GDPR), cohort, date, statuses and the
 * commission by state. A table scrolling sideways on narrow screens, with a caption.
 */
export default function AffiliateReferralsPage() {
  const { t, i18n } = useTranslation("affiliatePortal");
  const format = useFormat();
  const list = useQuery({
    queryKey: affiliateKey("referrals", i18n.language),
    queryFn: ({ signal }) => call(listPartnerReferralsContract, { signal }),
  });
  const head = "px-3 py-2 text-left font-semibold";
  return (
    <AffiliatePage title={t("referrals.title")} lead={t("referrals.lead")}>
      {list.isPending ? <Spinner /> : null}
      {list.isError ? <LoadError onRetry={() => void list.refetch()} /> : null}
      {list.data && list.data.referrals.length === 0 ? (
        <Card>
          <p className="text-slate-700">{t("referrals.none")}</p>
        </Card>
      ) : null}
      {list.data && list.data.referrals.length > 0 ? (
        <Card>
          <ScrollTable
            caption={t("referrals.caption")}
            captionId="referrals-caption"
            captionVisible
            minWidth="min-w-[44rem]"
            tableClassName="text-sm"
          >
            <thead>
              <tr className="border-b border-slate-300 text-slate-700">
                <th scope="col" className={head}>
                  {t("referrals.student")}
                </th>
                <th scope="col" className={head}>
                  {t("referrals.cohort")}
                </th>
                <th scope="col" className={head}>
                  {t("referrals.created")}
                </th>
                <th scope="col" className={head}>
                  {t("referrals.status")}
                </th>
                <th scope="col" className={head}>
                  {t("referrals.payment")}
                </th>
                <th scope="col" className={head}>
                  {t("referrals.commission")}
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.referrals.map((r, index) => (
                // Referrals carry no id (GDPR: nothing that identifies the applicant); the order is stable.
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <tr key={index} className="border-b border-slate-100 align-top">
                  <th scope="row" className="px-3 py-2 text-left font-medium">
                    {r.studentName}
                  </th>
                  <td className="px-3 py-2">{r.cohortName}</td>
                  <td className="px-3 py-2 whitespace-nowrap">
                    {format.date(todayInTheHague(new Date(r.createdAt)))}
                  </td>
                  <td className="px-3 py-2">{t(`referrals.applicationStatus.${r.status}`, r.status)}</td>
                  <td className="px-3 py-2">
                    {t(`referrals.paymentStatus.${r.paymentStatus}`, r.paymentStatus)}
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    <CommissionSummary commission={r.commission} />
                  </td>
                </tr>
              ))}
            </tbody>
          </ScrollTable>
        </Card>
      ) : null}
    </AffiliatePage>
  );
}
