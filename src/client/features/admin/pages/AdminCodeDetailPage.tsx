import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowLeft, Pencil, Trash2 } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import type { AdminCodeDetail, AdminCodeDto } from "../../../../shared/codes-admin";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError, api } from "../../../lib/api";
import { useFormat } from "../../../lib/format";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { CodeFormDialog } from "../components/codes/CodeFormDialog";
import {
  CodeStateBadge,
  codeKeys,
  Item,
  Th,
  useDiscountLabel,
  useUsesLabel,
} from "../components/codes/shared";
import {
  AdminPageHeader,
  ApplicationStatusBadge,
  Panel,
  PaymentStatusBadge,
  useDateTime,
} from "../components/common";

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
    queryFn: ({ signal }) => api<AdminCodeDetail>(`/api/admin/codes/${encodeURIComponent(id)}`, { signal }),
  });
  const [formOpen, setFormOpen] = useState(false);
  const [confirm, setConfirm] = useState<"toggle" | "delete" | null>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
  const toggle = useMutation({
    mutationFn: (code: AdminCodeDto) =>
      api<AdminCodeDto>(`/api/admin/codes/${code.id}/${code.active ? "deactivate" : "activate"}`, {
        body: { version: code.version },
      }),
    onSuccess: (saved) => {
      setConfirm(null);
      refresh();
      toast({
        title: saved.active ? t("codes.activatedTitle") : t("codes.deactivatedTitle"),
        description: saved.code,
        variant: "success",
      });
    },
    onError: (error) => {
      setConfirm(null);
      refresh();
      toast({ title: t("codes.failedTitle"), description: error.message, variant: "destructive" });
    },
  });
  const remove = useMutation({
    mutationFn: (code: AdminCodeDto) => api<null>(`/api/admin/codes/${code.id}`, { method: "DELETE" }),
    onSuccess: () => {
      setConfirm(null);
      refresh();
      toast({ title: t("detail.deletedTitle"), variant: "success" });
      navigate("/admin/codes");
    },
    onError: (error) => {
      setConfirm(null);
      toast({ title: t("codes.failedTitle"), description: error.message, variant: "destructive" });
    },
  });

  const back = (
    <Link to="/admin/codes" className="inline-flex items-center gap-1 font-medium text-brand-700 underline">
      <ArrowLeft aria-hidden="true" className="h-4 w-4" />
      {t("detail.back")}
    </Link>
  );

  if (detail.isPending) return <Spinner />;
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <p className="mb-4">{back}</p>
        <AdminPageHeader title={notFound ? t("detail.notFound") : t("detail.title")} />
        <div className="mt-6 max-w-2xl">
          <Notice tone="error">
            <p>{detail.error.message}</p>
          </Notice>
        </div>
      </div>
    );
  }

  const code = detail.data;
  const neverUsed = code.redemptions.length === 0;
  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <p className="mb-4">{back}</p>
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
            <Button size="sm" variant="secondary" onClick={() => setConfirm("toggle")}>
              {code.active ? t("codes.deactivate") : t("codes.activate")}
            </Button>
            {neverUsed ? (
              <Button size="sm" variant="danger" onClick={() => setConfirm("delete")}>
                <Trash2 aria-hidden="true" className="h-4 w-4" />
                {t("detail.delete")}
              </Button>
            ) : null}
          </>
        }
      />

      <div className="mt-6 grid gap-6 lg:grid-cols-2">
        <Panel title={t("detail.rule")} id="code-rule">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Item label={t("detail.type")}>{t(`codes.type.${code.codeType}`)}</Item>
            <Item label={t("detail.discount")}>{discount(code)}</Item>
            <Item label={t("detail.validFrom")}>{dateTime(code.validFrom)}</Item>
            <Item label={t("detail.validTo")}>{dateTime(code.validTo)}</Item>
            <Item label={t("detail.schools")}>
              {code.summerSchools.length
                ? code.summerSchools.map((s) => s.name).join(", ")
                : t("codes.allSchools")}
            </Item>
            <Item label={t("detail.affiliate")}>
              {code.affiliate ? (
                <Link to={`/admin/affiliates/${code.affiliate.id}`} className="text-brand-700 underline">
                  {code.affiliate.name}
                </Link>
              ) : (
                "—"
              )}
            </Item>
          </dl>
        </Panel>
        <Panel title={t("detail.usage")} id="code-usage">
          <dl className="grid gap-4 sm:grid-cols-2">
            <Item label={t("detail.uses")}>{usesLabel(code)}</Item>
            <Item label={t("detail.redeemed")}>{code.redeemed}</Item>
            <Item label={t("detail.revenue")}>{format.money(code.revenue)}</Item>
            <Item label={t("detail.created")}>{dateTime(code.createdAt)}</Item>
          </dl>
          <p className="mt-4 text-sm text-slate-700">{t("detail.usageHelp")}</p>
        </Panel>
      </div>

      <Panel title={t("detail.redemptions")} id="code-redemptions" className="mt-6">
        {neverUsed ? (
          <p className="text-slate-700">{t("detail.noRedemptions")}</p>
        ) : (
          <section
            className="overflow-x-auto"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
            tabIndex={0}
            aria-labelledby="code-redemptions"
          >
            <table className="w-full min-w-[44rem] text-sm">
              <thead className="border-b border-slate-200 bg-slate-50">
                <tr>
                  <Th>{t("detail.columns.applicant")}</Th>
                  <Th>{t("detail.columns.use")}</Th>
                  <Th>{t("detail.columns.application")}</Th>
                  <Th className="text-right">{t("detail.columns.discount")}</Th>
                  <Th className="text-right">{t("detail.columns.paid")}</Th>
                  <Th>{t("detail.columns.date")}</Th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {code.redemptions.map((r) => (
                  <tr key={r.id} className="align-top">
                    <td className="px-3 py-3">
                      <Link
                        to={`/admin/applications/${r.application.id}`}
                        className="font-semibold text-brand-700 underline"
                      >
                        {`${r.applicant.firstName} ${r.applicant.lastName}`.trim() || r.applicant.email}
                      </Link>
                      <div className="break-words text-slate-700">{r.applicant.email}</div>
                    </td>
                    <td className="px-3 py-3 text-slate-900">{t(`detail.useStatus.${r.status}`)}</td>
                    <td className="px-3 py-3">
                      <div className="flex flex-wrap gap-1">
                        <ApplicationStatusBadge status={r.application.status} />
                        <PaymentStatusBadge status={r.application.paymentStatus} />
                      </div>
                    </td>
                    <td className="px-3 py-3 text-right whitespace-nowrap">
                      {r.application.discountAmount === null
                        ? "—"
                        : format.money(r.application.discountAmount)}
                    </td>
                    <td className="px-3 py-3 text-right whitespace-nowrap">
                      {format.money(r.application.amountPaid)}
                    </td>
                    <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(r.createdAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        )}
      </Panel>

      <CodeFormDialog
        open={formOpen}
        onOpenChange={setFormOpen}
        code={code}
        onSaved={() => void queryClient.invalidateQueries({ queryKey: key })}
      />
      <ConfirmDialog
        open={confirm === "toggle"}
        onOpenChange={(open) => setConfirm(open ? "toggle" : null)}
        title={t(code.active ? "detail.deactivateTitle" : "detail.activateTitle", { code: code.code })}
        description={<p>{t(code.active ? "detail.deactivateBody" : "detail.activateBody")}</p>}
        confirmLabel={code.active ? t("codes.deactivate") : t("codes.activate")}
        danger={code.active}
        busy={toggle.isPending}
        onConfirm={() => toggle.mutate(code)}
      />
      <ConfirmDialog
        open={confirm === "delete"}
        onOpenChange={(open) => setConfirm(open ? "delete" : null)}
        title={t("detail.deleteTitle", { code: code.code })}
        description={<p>{t("detail.deleteBody")}</p>}
        confirmLabel={t("detail.delete")}
        danger
        busy={remove.isPending}
        onConfirm={() => remove.mutate(code)}
      />
    </div>
  );
}
