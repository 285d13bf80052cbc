import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { AdminAffiliateDto } from "../../../../shared/affiliates-admin";
import { getAffiliateContract } from "../../../../shared/api/partners-admin";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { HeaderCell } from "../components/AdminListFrame";
import { type AffiliateAction, AffiliateActionDialog } from "../components/codes/AffiliateActions";
import {
  AffiliateLedgerPanel,
  CommissionForm,
  DuplicateAdjustmentsPanel,
  RejectDialog,
} from "../components/codes/AffiliateCommissions";
import {
  AffiliateStatusBadge,
  CodeStateBadge,
  codeKeys,
  useDiscountLabel,
  useRateLabel,
  useUsesLabel,
} from "../components/codes/shared";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import {
  ApplicantCell,
  ApplicationStatusCell,
  BackLink,
  DetailFrame,
  DetailItem,
  DetailList,
  DetailLoadError,
  DetailTable,
} from "../components/forms";

/**
 * /admin/affiliates/:id (docs/product/back-office.md#partners-admin): the affiliate's details and
 * figures (clicks, referred and paid applications, paid revenue, commission owed and paid from the
 * ledger), approve / reject with a reason / suspend / reactivate, the rate form (percentage or
 * fixed per student), the commission ledger with adjustments and its CSV, its codes with their
 * usage, and its newest referred applications linking to /admin/applications/:id.
 */
export default function AdminAffiliateDetailPage() {
  const { t } = useTranslation("adminCodes");
  const { id = "" } = useParams();
  const format = useFormat();
  const { dateTime, date } = useDateTime();
  const discount = useDiscountLabel();
  const usesLabel = useUsesLabel();
  const rateLabel = useRateLabel();
  const [rejecting, setRejecting] = useState(false);
  const [pending, setPending] = useState<{ affiliate: AdminAffiliateDto; action: AffiliateAction } | null>(
    null,
  );
  const detail = useQuery({
    queryKey: codeKeys.affiliate(id),
    queryFn: ({ signal }) => call(getAffiliateContract, { params: { id }, signal }),
  });

  const back = <BackLink to="/admin/affiliates">{t("detailAffiliate.back")}</BackLink>;
  if (detail.isPending) return <Spinner />;
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <DetailLoadError
        back={back}
        title={notFound ? t("detailAffiliate.notFound") : t("detailAffiliate.title")}
        message={detail.error.message}
      />
    );
  }

  const a = detail.data;
  return (
    <DetailFrame back={back}>
      <AdminPageHeader
        title={a.name}
        lead={
          <div className="flex flex-wrap items-center gap-2">
            <AffiliateStatusBadge status={a.status} />
            <span className="break-all">{a.email}</span>
          </div>
        }
        actions={
          <>
            {a.status !== "approved" ? (
              <Button
                size="sm"
                onClick={() =>
                  setPending({ affiliate: a, action: a.status === "pending" ? "approve" : "reactivate" })
                }
              >
                {a.status === "pending" ? t("actions.approve") : t("actions.reactivate")}
              </Button>
            ) : null}
            {a.status === "pending" ? (
              <Button size="sm" variant="secondary" onClick={() => setRejecting(true)}>
                {t("actions.reject")}
              </Button>
            ) : null}
            {a.status !== "suspended" && a.status !== "rejected" ? (
              <Button
                size="sm"
                variant="danger"
                onClick={() => setPending({ affiliate: a, action: "suspend" })}
              >
                {t("actions.suspend")}
              </Button>
            ) : null}
          </>
        }
      />

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Panel title={t("detailAffiliate.figures")} id="affiliate-figures">
          <DetailList>
            <DetailItem label={t("detailAffiliate.clicks")}>{a.clicks}</DetailItem>
            <DetailItem label={t("detailAffiliate.referred")}>{a.referredApplications}</DetailItem>
            <DetailItem label={t("detailAffiliate.paid")}>{a.paidApplications}</DetailItem>
            <DetailItem label={t("detailAffiliate.revenue")}>{format.money(a.paidRevenue)}</DetailItem>
            <DetailItem label={t("detailAffiliate.earned")}>{format.money(a.commissionEarned)}</DetailItem>
            <DetailItem label={t("detailAffiliate.clawedBack")}>
              {format.money(a.commissionClawedBack)}
            </DetailItem>
            <DetailItem label={t("detailAffiliate.net")}>{format.money(a.commissionNet)}</DetailItem>
            <DetailItem label={t("detailAffiliate.owed")}>
              {format.money(a.commissionOwed)} <span className="text-slate-700">({rateLabel(a)})</span>
            </DetailItem>
            <DetailItem label={t("detailAffiliate.commissionPaid")}>
              {format.money(a.commissionPaid)}
            </DetailItem>
          </DetailList>
          <p className="mt-4 text-sm text-slate-700">{t("detailAffiliate.figuresRule")}</p>
          <p className="mt-2 text-sm text-slate-700">{t("detailAffiliate.commissionRule")}</p>
        </Panel>
        <Panel title={t("detailAffiliate.account")} id="affiliate-account">
          <DetailList>
            <DetailItem label={t("detailAffiliate.website")}>
              {a.website ? (
                <a
                  href={a.website}
                  rel="noopener noreferrer nofollow"
                  target="_blank"
                  className="text-brand-700 underline"
                >
                  {a.website}
                </a>
              ) : (
                "—"
              )}
            </DetailItem>
            <DetailItem label={t("detailAffiliate.country")}>{a.country || "—"}</DetailItem>
            <DetailItem label={t("detailAffiliate.emailVerified")}>
              {a.emailVerified ? t("detailAffiliate.yes") : t("detailAffiliate.no")}
            </DetailItem>
            <DetailItem label={t("detailAffiliate.registered")}>{date(a.createdAt)}</DetailItem>
            {a.status === "rejected" ? (
              <DetailItem label={t("detailAffiliate.rejectionReason")}>
                <span className="whitespace-pre-line break-words">{a.rejectionReason || "—"}</span>
              </DetailItem>
            ) : null}
            <DetailItem label={t("detailAffiliate.link")}>
              {a.referralLink ? <span className="break-all font-mono text-sm">{a.referralLink}</span> : "—"}
            </DetailItem>
          </DetailList>
        </Panel>
      </div>

      <Panel title={t("detailAffiliate.rateTitle")} id="affiliate-rate" className="mt-6">
        <CommissionForm affiliate={a} />
      </Panel>

      <DuplicateAdjustmentsPanel affiliate={a} />
      <AffiliateLedgerPanel affiliate={a} />

      <Panel
        title={t("detailAffiliate.codes")}
        id="affiliate-codes"
        className="mt-6"
        actions={
          <Link
            to={`/admin/codes?affiliateId=${a.id}`}
            className="text-sm font-medium text-brand-700 underline"
          >
            {t("detailAffiliate.codesInList")}
          </Link>
        }
      >
        {a.codeDetails.length === 0 ? (
          <p className="text-slate-700">{t("detailAffiliate.noCodes")}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {a.codeDetails.map((c) => (
              <li key={c.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div>
                  <Link
                    to={`/admin/codes/${c.id}`}
                    className="font-mono font-semibold text-brand-700 underline"
                  >
                    {c.code}
                  </Link>{" "}
                  <span className="text-slate-700">{discount(c)}</span>
                </div>
                <div className="flex flex-wrap items-center gap-3 text-sm text-slate-800">
                  <CodeStateBadge code={c} />
                  <span>{usesLabel(c)}</span>
                  <span>{format.money(c.revenue)}</span>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>

      <Panel
        title={t("detailAffiliate.applications")}
        id="affiliate-applications"
        className="mt-6"
        actions={
          <Link
            to={`/admin/applications?affiliateId=${a.id}`}
            className="text-sm font-medium text-brand-700 underline"
          >
            {t("detailAffiliate.allApplications")}
          </Link>
        }
      >
        <DetailTable
          labelledBy="affiliate-applications"
          minWidth="min-w-[44rem]"
          head={
            <>
              <HeaderCell>{t("detailAffiliate.columns.applicant")}</HeaderCell>
              <HeaderCell>{t("detailAffiliate.columns.programme")}</HeaderCell>
              <HeaderCell>{t("detailAffiliate.columns.status")}</HeaderCell>
              <HeaderCell className="text-right">{t("detailAffiliate.columns.paid")}</HeaderCell>
              <HeaderCell>{t("detailAffiliate.columns.date")}</HeaderCell>
            </>
          }
          rows={a.applications}
          empty={t("detailAffiliate.noApplications")}
          row={(app) => (
            <tr key={app.id} className="align-top">
              <ApplicantCell applicationId={app.id} applicant={app.applicant} />
              <td className="px-3 py-3 text-slate-800">
                {app.programName}
                {app.code ? <div className="font-mono text-xs text-slate-700">{app.code}</div> : null}
              </td>
              <ApplicationStatusCell status={app.status} paymentStatus={app.paymentStatus} />
              <td className="px-3 py-3 text-right whitespace-nowrap">{format.money(app.amountPaid)}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(app.createdAt)}</td>
            </tr>
          )}
        />
      </Panel>

      <AffiliateActionDialog pending={pending} onClose={() => setPending(null)} />
      <RejectDialog affiliate={a} open={rejecting} onOpenChange={setRejecting} />
    </DetailFrame>
  );
}
