import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { z } from "zod";
import { getPricingRulesContract, saveEarlyDiscountContract } from "../../../../../shared/api/pricing-rules";
import { addDays } from "../../../../../shared/dates";
import type { AdminRoleName } from "../../../../../shared/schemas/accounts";
import {
  type AdminPricingRule,
  type AdminPricingRules,
  adminPricingRuleSchema,
  earlyDiscountRuleFormSchema,
} from "../../../../../shared/schemas/pricing-rules";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { Spinner } from "../../../../components/ui/Spinner";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { adminCan } from "../../permissions";
import { applyCatalogueServerErrors, catalogueAdminKeys, FormInput } from "../catalogue/shared";
import { Panel, useRolesThatCan } from "../common";
import { FormCheckbox } from "../forms";

type FormInputValues = z.input<typeof earlyDiscountRuleFormSchema>;
type FormOutputValues = z.output<typeof earlyDiscountRuleFormSchema>;

/** The rules' query key, under the school's (refreshing the catalogue refreshes it too). */
export const pricingRulesKey = (schoolId: string) =>
  [...catalogueAdminKeys.school(schoolId), "pricing-rules"] as const;

/** A complete `yyyy-mm-dd` day, as a date input gives it once a day is chosen. */
const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The form's values of a saved rule; without one, an empty percentage, no date, active. */
function formValues(rule: AdminPricingRule | null): FormInputValues {
  return rule
    ? { percent: String(rule.percent), endsOn: rule.endsOn, active: rule.active }
    : { percent: "", endsOn: "", active: true };
}

/** Why a saved rule does or does not apply to applications made today (decision 030). */
function ruleState(rule: AdminPricingRule, today: string): "inEffect" | "switchedOff" | "ended" {
  if (rule.inEffect) return "inEffect";
  if (!rule.active) return "switchedOff";
  return today >= rule.endsOn ? "ended" : "switchedOff";
}

/** What the school has today: the rule's percentage, end day and whether it applies, or that there is none. */
function RuleSummary({ rules }: { rules: AdminPricingRules }) {
  const { t } = useTranslation("adminCatalogue");
  const format = useFormat();
  const rule = rules.earlyApplication;
  const today = format.date(rules.today);
  if (!rule) {
    return (
      <div className="space-y-1 text-slate-800">
        <p className="font-medium">{t("earlyDiscount.none")}</p>
        <p className="text-sm text-slate-700">{t("earlyDiscount.today", { today })}</p>
      </div>
    );
  }
  const state = ruleState(rule, rules.today);
  const endsOn = format.date(rule.endsOn);
  return (
    <dl className="grid gap-x-6 gap-y-3 text-slate-900 sm:grid-cols-[max-content_1fr]">
      <dt className="font-semibold">{t("earlyDiscount.statusLabel")}</dt>
      <dd>
        <span
          className={
            state === "inEffect"
              ? "inline-flex rounded-full bg-emerald-100 px-2.5 py-0.5 text-sm font-semibold text-emerald-900 ring-1 ring-emerald-300 ring-inset"
              : "inline-flex rounded-full bg-slate-100 px-2.5 py-0.5 text-sm font-semibold text-slate-900 ring-1 ring-slate-400 ring-inset"
          }
        >
          {t(`earlyDiscount.state.${state}`)}
        </span>
        <p className="mt-1 text-sm text-slate-700">
          {t(`earlyDiscount.stateDetail.${state}`, { date: endsOn })} {t("earlyDiscount.today", { today })}
        </p>
      </dd>
      <dt className="font-semibold">{t("earlyDiscount.percentLabel")}</dt>
      <dd>{t("earlyDiscount.percentValue", { percent: rule.percent })}</dd>
      <dt className="font-semibold">{t("earlyDiscount.endsLabel")}</dt>
      <dd>
        <p>{t("earlyDiscount.endsValue", { date: endsOn })}</p>
        <p className="mt-1 text-sm text-slate-700">
          {t("earlyDiscount.endsDetail", { date: endsOn, lastDay: format.date(addDays(rule.endsOn, -1)) })}
        </p>
      </dd>
    </dl>
  );
}

/**
 * The form creating or changing the rule (PUT …/pricing-rules/early-application with the version
 * last seen). Checked with `earlyDiscountRuleFormSchema` before sending; the server's 400 field
 * errors go next to their fields; a failure without fields (network, server) keeps the typed values
 * and offers to send them again. `onConflict` receives a 409's current rule (null when unknown).
 */
function RuleForm({
  schoolId,
  rule,
  onSaved,
  onConflict,
}: {
  schoolId: string;
  rule: AdminPricingRule | null;
  onSaved: (saved: AdminPricingRule) => void;
  onConflict: (current: AdminPricingRule | null) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const format = useFormat();
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, watch } = useForm<
    FormInputValues,
    unknown,
    FormOutputValues
  >({
    resolver: zodResolver(earlyDiscountRuleFormSchema),
    defaultValues: formValues(rule),
    mode: "onTouched",
  });
  const errors = formState.errors;
  const save = useMutation({
    mutationFn: (values: FormOutputValues) =>
      call(saveEarlyDiscountContract, {
        params: { id: schoolId },
        body: { ...values, ...(rule ? { version: rule.version } : {}) },
      }),
    onSuccess: (saved) => {
      setFailure(null);
      onSaved(saved);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        const parsed = adminPricingRuleSchema.safeParse(error.body?.current);
        onConflict(parsed.success ? parsed.data : null);
        return;
      }
      const hasFields = applyCatalogueServerErrors(error, setError);
      setFailure(hasFields ? null : error instanceof ApiError ? error.message : t("failed"));
    },
  });
  const submit = handleSubmit((values) => save.mutate(values));
  const busy = save.isPending;
  // The date input shows the browser's own format (e.g. 03/15/2027 on an American system): the
  // chosen day is read back in the admin's language, with its last day, as the applicants see it.
  const endsOnValue = watch("endsOn");
  const endsOnReading = ISO_DAY.test(endsOnValue ?? "")
    ? t("earlyDiscount.endsDetail", {
        date: format.date(endsOnValue),
        lastDay: format.date(addDays(endsOnValue, -1)),
      })
    : null;

  return (
    <form onSubmit={submit} noValidate className="space-y-5" aria-labelledby="early-discount-form-title">
      <h3 id="early-discount-form-title" className="text-base font-bold text-brand-900">
        {t(rule ? "earlyDiscount.changeTitle" : "earlyDiscount.createTitle")}
      </h3>
      {failure ? (
        <Notice tone="error" title={t("earlyDiscount.failedTitle")}>
          <p>{failure}</p>
          <p>{t("earlyDiscount.valuesKept")}</p>
          <Button
            type="button"
            variant="secondary"
            size="sm"
            className="mt-3"
            onClick={submit}
            disabled={busy}
          >
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            {t("earlyDiscount.retry")}
          </Button>
        </Notice>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormInput<FormInputValues>
          id="early-discount-percent"
          name="percent"
          label={t("earlyDiscount.fields.percent")}
          hint={t("earlyDiscount.fields.percentHint")}
          inputMode="numeric"
          autoComplete="off"
          maxLength={3}
          required
          register={register}
          errors={errors}
        />
        <FormInput<FormInputValues>
          id="early-discount-ends"
          name="endsOn"
          type="date"
          label={t("earlyDiscount.fields.endsOn")}
          hint={t("earlyDiscount.fields.endsOnHint")}
          required
          register={register}
          errors={errors}
        />
      </div>
      <p className="text-sm text-slate-700" aria-live="polite" data-testid="early-discount-ends-reading">
        {endsOnReading}
      </p>
      <FormCheckbox<FormInputValues>
        id="early-discount-active"
        name="active"
        label={t("earlyDiscount.fields.active")}
        hint={t("earlyDiscount.fields.activeHint")}
        register={register}
      />
      <Button type="submit" disabled={busy}>
        {busy ? t("saving") : t(rule ? "earlyDiscount.save" : "earlyDiscount.create")}
      </Button>
    </form>
  );
}

/**
 * The "Early application discount" section of /admin/summer-schools/{id} (docs/product/catalogue-and-pricing.md#pricing-rules: "Pricing rules
 * as data", decision 030): whether the school has the rule, its percentage, the day it ends (at
 * midnight in The Hague as that day begins, so it covers applications made before it) and whether
 * it applies today (`GET …/pricing-rules`, parsed with its contract). Admins whose
 * `role` holds `pricing:write` (owners, finance; src/shared/permissions.ts) get the form to create
 * or change it; others (admissions) read only. A 409 (someone else saved first) says so and shows
 * the current values, in the summary and the form; a failed load offers to try again.
 */
export function EarlyDiscountPanel({ schoolId, role }: { schoolId: string; role: AdminRoleName }) {
  const { t } = useTranslation("adminCatalogue");
  const queryClient = useQueryClient();
  const [conflict, setConflict] = useState(false);
  const key = pricingRulesKey(schoolId);
  const rules = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(getPricingRulesContract, { params: { id: schoolId }, signal }),
  });
  const canEdit = adminCan({ role }, "pricing:write");
  const writers = useRolesThatCan("pricing:write");
  const replaceRule = (rule: AdminPricingRule) =>
    queryClient.setQueryData<AdminPricingRules>(key, (old) =>
      old ? { ...old, earlyApplication: { ...rule } } : old,
    );

  return (
    <Panel title={t("earlyDiscount.title")} id="early-discount" className="mt-6">
      <p className="mb-4 max-w-3xl text-slate-700">{t("earlyDiscount.lead")}</p>
      {rules.isPending ? (
        <Spinner />
      ) : rules.isError ? (
        <Notice tone="error" title={t("earlyDiscount.loadError")}>
          <p>{rules.error.message}</p>
          <Button
            variant="secondary"
            size="sm"
            className="mt-3"
            onClick={() => void rules.refetch()}
            disabled={rules.isFetching}
          >
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            {t("earlyDiscount.retry")}
          </Button>
        </Notice>
      ) : (
        <div className="space-y-6">
          {conflict ? (
            <Notice tone="error" title={t("earlyDiscount.staleTitle")}>
              <p>{t("earlyDiscount.staleBody")}</p>
            </Notice>
          ) : null}
          <RuleSummary rules={rules.data} />
          {canEdit ? (
            <div className="border-t border-slate-200 pt-6">
              <RuleForm
                // A new version (saved here or by someone else) starts the form from its values.
                key={rules.data.earlyApplication?.version ?? 0}
                schoolId={schoolId}
                rule={rules.data.earlyApplication}
                onSaved={(saved) => {
                  setConflict(false);
                  replaceRule(saved);
                  toast({ title: t("earlyDiscount.savedTitle"), variant: "success" });
                }}
                onConflict={(current) => {
                  setConflict(true);
                  if (current) replaceRule(current);
                  void queryClient.invalidateQueries({ queryKey: key });
                }}
              />
            </div>
          ) : (
            <p className="text-sm text-slate-700">{t("earlyDiscount.readOnly", { roles: writers })}</p>
          )}
        </div>
      )}
    </Panel>
  );
}
