import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { type Path, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { createCodeContract, updateCodeContract } from "../../../../../shared/api/codes-admin";
import type { AdminCodeDto } from "../../../../../shared/codes-admin";
import {
  adminCodeSchema,
  CODE_DESCRIPTION_MAX,
  type CodeCreateInput,
  type CodeFormValues,
  centsToEuros,
  codeFormSchema,
  isoToLocal,
} from "../../../../../shared/schemas/codes-admin";
import { Notice, TextField, useFieldMessage } from "../../../../components/account/auth";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useSummerSchools } from "../../../../lib/catalogue";
import { useFormat } from "../../../../lib/format";
import { staleCurrent } from "../catalogue/shared";
import { DialogFormActions, FormCheckbox, FormDialog } from "../forms";
import { codeKeys, useAffiliateOptions } from "./shared";

/** The form's values for a new code, or for editing `code` (money in euros, dates in local time). */
function valuesOf(code: AdminCodeDto | null): CodeFormValues {
  return {
    code: code?.code ?? "",
    codeType: code?.codeType ?? "discount",
    discountType: code?.discountType ?? "percentage",
    percent: code?.discountType === "percentage" ? String(code.discountValue) : "",
    amountEuros: code?.discountType === "fixed" ? centsToEuros(code.discountValue) : "",
    validFrom: isoToLocal(code?.validFrom ?? null),
    validTo: isoToLocal(code?.validTo ?? null),
    maxRedemptions: code?.maxRedemptions ? String(code.maxRedemptions) : "",
    summerSchoolIds: code?.summerSchools.map((s) => s.id) ?? [],
    affiliateId: code?.affiliate?.id ?? "",
    description: code?.description ?? "",
    active: code?.active ?? true,
  };
}

/** Server field → form field (the server names the discount `discountValue`). */
function formField(field: string, discountType: string): Path<CodeFormValues> {
  if (field === "discountValue") return discountType === "fixed" ? "amountEuros" : "percent";
  return (field.split(".")[0] ?? "code") as Path<CodeFormValues>;
}

/**
 * The "New code" / "Edit code" dialog (docs/product/back-office.md#codes-admin): code text, description, type (discount:
 * percentage or fixed amount in euros; referral: the affiliate it credits), validity window as
 * local date and time (sent as UTC), maximum number of uses, programmes it applies to (none:
 * all), active. Checked with the shared schema in the browser and on the server; the server's
 * field messages appear next to their fields; a 409 on edit shows the current code (parsed with
 * `adminCodeSchema`, like the answer; a 409 without one, a taken code, marks the field instead).
 * `onSaved` receives the saved code.
 */
export function CodeFormDialog({
  open,
  onOpenChange,
  code,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The code to edit; null for a new one. */
  code: AdminCodeDto | null;
  onSaved?: (code: AdminCodeDto) => void;
}) {
  const { t } = useTranslation("adminCodes");
  const message = useFieldMessage();
  const format = useFormat();
  const queryClient = useQueryClient();
  const schools = useSummerSchools();
  const affiliateOptions = useAffiliateOptions();
  const [version, setVersion] = useState(code?.version ?? 1);
  const [conflict, setConflict] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, watch, reset } = useForm<
    CodeFormValues,
    unknown,
    CodeCreateInput
  >({
    resolver: zodResolver(codeFormSchema),
    defaultValues: valuesOf(code),
    mode: "onTouched",
  });
  useEffect(() => {
    if (open) {
      reset(valuesOf(code));
      setVersion(code?.version ?? 1);
      setConflict(null);
    }
  }, [open, code, reset]);
  const errors = formState.errors;
  const codeType = watch("codeType");
  const discountType = watch("discountType");

  const save = useMutation({
    mutationFn: (input: CodeCreateInput) =>
      code
        ? call(updateCodeContract, { params: { id: code.id }, body: { ...input, version } })
        : call(createCodeContract, { body: input }),
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
      void queryClient.invalidateQueries({ queryKey: codeKeys.affiliates() });
      toast({
        title: code ? t("form.updatedTitle") : t("form.createdTitle"),
        description: t("form.saved", { code: saved.code }),
        variant: "success",
      });
      onOpenChange(false);
      onSaved?.(saved);
    },
    onError: (error) => {
      if (error instanceof ApiError) {
        const current = staleCurrent(adminCodeSchema, error);
        if (current) {
          reset(valuesOf(current));
          setVersion(current.version);
          setConflict(error.message);
          void queryClient.invalidateQueries({ queryKey: codeKeys.codes() });
          return;
        }
        const fields = Object.entries(error.fieldErrors);
        for (const [field, text] of fields) {
          setError(formField(field, discountType), { type: "server", message: text });
        }
        if (fields.length) return;
      }
      toast({ title: t("form.failedTitle"), description: error.message, variant: "destructive" });
    },
  });

  const schoolError = message(errors.summerSchoolIds as never);
  const radio =
    "h-4 w-4 border-slate-400 text-brand-700 focus-visible:outline-2 focus-visible:outline-brand-600";

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={code ? t("form.editTitle", { code: code.code }) : t("form.newTitle")}
      description={t("form.lead")}
      closeLabel={t("form.close")}
      busy={save.isPending}
    >
      {conflict ? (
        <div className="mt-4">
          <Notice tone="error" title={t("form.conflictTitle")}>
            <p>{conflict}</p>
          </Notice>
        </div>
      ) : null}
      <form onSubmit={handleSubmit((values) => save.mutate(values))} noValidate className="mt-5 space-y-5">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="code-text"
            label={t("form.code")}
            hint={t("form.codeHint")}
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            className="[&_input]:font-mono [&_input]:uppercase"
            error={message(errors.code)}
            {...register("code")}
          />
          <TextField
            id="code-description"
            label={t("form.description")}
            required={false}
            maxLength={CODE_DESCRIPTION_MAX}
            error={message(errors.description)}
            {...register("description")}
          />
        </div>

        <fieldset>
          <legend className="text-sm font-medium text-slate-900">{t("form.codeType")}</legend>
          <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            {(["discount", "referral"] as const).map((value) => (
              <label key={value} className="inline-flex items-center gap-2 text-slate-900">
                <input type="radio" value={value} className={radio} {...register("codeType")} />
                {t(`codes.type.${value}`)}
              </label>
            ))}
          </div>
        </fieldset>

        {codeType === "discount" ? (
          <div className="grid gap-4 sm:grid-cols-2">
            <fieldset>
              <legend className="text-sm font-medium text-slate-900">{t("form.discountType")}</legend>
              <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
                {(["percentage", "fixed"] as const).map((value) => (
                  <label key={value} className="inline-flex items-center gap-2 text-slate-900">
                    <input type="radio" value={value} className={radio} {...register("discountType")} />
                    {t(`codes.discountType.${value}`)}
                  </label>
                ))}
              </div>
            </fieldset>
            {discountType === "percentage" ? (
              <TextField
                id="code-percent"
                label={t("form.percent")}
                hint={t("form.percentHint")}
                inputMode="numeric"
                error={message(errors.percent)}
                {...register("percent")}
              />
            ) : (
              <TextField
                id="code-amount"
                label={t("form.amount")}
                hint={t("form.amountHint", { example: format.money(12550) })}
                inputMode="decimal"
                error={message(errors.amountEuros)}
                {...register("amountEuros")}
              />
            )}
          </div>
        ) : null}

        <Field
          id="code-affiliate"
          label={t("form.affiliate")}
          required={codeType === "referral"}
          hint={codeType === "referral" ? t("form.affiliateReferralHint") : t("form.affiliateHint")}
          error={message(errors.affiliateId)}
        >
          <select
            id="code-affiliate"
            className={inputClass}
            aria-invalid={errors.affiliateId ? true : undefined}
            aria-describedby={describedBy("code-affiliate", true, errors.affiliateId)}
            {...register("affiliateId")}
          >
            <option value="">{t("form.noAffiliate")}</option>
            {(affiliateOptions.data?.items ?? []).map((a) => (
              <option key={a.id} value={a.id}>
                {a.name} ({t(`affiliates.status.${a.status}`)})
              </option>
            ))}
            {code?.affiliate && !affiliateOptions.data?.items.some((a) => a.id === code.affiliate?.id) ? (
              <option value={code.affiliate.id}>{code.affiliate.name}</option>
            ) : null}
          </select>
        </Field>

        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="code-valid-from"
            type="datetime-local"
            label={t("form.validFrom")}
            hint={t("form.validHint")}
            required={false}
            error={message(errors.validFrom)}
            {...register("validFrom")}
          />
          <TextField
            id="code-valid-to"
            type="datetime-local"
            label={t("form.validTo")}
            hint={t("form.validHint")}
            required={false}
            error={message(errors.validTo)}
            {...register("validTo")}
          />
        </div>

        <TextField
          id="code-max"
          label={t("form.maxRedemptions")}
          hint={t("form.maxRedemptionsHint")}
          required={false}
          inputMode="numeric"
          className="sm:max-w-xs"
          error={message(errors.maxRedemptions)}
          {...register("maxRedemptions")}
        />

        <fieldset aria-describedby="code-schools-hint">
          <legend className="text-sm font-medium text-slate-900">{t("form.schools")}</legend>
          <p id="code-schools-hint" className="mt-1 text-sm text-slate-600">
            {t("form.schoolsHint")}
          </p>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {[
              ...(schools.data ?? []),
              // Programmes the code is limited to that the public list no longer shows (past cohorts).
              ...(code?.summerSchools ?? [])
                .filter((s) => !schools.data?.some((open) => open.id === s.id))
                .map((s) => ({ ...s, startDate: "" })),
            ].map((school) => (
              <label key={school.id} className="inline-flex items-start gap-2 text-slate-900">
                <input
                  type="checkbox"
                  value={school.id}
                  className="mt-1 h-4 w-4 rounded border-slate-400"
                  {...register("summerSchoolIds")}
                />
                <span>
                  {school.name}{" "}
                  {school.startDate ? (
                    <span className="text-slate-700">({format.date(school.startDate)})</span>
                  ) : null}
                </span>
              </label>
            ))}
          </div>
          {schoolError ? (
            <p className="mt-1 text-sm font-medium text-red-700" role="alert">
              {schoolError}
            </p>
          ) : null}
        </fieldset>

        <FormCheckbox<CodeFormValues>
          id="code-form-active"
          name="active"
          label={t("form.active")}
          register={register}
        />

        <DialogFormActions
          cancelLabel={t("form.cancel")}
          submitLabel={code ? t("form.save") : t("form.create")}
          busyLabel={t("form.saving")}
          busy={save.isPending}
        />
      </form>
    </FormDialog>
  );
}
