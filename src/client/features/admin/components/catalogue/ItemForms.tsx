import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import type { ReactNode } from "react";
import {
  type FieldValues,
  type Path,
  type UseFormReturn,
  type UseFormSetError,
  useFieldArray,
  useForm,
} from "react-hook-form";
import { useTranslation } from "react-i18next";
import { CATALOGUE_ITEM_CONTRACTS, listAddOnsContract } from "../../../../../shared/api/catalogue-admin";
import type { AdminAddOnDto, AdminHousingDto, AdminPackageDto } from "../../../../../shared/catalogue-admin";
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
import type { z } from "../../../../../shared/schemas/zod";
import { Button } from "../../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { toast } from "../../../../components/ui/toast-store";
import { call } from "../../../../lib/call";
import { useVatContext } from "../../../../lib/vat";
import { FormCheckbox, FormDialog } from "../forms";
import {
  LocalizedTextFields,
  localizedValues,
  MoneyField,
  SaveNotices,
  SortOrderField,
  useVersionedSave,
} from "./fields";
import { catalogueAdminKeys, errorAt, FormInput, useCatalogueFieldMessage, useLocalized } from "./shared";

/** The kinds of school items edited in a dialog. */
export type ItemKind = "package" | "housing" | "addOn";

/** The contracts of each kind (src/shared/api/catalogue-admin.ts). */
export const ITEM_CONTRACTS = {
  package: CATALOGUE_ITEM_CONTRACTS.packages,
  housing: CATALOGUE_ITEM_CONTRACTS.housing,
  addOn: CATALOGUE_ITEM_CONTRACTS["add-ons"],
} as const;

/**
 * The save of an item's form: POST for a new one (`create`, with the school), PATCH with the
 * version for an existing one (`update`; useVersionedSave: field errors, 409 stale notice, other
 * failures), the answer and a 409's current item parsed with `schema` (the kind's `update`
 * contract's response); refreshes the catalogue queries and the public catalogue, and says so
 * in a toast. Each form calls its kind's contracts itself (`ITEM_CONTRACTS`), so the compiler
 * checks the body it sends against the contract's.
 */
function useItemSave<Dto extends { id: string; version: number }, Values extends FieldValues>(options: {
  schema: z.ZodType<Dto>;
  item?: Dto;
  /** Creates the item from the form's values (the kind's `create` contract). */
  create: (values: Values) => Promise<Dto>;
  /** Edits item `id`, last read at `version`, with the form's values (the kind's `update` contract). */
  update: (id: string, values: Values, version: number) => Promise<Dto>;
  fieldMap?: Record<string, string>;
  setError: UseFormSetError<Values>;
  onSaved: (saved: Dto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const queryClient = useQueryClient();
  const { item } = options;
  return useVersionedSave<Dto, Values>({
    schema: options.schema,
    version: item?.version,
    send: (values, version) =>
      item ? options.update(item.id, values, version ?? item.version) : options.create(values),
    setError: options.setError,
    fieldMap: options.fieldMap,
    onSaved: (saved) => {
      void queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all() });
      void queryClient.invalidateQueries({ queryKey: ["catalogue"] });
      toast({ title: t(item ? "items.savedTitle" : "items.createdTitle"), variant: "success" });
      options.onSaved(saved);
    },
  });
}

/**
 * What the three item forms share around their own fields: the notices of the save, name and
 * description in the three languages, the amount in euros with the display order (`amount`), the
 * kind's own fields (`children`) and the submit button ("Save", or `createLabel` for a new item).
 */
function ItemFormFrame<T extends FieldValues, Dto extends { version: number }>({
  idPrefix,
  isNew,
  createLabel,
  form,
  save,
  toValues,
  amount,
  children,
}: {
  idPrefix: string;
  isNew: boolean;
  createLabel: string;
  form: UseFormReturn<T>;
  save: ReturnType<typeof useVersionedSave<Dto, T>>;
  toValues: (dto: Dto) => T;
  amount: { id: string; name: Path<T>; label: string; hint: string };
  children?: ReactNode;
}) {
  const { t } = useTranslation("adminCatalogue");
  const { register, formState } = form;
  const errors = formState.errors;
  return (
    <form
      onSubmit={form.handleSubmit((values) => save.mutation.mutate(values))}
      noValidate
      className="mt-4 space-y-5"
    >
      <SaveNotices
        stale={Boolean(save.stale)}
        failure={save.failure}
        onReload={() => save.reload((dto) => form.reset(toValues(dto)))}
      />
      <LocalizedTextFields<T>
        idPrefix={idPrefix}
        nameLabel={t("items.fields.name")}
        descriptionLabel={t("items.fields.description")}
        register={register}
        errors={errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <MoneyField<T> {...amount} register={register} errors={errors} />
        <SortOrderField<T> id={`${idPrefix}-order`} register={register} errors={errors} />
      </div>
      {children}
      <Button type="submit" disabled={save.mutation.isPending}>
        {save.mutation.isPending ? t("saving") : isNew ? createLabel : t("items.save")}
      </Button>
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// Package

const packageValues = (p?: AdminPackageDto): PackageFormValues => ({
  name: localizedValues(p?.name),
  description: localizedValues(p?.description),
  price: p ? centsToEurosText(p.priceCents) : "",
  includes: (p?.includes ?? []).map(localizedValues),
  includedAddOnIds: p?.includedAddOnIds ?? [],
  urgencyText: localizedValues(p?.urgencyText),
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
  const vatCtx = useVatContext();
  const l = useLocalized();
  const message = useCatalogueFieldMessage();
  const form = useForm<PackageFormValues>({
    resolver: zodResolver(packageFormSchema),
    defaultValues: packageValues(item),
    mode: "onTouched",
  });
  const { register, formState, control } = form;
  const includes = useFieldArray({ control, name: "includes" });
  const addOns = useQuery({
    queryKey: catalogueAdminKeys.list("addOn", `schoolId=${schoolId}&state=active&pageSize=100`),
    queryFn: ({ signal }) =>
      call(listAddOnsContract, {
        query: { schoolId, state: "active", pageSize: "100", sort: "sortOrder:asc" },
        signal,
      }),
  });
  const contracts = ITEM_CONTRACTS.package;
  const body = ({ price, ...values }: PackageFormValues) => ({
    ...values,
    priceCents: eurosTextToCents(price),
    urgencyColor: values.urgencyColor || null,
  });
  const save = useItemSave<AdminPackageDto, PackageFormValues>({
    schema: contracts.update.response,
    item,
    create: (values) => call(contracts.create, { body: { ...body(values), summerSchoolId: schoolId } }),
    update: (id, values, version) =>
      call(contracts.update, { params: { id }, body: { ...body(values), version } }),
    setError: form.setError,
    onSaved,
    fieldMap: { priceCents: "price" },
  });
  const errors = formState.errors;
  const idPrefix = `package-${item?.id ?? "new"}`;
  const colorError = message(errors.urgencyColor);
  const includedError = message(errorAt(errors, "includedAddOnIds"));

  return (
    <ItemFormFrame<PackageFormValues, AdminPackageDto>
      idPrefix={idPrefix}
      isNew={!item}
      createLabel={t("package.create")}
      form={form}
      save={save}
      toValues={packageValues}
      amount={{
        id: `${idPrefix}-price`,
        name: "price",
        label: t("items.fields.price", { context: vatCtx }),
        hint: t("items.fields.priceHint"),
      }}
    >
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
    </ItemFormFrame>
  );
}

// ---------------------------------------------------------------------------------------------
// Housing

const housingValues = (h?: AdminHousingDto): HousingFormValues => ({
  name: localizedValues(h?.name),
  description: localizedValues(h?.description),
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
  const form = useForm<HousingFormValues>({
    resolver: zodResolver(housingFormSchema),
    defaultValues: housingValues(item),
    mode: "onTouched",
  });
  const contracts = ITEM_CONTRACTS.housing;
  const body = ({ priceAdjustment, ...values }: HousingFormValues) => ({
    ...values,
    priceAdjustmentCents: eurosTextToCents(priceAdjustment),
  });
  const save = useItemSave<AdminHousingDto, HousingFormValues>({
    schema: contracts.update.response,
    item,
    create: (values) => call(contracts.create, { body: { ...body(values), summerSchoolId: schoolId } }),
    update: (id, values, version) =>
      call(contracts.update, { params: { id }, body: { ...body(values), version } }),
    setError: form.setError,
    onSaved,
    fieldMap: { priceAdjustmentCents: "priceAdjustment" },
  });
  const idPrefix = `housing-${item?.id ?? "new"}`;
  return (
    <ItemFormFrame<HousingFormValues, AdminHousingDto>
      idPrefix={idPrefix}
      isNew={!item}
      createLabel={t("housing.create")}
      form={form}
      save={save}
      toValues={housingValues}
      amount={{
        id: `${idPrefix}-adjustment`,
        name: "priceAdjustment",
        label: t("housing.adjustment"),
        hint: t("housing.adjustmentHint"),
      }}
    />
  );
}

// ---------------------------------------------------------------------------------------------
// Add-on

const addOnValues = (a?: AdminAddOnDto): AddOnFormValues => ({
  name: localizedValues(a?.name),
  description: localizedValues(a?.description),
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
  const vatCtx = useVatContext();
  const message = useCatalogueFieldMessage();
  const form = useForm<AddOnFormValues>({
    resolver: zodResolver(addOnFormSchema),
    defaultValues: addOnValues(item),
    mode: "onTouched",
  });
  const contracts = ITEM_CONTRACTS.addOn;
  const body = ({ price, ...values }: AddOnFormValues) => ({
    ...values,
    priceCents: eurosTextToCents(price),
  });
  const save = useItemSave<AdminAddOnDto, AddOnFormValues>({
    schema: contracts.update.response,
    item,
    create: (values) => call(contracts.create, { body: { ...body(values), summerSchoolId: schoolId } }),
    update: (id, values, version) =>
      call(contracts.update, { params: { id }, body: { ...body(values), version } }),
    setError: form.setError,
    onSaved,
    fieldMap: { priceCents: "price" },
  });
  const idPrefix = `addon-${item?.id ?? "new"}`;
  const requiredError = message(form.formState.errors.isRequired);
  return (
    <ItemFormFrame<AddOnFormValues, AdminAddOnDto>
      idPrefix={idPrefix}
      isNew={!item}
      createLabel={t("addOn.create")}
      form={form}
      save={save}
      toValues={addOnValues}
      amount={{
        id: `${idPrefix}-price`,
        name: "price",
        label: t("items.fields.price", { context: vatCtx }),
        hint: t("items.fields.priceHint"),
      }}
    >
      <FormCheckbox<AddOnFormValues>
        id={`${idPrefix}-required`}
        name="isRequired"
        label={t("addOn.required")}
        hint={t("addOn.requiredHint")}
        error={requiredError}
        register={form.register}
      />
    </ItemFormFrame>
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
    <FormDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={title}
      closeLabel={t("close")}
      width="max-w-5xl"
    >
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
