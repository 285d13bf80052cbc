import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  createSummerSchoolContract,
  updateSummerSchoolContract,
} from "../../../../../shared/api/catalogue-admin";
import type { AdminSummerSchoolDto } from "../../../../../shared/catalogue-admin";
import {
  adminSummerSchoolSchema,
  CATALOGUE_LIMITS,
  type SummerSchoolFormValues,
  summerSchoolInputSchema,
} from "../../../../../shared/schemas/catalogue-admin";
import { Button } from "../../../../components/ui/Button";
import { toast } from "../../../../components/ui/toast-store";
import { call } from "../../../../lib/call";
import { FormCheckbox } from "../forms";
import { LocalizedTextFields, localizedValues, SaveNotices, useVersionedSave } from "./fields";
import { FormInput } from "./shared";

/** Form values of a school DTO (optional dates as "" for the inputs). */
export function schoolFormValues(school?: AdminSummerSchoolDto): SummerSchoolFormValues {
  return {
    slug: school?.slug ?? "",
    name: localizedValues(school?.name),
    description: localizedValues(school?.description),
    location: school?.location ?? "The Hague, Netherlands",
    startDate: school?.startDate ?? "",
    endDate: school?.endDate ?? "",
    applicationOpensAt: school?.applicationOpensAt ?? "",
    applicationDeadline: school?.applicationDeadline ?? "",
    capacity: school?.capacity ?? 50,
    depositPercent: school?.depositPercent ?? 100,
    visaLetterRequiresAcceptance: school?.visaLetterRequiresAcceptance ?? false,
  };
}

/**
 * The form of a summer school (create when `school` is absent, else edit): texts per language,
 * dates, capacity and deposit percent, checked with the shared schema (summerSchoolInputSchema)
 * before sending; the server's field errors appear next to their fields, and a 409 (someone else
 * saved first) offers to load the current version. `onSaved` receives the saved school.
 */
export function SchoolForm({
  school,
  onSaved,
}: {
  school?: AdminSummerSchoolDto;
  onSaved: (school: AdminSummerSchoolDto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const [base, setBase] = useState(school);
  const { register, handleSubmit, formState, setError, reset } = useForm<SummerSchoolFormValues>({
    resolver: zodResolver(summerSchoolInputSchema),
    defaultValues: schoolFormValues(school),
    mode: "onTouched",
  });
  const errors = formState.errors;
  const save = useVersionedSave<AdminSummerSchoolDto, SummerSchoolFormValues>({
    schema: adminSummerSchoolSchema,
    version: school?.version,
    send: (values, version) =>
      base
        ? call(updateSummerSchoolContract, {
            params: { id: base.id },
            body: { ...values, version: version ?? base.version },
          })
        : call(createSummerSchoolContract, { body: values }),
    setError,
    onSaved: (saved) => {
      setBase(saved);
      reset(schoolFormValues(saved));
      toast({ title: t(base ? "school.savedTitle" : "school.createdTitle"), variant: "success" });
      onSaved(saved);
    },
  });
  const id = base?.id ?? "new";

  return (
    <form onSubmit={handleSubmit((values) => save.mutation.mutate(values))} noValidate className="space-y-6">
      <SaveNotices
        stale={Boolean(save.stale)}
        failure={save.failure}
        onReload={() =>
          save.reload((current) => {
            setBase(current);
            reset(schoolFormValues(current));
            onSaved(current);
          })
        }
      />
      <LocalizedTextFields<SummerSchoolFormValues>
        idPrefix={`school-${id}`}
        nameLabel={t("school.fields.name")}
        descriptionLabel={t("school.fields.description")}
        descriptionRows={5}
        register={register}
        errors={errors}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <FormInput<SummerSchoolFormValues>
          id="school-slug"
          name="slug"
          label={t("school.fields.slug")}
          hint={t("school.fields.slugHint")}
          required
          maxLength={CATALOGUE_LIMITS.slug}
          autoComplete="off"
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-location"
          name="location"
          label={t("school.fields.location")}
          required
          maxLength={CATALOGUE_LIMITS.location}
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-start"
          name="startDate"
          type="date"
          label={t("school.fields.startDate")}
          required
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-end"
          name="endDate"
          type="date"
          label={t("school.fields.endDate")}
          required
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-opens"
          name="applicationOpensAt"
          type="date"
          label={t("school.fields.applicationOpensAt")}
          hint={t("school.fields.applicationOpensAtHint")}
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-deadline"
          name="applicationDeadline"
          type="date"
          label={t("school.fields.applicationDeadline")}
          hint={t("school.fields.applicationDeadlineHint")}
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-capacity"
          name="capacity"
          type="number"
          min={1}
          step={1}
          inputMode="numeric"
          label={t("school.fields.capacity")}
          hint={base ? t("school.fields.capacityHint", { paid: base.paidPlaces }) : undefined}
          required
          register={register}
          errors={errors}
        />
        <FormInput<SummerSchoolFormValues>
          id="school-deposit"
          name="depositPercent"
          type="number"
          min={1}
          max={100}
          step={1}
          inputMode="numeric"
          label={t("school.fields.depositPercent")}
          hint={t("school.fields.depositPercentHint")}
          required
          register={register}
          errors={errors}
        />
      </div>
      <FormCheckbox<SummerSchoolFormValues>
        id="school-visa-acceptance"
        name="visaLetterRequiresAcceptance"
        label={t("school.fields.visaLetterRequiresAcceptance")}
        hint={t("school.fields.visaLetterRequiresAcceptanceHint")}
        register={register}
      />
      <Button type="submit" disabled={save.mutation.isPending}>
        {save.mutation.isPending ? t("saving") : base ? t("school.save") : t("school.create")}
      </Button>
    </form>
  );
}
