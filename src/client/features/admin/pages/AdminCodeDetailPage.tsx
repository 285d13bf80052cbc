import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import {
  activateCodeContract,
  deactivateCodeContract,
  deleteCodeContract,
  getCodeContract,
} from "../../../../shared/api/codes-admin";
import type { AdminCodeDto } from "../../../../shared/codes-admin";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { HeaderCell } from "../components/AdminListFrame";
import { CodeFormDialog } from "../components/codes/CodeFormDialog";
import { CodeStateBadge, codeKeys, useDiscountLabel, useUsesLabel } from "../components/codes/shared";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import {
  ApplicantCell,
  ApplicationStatusCell,
  BackLink,
  ConfirmButton,
  DetailFrame,
  DetailItem,
  DetailList,
  DetailLoadError,
  DetailTable,
  toastFailure,
} from "../components/forms";

/**
 * /admin/codes/:id: one code — its rule, validity, programmes, affiliate, uses against the
 * maximum and revenue — with its redemptions (application, applicant, status, amount paid, each
 * linking to the application). Edit, switch on or off, and delete while it was never used.
 */
export default function AdminCodeDetailPage() {
  const { t } = useTranslation("adminCodes");
  const { id = "" } = useParams();
  const navigate = useNavigate();
  const format = useFormat();
  const { dateTime } = useDateTime();
  const discount = useDiscountLabel();
  const usesLabel = useUsesLabel();
  const queryClient = useQueryClient();
  const key = codeKeys.detail(id);
  const detail = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(getCodeContract, { params: { id }, signal }),
  });
  const [formOpen, setFormOpen] = useState(false);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
  const toggle = useMutation({
    mutationFn: (code: AdminCodeDto) =>
      call(code.active ? deactivateCodeContract : activateCodeContract, {
        params: { id: code.id },
        body: { version: code.version },
      }),
    onSuccess: (saved) => {
      refresh();
      toast({
        title: saved.active ? t("codes.activatedTitle") : t("codes.deactivatedTitle"),
        description: saved.code,
        variant: "success",
      });
    },
    onError: (error) => {
      refresh();
      toastFailure(t("codes.failedTitle"), error);
    },
  });
  const remove = useMutation({
    // 204 without a body.
    mutationFn: (code: AdminCodeDto) => call(deleteCodeContract, { params: { id: code.id } }),
    onSuccess: () => {
      refresh();
      toast({ title: t("detail.deletedTitle"), variant: "success" });
      navigate("/admin/codes");
    },
    onError: (error) => toastFailure(t("codes.failedTitle"), error),
  });

  const back = <BackLink to="/admin/codes">{t("detail.back")}</BackLink>;
  if (detail.isPending) return <Spinner />;
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <DetailLoadError
        back={back}
        title={notFound ? t("detail.notFound") : t("detail.title")}
        message={detail.error.message}
      />
    );
  }

  const code = detail.data;
  const neverUsed = code.redemptions.length === 0;
  return (
    <DetailFrame back={back}>
      <AdminPageHeader
        title={<span className="font-mono">{code.code}</span>}
        lead={
          <div className="flex flex-wrap items-center gap-2">
            <CodeStateBadge code={code} />
            <span>{code.description}</span>
          </div>
        }
        actions={
          <>
            <Button size="sm" variant="secondary" onClick={() => setFormOpen(true)}>
              <Pencil aria-hidden="true" className="h-4 w-4" />
              {t("codes.edit")}
            </Button>
            <ConfirmButton
              title={t(code.active ? "detail.deactivateTitle" : "detail.activateTitle", { code: code.code })}
              description={<p>{t(code.active ? "detail.deactivateBody" : "detail.activateBody")}</p>}
              confirmLabel={code.active ? t("codes.deactivate") : t("codes.activate")}
              danger={code.active}
              busy={toggle.isPending}
              onConfirm={(close) => toggle.mutate(code, { onSettled: close })}
            >
              {code.active ? t("codes.deactivate") : t("codes.activate")}
            </ConfirmButton>
            {neverUsed ? (
              <ConfirmButton
                variant="danger"
                title={t("detail.deleteTitle", { code: code.code })}
                description={<p>{t("detail.deleteBody")}</p>}
                confirmLabel={t("detail.delete")}
                danger
                busy={remove.isPending}
                onConfirm={(close) => remove.mutate(code, { onError: close })}
              >
                <Trash2 aria-hidden="true" className="h-4 w-4" />
                {t("detail.delete")}
              </ConfirmButton>
            ) : null}
          </>
        }
      />

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Panel title={t("detail.rule")} id="code-rule">
          <DetailList>
            <DetailItem label={t("detail.type")}>{t(`codes.type.${code.codeType}`)}</DetailItem>
            <DetailItem label={t("detail.discount")}>{discount(code)}</DetailItem>
            <DetailItem label={t("detail.validFrom")}>{dateTime(code.validFrom)}</DetailItem>
            <DetailItem label={t("detail.validTo")}>{dateTime(code.validTo)}</DetailItem>
            <DetailItem label={t("detail.schools")}>
              {code.summerSchools.length
                ? code.summerSchools.map((s) => s.name).join(", ")
                : t("codes.allSchools")}
            </DetailItem>
            <DetailItem label={t("detail.affiliate")}>
              {code.affiliate ? (
                <Link to={`/admin/affiliates/${code.affiliate.id}`} className="text-brand-700 underline">
                  {code.affiliate.name}
                </Link>
              ) : (
                "—"
              )}
            </DetailItem>
          </DetailList>
        </Panel>
        <Panel title={t("detail.usage")} id="code-usage">
          <DetailList>
            <DetailItem label={t("detail.uses")}>{usesLabel(code)}</DetailItem>
            <DetailItem label={t("detail.redeemed")}>{code.redeemed}</DetailItem>
            <DetailItem label={t("detail.revenue")}>{format.money(code.revenue)}</DetailItem>
            <DetailItem label={t("detail.created")}>{dateTime(code.createdAt)}</DetailItem>
          </DetailList>
          <p className="mt-4 text-sm text-slate-700">{t("detail.usageHelp")}</p>
        </Panel>
      </div>

      <Panel title={t("detail.redemptions")} id="code-redemptions" className="mt-6">
        <DetailTable
          labelledBy="code-redemptions"
          minWidth="min-w-[44rem]"
          head={
            <>
              <HeaderCell>{t("detail.columns.applicant")}</HeaderCell>
              <HeaderCell>{t("detail.columns.use")}</HeaderCell>
              <HeaderCell>{t("detail.columns.application")}</HeaderCell>
              <HeaderCell className="text-right">{t("detail.columns.discount")}</HeaderCell>
              <HeaderCell className="text-right">{t("detail.columns.paid")}</HeaderCell>
              <HeaderCell>{t("detail.columns.date")}</HeaderCell>
            </>
          }
          rows={code.redemptions}
          empty={t("detail.noRedemptions")}
          row={(r) => (
            <tr key={r.id} className="align-top">
              <ApplicantCell applicationId={r.application.id} applicant={r.applicant} />
              <td className="px-3 py-3 text-slate-900">{t(`detail.useStatus.${r.status}`)}</td>
              <ApplicationStatusCell
                status={r.application.status}
                paymentStatus={r.application.paymentStatus}
              />
              <td className="px-3 py-3 text-right whitespace-nowrap">
                {r.application.discountAmount === null ? "—" : format.money(r.application.discountAmount)}
              </td>
              <td className="px-3 py-3 text-right whitespace-nowrap">
                {format.money(r.application.amountPaid)}
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(r.createdAt)}</td>
            </tr>
          )}
        />
      </Panel>

      <CodeFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        code={code}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: key })}
      />
    </DetailFrame>
  );
}
