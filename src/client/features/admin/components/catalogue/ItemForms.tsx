import { zodResolver } from "@hookform/resolvers/zod";
import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2, X } from "lucide-react";
import { type ReactNode, useState } from "react";
import { type FieldValues, useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type {
  AdminAddOnDto,
  AdminHousingDto,
  AdminPackageDto,
  CataloguePage,
} from "../../../../../shared/catalogue-admin";
import {
  type AddOnFormValues,
  addOnFormSchema,
  CATALOGUE_LIMITS,
  centsToEurosText,
  eurosTextToCents,
  type HousingFormValues,
  housingFormSchema,
  type PackageFormValues,
  packageFormSchema,
  URGENCY_COLORS,
} from "../../../../../shared/schemas/catalogue-admin";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError, api } from "../../../../lib/api";
import {
  applyCatalogueServerErrors,
  catalogueAdminKeys,
  errorAt,
  FormInput,
  FormTextarea,
  LanguageSections,
  StaleNotice,
  staleCurrent,
  useCatalogueFieldMessage,
  useLocalized,
} from "./shared";

/** The kinds of school items edited in a dialog. */
export type ItemKind = "package" | "housing" | "addOn";

/** API path of each kind. */
export const ITEM_PATHS: Record<ItemKind, string> = {
  package: "packages",
  housing: "housing",
  addOn: "add-ons",
};

/** A wide, scrollable dialog holding an item's form (Radix: focus trapped, Escape closes). */
function FormDialog({
  open,
  onOpenChange,
  title,
  children,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100%-1rem)] max-w-5xl -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-xl bg-white p-4 shadow-xl focus:outline-none sm:p-6"
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <Dialog.Title className="text-lg font-bold text-brand-900">{title}</Dialog.Title>
            <Dialog.Close asChild>
              <Button variant="ghost" size="sm" aria-label={t("close")}>
                <X aria-hidden="true" className="h-5 w-5" />
              </Button>
            </Dialog.Close>
          </div>
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

const text = (value?: { en: string; zh?: string; fr?: string } | null) => ({
  en: value?.en ?? "",
  zh: value?.zh ?? "",
  fr: value?.fr ?? "",
});

/**
 * The save of an item's form: POST for a new one (with the school), PATCH with the version for an
 * existing one. Handles the server's field errors (API names mapped to the form's), a 409 (the
 * current record, for the stale notice) and other failures; refreshes the catalogue queries.
 */
function useItemSave<Dto extends { id: string; version: number }, Values extends FieldValues>(options: {
  kind: ItemKind;
  item?: Dto;
  schoolId?: string;
  toBody: (values: Values) => Record<string, unknown>;
  fieldMap?: Record<string, string>;
  setError: Parameters<typeof applyCatalogueServerErrors<Values>>[1];
  onSaved: (saved: Dto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const queryClient = useQueryClient();
  const [stale, setStale] = useState<Dto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [version, setVersion] = useState(options.item?.version);
  const path = ITEM_PATHS[options.kind];
  const mutation = useMutation({
    mutationFn: (values: Values) =>
      options.item
        ? api<Dto>(`/api/admin/${path}/${options.item.id}`, {
            method: "PATCH",
            body: { ...options.toBody(values), version },
          })
        : api<Dto>(`/api/admin/${path}`, {
            body: { ...options.toBody(values), summerSchoolId: options.schoolId },
          }),
    onSuccess: (saved) => {
      setStale(null);
      setFailure(null);
      void queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all() });
      void queryClient.invalidateQueries({ queryKey: ["catalogue"] });
      toast({ title: t(options.item ? "items.savedTitle" : "items.createdTitle"), variant: "success" });
      options.onSaved(saved);
    },
    onError: (error) => {
      const current = staleCurrent<Dto>(error);
      if (current) {
        setStale(current);
        return;
      }
      const hasFields = applyCatalogueServerErrors(error, options.setError, options.fieldMap);
      setFailure(hasFields ? null : error instanceof ApiError ? error.message : t("failed"));
    },
  });
  return {
    mutation,
    stale,
    failure,
    /** Takes the current record of a 409 into the form. */
    reload: (reset: (dto: Dto) => void) => {
      if (!stale) return;
      setVersion(stale.version);
      reset(stale);
      setStale(null);
    },
  };
}

/** Stale notice and other failure of an item form. */
function FormNotices({
  stale,
  failure,
  onReload,
}: {
  stale: boolean;
  failure: string | null;
  onReload: () => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <>
      {stale ? <StaleNotice onReload={onReload} /> : null}
      {failure ? (
        <Notice tone="error" title={t("failedTitle")}>
          <p>{failure}</p>
        </Notice>
      ) : null}
    </>
  );
}

/** Name and description in the three languages. */
function TextSections<T extends FieldValues>({
  idPrefix,
  register,
  errors,
}: {
  idPrefix: string;
  register: Parameters<typeof FormInput<T>>[0]["register"];
  errors: Parameters<typeof FormInput<T>>[0]["errors"];
}) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <LanguageSections idPrefix={idPrefix}>
      {(language) => (
        <>
          <FormInput<T>
            id={`${idPrefix}-name-${language}`}
            name={`name.${language}` as never}
            label={t("items.fields.name")}
            required={language === "en"}
            maxLength={CATALOGUE_LIMITS.name}
            register={register}
            errors={errors}
          />
          <FormTextarea<T>
            id={`${idPrefix}-description-${language}`}
            name={`description.${language}` as never}
            label={t("items.fields.description")}
            required={language === "en"}
            register={register}
            errors={errors}
          />
        </>
      )}
    </LanguageSections>
  );
}

// ---------------------------------------------------------------------------------------------
// Package

const packageValues = (p?: AdminPackageDto): PackageFormValues => ({
  name: text(p?.name),
  description: text(p?.description),
  price: p ? centsToEurosText(p.priceCents) : "",
  includes: (p?.includes ?? []).map(text),
  includedAddOnIds: p?.includedAddOnIds ?? [],
  urgencyText: text(p?.urgencyText),
  urgencyColor: p?.urgencyColor ?? "",
  sortOrder: p?.sortOrder ?? 0,
});

/**
 * Form of a package (create for `schoolId`, or edit `item`): texts per language, the price in
 * euros (sent as cents), what it includes, the add-ons of its school it includes, and the
 * urgency label (text and colour).
 */
function PackageForm({
  item,
  schoolId,
  onSaved,
}: {
  item?: AdminPackageDto;
  schoolId: string;
  onSaved: (saved: AdminPackageDto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const l = useLocalized();
  const message = useCatalogueFieldMessage();
  const { register, handleSubmit, formState, setError, reset, control } = useForm<PackageFormValues>({
    resolver: zodResolver(packageFormSchema),
    defaultValues: packageValues(item),
    mode: "onTouched",
  });
  const includes = useFieldArray({ control, name: "includes" });
  const addOns = useQuery({
    queryKey: catalogueAdminKeys.list("addOn", `schoolId=${schoolId}&state=active&pageSize=100`),
    queryFn: ({ signal }) =>
      api<CataloguePage<AdminAddOnDto>>(
        `/api/admin/add-ons?schoolId=${schoolId}&state=active&pageSize=100&sort=sortOrder:asc`,
        { signal },
      ),
  });
  const save = useItemSave<AdminPackageDto, PackageFormValues>({
    kind: "package",
    item,
    schoolId,
    setError,
    onSaved,
    fieldMap: { priceCents: "price" },
    toBody: ({ price, ...values }) => ({
      ...values,
      priceCents: eurosTextToCents(price),
      urgencyColor: values.urgencyColor || null,
    }),
  });
  const errors = formState.errors;
  const idPrefix = `package-${item?.id ?? "new"}`;
  const colorError = message(errors.urgencyColor);
  const includedError = message(errorAt(errors, "includedAddOnIds"));

  return (
    <form onSubmit={handleSubmit((values) => save.mutation.mutate(values))} noValidate className="space-y-5">
      <FormNotices
        stale={Boolean(save.stale)}
        failure={save.failure}
        onReload={() => save.reload((dto) => reset(packageValues(dto)))}
      />
      <TextSections<PackageFormValues> idPrefix={idPrefix} register={register} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormInput<PackageFormValues>
          id={`${idPrefix}-price`}
          name="price"
          label={t("items.fields.price")}
          hint={t("items.fields.priceHint")}
          inputMode="decimal"
          required
          register={register}
          errors={errors}
        />
        <FormInput<PackageFormValues>
          id={`${idPrefix}-order`}
          name="sortOrder"
          type="number"
          min={0}
          step={1}
          label={t("items.fields.sortOrder")}
          hint={t("items.fields.sortOrderHint")}
          register={register}
          errors={errors}
        />
      </div>

      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-brand-900">{t("package.includes")}</legend>
        <p className="text-sm text-slate-700">{t("package.includesHint")}</p>
        {includes.fields.map((field, index) => (
          <div key={field.id} className="rounded-lg bg-slate-50 p-3">
            <div className="grid gap-3 md:grid-cols-3">
              {(["en", "zh", "fr"] as const).map((language) => (
                <FormInput<PackageFormValues>
                  key={language}
                  id={`${idPrefix}-include-${index}-${language}`}
                  name={`includes.${index}.${language}`}
                  label={t("package.includeLine", {
                    number: index + 1,
                    language: t(`languages.${language}`),
                  })}
                  required={language === "en"}
                  maxLength={CATALOGUE_LIMITS.include}
                  lang={language}
                  register={register}
                  errors={errors}
                />
              ))}
            </div>
            <Button variant="ghost" size="sm" className="mt-2" onClick={() => includes.remove(index)}>
              <Trash2 aria-hidden="true" className="h-4 w-4" />
              {t("package.removeInclude", { number: index + 1 })}
            </Button>
          </div>
        ))}
        {includes.fields.length < CATALOGUE_LIMITS.includes ? (
          <Button variant="secondary" size="sm" onClick={() => includes.append({ en: "", zh: "", fr: "" })}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t("package.addInclude")}
          </Button>
        ) : null}
      </fieldset>

      <fieldset
        className="space-y-2 rounded-lg border border-slate-200 p-3"
        aria-describedby={`${idPrefix}-addons-hint${includedError ? ` ${idPrefix}-addons-error` : ""}`}
      >
        <legend className="px-1 text-sm font-semibold text-brand-900">{t("package.includedAddOns")}</legend>
        <p id={`${idPrefix}-addons-hint`} className="text-sm text-slate-700">
          {t("package.includedAddOnsHint")}
        </p>
        {addOns.data?.items.length ? (
          <ul className="space-y-1">
            {addOns.data.items.map((addOn) => (
              <li key={addOn.id}>
                <label className="inline-flex items-center gap-2 text-slate-900">
                  <input
                    type="checkbox"
                    value={addOn.id}
                    disabled={addOn.isRequired}
                    className="h-4 w-4 accent-brand-700"
                    {...register("includedAddOnIds")}
                  />
                  {l(addOn.name)}
                  {addOn.isRequired ? (
                    <span className="text-sm text-slate-700">({t("addOn.requiredShort")})</span>
                  ) : null}
                </label>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-700">{t("package.noAddOns")}</p>
        )}
        {includedError ? (
          <p id={`${idPrefix}-addons-error`} role="alert" className="text-sm font-medium text-red-700">
            {includedError}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3">
        <legend className="px-1 text-sm font-semibold text-brand-900">{t("package.urgency")}</legend>
        <p className="text-sm text-slate-700">{t("package.urgencyHint")}</p>
        <div className="grid gap-3 md:grid-cols-4">
          {(["en", "zh", "fr"] as const).map((language) => (
            <FormInput<PackageFormValues>
              key={language}
              id={`${idPrefix}-urgency-${language}`}
              name={`urgencyText.${language}`}
              label={t("package.urgencyText", { language: t(`languages.${language}`) })}
              maxLength={CATALOGUE_LIMITS.urgency}
              lang={language}
              register={register}
              errors={errors}
            />
          ))}
          <Field id={`${idPrefix}-urgency-color`} label={t("package.urgencyColor")} error={colorError}>
            <select
              id={`${idPrefix}-urgency-color`}
              className={inputClass}
              aria-invalid={colorError ? true : undefined}
              aria-describedby={describedBy(`${idPrefix}-urgency-color`, undefined, colorError)}
              {...register("urgencyColor")}
            >
              <option value="">{t("package.noColor")}</option>
              {URGENCY_COLORS.map((color) => (
                <option key={color} value={color}>
                  {t(`package.colors.${color}`)}
                </option>
              ))}
            </select>
          </Field>
        </div>
      </fieldset>

      <Button type="submit" disabled={save.mutation.isPending}>
        {save.mutation.isPending ? t("saving") : item ? t("items.save") : t("package.create")}
      </Button>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// Housing

const housingValues = (h?: AdminHousingDto): HousingFormValues => ({
  name: text(h?.name),
  description: text(h?.description),
  priceAdjustment: h ? centsToEurosText(h.priceAdjustmentCents) : "0.00",
  sortOrder: h?.sortOrder ?? 0,
});

/** Form of a housing option: texts per language and the price adjustment in euros (negative = discount). */
function HousingForm({
  item,
  schoolId,
  onSaved,
}: {
  item?: AdminHousingDto;
  schoolId: string;
  onSaved: (saved: AdminHousingDto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const { register, handleSubmit, formState, setError, reset } = useForm<HousingFormValues>({
    resolver: zodResolver(housingFormSchema),
    defaultValues: housingValues(item),
    mode: "onTouched",
  });
  const save = useItemSave<AdminHousingDto, HousingFormValues>({
    kind: "housing",
    item,
    schoolId,
    setError,
    onSaved,
    fieldMap: { priceAdjustmentCents: "priceAdjustment" },
    toBody: ({ priceAdjustment, ...values }) => ({
      ...values,
      priceAdjustmentCents: eurosTextToCents(priceAdjustment),
    }),
  });
  const errors = formState.errors;
  const idPrefix = `housing-${item?.id ?? "new"}`;
  return (
    <form onSubmit={handleSubmit((values) => save.mutation.mutate(values))} noValidate className="space-y-5">
      <FormNotices
        stale={Boolean(save.stale)}
        failure={save.failure}
        onReload={() => save.reload((dto) => reset(housingValues(dto)))}
      />
      <TextSections<HousingFormValues> idPrefix={idPrefix} register={register} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormInput<HousingFormValues>
          id={`${idPrefix}-adjustment`}
          name="priceAdjustment"
          label={t("housing.adjustment")}
          hint={t("housing.adjustmentHint")}
          inputMode="decimal"
          required
          register={register}
          errors={errors}
        />
        <FormInput<HousingFormValues>
          id={`${idPrefix}-order`}
          name="sortOrder"
          type="number"
          min={0}
          step={1}
          label={t("items.fields.sortOrder")}
          hint={t("items.fields.sortOrderHint")}
          register={register}
          errors={errors}
        />
      </div>
      <Button type="submit" disabled={save.mutation.isPending}>
        {save.mutation.isPending ? t("saving") : item ? t("items.save") : t("housing.create")}
      </Button>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// Add-on

const addOnValues = (a?: AdminAddOnDto): AddOnFormValues => ({
  name: text(a?.name),
  description: text(a?.description),
  price: a ? centsToEurosText(a.priceCents) : "",
  isRequired: a?.isRequired ?? false,
  sortOrder: a?.sortOrder ?? 0,
});

/** Form of an add-on: texts per language, price in euros, required or optional. */
function AddOnForm({
  item,
  schoolId,
  onSaved,
}: {
  item?: AdminAddOnDto;
  schoolId: string;
  onSaved: (saved: AdminAddOnDto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const message = useCatalogueFieldMessage();
  const { register, handleSubmit, formState, setError, reset } = useForm<AddOnFormValues>({
    resolver: zodResolver(addOnFormSchema),
    defaultValues: addOnValues(item),
    mode: "onTouched",
  });
  const save = useItemSave<AdminAddOnDto, AddOnFormValues>({
    kind: "addOn",
    item,
    schoolId,
    setError,
    onSaved,
    fieldMap: { priceCents: "price" },
    toBody: ({ price, ...values }) => ({ ...values, priceCents: eurosTextToCents(price) }),
  });
  const errors = formState.errors;
  const idPrefix = `addon-${item?.id ?? "new"}`;
  const requiredError = message(errors.isRequired);
  return (
    <form onSubmit={handleSubmit((values) => save.mutation.mutate(values))} noValidate className="space-y-5">
      <FormNotices
        stale={Boolean(save.stale)}
        failure={save.failure}
        onReload={() => save.reload((dto) => reset(addOnValues(dto)))}
      />
      <TextSections<AddOnFormValues> idPrefix={idPrefix} register={register} errors={errors} />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormInput<AddOnFormValues>
          id={`${idPrefix}-price`}
          name="price"
          label={t("items.fields.price")}
          hint={t("items.fields.priceHint")}
          inputMode="decimal"
          required
          register={register}
          errors={errors}
        />
        <FormInput<AddOnFormValues>
          id={`${idPrefix}-order`}
          name="sortOrder"
          type="number"
          min={0}
          step={1}
          label={t("items.fields.sortOrder")}
          hint={t("items.fields.sortOrderHint")}
          register={register}
          errors={errors}
        />
      </div>
      <div>
        <label className="inline-flex items-center gap-2 font-medium text-slate-900">
          <input
            type="checkbox"
            className="h-4 w-4 accent-brand-700"
            aria-describedby={`${idPrefix}-required-hint${requiredError ? ` ${idPrefix}-required-error` : ""}`}
            {...register("isRequired")}
          />
          {t("addOn.required")}
        </label>
        <p id={`${idPrefix}-required-hint`} className="mt-1 text-sm text-slate-700">
          {t("addOn.requiredHint")}
        </p>
        {requiredError ? (
          <p id={`${idPrefix}-required-error`} role="alert" className="mt-1 text-sm font-medium text-red-700">
            {requiredError}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={save.mutation.isPending}>
        {save.mutation.isPending ? t("saving") : item ? t("items.save") : t("addOn.create")}
      </Button>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------

/** What an item dialog edits: a new item of a school, or an existing one. */
export type ItemDialogState =
  | { kind: "package"; schoolId: string; item?: AdminPackageDto }
  | { kind: "housing"; schoolId: string; item?: AdminHousingDto }
  | { kind: "addOn"; schoolId: string; item?: AdminAddOnDto };

/**
 * The dialog that creates or edits a package, housing option or add-on (`state`; null = closed).
 * Closes after a successful save.
 */
export function ItemDialog({ state, onClose }: { state: ItemDialogState | null; onClose: () => void }) {
  const { t } = useTranslation("adminCatalogue");
  const l = useLocalized();
  if (!state) return null;
  const title = state.item
    ? t(`${state.kind}.editTitle`, { name: l(state.item.name) })
    : t(`${state.kind}.newTitle`);
  return (
    <FormDialog open onOpenChange={(open) => (open ? undefined : onClose())} title={title}>
      {state.kind === "package" ? (
        <PackageForm item={state.item} schoolId={state.schoolId} onSaved={onClose} />
      ) : state.kind === "housing" ? (
        <HousingForm item={state.item} schoolId={state.schoolId} onSaved={onClose} />
      ) : (
        <AddOnForm item={state.item} schoolId={state.schoolId} onSaved={onClose} />
      )}
    </FormDialog>
  );
}
