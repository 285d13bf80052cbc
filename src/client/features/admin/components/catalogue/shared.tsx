import { useQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import type { ReactNode } from "react";
import type {
  FieldError,
  FieldErrors,
  FieldValues,
  Path,
  UseFormRegister,
  UseFormSetError,
} from "react-hook-form";
import { useTranslation } from "react-i18next";
import { listSummerSchoolsContract } from "../../../../../shared/api/catalogue-admin";
import type { LocalizedTextDto } from "../../../../../shared/catalogue-admin";
import type { Language } from "../../../../../shared/i18n/languages";
import {
  type SchoolAdminStatus,
  staleVersionBodySchema,
} from "../../../../../shared/schemas/catalogue-admin";
import { MAX_PAGE_SIZE } from "../../../../../shared/schemas/list";
import type { z } from "../../../../../shared/schemas/zod";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { cn } from "../../../../components/ui/cn";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useLanguage } from "../../../../lib/catalogue";

/** Query keys of the catalogue screens (under ["admin"], dropped at logout). */
export const catalogueAdminKeys = {
  all: () => ["admin", "catalogue"] as const,
  list: (kind: string, search: string) => ["admin", "catalogue", kind, "list", search] as const,
  school: (id: string) => ["admin", "catalogue", "school", id] as const,
  schoolOptions: () => ["admin", "catalogue", "school-options"] as const,
};

/** The text in the UI language, else English (as the public site does). */
export const localized = (text: LocalizedTextDto | null | undefined, language: Language): string =>
  text ? text[language] || text.en : "";

/** The text in the UI language of the screen. */
export function useLocalized() {
  const language = useLanguage();
  return (text: LocalizedTextDto | null | undefined) => localized(text, language);
}

/**
 * Every summer school (archived and past ones included, newest first), for the school filters and
 * the school picker of new packages, housing options and add-ons.
 */
export function useSchoolOptions() {
  return useQuery({
    queryKey: catalogueAdminKeys.schoolOptions(),
    queryFn: ({ signal }) =>
      call(listSummerSchoolsContract, {
        query: { pageSize: String(MAX_PAGE_SIZE), sort: "startDate:desc" },
        signal,
      }),
    staleTime: 30_000,
  });
}

/**
 * The translated message of a form field: schema keys (`validation.*`, `errors.*`) through the
 * `common` namespace; messages the server already translated as they are.
 */
export function useCatalogueFieldMessage() {
  const { t } = useTranslation("adminCatalogue");
  return (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    const key = error.message;
    return key.startsWith("validation.") || key.startsWith("errors.") ? t(`common:${key}`) : key;
  };
}

/** Copies the server's field errors of a 400/409 onto the form (`fieldMap` renames API fields, e.g. priceCents → price). */
export function applyCatalogueServerErrors<T extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<T>,
  fieldMap: Record<string, string> = {},
): boolean {
  if (!(error instanceof ApiError)) return false;
  const entries = Object.entries(error.fieldErrors);
  for (const [field, text] of entries) {
    setError((fieldMap[field] ?? field) as Path<T>, { type: "server", message: text });
  }
  return entries.length > 0;
}

/**
 * The record a 409 on a stale version carries (`{ message, current }`, staleVersionBodySchema),
 * parsed with the record's schema (`schema`: a school, package, housing option or add-on; the code
 * form uses it with a discount code's). Null for any other error, a 409 without a record (a taken
 * slug), or a record that does not match the schema: the save then shows the server's message
 * instead of offering to load it.
 */
export function staleCurrent<T>(schema: z.ZodType<T>, error: unknown): T | null {
  if (!(error instanceof ApiError) || error.status !== 409) return null;
  const body = staleVersionBodySchema(schema).safeParse(error.body);
  return body.success ? body.data.current : null;
}

/** Deep error lookup (`name.en`) in react-hook-form's nested errors. */
export function errorAt(errors: FieldErrors, path: string): FieldError | undefined {
  let node: unknown = errors;
  for (const part of path.split(".")) {
    if (!node || typeof node !== "object") return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node && typeof node === "object" && "message" in node ? (node as FieldError) : undefined;
}

/** A text input bound to react-hook-form with its label, hint and error. */
export function FormInput<T extends FieldValues>({
  id,
  name,
  label,
  register,
  errors,
  required = false,
  hint,
  className,
  ...input
}: {
  id: string;
  name: Path<T>;
  label: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  required?: boolean;
  hint?: string;
  className?: string;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "name" | "id">) {
  const message = useCatalogueFieldMessage();
  const error = message(errorAt(errors as FieldErrors, name));
  return (
    <Field id={id} label={label} required={required} hint={hint} error={error} className={className}>
      <input
        id={id}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        aria-required={required || undefined}
        {...input}
        {...register(name, input.type === "number" ? { valueAsNumber: true } : undefined)}
      />
    </Field>
  );
}

/** A textarea bound to react-hook-form with its label and error. */
export function FormTextarea<T extends FieldValues>({
  id,
  name,
  label,
  register,
  errors,
  required = false,
  rows = 3,
}: {
  id: string;
  name: Path<T>;
  label: string;
  register: UseFormRegister<T>;
  errors: FieldErrors<T>;
  required?: boolean;
  rows?: number;
}) {
  const message = useCatalogueFieldMessage();
  const error = message(errorAt(errors as FieldErrors, name));
  return (
    <Field id={id} label={label} required={required} error={error}>
      <textarea
        id={id}
        rows={rows}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, undefined, error)}
        aria-required={required || undefined}
        {...register(name)}
      />
    </Field>
  );
}

const LANGUAGE_ORDER = ["en", "zh", "fr"] as const;

/**
 * One section per language for the texts of a catalogue row (English required, Chinese and French
 * optional: empty falls back to English on the site). `children(language)` renders the fields.
 */
export function LanguageSections({
  idPrefix,
  children,
}: {
  idPrefix: string;
  children: (language: (typeof LANGUAGE_ORDER)[number]) => ReactNode;
}) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <div className="grid gap-4 lg:grid-cols-3">
      {LANGUAGE_ORDER.map((language) => (
        <fieldset
          key={language}
          lang={language}
          aria-describedby={language === "en" ? undefined : `${idPrefix}-${language}-hint`}
          className="min-w-0 space-y-3 rounded-lg border border-slate-200 p-3"
        >
          <legend className="px-1 text-sm font-semibold text-brand-900">{t(`languages.${language}`)}</legend>
          {language === "en" ? null : (
            <p id={`${idPrefix}-${language}-hint`} className="text-xs text-slate-700">
              {t("languages.optionalHint")}
            </p>
          )}
          {children(language)}
        </fieldset>
      ))}
    </div>
  );
}

const SCHOOL_STATUS_COLOURS: Record<SchoolAdminStatus, string> = {
  open: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  fewSpotsLeft: "bg-amber-100 text-amber-900 ring-amber-300",
  full: "bg-red-100 text-red-900 ring-red-300",
  openingSoon: "bg-sky-100 text-sky-900 ring-sky-300",
  closed: "bg-slate-100 text-slate-800 ring-slate-300",
  past: "bg-slate-100 text-slate-800 ring-slate-300",
  archived: "bg-slate-200 text-slate-900 ring-slate-400",
};

/** A coloured pill naming a school's status (the text carries the meaning). */
export function SchoolStatusBadge({ status }: { status: SchoolAdminStatus }) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        SCHOOL_STATUS_COLOURS[status],
      )}
    >
      {t(`status.${status}`)}
    </span>
  );
}

/** "Archived" pill of a package, housing option or add-on. */
export function ArchivedBadge() {
  const { t } = useTranslation("adminCatalogue");
  return (
    <span className="inline-flex items-center rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold text-slate-900 ring-1 ring-slate-400 ring-inset">
      {t("status.archived")}
    </span>
  );
}

/** The notice of a 409: someone else saved first; reload puts their version in the form. */
export function StaleNotice({ onReload }: { onReload: () => void }) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <Notice tone="error" title={t("stale.title")}>
      <p>{t("stale.body")}</p>
      <Button variant="secondary" size="sm" className="mt-3" onClick={onReload}>
        <RefreshCw aria-hidden="true" className="h-4 w-4" />
        {t("stale.reload")}
      </Button>
    </Notice>
  );
}
