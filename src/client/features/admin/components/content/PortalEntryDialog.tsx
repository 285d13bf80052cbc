import { useMutation } from "@tanstack/react-query";
import { useEffect } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  type AdminPortalEntryDto,
  createPortalEntryContract,
  updatePortalEntryContract,
} from "../../../../../shared/api/portal";
import { LANGUAGES, type Language } from "../../../../../shared/i18n/languages";
import { PORTAL_KINDS, type PortalKind } from "../../../../../shared/portal";
import {
  PORTAL_BODY_MAX,
  PORTAL_TITLE_MAX,
  type PortalEntryInput,
  portalEntryInputSchema,
} from "../../../../../shared/schemas/portal";
import { describedBy, Field, inputClass } from "../../../../components/ui/Field";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useSummerSchools } from "../../../../lib/catalogue";
import { DialogFormActions, FormDialog } from "../forms";

/** What the dialog's inputs hold (strings, as typed); turned into a PortalEntryInput on save. */
interface FormValues {
  kind: PortalKind;
  summerSchoolId: string;
  title: Record<Language, string>;
  body: Record<Language, string>;
  url: string;
  sortOrder: string;
  published: "draft" | "published";
  /** `datetime-local` value in the admin's time zone. */
  publishedAt: string;
}

/** A `datetime-local` value (local time, minutes) of an instant. */
const localInput = (date: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
};

function defaults(entry: AdminPortalEntryDto | null, kind: PortalKind): FormValues {
  return {
    kind: entry?.kind ?? kind,
    summerSchoolId: entry?.summerSchool?.id ?? "",
    title: entry ? { ...entry.title } : { en: "", zh: "", fr: "" },
    body: entry ? { ...entry.body } : { en: "", zh: "", fr: "" },
    url: entry?.url ?? "",
    sortOrder: String(entry?.sortOrder ?? 0),
    published: entry && !entry.publishedAt ? "draft" : "published",
    publishedAt: localInput(entry?.publishedAt ? new Date(entry.publishedAt) : new Date()),
  };
}

/**
 * The create / edit dialog of a portal entry (docs/product/back-office.md#portal-entries): kind, cohort,
 * title and text in en (required), zh and fr, the partner's address, order and publication.
 * Checked with the shared `portalEntryInputSchema` before sending (field errors beside the
 * fields); the server's field errors and its 409 (changed by someone else) show the same way.
 */
export function PortalEntryDialog({
  open,
  onOpenChange,
  entry,
  initialKind,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The entry to edit; null creates one. */
  entry: AdminPortalEntryDto | null;
  initialKind: PortalKind;
  onSaved: (saved: AdminPortalEntryDto) => void;
}) {
  const { t } = useTranslation("adminContent");
  const schools = useSummerSchools();
  const form = useForm<FormValues>({ defaultValues: defaults(entry, initialKind) });
  const { register, formState, setError, clearErrors, watch } = form;
  useEffect(() => {
    if (open) form.reset(defaults(entry, initialKind));
  }, [open, entry, initialKind, form]);

  const save = useMutation({
    mutationFn: (input: PortalEntryInput) =>
      entry
        ? call(updatePortalEntryContract, {
            params: { id: entry.id },
            body: { version: entry.version, entry: input },
          })
        : call(createPortalEntryContract, { body: input }),
    onSuccess: onSaved,
    onError: (error) => {
      const fields = error instanceof ApiError ? error.fieldErrors : {};
      for (const [field, message] of Object.entries(fields)) {
        setError(field as keyof FormValues, { message: `!${message}` });
      }
      setError("root", { message: `!${error.message}` });
    },
  });

  const submit = form.handleSubmit((values) => {
    clearErrors();
    const candidate = {
      kind: values.kind,
      summerSchoolId: values.summerSchoolId || null,
      title: values.title,
      body: values.body,
      url: values.kind === "partner" ? values.url : "",
      sortOrder: Number(values.sortOrder),
      publishedAt:
        values.published === "draft" || !values.publishedAt
          ? null
          : new Date(values.publishedAt).toISOString(),
    };
    const parsed = portalEntryInputSchema.safeParse(candidate);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        setError(issue.path.join(".") as keyof FormValues, { message: issue.message });
      }
      return;
    }
    save.mutate(parsed.data);
  });

  /** A field's message: a schema key (validation.* / errors.portal.*) or a server text (`!` prefix). */
  const messageOf = (name: string): string | undefined => {
    const path = name.split(".");
    let node: unknown = formState.errors;
    for (const part of path) node = (node as Record<string, unknown> | undefined)?.[part];
    const message = (node as { message?: string } | undefined)?.message;
    if (!message) return undefined;
    return message.startsWith("!") ? message.slice(1) : t(`common:${message}`);
  };
  const kind = watch("kind");
  const published = watch("published");
  const rootError = formState.errors.root?.message?.slice(1);

  const text = (name: `title.${Language}` | `body.${Language}`, language: Language, multiline: boolean) => {
    const id = `entry-${name.replace(".", "-")}`;
    const error = messageOf(name);
    const label = t(multiline ? "portal.form.bodyLabel" : "portal.form.titleLabel", {
      language: t(`translations.languages.${language}`),
    });
    const common = {
      id,
      lang: language,
      className: inputClass,
      "aria-invalid": error ? true : undefined,
      "aria-describedby": describedBy(id, undefined, error),
      "aria-required": language === "en" ? true : undefined,
      ...register(name),
    };
    return (
      <Field key={name} id={id} label={label} required={language === "en"} error={error}>
        {multiline ? (
          <textarea rows={4} maxLength={PORTAL_BODY_MAX} {...common} />
        ) : (
          <input type="text" maxLength={PORTAL_TITLE_MAX} {...common} />
        )}
      </Field>
    );
  };

  return (
    <FormDialog
      open={open}
      onOpenChange={onOpenChange}
      title={t(entry ? "portal.form.editTitle" : "portal.form.createTitle")}
      description={t("portal.form.description")}
      busy={save.isPending}
    >
      <form noValidate onSubmit={submit} className="mt-4 space-y-4">
        {rootError ? (
          <p role="alert" className="rounded-lg bg-red-50 p-3 text-sm font-medium text-red-800">
            {rootError}
          </p>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="entry-kind" label={t("portal.form.kind")}>
            <select id="entry-kind" className={inputClass} {...register("kind")}>
              {PORTAL_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`portal.kind.${k}`)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="entry-cohort" label={t("portal.form.cohort")} error={messageOf("summerSchoolId")}>
            <select id="entry-cohort" className={inputClass} {...register("summerSchoolId")}>
              <option value="">{t("portal.allCohorts")}</option>
              {entry?.summerSchool && !schools.data?.some((s) => s.id === entry.summerSchool?.id) ? (
                <option value={entry.summerSchool.id}>{entry.summerSchool.name}</option>
              ) : null}
              {schools.data?.map((school) => (
                <option key={school.id} value={school.id}>
                  {school.name}
                </option>
              ))}
            </select>
          </Field>
        </div>
        {LANGUAGES.map((language) => (
          <fieldset key={language} className="space-y-3 rounded-lg border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-900">
              {t(`translations.languages.${language}`)}
            </legend>
            {text(`title.${language}`, language, false)}
            {text(`body.${language}`, language, true)}
          </fieldset>
        ))}
        {kind === "partner" ? (
          <Field
            id="entry-url"
            label={t("portal.form.url")}
            required
            hint={t("portal.form.urlHint")}
            error={messageOf("url")}
          >
            <input
              id="entry-url"
              type="url"
              inputMode="url"
              className={inputClass}
              aria-invalid={messageOf("url") ? true : undefined}
              aria-describedby={describedBy("entry-url", true, messageOf("url"))}
              {...register("url")}
            />
          </Field>
        ) : null}
        <div className="grid gap-4 sm:grid-cols-3">
          <Field
            id="entry-order"
            label={t("portal.form.sortOrder")}
            hint={t("portal.form.sortOrderHint")}
            error={messageOf("sortOrder")}
          >
            <input
              id="entry-order"
              type="number"
              min={0}
              max={10000}
              step={1}
              className={inputClass}
              aria-describedby={describedBy("entry-order", true, messageOf("sortOrder"))}
              {...register("sortOrder")}
            />
          </Field>
          <Field id="entry-publication" label={t("portal.form.publication")}>
            <select id="entry-publication" className={inputClass} {...register("published")}>
              <option value="published">{t("portal.form.published")}</option>
              <option value="draft">{t("portal.form.draft")}</option>
            </select>
          </Field>
          {published === "published" ? (
            <Field
              id="entry-published-at"
              label={t("portal.form.publishedAt")}
              error={messageOf("publishedAt")}
            >
              <input
                id="entry-published-at"
                type="datetime-local"
                className={inputClass}
                {...register("publishedAt")}
              />
            </Field>
          ) : null}
        </div>
        <DialogFormActions
          cancelLabel={t("portal.form.cancel")}
          submitLabel={t("portal.form.save")}
          busyLabel={t("portal.form.saving")}
          busy={save.isPending}
        />
      </form>
    </FormDialog>
  );
}
