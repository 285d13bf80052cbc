import { zodResolver } from "@hookform/resolvers/zod";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus, Trash2 } from "lucide-react";
import { useFieldArray, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { getCohortGuideContract, saveCohortGuideContract } from "../../../../../shared/api/cohort";
import { addDays } from "../../../../../shared/dates";
import {
  type AdminCohortGuide,
  adminCohortGuideSchema,
  type CohortGuideFormValues,
  cohortGuideInputSchema,
  GUIDE_ADDRESS_MAX,
  GUIDE_TITLE_MAX,
  PROGRAMME_MAX_DAYS,
} from "../../../../../shared/schemas/cohort";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { Field, inputClass } from "../../../../components/ui/Field";
import { Spinner } from "../../../../components/ui/Spinner";
import { toast } from "../../../../components/ui/toast-store";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { Panel } from "../common";
import { FormCheckbox } from "../forms";
import { SaveNotices, useVersionedSave } from "./fields";
import { catalogueAdminKeys, FormInput, FormTextarea, LanguageSections, useLocalized } from "./shared";

/** The form's values of a saved guide (or of an empty one, version 0). */
function guideValues(guide: AdminCohortGuide): CohortGuideFormValues {
  return {
    version: guide.version,
    days: guide.days,
    whatToBring: guide.whatToBring,
    arrivalDate: guide.arrivalDate,
    arrivalInfo: guide.arrivalInfo,
    arrivalAddress: guide.arrivalAddress,
    housingAddress: guide.housingAddress,
    airportPickupAddOnId: guide.airportPickupAddOnId,
    insuranceProofRequired: guide.insuranceProofRequired,
    insuranceAddOnId: guide.insuranceAddOnId,
  };
}

const emptyText = { en: "", zh: "", fr: "" };

/** The guide's query key, under the school's (so refreshing the catalogue refreshes it too). */
const guideKey = (schoolId: string) => [...catalogueAdminKeys.school(schoolId), "guide"] as const;

function GuideForm({ guide, schoolId }: { guide: AdminCohortGuide; schoolId: string }) {
  const { t } = useTranslation("cohort");
  const format = useFormat();
  const l = useLocalized();
  const queryClient = useQueryClient();
  const { register, control, handleSubmit, formState, setError, reset, watch } =
    useForm<CohortGuideFormValues>({
      resolver: zodResolver(cohortGuideInputSchema),
      defaultValues: guideValues(guide),
      mode: "onTouched",
    });
  const days = useFieldArray({ control, name: "days" });
  const errors = formState.errors;
  const save = useVersionedSave<AdminCohortGuide, CohortGuideFormValues>({
    schema: adminCohortGuideSchema,
    version: guide.version,
    send: (values, version) =>
      call(saveCohortGuideContract, {
        params: { id: schoolId },
        body: { ...values, version: version ?? guide.version },
      }),
    setError,
    onSaved: (saved) => {
      reset(guideValues(saved));
      queryClient.setQueryData(guideKey(schoolId), saved);
      toast({ title: t("editor.saved"), variant: "success" });
    },
  });
  const watched = watch("days");
  const nextDay = () =>
    Math.min(PROGRAMME_MAX_DAYS, Math.max(0, ...(watched ?? []).map((d) => Number(d.day) || 0)) + 1);

  return (
    <form onSubmit={handleSubmit((values) => save.mutation.mutate(values))} noValidate className="space-y-8">
      <SaveNotices
        stale={Boolean(save.stale)}
        failure={save.failure}
        onReload={() => save.reload((current) => reset(guideValues(current)))}
      />
      <p className="text-sm text-slate-700">
        {guide.updatedAt ? t("editor.lastSaved", { date: format.date(guide.updatedAt) }) : t("editor.never")}
      </p>

      <fieldset className="space-y-4">
        <legend className="text-lg font-bold text-brand-900">{t("editor.days")}</legend>
        {days.fields.length === 0 ? <p className="text-slate-700">{t("editor.noDays")}</p> : null}
        <ol className="space-y-6">
          {days.fields.map((field, index) => {
            const number = Number(watched?.[index]?.day) || 0;
            return (
              <li key={field.id} className="rounded-xl border border-slate-200 p-4">
                <div className="flex flex-wrap items-end justify-between gap-3">
                  <FormInput<CohortGuideFormValues>
                    id={`guide-day-${field.id}`}
                    name={`days.${index}.day`}
                    type="number"
                    min={1}
                    max={PROGRAMME_MAX_DAYS}
                    step={1}
                    inputMode="numeric"
                    label={t("editor.day")}
                    hint={
                      number > 0
                        ? t("editor.dayDate", {
                            day: number,
                            date: format.date(addDays(guide.startDate, number - 1)),
                          })
                        : undefined
                    }
                    required
                    className="w-48"
                    register={register}
                    errors={errors}
                  />
                  <Button type="button" variant="secondary" size="sm" onClick={() => days.remove(index)}>
                    <Trash2 aria-hidden="true" className="h-4 w-4" />
                    {t("editor.removeDay", { day: number || index + 1 })}
                  </Button>
                </div>
                <div className="mt-4">
                  <LanguageSections idPrefix={`guide-day-${field.id}`}>
                    {(language) => (
                      <>
                        <FormInput<CohortGuideFormValues>
                          id={`guide-day-${field.id}-title-${language}`}
                          name={`days.${index}.title.${language}`}
                          label={t("editor.dayTitle")}
                          required={language === "en"}
                          maxLength={GUIDE_TITLE_MAX}
                          register={register}
                          errors={errors}
                        />
                        <FormTextarea<CohortGuideFormValues>
                          id={`guide-day-${field.id}-details-${language}`}
                          name={`days.${index}.details.${language}`}
                          label={t("editor.details")}
                          register={register}
                          errors={errors}
                        />
                      </>
                    )}
                  </LanguageSections>
                </div>
              </li>
            );
          })}
        </ol>
        <Button
          type="button"
          variant="secondary"
          disabled={days.fields.length >= PROGRAMME_MAX_DAYS}
          onClick={() => days.append({ day: nextDay(), title: emptyText, details: emptyText })}
        >
          <Plus aria-hidden="true" className="h-4 w-4" />
          {t("editor.addDay")}
        </Button>
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="text-lg font-bold text-brand-900">{t("editor.whatToBring")}</legend>
        <p className="text-sm text-slate-700">{t("editor.whatToBringHint")}</p>
        <LanguageSections idPrefix="guide-bring">
          {(language) => (
            <FormTextarea<CohortGuideFormValues>
              id={`guide-bring-${language}`}
              name={`whatToBring.${language}`}
              label={t("editor.whatToBring")}
              rows={6}
              register={register}
              errors={errors}
            />
          )}
        </LanguageSections>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="text-lg font-bold text-brand-900">{t("editor.arrival")}</legend>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormInput<CohortGuideFormValues>
            id="guide-arrival-date"
            name="arrivalDate"
            type="date"
            label={t("editor.arrivalDate")}
            hint={t("editor.arrivalDateHint")}
            register={register}
            errors={errors}
          />
          <FormInput<CohortGuideFormValues>
            id="guide-arrival-address"
            name="arrivalAddress"
            label={t("editor.arrivalAddress")}
            maxLength={GUIDE_ADDRESS_MAX}
            register={register}
            errors={errors}
          />
          <FormInput<CohortGuideFormValues>
            id="guide-housing-address"
            name="housingAddress"
            label={t("editor.housingAddress")}
            maxLength={GUIDE_ADDRESS_MAX}
            register={register}
            errors={errors}
          />
          <Field id="guide-pickup" label={t("editor.pickup")}>
            <select
              id="guide-pickup"
              className={inputClass}
              {...register("airportPickupAddOnId", { setValueAs: (v) => (v ? String(v) : null) })}
            >
              <option value="">{t("editor.pickupNone")}</option>
              {guide.addOns.map((addOn) => (
                <option key={addOn.id} value={addOn.id}>
                  {addOn.archived ? t("editor.archived", { name: l(addOn.name) }) : l(addOn.name)}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <LanguageSections idPrefix="guide-arrival">
          {(language) => (
            <FormTextarea<CohortGuideFormValues>
              id={`guide-arrival-info-${language}`}
              name={`arrivalInfo.${language}`}
              label={t("editor.arrivalInfo")}
              rows={4}
              register={register}
              errors={errors}
            />
          )}
        </LanguageSections>
        <FormCheckbox<CohortGuideFormValues>
          id="cohort-guide-insurance-required"
          name="insuranceProofRequired"
          label={t("editor.insuranceRequired")}
          register={register}
        />
        <Field
          id="guide-insurance-add-on"
          label={t("editor.insuranceAddOn")}
          hint={t("editor.insuranceAddOnHint")}
        >
          <select
            id="guide-insurance-add-on"
            className={inputClass}
            {...register("insuranceAddOnId", { setValueAs: (v) => (v ? String(v) : null) })}
          >
            <option value="">{t("editor.insuranceAddOnNone")}</option>
            {guide.addOns.map((addOn) => (
              <option key={addOn.id} value={addOn.id}>
                {addOn.archived ? t("editor.archived", { name: l(addOn.name) }) : l(addOn.name)}
              </option>
            ))}
          </select>
        </Field>
      </fieldset>

      <Button type="submit" disabled={save.mutation.isPending}>
        {save.mutation.isPending ? t("editor.saving") : t("editor.save")}
      </Button>
    </form>
  );
}

/**
 * The "Student portal: programme and trip" section of /admin/summer-schools/{id} (docs/product/portals.md#cohort-pages): the
 * day-by-day programme, what to bring, arrival, housing address, the airport pickup add-on and
 * whether proof of insurance is required, in English, Chinese and French (GET and PUT
 * /api/admin/summer-schools/:id/guide, version-checked: a 409 offers the current version).
 */
export function CohortGuidePanel({ schoolId }: { schoolId: string }) {
  const { t } = useTranslation("cohort");
  const guide = useQuery({
    queryKey: guideKey(schoolId),
    queryFn: ({ signal }) => call(getCohortGuideContract, { params: { id: schoolId }, signal }),
  });
  return (
    <Panel title={t("editor.title")} id="cohort-guide" className="mt-6">
      <p className="mb-6 max-w-3xl text-slate-700">{t("editor.lead")}</p>
      {guide.isPending ? (
        <Spinner />
      ) : guide.isError ? (
        <Notice tone="error" title={t("editor.loadError")}>
          <p>{guide.error.message}</p>
        </Notice>
      ) : (
        <GuideForm key={`${schoolId}:${guide.data.version}`} guide={guide.data} schoolId={schoolId} />
      )}
    </Panel>
  );
}
