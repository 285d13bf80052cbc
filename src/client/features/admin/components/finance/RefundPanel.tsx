import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Undo2 } from "lucide-react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { createRefundContract, getRefundQuoteContract } from "../../../../../shared/api/finance";
import type { AdminRefundQuoteDto, RefundStatus } from "../../../../../shared/finance";
import {
  eurosTextToCents,
  REFUND_REASON_MAX_LENGTH,
  type RefundFormValues,
  refundFormSchema,
} from "../../../../../shared/schemas/finance";
import { Notice, TextField } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { cn } from "../../../../components/ui/cn";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { Spinner } from "../../../../components/ui/Spinner";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import type { AdminUser } from "../../../../lib/session";
import { ConfirmDialog } from "../ConfirmDialog";
import { useDateTime } from "../common";

/** Refunding needs `finance:write`: owners and the finance team (mirrors the server's guard table). */
export const canRefund = (admin: AdminUser) => admin.role === "owner" || admin.role === "finance";

/** Query keys of the finances area (under ["admin"], dropped at logout). */
export const financeKeys = {
  all: ["admin", "finance"] as const,
  quote: (applicationId: string) => ["admin", "finance", "refund-quote", applicationId] as const,
};

/** A new idempotency key for one refund: sent again on a retry of the same refund, new after it ends. */
const newKey = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 12)}`;

const REFUND_COLOURS: Record<RefundStatus, string> = {
  pending: "bg-sky-100 text-sky-900 ring-sky-300",
  succeeded: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  failed: "bg-red-100 text-red-900 ring-red-300",
  canceled: "bg-slate-100 text-slate-800 ring-slate-300",
};

/** A translated pill for a refund's status. */
export function RefundStatusBadge({ status }: { status: RefundStatus }) {
  const { t } = useTranslation("adminFinance");
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        REFUND_COLOURS[status],
      )}
    >
      {t(`refundStatus.${status}`)}
    </span>
  );
}

/** Cents as the euros text of the amount field ("2131.50"). */
const eurosText = (cents: number) => (cents / 100).toFixed(2);

/**
 * The refund panel of an application (docs/product/back-office.md#finance; shown to owners and finance only): its
 * payments with what each still holds, its refunds, the refund policy's suggestion (docs/product/payments.md#refund-policy: 70 %
 * more than 60 days before the start, 50 % for 30-60 days, none under 30), and a form — amount in
 * euros prefilled with the suggestion, a reason — confirmed in a dialog before
 * `POST /api/admin/applications/:id/refunds` is sent with one idempotency key per refund (a
 * double click or a retry never refunds twice). `onChanged` runs after a refund so the page
 * reloads the application's payment status.
 */
export function RefundPanel({ applicationId, onChanged }: { applicationId: string; onChanged?: () => void }) {
  const { t } = useTranslation("adminFinance");
  const format = useFormat();
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const quote = useQuery({
    queryKey: financeKeys.quote(applicationId),
    queryFn: ({ signal }) => call(getRefundQuoteContract, { params: { id: applicationId }, signal }),
  });

  if (quote.isPending) return <Spinner />;
  if (quote.isError)
    return (
      <Notice tone="error" title={t("common:loadError")}>
        <p>{quote.error.message}</p>
      </Notice>
    );
  const data = quote.data;
  const policyText =
    data.daysBeforeStart < 0
      ? t("refund.policy.started", { percent: data.percent })
      : t("refund.policy.days", { count: data.daysBeforeStart, percent: data.percent });

  return (
    <div className="space-y-5 text-sm">
      <div>
        <h3 className="font-semibold text-brand-900">{t("refund.payments")}</h3>
        {data.payments.length === 0 ? (
          <p className="mt-1 text-slate-700">{t("refund.noPayments")}</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {data.payments.map((payment) => (
              <li key={payment.id} className="rounded-lg bg-slate-50 p-3">
                <p className="font-semibold text-slate-900">{format.money(payment.amount)}</p>
                <p className="text-slate-700">{dateTime(payment.paidAt)}</p>
                <p className="text-slate-700">
                  {t("refund.paymentHolds", {
                    refunded: format.money(payment.refunded),
                    refundable: format.money(payment.refundable),
                  })}
                </p>
              </li>
            ))}
          </ul>
        )}
      </div>

      <div>
        <h3 className="font-semibold text-brand-900">{t("refund.refunds")}</h3>
        {data.refunds.length === 0 ? (
          <p className="mt-1 text-slate-700">{t("refund.noRefunds")}</p>
        ) : (
          <ul className="mt-2 space-y-2">
            {data.refunds.map((refund) => (
              <li key={refund.id} className="rounded-lg bg-slate-50 p-3">
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <p className="font-semibold text-slate-900">{format.money(refund.amount)}</p>
                  <RefundStatusBadge status={refund.status} />
                </div>
                <p className="text-slate-700">{dateTime(refund.createdAt)}</p>
                {refund.reason ? <p className="break-words text-slate-800">{refund.reason}</p> : null}
                {refund.requestedBy ? (
                  <p className="text-slate-700">
                    {t("refund.by", { name: refund.requestedBy.name || refund.requestedBy.email })}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>

      <div className="rounded-lg border border-slate-200 p-3">
        <h3 className="font-semibold text-brand-900">{t("refund.policy.title")}</h3>
        <p className="mt-1 text-slate-800">
          {t("refund.policy.start", { date: format.date(data.startDate) })} {policyText}
        </p>
        <dl className="mt-2 space-y-1">
          <div className="flex justify-between gap-4">
            <dt className="text-slate-700">{t("refund.suggested")}</dt>
            <dd className="font-semibold whitespace-nowrap text-slate-900">
              {format.money(data.suggestedAmountCents)}
            </dd>
          </div>
          <div className="flex justify-between gap-4">
            <dt className="text-slate-700">{t("refund.refundable")}</dt>
            <dd className="whitespace-nowrap text-slate-900">{format.money(data.refundableCents)}</dd>
          </div>
        </dl>
        <p className="mt-2 text-xs text-slate-700">{t("refund.policy.rule")}</p>
      </div>

      {data.refundableCents > 0 ? (
        <RefundForm
          applicationId={applicationId}
          quote={data}
          onDone={() => {
            void queryClient.invalidateQueries({ queryKey: financeKeys.all });
            onChanged?.();
          }}
        />
      ) : (
        <p className="text-slate-700">{t("refund.nothingToRefund")}</p>
      )}
    </div>
  );
}

/** The amount and reason of a new refund, then the confirmation dialog. */
function RefundForm({
  applicationId,
  quote,
  onDone,
}: {
  applicationId: string;
  quote: AdminRefundQuoteDto;
  onDone: () => void;
}) {
  const { t } = useTranslation("adminFinance");
  const format = useFormat();
  const key = useRef(newKey());
  const [pending, setPending] = useState<{ amountCents: number; reason: string } | null>(null);
  const schema = useMemo(() => refundFormSchema(quote.refundableCents), [quote.refundableCents]);
  const defaults = { amount: eurosText(quote.suggestedAmountCents), reason: "" };
  const { register, handleSubmit, formState, reset } = useForm<RefundFormValues>({
    resolver: zodResolver(schema),
    defaultValues: defaults,
  });
  // A new suggestion (after a refund) refills the amount.
  const suggested = quote.suggestedAmountCents;
  useEffect(() => {
    reset({ amount: eurosText(suggested), reason: "" });
  }, [suggested, reset]);

  const send = useMutation({
    mutationFn: (input: { amountCents: number; reason: string }) =>
      call(createRefundContract, {
        params: { id: applicationId },
        body: { ...input, idempotencyKey: key.current },
      }),
    onSuccess: (result) => {
      key.current = newKey();
      setPending(null);
      reset({ amount: eurosText(suggested), reason: "" });
      onDone();
      toast({
        title: t("refund.doneTitle"),
        description:
          result.refund.status === "succeeded"
            ? t("refund.done", { amount: format.money(result.refund.amount) })
            : t("refund.donePending", { amount: format.money(result.refund.amount) }),
        variant: "success",
      });
    },
    onError: (error) => {
      setPending(null);
      // A refusal (4xx) or a provider failure (502) ends this refund: the next try is a new one.
      // A network failure keeps the key, so trying again cannot refund twice; so does an answer
      // that does not parse with the shared schema (the refund may have been made).
      if (error instanceof ApiError) key.current = newKey();
      onDone();
      toast({ title: t("refund.failedTitle"), description: error.message, variant: "destructive" });
    },
  });

  const errors = formState.errors;
  // The form's own keys are in adminFinance; the shared rules' (validation.*) in common.
  const message = (error?: { message?: string }) =>
    error?.message
      ? t(error.message.startsWith("validation.") ? `common:${error.message}` : error.message)
      : undefined;
  const onSubmit = handleSubmit((values) =>
    setPending({ amountCents: eurosTextToCents(values.amount), reason: values.reason.trim() }),
  );

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-labelledby="refund-form-heading">
      <h3 id="refund-form-heading" className="font-semibold text-brand-900">
        {t("refund.formTitle")}
      </h3>
      <TextField
        id="refund-amount"
        label={t("refund.amount")}
        hint={t("refund.amountHint", { amount: format.money(quote.refundableCents) })}
        inputMode="decimal"
        autoComplete="off"
        error={message(errors.amount)}
        {...register("amount")}
      />
      <Field id="refund-reason" label={t("refund.reason")} required error={message(errors.reason)}>
        <textarea
          id="refund-reason"
          rows={3}
          maxLength={REFUND_REASON_MAX_LENGTH}
          className={inputClass}
          aria-invalid={errors.reason ? true : undefined}
          aria-describedby={describedBy("refund-reason", undefined, errors.reason)}
          required
          {...register("reason")}
        />
      </Field>
      <Button type="submit" variant="secondary" disabled={send.isPending}>
        <Undo2 aria-hidden="true" className="h-4 w-4" />
        {t("refund.submit")}
      </Button>

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => (open ? undefined : setPending(null))}
        title={t("refund.confirmTitle", { amount: pending ? format.money(pending.amountCents) : "" })}
        description={
          <>
            <p>{t("refund.confirmBody", { amount: pending ? format.money(pending.amountCents) : "" })}</p>
            {pending && pending.amountCents !== quote.suggestedAmountCents ? (
              <p>{t("refund.confirmDiffers", { suggested: format.money(quote.suggestedAmountCents) })}</p>
            ) : null}
          </>
        }
        confirmLabel={t("refund.confirm")}
        danger
        busy={send.isPending}
        onConfirm={() => (pending ? send.mutate(pending) : undefined)}
      />
    </form>
  );
}
