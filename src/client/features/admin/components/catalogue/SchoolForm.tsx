import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { AdminSummerSchoolDto } from "../../../../../shared/catalogue-admin";
import {
  CATALOGUE_LIMITS,
  type SummerSchoolFormValues,
  summerSchoolInputSchema,
} from "../../../../../shared/schemas/catalogue-admin";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError, api } from "../../../../lib/api";
import {
  applyCatalogueServerErrors,
  FormInput,
  FormTextarea,
  LanguageSections,
  StaleNotice,
  staleCurrent,
} from "./shared";

/** Form values of a school DTO (optional dates as "" for the inputs). */
export function schoolFormValues(school?: AdminSummerSchoolDto): SummerSchoolFormValues {
  return {
    slug: school?.slug ?? "",
    name: { en: school?.name.en ?? "", zh: school?.name.zh ?? "", fr: school?.name.fr ?? "" },
    description: {
      en: school?.description.en ?? "",
      zh: school?.description.zh ?? "",
      fr: school?.description.fr ?? "",
    },
    location: school?.location ?? "The Hague, Netherlands",
    startDate: school?.startDate ?? "",
    endDate: school?.endDate ?? "",
    applicationOpensAt: school?.applicationOpensAt ?? "",
    applicationDeadline: school?.applicationDeadline ?? "",
    capacity: school?.capacity ?? 50,
    depositPercent: school?.depositPercent ?? 100,
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
  const [stale, setStale] = useState<AdminSummerSchoolDto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError, reset } = useForm<SummerSchoolFormValues>({
    resolver: zodResolver(summerSchoolInputSchema),
    defaultValues: schoolFormValues(school),
    mode: "onTouched",
  });
  const errors = formState.errors;
  const save = useMutation({
    mutationFn: (values: SummerSchoolFormValues) =>
      base
        ? api<AdminSummerSchoolDto>(`/api/admin/summer-schools/${base.id}`, {
            method: "PATCH",
            body: { ...values, version: base.version },
          })
        : api<AdminSummerSchoolDto>("/api/admin/summer-schools", { body: values }),
    onSuccess: (saved) => {
      setBase(saved);
      setStale(null);
      setFailure(null);
      reset(schoolFormValues(saved));
      toast({ title: t(base ? "school.savedTitle" : "school.createdTitle"), variant: "success" });
      onSaved(saved);
    },
    onError: (error) => {
      const current = staleCurrent<AdminSummerSchoolDto>(error);
      if (current) {
        setStale(current);
        return;
      }
      const hasFields = applyCatalogueServerErrors(error, setError);
      setFailure(hasFields ? null : error instanceof ApiError ? error.message : t("failed"));
    },
  });
  const id = base?.id ?? "new";

  return (
    <form onSubmit={handleSubmit((values) => save.mutate(values))} noValidate className="space-y-6">
      {stale ? (
        <StaleNotice
          onReload={() => {
            setBase(stale);
            reset(schoolFormValues(stale));
            setStale(null);
            onSaved(stale);
          }}
        />
      ) : null}
      {failure ? (
        <Notice tone="error" title={t("failedTitle")}>
          <p>{failure}</p>
        </Notice>
      ) : null}
      <LanguageSections idPrefix={`school-${id}`}>
        {(language) => (
          <>
            <FormInput<SummerSchoolFormValues>
              id={`school-name-${language}`}
              name={`name.${language}`}
              label={t("school.fields.name")}
              required={language === "en"}
              maxLength={CATALOGUE_LIMITS.name}
              register={register}
              errors={errors}
            />
            <FormTextarea<SummerSchoolFormValues>
              id={`school-description-${language}`}
              name={`description.${language}`}
              label={t("school.fields.description")}
              required={language === "en"}
              rows={5}
              register={register}
              errors={errors}
            />
          </>
        )}
      </LanguageSections>
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
      <Button type="submit" disabled={save.isPending}>
        {save.isPending ? t("saving") : base ? t("school.save") : t("school.create")}
      </Button>
    </form>
  );
}
