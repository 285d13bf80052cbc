import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download } from "lucide-react";
import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import {
  cancelPayoutContract,
  createPayoutRunContract,
  exportPayoutRunCsvContract,
  exportPayoutRunSepaContract,
  getPayoutRunContract,
  listPayoutRunsContract,
  markPayoutPaidContract,
  previewPayoutsContract,
} from "../../../../shared/api/payouts";
import { formatMoney } from "../../../../shared/money";
import type { AdminPayout, PayoutPreview } from "../../../../shared/schemas/payouts";
import { Notice } from "../../../components/account/auth";
import { Button, buttonClass } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { ScrollRegion } from "../../../components/ui/ScrollRegion";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import { ConfirmButton, toastFailure } from "../components/forms";

const th = "px-3 py-2 text-left text-sm font-semibold text-slate-700";
const td = "px-3 py-2 align-top text-sm text-slate-900";
const num = "px-3 py-2 text-right align-top text-sm tabular-nums text-slate-900";

/** A new idempotency key: one per page view, so a double click on "Create" makes one run. */
const newKey = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** The preview's tables of affiliates: those in the next run, and those left out with why. */
function PreviewTable({
  rows,
  caption,
  withReason,
}: {
  rows: PayoutPreview["eligible"];
  caption: string;
  withReason: boolean;
}) {
  const { t } = useTranslation("payouts");
  const captionId = useId();
  const language = useLanguage();
  return (
    <ScrollRegion labelledBy={captionId}>
      <table className="min-w-full divide-y divide-slate-200">
        <caption id={captionId} className="sr-only">
          {caption}
        </caption>
        <thead>
          <tr>
            <th scope="col" className={th}>
              {t("admin.preview.name")}
            </th>
            <th scope="col" className={`${th} text-right`}>
              {t("admin.preview.approved")}
            </th>
            <th scope="col" className={th}>
              {t("admin.preview.method")}
            </th>
            <th scope="col" className={th}>
              {t("admin.preview.account")}
            </th>
            {withReason ? (
              <th scope="col" className={th}>
                {t("admin.preview.reason")}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((r) => (
            <tr key={r.affiliateId}>
              <th scope="row" className={`${td} font-medium`}>
                {r.name}
              </th>
              <td className={num}>{formatMoney(r.approved, language)}</td>
              <td className={td}>{r.method ? t(`methods.${r.method}`) : "—"}</td>
              <td className={`${td} font-mono`}>{r.masked || "—"}</td>
              {withReason ? (
                <td className={td}>{r.reason ? t(`admin.preview.reasons.${r.reason}`) : ""}</td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** One payout of a run with its actions: mark paid (with the bank's reference) or cancel. */
function PayoutRow({ payout }: { payout: AdminPayout }) {
  const { t } = useTranslation("payouts");
  const language = useLanguage();
  const { date } = useDateTime();
  const queryClient = useQueryClient();
  const id = useId();
  const [reference, setReference] = useState("");
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ["admin", "payouts"] });
  };
  const paid = useMutation({
    mutationFn: () => call(markPayoutPaidContract, { params: { id: payout.id }, body: { reference } }),
    onSuccess: () => {
      toast({ title: t("admin.run.paidDone") });
      refresh();
    },
    onError: (error: Error) => toastFailure(t("admin.actionFailed"), error),
  });
  const cancel = useMutation({
    mutationFn: () => call(cancelPayoutContract, { params: { id: payout.id } }),
    onError: (error: Error) => toastFailure(t("admin.actionFailed"), error),
  });
  const amount = formatMoney(payout.amount, language);
  return (
    <tr>
      <th scope="row" className={`${td} font-medium`}>
        {payout.affiliateName}
      </th>
      <td className={num}>{amount}</td>
      <td className={td}>{t(`methods.${payout.method}`)}</td>
      <td className={`${td} font-mono`}>{payout.masked}</td>
      <td className={num}>{payout.entryCount}</td>
      <td className={td}>
        {t(`statuses.${payout.status}`)}
        {payout.paidAt ? <span className="block text-slate-600">{date(payout.paidAt)}</span> : null}
      </td>
      <td className={td}>
        {payout.status === "pending" ? (
          <form
            className="flex flex-wrap items-end gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              if (reference.trim()) paid.mutate();
            }}
          >
            <div className="min-w-40">
              <label htmlFor={`${id}-ref`} className="block text-xs font-medium text-slate-700">
                {t("admin.run.referenceLabel", { name: payout.affiliateName })}
              </label>
              <input
                id={`${id}-ref`}
                className={inputClass}
                value={reference}
                maxLength={140}
                required
                onChange={(event) => setReference(event.target.value)}
              />
            </div>
            <Button type="submit" size="sm" disabled={paid.isPending || !reference.trim()}>
              {t("admin.run.markPaid")}
            </Button>
            <ConfirmButton
              danger
              title={t("admin.run.cancel")}
              description={t("admin.run.confirmCancel", { amount, name: payout.affiliateName })}
              confirmLabel={t("admin.run.cancel")}
              busy={cancel.isPending}
              onConfirm={(close) =>
                cancel.mutate(undefined, {
                  onSuccess: () => {
                    toast({ title: t("admin.run.cancelledDone") });
                    refresh();
                  },
                  onSettled: close,
                })
              }
            >
              {t("admin.run.cancel")}
            </ConfirmButton>
          </form>
        ) : (
          <span className="font-mono">{payout.reference || "—"}</span>
        )}
      </td>
    </tr>
  );
}

/** The payouts of one run, with the bank exports. */
function RunDetail({ runId }: { runId: string }) {
  const { t } = useTranslation("payouts");
  const { dateTime } = useDateTime();
  const detail = useQuery({
    queryKey: ["admin", "payouts", "run", runId],
    queryFn: () => call(getPayoutRunContract, { params: { id: runId } }),
  });
  if (detail.isError) return <Notice tone="error">{t("admin.loadFailed")}</Notice>;
  if (!detail.data) return null;
  const { run, payouts } = detail.data;
  const hasSepa = payouts.some((p) => p.method === "sepa" && p.status === "pending");
  return (
    <Panel
      id="payout-run-detail"
      title={t("admin.run.heading", { date: dateTime(run.createdAt) })}
      actions={
        <div className="flex flex-wrap gap-2">
          <a
            href={urlOf(exportPayoutRunCsvContract, { id: run.id })}
            download
            className={buttonClass("secondary", "sm")}
          >
            <Download aria-hidden="true" className="h-4 w-4" />
            {t("admin.run.csv")}
          </a>
          {hasSepa ? (
            <a
              href={urlOf(exportPayoutRunSepaContract, { id: run.id })}
              download
              className={buttonClass("secondary", "sm")}
            >
              <Download aria-hidden="true" className="h-4 w-4" />
              {t("admin.run.sepa")}
            </a>
          ) : null}
        </div>
      }
    >
      {payouts.length === 0 ? (
        <p className="text-slate-700">{t("admin.run.empty")}</p>
      ) : (
        <ScrollRegion labelledBy="run-caption">
          <table className="min-w-full divide-y divide-slate-200">
            <caption id="run-caption" className="sr-only">
              {t("admin.run.caption")}
            </caption>
            <thead>
              <tr>
                <th scope="col" className={th}>
                  {t("admin.run.affiliate")}
                </th>
                <th scope="col" className={`${th} text-right`}>
                  {t("admin.run.amount")}
                </th>
                <th scope="col" className={th}>
                  {t("admin.run.method")}
                </th>
                <th scope="col" className={th}>
                  {t("admin.run.account")}
                </th>
                <th scope="col" className={`${th} text-right`}>
                  {t("admin.run.entries")}
                </th>
                <th scope="col" className={th}>
                  {t("admin.run.status")}
                </th>
                <th scope="col" className={th}>
                  {t("admin.run.actions")}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {payouts.map((p) => (
                <PayoutRow key={p.id} payout={p} />
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </Panel>
  );
}

/**
 * /admin/payouts (docs/product/codes-and-partners.md#payout-runs; finance and owners): the preview of the next payout run,
 * "Create payout run" (one idempotency key per page view: a double click makes one run), the
 * runs, and a run's payouts with mark paid / cancel and the CSV and SEPA (pain.001) downloads.
 * Data: `GET /api/admin/payouts/preview`, `GET|POST /api/admin/payout-runs`, `GET /api/admin/payout-runs/:id`.
 */
export default function AdminPayoutsPage() {
  const { t } = useTranslation("payouts");
  const language = useLanguage();
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  // One key for the whole page view: a second click, even after the answer, returns the same run.
  const [key] = useState(newKey);
  const [openRun, setOpenRun] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: ["admin", "payouts", "preview"],
    queryFn: () => call(previewPayoutsContract),
  });
  const runs = useQuery({
    queryKey: ["admin", "payouts", "runs"],
    queryFn: () => call(listPayoutRunsContract),
  });
  const create = useMutation({
    mutationFn: () => call(createPayoutRunContract, { body: { idempotencyKey: key } }),
    onSuccess: (run) => {
      const known = runs.data?.items.some((r) => r.id === run.id);
      toast({ title: known ? t("admin.alreadyCreated") : t("admin.created") });
      setOpenRun(run.id);
      void queryClient.invalidateQueries({ queryKey: ["admin", "payouts"] });
    },
    onError: (error: Error) => toastFailure(t("admin.actionFailed"), error),
  });
  const p = preview.data;
  const money = (cents: number) => formatMoney(cents, language);

  return (
    <div className="space-y-6">
      <AdminPageHeader title={t("admin.title")} lead={t("admin.intro")} />
      {preview.isError || runs.isError ? <Notice tone="error">{t("admin.loadFailed")}</Notice> : null}

      {p ? (
        <Panel
          id="payout-preview"
          title={t("admin.preview.heading")}
          actions={
            <Button onClick={() => create.mutate()} disabled={create.isPending || p.eligible.length === 0}>
              {create.isPending ? t("admin.creating") : t("admin.create")}
            </Button>
          }
        >
          <p className="mb-4 text-slate-700">
            {p.eligible.length > 0
              ? t("admin.preview.summary", {
                  count: p.eligible.length,
                  amount: money(p.total),
                  minimum: money(p.minimum),
                })
              : t("admin.preview.noneEligible", { minimum: money(p.minimum) })}
          </p>
          {p.eligible.length > 0 ? (
            <PreviewTable rows={p.eligible} caption={t("admin.preview.eligibleCaption")} withReason={false} />
          ) : null}
          {p.excluded.length > 0 ? (
            <>
              <h3 className="mt-6 mb-2 font-semibold text-brand-900">{t("admin.preview.excludedHeading")}</h3>
              <PreviewTable rows={p.excluded} caption={t("admin.preview.excludedCaption")} withReason />
            </>
          ) : null}
        </Panel>
      ) : null}

      {runs.data ? (
        <Panel id="payout-runs" title={t("admin.runs.heading")}>
          {runs.data.items.length === 0 ? (
            <p className="text-slate-700">{t("admin.runs.empty")}</p>
          ) : (
            <ScrollRegion labelledBy="runs-caption">
              <table className="min-w-full divide-y divide-slate-200">
                <caption id="runs-caption" className="sr-only">
                  {t("admin.runs.caption")}
                </caption>
                <thead>
                  <tr>
                    <th scope="col" className={th}>
                      {t("admin.runs.date")}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {t("admin.runs.payouts")}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {t("admin.runs.total")}
                    </th>
                    <th scope="col" className={`${th} text-right`}>
                      {t("admin.runs.paid")}
                    </th>
                    <th scope="col" className={th}>
                      {t("admin.runs.status")}
                    </th>
                    <th scope="col" className={th}>
                      <span className="sr-only">{t("admin.runs.open")}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-100">
                  {runs.data.items.map((r) => (
                    <tr key={r.id} className={r.id === openRun ? "bg-brand-50" : undefined}>
                      <th scope="row" className={`${td} font-medium`}>
                        {dateTime(r.createdAt)}
                      </th>
                      <td className={num}>{r.payoutCount}</td>
                      <td className={num}>{money(r.total)}</td>
                      <td className={num}>{`${r.paidCount} / ${r.payoutCount}`}</td>
                      <td className={td}>{t(`admin.runs.statuses.${r.status}`)}</td>
                      <td className={td}>
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-pressed={r.id === openRun}
                          aria-label={t("admin.runs.openLabel", { date: dateTime(r.createdAt) })}
                          onClick={() => setOpenRun(r.id)}
                        >
                          {t("admin.runs.open")}
                        </Button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </ScrollRegion>
          )}
        </Panel>
      ) : null}

      {openRun ? <RunDetail runId={openRun} /> : null}
    </div>
  );
}
