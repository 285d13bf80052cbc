import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import type { FieldErrors, FieldValues, Path, UseFormRegister, UseFormSetError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { CATALOGUE_LIMITS } from "../../../../../shared/schemas/catalogue-admin";
import type { z } from "../../../../../shared/schemas/zod";
import { Notice } from "../../../../components/account/auth";
import { ApiError } from "../../../../lib/api";
import {
  applyCatalogueServerErrors,
  FormInput,
  FormTextarea,
  LanguageSections,
  StaleNotice,
  staleCurrent,
} from "./shared";

/** The form's value of a localized text (`{ en, zh, fr }`, missing languages as ""). */
export const localizedValues = (value?: { en: string; zh?: string; fr?: string } | null) => ({
  en: value?.en ?? "",
  zh: value?.zh ?? "",
  fr: value?.fr ?? "",
});

/**
 * The save of a catalogue form whose record carries a `version` (schools, packages, housing,
 * add-ons, the cohort guide). `send(values, version)` makes the request: a POST for a new record (`version`
 * undefined), a PATCH with the version last seen for an existing one; it parses the answer with
 * `schema`, the record's shared schema. Answers:
 * - saved: the version moves on, notices clear, `onSaved(saved)`;
 * - 409 `{ message, current }` (someone else saved first): `stale` holds `current`, parsed with
 *   `schema`; `reload(apply)` takes it (its version, and `apply` puts it in the form);
 * - 400/409 with field errors: they go next to their fields (`fieldMap` renames API fields to the
 *   form's, e.g. priceCents → price);
 * - anything else: `failure` holds the server's message (or the generic "failed" text).
 */
export function useVersionedSave<Dto extends { version: number }, Values extends FieldValues>(options: {
  /** The record's shared schema (src/shared/schemas): a 409's `current` is parsed with it. */
  schema: z.ZodType<Dto>;
  version: number | undefined;
  send: (values: Values, version: number | undefined) => Promise<Dto>;
  setError: UseFormSetError<Values>;
  fieldMap?: Record<string, string>;
  onSaved: (saved: Dto) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const [stale, setStale] = useState<Dto | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [version, setVersion] = useState(options.version);
  const mutation = useMutation({
    mutationFn: (values: Values) => options.send(values, version),
    onSuccess: (saved) => {
      setVersion(saved.version);
      setStale(null);
      setFailure(null);
      options.onSaved(saved);
    },
    onError: (error) => {
      const current = staleCurrent(options.schema, error);
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
    /** Takes the current record of a 409: its version for the next save, `apply` puts it in the form. */
    reload: (apply: (current: Dto) => void) => {
      if (!stale) return;
      setVersion(stale.version);
      apply(stale);
      setStale(null);
    },
  };
}

/** The notices of a catalogue form: the 409 one (with its reload button) and any other failure. */
export function SaveNotices({
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

/**
 * A record's `name` and `description` in English (required), Chinese and French (optional: empty
 * falls back to English on the site), one section per language. Field ids are
 * `<idPrefix>-name-<lang>` and `<idPrefix>-description-<lang>`; the form's values hold
 * `name.<lang>` and `description.<lang>`.
 */
export function LocalizedTextFields<T extends FieldValues>({
  idPrefix,
  nameLabel,
  descriptionLabel,
  descriptionRows,
  register,
  errors,
}: {
  idPrefix: string;
  nameLabel: string;
  descriptionLabel: string;
  descriptionRows?: number;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  return (
    <LanguageSections idPrefix={idPrefix}>
      {(language) => (
        <>
          <FormInput<T>
            id={`${idPrefix}-name-${language}`}
            name={`name.${language}` as Path<T>}
            label={nameLabel}
            required={language === "en"}
            maxLength={CATALOGUE_LIMITS.name}
            register={register}
            errors={errors}
          />
          <FormTextarea<T>
            id={`${idPrefix}-description-${language}`}
            name={`description.${language}` as Path<T>}
            label={descriptionLabel}
            required={language === "en"}
            rows={descriptionRows}
            register={register}
            errors={errors}
          />
        </>
      )}
    </LanguageSections>
  );
}

/**
 * An amount typed in euros ("2950.00", "-300"; required). The form keeps the text; the form's
 * `toBody` turns it into integer cents with `eurosTextToCents` (shared schema), and the server's
 * errors on the cents field come back here through the save's `fieldMap`.
 */
export function MoneyField<T extends FieldValues>({
  id,
  name,
  label,
  hint,
  register,
  errors,
}: {
  id: string;
  name: Path<T>;
  label: string;
  hint: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  return (
    <FormInput<T>
      id={id}
      name={name}
      label={label}
      hint={hint}
      inputMode="decimal"
      required
      register={register}
      errors={errors}
    />
  );
}

/** The display order of a catalogue row (`sortOrder`, a whole number ≥ 0; lower first). */
export function SortOrderField<T extends FieldValues>({
  id,
  register,
  errors,
}: {
  id: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
}) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <FormInput<T>
      id={id}
      name={"sortOrder" as Path<T>}
      type="number"
      min={0}
      step={1}
      label={t("items.fields.sortOrder")}
      hint={t("items.fields.sortOrderHint")}
      register={register}
      errors={errors}
    />
  );
}
