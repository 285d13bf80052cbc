import { AlertCircle, CalendarDays, Check, Users } from "lucide-react";
import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { type AddOnOptionDto, canApply, defaultSchool, type PackageDto } from "../../../../shared/catalogue";
import { computeQuote } from "../../../../shared/pricing";
import { Button } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { HydratedFieldset } from "../../../components/ui/HydratedFieldset";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { useCatalogueSummary, useSchoolOptions } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { useVatContext } from "../../../lib/vat";
import { heldOfferSchool } from "../../../lib/waiting-list-offer";
import type { WizardState } from "../wizard-state";

type Choice = Pick<WizardState, "summerSchoolId" | "packageId" | "housingOptionId" | "selectedAddOns">;

const urgencyClass = {
  green: "bg-emerald-100 text-emerald-900",
  orange: "bg-amber-100 text-amber-900",
  red: "bg-red-100 text-red-900",
} as const;

/** The add-ons that are selected no matter what: required ones and those included in the package. */
function lockedAddOns(addOns: AddOnOptionDto[], pkg: PackageDto | undefined) {
  return new Set(addOns.filter((a) => a.isRequired || pkg?.includedAddOns.includes(a.id)).map((a) => a.id));
}

/**
 * The shared rules of step 1 (docs/product/admissions.md#personal-step), with zod: fetched with the later steps once the visitor
 * starts choosing (ApplyPage), not with the page, whose first load then carries 35 KB (brotli) less.
 */
export const loadSelectionRules = () => import("../../../../shared/schemas/application");

/**
 * Step 1, program selection (docs/product/catalogue-and-pricing.md#housing, docs/product/admissions.md#program-step): school, package, housing and add-ons, with the
 * defaults of docs/product/catalogue-and-pricing.md#selection-defaults; choosing another school resets the rest. Shows a price preview computed
 * by the shared pricing rule; the amount charged is the server's quote on step 3.
 */
export function ProgramStep({
  state,
  onNext,
  onChoose,
}: {
  state: WizardState;
  onNext: (patch: Partial<WizardState>) => void;
  /** Each change of the choices, kept in the tab's wizard state so a reload keeps them (docs/product/admissions.md#application-wizard). */
  onChoose?: (choice: Choice) => void;
}) {
  const { t } = useTranslation("apply");
  const vatCtx = useVatContext();
  const { money, date } = useFormat();
  const includesId = useId();
  const [params] = useSearchParams();
  const summary = useCatalogueSummary();
  const schools = summary.data?.schools ?? [];
  const [choice, setChoice] = useState<Choice>({
    summerSchoolId: state.summerSchoolId,
    packageId: state.packageId,
    housingOptionId: state.housingOptionId,
    selectedAddOns: state.selectedAddOns,
  });
  const [errors, setErrors] = useState<Record<string, string>>({});

  // Take over what the tab stored once it is loaded.
  useEffect(() => {
    setChoice({
      summerSchoolId: state.summerSchoolId,
      packageId: state.packageId,
      housingOptionId: state.housingOptionId,
      selectedAddOns: state.selectedAddOns,
    });
  }, [state.summerSchoolId, state.packageId, state.housingOptionId, state.selectedAddOns]);

  // A full cohort whose waiting-list offer this tab opened is choosable (docs/product/admissions.md#waiting-list; the server checks the offer).
  // Read after hydration: the prerendered page knows of no offer.
  const [offered, setOffered] = useState<string | null>(null);
  useEffect(() => setOffered(heldOfferSchool()), []);
  const choosable = (s: { id: string; status: Parameters<typeof canApply>[0] }) =>
    canApply(s.status) || s.id === offered;
  const wanted = params.get("school");
  const school =
    schools.find((s) => s.id === choice.summerSchoolId && choosable(s)) ??
    schools.find((s) => s.id === wanted && s.id === offered) ??
    defaultSchool(schools, wanted);
  const { packages, housing, addOns } = useSchoolOptions(school?.id);
  const pkg = packages.data?.find((p) => p.id === choice.packageId) ?? packages.data?.[0];
  const housingOption =
    housing.data?.find((h) => h.id === choice.housingOptionId) ??
    housing.data?.find((h) => h.priceAdjustment === 0) ??
    housing.data?.[0];
  const locked = useMemo(() => lockedAddOns(addOns.data ?? [], pkg), [addOns.data, pkg]);
  const selected = new Set([
    ...choice.selectedAddOns.filter((id) => addOns.data?.some((a) => a.id === id)),
    ...locked,
  ]);

  const preview =
    pkg && housingOption && addOns.data
      ? computeQuote({
          packagePriceCents: pkg.price,
          housingAdjustmentCents: housingOption.priceAdjustment,
          addOns: addOns.data
            .filter((a) => selected.has(a.id))
            .map((a) => ({
              id: a.id,
              priceCents: a.price,
              includedInPackage: pkg.includedAddOns.includes(a.id),
            })),
          depositPercent: school?.depositPercent ?? 100,
        })
      : null;

  /** Changes the choices and keeps them for a reload (docs/product/admissions.md#application-wizard: "reload on step 1 loses the choices"). */
  const change = (patch: Partial<Choice>) => {
    const next = { ...choice, ...patch };
    setChoice(next);
    onChoose?.(next);
  };
  const chooseSchool = (id: string) =>
    change({ summerSchoolId: id, packageId: undefined, housingOptionId: undefined, selectedAddOns: [] });
  const toggleAddOn = (id: string) =>
    change({
      selectedAddOns: choice.selectedAddOns.includes(id)
        ? choice.selectedAddOns.filter((x) => x !== id)
        : [...choice.selectedAddOns, id],
    });

  const [checking, setChecking] = useState(false);
  const submit = async () => {
    const candidate = {
      summerSchoolId: school?.id ?? "",
      packageId: pkg?.id ?? "",
      housingOptionId: housingOption?.id ?? "",
      selectedAddOns: [...selected].filter((id) => !pkg?.includedAddOns.includes(id)),
    };
    setChecking(true);
    let rules: Awaited<ReturnType<typeof loadSelectionRules>>;
    try {
      rules = await loadSelectionRules();
    } catch {
      toast({ title: t("common:loadError"), variant: "destructive" });
      return;
    } finally {
      setChecking(false);
    }
    const result = rules.programSelectionSchema.safeParse(candidate);
    if (!result.success) {
      const fieldErrors: Record<string, string> = {};
      for (const issue of result.error.issues)
        fieldErrors[String(issue.path[0])] ??= t(`common:${issue.message}`);
      setErrors(fieldErrors);
      toast({
        title: t("common:validation.errorTitle"),
        description: Object.values(fieldErrors)[0],
        variant: "destructive",
      });
      return;
    }
    setErrors({});
    onNext({ ...result.data, selectedAddOns: result.data.selectedAddOns });
  };

  const continueButton = (
    <Button size="lg" onClick={() => void submit()} disabled={checking} aria-busy={checking}>
      {t("program.continue")}
    </Button>
  );

  if (summary.isPending) return <Spinner />;
  if (summary.isError) {
    return (
      <Card>
        <p role="alert" className="flex items-center gap-2 text-red-800">
          <AlertCircle aria-hidden="true" className="h-5 w-5" /> {t("common:loadError")}
        </p>
        <Button variant="secondary" className="mt-4" onClick={() => void summary.refetch()}>
          {t("common:retry")}
        </Button>
      </Card>
    );
  }

  return (
    <HydratedFieldset className="space-y-8">
      <fieldset>
        <legend className="text-xl font-bold text-brand-900">{t("program.schoolLegend")}</legend>
        {schools.length === 0 ? <p className="mt-3 text-slate-700">{t("program.noSchools")}</p> : null}
        <div className="mt-4 grid gap-3 sm:grid-cols-2">
          {schools.map((s) => {
            const disabled = !choosable(s);
            const checked = s.id === school?.id;
            return (
              <label
                key={s.id}
                className={cn(
                  "relative flex cursor-pointer flex-col rounded-xl border-2 bg-white p-4 transition has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500",
                  checked
                    ? "border-brand-600 ring-2 ring-brand-100"
                    : "border-slate-200 hover:border-brand-200",
                  disabled && "cursor-not-allowed bg-slate-50 opacity-80",
                )}
              >
                <input
                  type="radio"
                  name="summerSchoolId"
                  value={s.id}
                  checked={checked}
                  disabled={disabled}
                  onChange={() => chooseSchool(s.id)}
                  className="sr-only"
                />
                <span className="font-semibold text-brand-900">{s.name}</span>
                <span className="mt-1 flex items-center gap-1.5 text-sm text-slate-700">
                  <CalendarDays aria-hidden="true" className="h-4 w-4" />
                  {t("common:dates.range", { start: date(s.startDate), end: date(s.endDate) })}
                </span>
                <span className="mt-1 flex items-center gap-1.5 text-sm text-slate-700">
                  <Users aria-hidden="true" className="h-4 w-4" />
                  {t(`status.${s.status}`)}
                  {canApply(s.status) ? ` · ${t("program.placesLeft", { count: s.placesLeft })}` : ""}
                </span>
                {checked ? (
                  <Check aria-hidden="true" className="absolute top-3 right-3 h-5 w-5 text-brand-600" />
                ) : null}
              </label>
            );
          })}
        </div>
        {errors.summerSchoolId ? (
          <p className="mt-2 text-sm font-medium text-red-700" role="alert">
            {errors.summerSchoolId}
          </p>
        ) : null}
      </fieldset>

      {school && (packages.isPending || housing.isPending || addOns.isPending) ? <Spinner /> : null}
      {packages.isError || housing.isError || addOns.isError ? (
        <div>
          <p role="alert" className="flex items-center gap-2 text-red-800">
            <AlertCircle aria-hidden="true" className="h-5 w-5" /> {t("common:loadError")}
          </p>
          <Button
            variant="secondary"
            className="mt-3"
            onClick={() => {
              if (packages.isError) void packages.refetch();
              if (housing.isError) void housing.refetch();
              if (addOns.isError) void addOns.refetch();
            }}
          >
            {t("common:retry")}
          </Button>
        </div>
      ) : null}

      {packages.data ? (
        <fieldset>
          <legend className="text-xl font-bold text-brand-900">{t("program.packageLegend")}</legend>
          <div className="mt-4 grid gap-3 sm:grid-cols-2">
            {packages.data.map((p) => {
              const checked = p.id === pkg?.id;
              return (
                // The card is the label's click area (its ::after covers the card); the list of what
                // the package includes is outside the label (a label holds phrasing content only)
                // and describes the radio button.
                <div
                  key={p.id}
                  className={cn(
                    "relative flex cursor-pointer flex-col rounded-xl border-2 bg-white p-4 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500",
                    checked
                      ? "border-brand-600 ring-2 ring-brand-100"
                      : "border-slate-200 hover:border-brand-200",
                  )}
                >
                  <label className="flex flex-col after:absolute after:inset-0 after:rounded-xl">
                    <input
                      type="radio"
                      name="packageId"
                      value={p.id}
                      checked={checked}
                      onChange={() => change({ packageId: p.id })}
                      className="sr-only"
                      aria-describedby={`${includesId}-${p.id}`}
                    />
                    <span className="flex items-start justify-between gap-2">
                      <span className="text-lg font-semibold text-brand-900">{p.name}</span>
                      <span className="text-lg font-bold text-brand-900">{money(p.price)}</span>
                    </span>
                    {p.urgencyText && p.urgencyColor ? (
                      <span
                        className={cn(
                          "mt-2 w-fit rounded-full px-2.5 py-0.5 text-xs font-semibold",
                          urgencyClass[p.urgencyColor],
                        )}
                      >
                        {p.urgencyText}
                      </span>
                    ) : null}
                    <span className="mt-2 text-sm text-slate-700">{p.description}</span>
                  </label>
                  <ul id={`${includesId}-${p.id}`} className="mt-3 space-y-1 text-sm text-slate-800">
                    {p.includes.map((item) => (
                      <li key={item} className="flex gap-2">
                        <Check aria-hidden="true" className="mt-0.5 h-4 w-4 shrink-0 text-emerald-700" />
                        {item}
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        </fieldset>
      ) : null}

      {housing.data ? (
        <fieldset>
          <legend className="text-xl font-bold text-brand-900">{t("program.housingLegend")}</legend>
          <div className="mt-4 grid gap-3 sm:grid-cols-3">
            {housing.data.map((h) => {
              const checked = h.id === housingOption?.id;
              return (
                <label
                  key={h.id}
                  className={cn(
                    "flex cursor-pointer flex-col rounded-xl border-2 bg-white p-4 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-brand-500",
                    checked
                      ? "border-brand-600 ring-2 ring-brand-100"
                      : "border-slate-200 hover:border-brand-200",
                  )}
                >
                  <input
                    type="radio"
                    name="housingOptionId"
                    value={h.id}
                    checked={checked}
                    onChange={() => change({ housingOptionId: h.id })}
                    className="sr-only"
                  />
                  <span className="font-semibold text-brand-900">{h.name}</span>
                  <span className="mt-1 text-sm font-semibold text-slate-800">
                    {h.priceAdjustment === 0
                      ? t("program.housingIncluded")
                      : h.priceAdjustment > 0
                        ? `+ ${money(h.priceAdjustment)}`
                        : `− ${money(-h.priceAdjustment)}`}
                  </span>
                  <span className="mt-1 text-sm text-slate-700">{h.description}</span>
                </label>
              );
            })}
          </div>
        </fieldset>
      ) : null}

      {addOns.data && addOns.data.length > 0 ? (
        <fieldset>
          <legend className="text-xl font-bold text-brand-900">{t("program.addOnsLegend")}</legend>
          <ul className="mt-4 space-y-3">
            {addOns.data.map((a) => {
              const included = Boolean(pkg?.includedAddOns.includes(a.id));
              const isLocked = locked.has(a.id);
              return (
                <li key={a.id}>
                  <label
                    className={cn(
                      "flex items-start gap-3 rounded-xl border border-slate-200 bg-white p-4",
                      isLocked ? "cursor-not-allowed" : "cursor-pointer hover:border-brand-200",
                    )}
                  >
                    <input
                      type="checkbox"
                      checked={selected.has(a.id)}
                      disabled={isLocked}
                      onChange={() => toggleAddOn(a.id)}
                      className="mt-1 h-5 w-5 accent-brand-700"
                    />
                    <span className="flex-1">
                      <span className="flex flex-wrap items-baseline justify-between gap-2">
                        <span className="font-semibold text-brand-900">
                          {a.name}
                          {included
                            ? ` (${t("program.included")})`
                            : a.isRequired
                              ? ` (${t("program.required")})`
                              : ""}
                        </span>
                        <span className="font-semibold text-slate-800">
                          {included ? money(0) : money(a.price)}
                        </span>
                      </span>
                      <span className="mt-1 block text-sm text-slate-700">{a.description}</span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
      ) : null}

      {preview ? (
        <Card className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
          <div>
            <p className="text-sm text-slate-700">{t("program.estimatedTotal")}</p>
            <p className="text-2xl font-bold text-brand-900">{money(preview.totalAmount)}</p>
            <p className="text-xs text-slate-600">
              {t("program.vatIncluded", { vat: money(preview.vatAmount), context: vatCtx })}
            </p>
          </div>
          {continueButton}
        </Card>
      ) : school ? null : (
        continueButton
      )}
    </HydratedFieldset>
  );
}
