import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { AdminAffiliateDto } from "../../../../../shared/affiliates-admin";
import { urlOf } from "../../../../../shared/api/contract";
import {
  createAdjustmentContract,
  exportAffiliateCommissionsCsvContract,
  getAffiliateCommissionsContract,
  listDuplicateAdjustmentsContract,
  rejectAffiliateContract,
  reverseAdjustmentContract,
  setAffiliateCommissionContract,
} from "../../../../../shared/api/partners-admin";
import type { CommissionRate } from "../../../../../shared/commissions";
import {
  type AdjustmentFormValues,
  adjustmentFormSchema,
  type CommissionFormValues,
  commissionFormSchema,
  type LikelyDuplicate,
  type RejectFormValues,
  type ReverseAdjustmentFormValues,
  rejectFormSchema,
  reverseAdjustmentFormSchema,
} from "../../../../../shared/schemas/affiliates-admin";
import { Notice, TextField, useFieldMessage } from "../../../../components/account/auth";
import { CommissionLedgerTable } from "../../../../components/commissions/CommissionLedgerTable";
import { Button } from "../../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { Spinner } from "../../../../components/ui/Spinner";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { useVatContext } from "../../../../lib/vat";
import { HeaderCell } from "../AdminListFrame";
import { Panel, useDateTime } from "../common";
import { DetailItem, DetailList, DetailTable, DialogFormActions, FormDialog, toastFailure } from "../forms";
import { codeKeys } from "./shared";

const ledgerKey = (id: string) => [...codeKeys.affiliate(id), "ledger"] as const;
const duplicatesKey = (id: string) => [...codeKeys.affiliate(id), "duplicates"] as const;

/** Copies a 400's field errors onto the form, or shows the message in a toast. */
function failWith(error: Error, setField: (field: string, message: string) => boolean, title: string): void {
  if (error instanceof ApiError) {
    const fields = Object.entries(error.fieldErrors);
    if (fields.length && fields.every(([f, m]) => setField(f, m))) return;
  }
  toastFailure(title, error);
}

/**
 * The commission rate form (docs/product/catalogue-and-pricing.md#code-discounts: "a percentage of what was paid, or a fixed amount per
 * enrolled student"): a type switch (radio buttons) and one input, a whole percent 0-100 or
 * euros. `PATCH /api/admin/affiliates/:id/commission` with the version seen (409 → the server's
 * message). Later payments earn at the new rate; entries already written keep theirs.
 */
export function CommissionForm({ affiliate }: { affiliate: AdminAffiliateDto }) {
  const { t } = useTranslation("adminCodes");
  const vatCtx = useVatContext();
  const message = useFieldMessage();
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState<string | null>(null);
  const initial = (): CommissionFormValues => ({
    type: affiliate.commissionType,
    value:
      affiliate.commissionType === "fixed"
        ? (affiliate.commissionFixedCents / 100).toFixed(2)
        : String(affiliate.commissionPercent),
  });
  const { register, handleSubmit, formState, reset, setError, watch } = useForm<
    CommissionFormValues,
    unknown,
    CommissionRate
  >({ resolver: zodResolver(commissionFormSchema), defaultValues: initial() });
  // biome-ignore lint/correctness/useExhaustiveDependencies: reset when the saved affiliate changes
  useEffect(() => reset(initial()), [affiliate, reset]);
  const type = watch("type");
  const save = useMutation({
    mutationFn: (rate: CommissionRate) =>
      call(setAffiliateCommissionContract, {
        params: { id: affiliate.id },
        body: { ...rate, version: affiliate.version },
      }),
    onSuccess: (saved) => {
      setConflict(null);
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      toast({
        title:
          saved.commissionType === "fixed"
            ? t("detailAffiliate.rateSavedFixed", { amount: format.money(saved.commissionFixedCents) })
            : t("detailAffiliate.rateSaved", { percent: saved.commissionPercent }),
        variant: "success",
      });
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      if (error instanceof ApiError && error.status === 409) {
        setConflict(error.message);
        return;
      }
      failWith(
        error,
        (field, text) => {
          if (field !== "percent" && field !== "fixedCents" && field !== "commissionPercent") return false;
          setError("value", { type: "server", message: text });
          return true;
        },
        t("actions.failedTitle"),
      );
    },
  });
  const format = useFormat();
  return (
    <form onSubmit={handleSubmit((rate) => save.mutate(rate))} noValidate className="space-y-4">
      {conflict ? (
        <Notice tone="error">
          <p>{conflict}</p>
        </Notice>
      ) : null}
      <fieldset>
        <legend className="text-sm font-medium text-slate-900">{t("detailAffiliate.rateType")}</legend>
        <div className="mt-2 flex flex-col gap-2 sm:flex-row sm:gap-6">
          {(["percentage", "fixed"] as const).map((value) => (
            <label key={value} className="flex items-center gap-2 text-slate-900">
              <input
                type="radio"
                value={value}
                className="h-4 w-4 focus:outline-2 focus:outline-brand-500"
                {...register("type")}
              />
              {t(value === "percentage" ? "detailAffiliate.ratePercentage" : "detailAffiliate.rateFixed", {
                context: value === "percentage" ? vatCtx : undefined,
              })}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
        <TextField
          id="commission-value"
          label={t(type === "fixed" ? "detailAffiliate.rateFixedLabel" : "detailAffiliate.rateLabel")}
          hint={t(type === "fixed" ? "detailAffiliate.rateFixedHint" : "detailAffiliate.rateHint")}
          inputMode="decimal"
          className="sm:w-72"
          error={message(formState.errors.value)}
          {...register("value")}
        />
        <Button type="submit" variant="secondary" className="sm:mt-7" disabled={save.isPending}>
          {save.isPending ? t("form.saving") : t("detailAffiliate.saveRate")}
        </Button>
      </div>
    </form>
  );
}

/**
 * The adjustment dialog (docs/product/codes-and-partners.md#manual-adjustments: "manual adjustments (reason required, audited)"): an amount in
 * euros with its sign (negative takes back) and the reason, both required; `POST
 * /api/admin/affiliates/:id/adjustments`. The entry is approved at once.
 */
function AdjustmentDialog({
  affiliate,
  open,
  onOpenChange,
}: {
  affiliate: AdminAffiliateDto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation("adminCodes");
  const message = useFieldMessage();
  const format = useFormat();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, reset, setError } = useForm<
    AdjustmentFormValues,
    unknown,
    { amount: number; reason: string }
  >({ resolver: zodResolver(adjustmentFormSchema), defaultValues: { amount: "", reason: "" } });
  useEffect(() => {
    if (open) reset({ amount: "", reason: "" });
  }, [open, reset]);
  const save = useMutation({
    mutationFn: (v: { amount: number; reason: string }) =>
      call(createAdjustmentContract, {
        params: { id: affiliate.id },
        body: { amountCents: v.amount, reason: v.reason },
      }),
    onSuccess: (result, v) => {
      queryClient.setQueryData(ledgerKey(affiliate.id), result);
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      void queryClient.invalidateQueries({ queryKey: duplicatesKey(affiliate.id) });
      onOpenChange(false);
      toast({ title: t("ledger.adjustDone", { amount: format.money(v.amount) }), variant: "success" });
    },
    onError: (error) =>
      failWith(
        error,
        (field, text) => {
          const target = field === "amountCents" ? "amount" : field === "reason" ? "reason" : null;
          if (!target) return false;
          setError(target, { type: "server", message: text });
          return true;
        },
        t("actions.failedTitle"),
      ),
  });
  const reasonError = message(formState.errors.reason);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("ledger.adjustTitle", { name: affiliate.name })}
      description={t("ledger.adjustBody")}
      busy={save.isPending}
    >
      <form onSubmit={handleSubmit((v) => save.mutate(v))} noValidate className="mt-4 space-y-4">
        <TextField
          id="adjustment-amount"
          label={t("ledger.amountLabel")}
          hint={t("ledger.amountHint")}
          inputMode="decimal"
          error={message(formState.errors.amount)}
          {...register("amount")}
        />
        <Field id="adjustment-reason" label={t("ledger.reasonLabel")} required error={reasonError}>
          <textarea
            id="adjustment-reason"
            rows={3}
            maxLength={500}
            className={inputClass}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={describedBy("adjustment-reason", undefined, reasonError)}
            required
            {...register("reason")}
          />
        </Field>
        <DialogFormActions
          cancelLabel={t("ledger.cancel")}
          submitLabel={t("ledger.adjustSubmit")}
          busyLabel={t("form.saving")}
          busy={save.isPending}
        />
      </form>
    </FormDialog>
  );
}

/**
 * The affiliate's commission ledger on its detail page (docs/product/codes-and-partners.md#commissions;
 * decision 022): the totals by state, every entry (newest first) and the CSV export, from `GET
 * /api/admin/affiliates/:id/commissions` — the same ledger the affiliate sees — plus the
 * adjustment dialog.
 */
export function AffiliateLedgerPanel({ affiliate }: { affiliate: AdminAffiliateDto }) {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const [adjusting, setAdjusting] = useState(false);
  const ledger = useQuery({
    queryKey: ledgerKey(affiliate.id),
    queryFn: ({ signal }) => call(getAffiliateCommissionsContract, { params: { id: affiliate.id }, signal }),
  });
  const totals = ledger.data?.ledger.totals;
  return (
    <Panel
      title={t("ledger.title")}
      id="affiliate-ledger"
      className="mt-6"
      actions={
        <div className="flex flex-wrap items-center gap-3">
          <a
            href={urlOf(exportAffiliateCommissionsCsvContract, { id: affiliate.id })}
            className="text-sm font-medium text-brand-700 underline"
            download
          >
            {t("ledger.csv")}
          </a>
          <Button size="sm" variant="secondary" onClick={() => setAdjusting(true)}>
            {t("ledger.adjust")}
          </Button>
        </div>
      }
    >
      {ledger.isPending ? (
        <Spinner />
      ) : ledger.isError ? (
        <Notice tone="error">
          <p>{ledger.error.message}</p>
        </Notice>
      ) : (
        <>
          <DetailList className="sm:grid-cols-3">
            {(["pending", "approved", "inPayout", "paid", "earned", "clawedBack"] as const).map((key) => (
              <DetailItem key={key} label={t(`ledger.totals.${key}`)}>
                {format.money(totals?.[key] ?? 0)}
              </DetailItem>
            ))}
          </DetailList>
          <div className="mt-4">
            {ledger.data.ledger.entries.length === 0 ? (
              <p className="text-slate-700">{t("ledger.empty")}</p>
            ) : (
              <CommissionLedgerTable
                entries={ledger.data.ledger.entries}
                captionId="affiliate-ledger-caption"
                date={dateTime}
                tone="backOffice"
                labels={{
                  caption: t("ledger.title"),
                  columns: {
                    date: t("ledger.columns.date"),
                    kind: t("ledger.columns.kind"),
                    student: t("ledger.columns.detail"),
                    state: t("ledger.columns.state"),
                    amount: t("ledger.columns.amount"),
                  },
                  kind: {
                    payment: t("ledger.kind.payment"),
                    refund: t("ledger.kind.refund"),
                    adjustment: t("ledger.kind.adjustment"),
                  },
                  state: {
                    pending: t("ledger.state.pending"),
                    approved: t("ledger.state.approved"),
                    in_payout: t("ledger.state.in_payout"),
                    paid: t("ledger.state.paid"),
                  },
                  noStudent: "—",
                }}
              />
            )}
          </div>
        </>
      )}
      <AdjustmentDialog affiliate={affiliate} open={adjusting} onOpenChange={setAdjusting} />
    </Panel>
  );
}

/**
 * The reverse dialog (docs/product/codes-and-partners.md#manual-adjustments): the reason of the compensating adjustment, required; `POST
 * /api/admin/affiliates/:id/adjustments/:entryId/reverse`. The original entry stays as it is.
 */
function ReverseDialog({
  affiliate,
  entry,
  onClose,
}: {
  affiliate: AdminAffiliateDto;
  entry: LikelyDuplicate | null;
  onClose: () => void;
}) {
  const { t } = useTranslation("adminCodes");
  const message = useFieldMessage();
  const format = useFormat();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, reset, setError } = useForm<
    ReverseAdjustmentFormValues,
    unknown,
    { reason: string }
  >({ resolver: zodResolver(reverseAdjustmentFormSchema), defaultValues: { reason: "" } });
  useEffect(() => {
    if (entry) reset({ reason: "" });
  }, [entry, reset]);
  const save = useMutation({
    mutationFn: (v: { reason: string }) =>
      call(reverseAdjustmentContract, {
        params: { id: affiliate.id, entryId: entry?.id ?? "" },
        body: { reason: v.reason },
      }),
    onSuccess: (result) => {
      queryClient.setQueryData(ledgerKey(affiliate.id), result);
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      void queryClient.invalidateQueries({ queryKey: duplicatesKey(affiliate.id) });
      toast({
        title: t("duplicates.done", { amount: format.money(-(entry?.amount ?? 0)) }),
        variant: "success",
      });
      onClose();
    },
    onError: (error) =>
      failWith(
        error,
        (field, text) => {
          if (field !== "reason") return false;
          setError("reason", { type: "server", message: text });
          return true;
        },
        t("actions.failedTitle"),
      ),
  });
  const reasonError = message(formState.errors.reason);
  return (
    <FormDialog
      open={entry !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t("duplicates.reverseTitle", { amount: format.money(entry?.amount ?? 0) })}
      description={t("duplicates.reverseBody", { amount: format.money(-(entry?.amount ?? 0)) })}
      busy={save.isPending}
    >
      <form onSubmit={handleSubmit((v) => save.mutate(v))} noValidate className="mt-4 space-y-4">
        <Field id="reverse-reason" label={t("ledger.reasonLabel")} required error={reasonError}>
          <textarea
            id="reverse-reason"
            rows={3}
            maxLength={500}
            className={inputClass}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={describedBy("reverse-reason", undefined, reasonError)}
            required
            {...register("reason")}
          />
        </Field>
        <DialogFormActions
          cancelLabel={t("ledger.cancel")}
          submitLabel={t("duplicates.reverseSubmit")}
          busyLabel={t("form.saving")}
          busy={save.isPending}
        />
      </form>
    </FormDialog>
  );
}

/**
 * Likely duplicate adjustments of the affiliate (docs/product/codes-and-partners.md#manual-adjustments): each later adjustment with the
 * same amount and reason as an earlier one within the window, from `GET
 * /api/admin/affiliates/:id/adjustments/duplicates`, with an action to reverse it by an audited
 * compensating adjustment. Shows nothing when there is none.
 */
export function DuplicateAdjustmentsPanel({ affiliate }: { affiliate: AdminAffiliateDto }) {
  const { t } = useTranslation("adminCodes");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const [reversing, setReversing] = useState<LikelyDuplicate | null>(null);
  const duplicates = useQuery({
    queryKey: duplicatesKey(affiliate.id),
    queryFn: ({ signal }) => call(listDuplicateAdjustmentsContract, { params: { id: affiliate.id }, signal }),
  });
  if (!duplicates.data || duplicates.data.items.length === 0) return null;
  return (
    <Panel title={t("duplicates.title")} id="affiliate-duplicates" className="mt-6">
      <p className="text-sm text-slate-700">
        {t("duplicates.lead", { minutes: duplicates.data.windowMinutes })}
      </p>
      <div className="mt-4">
        <DetailTable
          labelledBy="affiliate-duplicates"
          minWidth="min-w-[40rem]"
          head={
            <>
              <HeaderCell>{t("duplicates.columns.saved")}</HeaderCell>
              <HeaderCell>{t("duplicates.columns.reason")}</HeaderCell>
              <HeaderCell className="text-right">{t("ledger.columns.amount")}</HeaderCell>
              <HeaderCell>
                <span className="sr-only">{t("duplicates.columns.action")}</span>
              </HeaderCell>
            </>
          }
          rows={duplicates.data.items}
          empty=""
          row={(d) => (
            <tr key={d.id} className="align-top">
              <td className="px-3 py-3 text-slate-800">
                {t("duplicates.savedTwice", {
                  first: dateTime(d.duplicateOfCreatedAt),
                  again: dateTime(d.createdAt),
                })}
              </td>
              <td className="px-3 py-3 whitespace-pre-line break-words text-slate-800">{d.reason}</td>
              <td className="px-3 py-3 text-right whitespace-nowrap font-medium text-slate-900">
                {format.money(d.amount)}
              </td>
              <td className="px-3 py-3">
                <Button size="sm" variant="secondary" onClick={() => setReversing(d)}>
                  {t("duplicates.reverse")}
                </Button>
              </td>
            </tr>
          )}
        />
      </div>
      <ReverseDialog affiliate={affiliate} entry={reversing} onClose={() => setReversing(null)} />
    </Panel>
  );
}

/**
 * The reject dialog (docs/product/codes-and-partners.md#partners): the reason, required, shown to the
 * affiliate at login and e-mailed in its language; `POST /api/admin/affiliates/:id/reject`.
 */
export function RejectDialog({
  affiliate,
  open,
  onOpenChange,
}: {
  affiliate: AdminAffiliateDto;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation("adminCodes");
  const message = useFieldMessage();
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, reset, setError } = useForm<RejectFormValues>({
    resolver: zodResolver(rejectFormSchema),
    defaultValues: { reason: "" },
  });
  useEffect(() => {
    if (open) reset({ reason: "" });
  }, [open, reset]);
  const save = useMutation({
    mutationFn: (v: RejectFormValues) =>
      call(rejectAffiliateContract, {
        params: { id: affiliate.id },
        body: { reason: v.reason, version: affiliate.version },
      }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      onOpenChange(false);
      toast({ title: t("actions.rejectDone", { name: saved.name }), variant: "success" });
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      failWith(
        error,
        (field, text) => {
          if (field !== "reason") return false;
          setError("reason", { type: "server", message: text });
          return true;
        },
        t("actions.failedTitle"),
      );
    },
  });
  const reasonError = message(formState.errors.reason);
  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t("actions.rejectTitle", { name: affiliate.name })}
      description={t("actions.rejectBody")}
      busy={save.isPending}
    >
      <form onSubmit={handleSubmit((v) => save.mutate(v))} noValidate className="mt-4 space-y-4">
        <Field
          id="reject-reason"
          label={t("actions.rejectReason")}
          hint={t("actions.rejectReasonHint")}
          required
          error={reasonError}
        >
          <textarea
            id="reject-reason"
            rows={4}
            maxLength={500}
            className={inputClass}
            aria-invalid={reasonError ? true : undefined}
            aria-describedby={describedBy("reject-reason", true, reasonError)}
            required
            {...register("reason")}
          />
        </Field>
        <DialogFormActions
          cancelLabel={t("ledger.cancel")}
          submitLabel={t("actions.reject")}
          busyLabel={t("form.saving")}
          busy={save.isPending}
        />
      </form>
    </FormDialog>
  );
}
