import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Pencil, RotateCcw } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import type { AdminTranslationRow } from "../../../../../shared/api/translations";
import { revertTranslationContract, updateTranslationContract } from "../../../../../shared/api/translations";
import type { Language } from "../../../../../shared/i18n/languages";
import { TRANSLATION_MAX_LENGTH, translationValueSchema } from "../../../../../shared/schemas/translations";
import { z } from "../../../../../shared/schemas/zod";
import { placeholdersOf } from "../../../../../shared/translations";
import { Button } from "../../../../components/ui/Button";
import { inputClass } from "../../../../components/ui/Field";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { ConfirmDialog } from "../ConfirmDialog";

/** Query keys of the translation editor (under ["admin"], dropped at logout). */
export const translationKeys = {
  all: ["admin", "translations"] as const,
  list: (search: string) => ["admin", "translations", "list", search] as const,
};

/**
 * One text of one key in one language in the editor's table: the text with "Edited" and
 * "Missing" marks; Edit opens a textarea checked with the shared schema (same placeholders as
 * English, not blank, at most 5000 characters) and saved with `PUT /api/admin/translations`;
 * Revert (for an edited text, after a confirmation) calls `DELETE /api/admin/translations`.
 * A conflicting edit by someone else (409) refreshes the list and says so.
 */
export function TranslationCell({ row, language }: { row: AdminTranslationRow; language: Language }) {
  const { t } = useTranslation("adminContent");
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState(false);
  const [confirmRevert, setConfirmRevert] = useState(false);
  const text = row[language];
  const english = row.file.en;
  const placeholders = placeholdersOf(english)
    .map((name) => `{{${name}}}`)
    .join(" ");
  const schema = z.object({ value: translationValueSchema(english) });
  const form = useForm<{ value: string }>({ resolver: zodResolver(schema), defaultValues: { value: text } });
  const id = `t-${row.namespace}-${row.key}-${language}`.replace(/[^\w-]/g, "-");
  const languageName = t(`translations.languages.${language}`);
  const keyLabel = `${row.namespace}:${row.key}`;

  const failed = (error: Error) => {
    if (error instanceof ApiError && error.status === 409) {
      void queryClient.invalidateQueries({ queryKey: translationKeys.all });
      setEditing(false);
    }
    toast({ title: t("translations.failedTitle"), description: error.message, variant: "destructive" });
  };
  const target = { namespace: row.namespace, key: row.key, language };
  const save = useMutation({
    mutationFn: (value: string) =>
      call(updateTranslationContract, {
        body: { ...target, value, expectedUpdatedAt: row.updatedAt[language] },
      }),
    onSuccess: () => {
      setEditing(false);
      void queryClient.invalidateQueries({ queryKey: translationKeys.all });
      toast({
        title: t("translations.savedTitle"),
        description: t("translations.savedDescription"),
        variant: "success",
      });
    },
    onError: failed,
  });
  const revert = useMutation({
    mutationFn: () =>
      call(revertTranslationContract, { body: { ...target, expectedUpdatedAt: row.updatedAt[language] } }),
    onSuccess: () => {
      setConfirmRevert(false);
      void queryClient.invalidateQueries({ queryKey: translationKeys.all });
      toast({ title: t("translations.revertedTitle"), variant: "success" });
    },
    onError: (error) => {
      setConfirmRevert(false);
      failed(error);
    },
  });

  const error = form.formState.errors.value?.message;
  const missing = row.missing.includes(language);

  if (editing) {
    return (
      <form noValidate className="space-y-2" onSubmit={form.handleSubmit(({ value }) => save.mutate(value))}>
        <label htmlFor={id} className="block text-sm font-medium text-slate-900">
          {t("translations.editLabel", { language: languageName, key: keyLabel })}
        </label>
        <textarea
          id={id}
          rows={Math.min(8, Math.max(2, Math.ceil(text.length / 40)))}
          maxLength={TRANSLATION_MAX_LENGTH}
          lang={language}
          aria-invalid={error ? true : undefined}
          aria-describedby={
            [placeholders ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim() || undefined
          }
          className={inputClass}
          {...form.register("value")}
        />
        {placeholders ? (
          <p id={`${id}-hint`} className="text-xs text-slate-700">
            {t("translations.placeholdersHint", { placeholders })}
          </p>
        ) : null}
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-sm font-medium text-red-700">
            {t(`common:${error}`, { placeholders: placeholders || "—" })}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" size="sm" disabled={save.isPending}>
            {save.isPending ? t("translations.saving") : t("translations.save")}
          </Button>
          <Button
            type="button"
            size="sm"
            variant="secondary"
            onClick={() => {
              form.reset({ value: text });
              setEditing(false);
            }}
          >
            {t("translations.cancel")}
          </Button>
        </div>
      </form>
    );
  }

  return (
    <div>
      <p lang={language} className="break-words whitespace-pre-line text-slate-900">
        {text || <span className="text-slate-600 italic">{t("translations.emptyText")}</span>}
      </p>
      {row.overridden[language] || missing ? (
        <p className="mt-1 flex flex-wrap gap-1">
          {row.overridden[language] ? (
            <span className="rounded-full bg-sky-100 px-2 py-0.5 text-xs font-semibold text-sky-900">
              {t("translations.edited")}
            </span>
          ) : null}
          {missing ? (
            <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
              {t("translations.missingBadge")}
            </span>
          ) : null}
        </p>
      ) : null}
      <div className="mt-2 flex flex-wrap gap-2">
        <Button
          size="sm"
          variant="secondary"
          aria-label={`${t("translations.edit")}: ${t("translations.editLabel", { language: languageName, key: keyLabel })}`}
          onClick={() => {
            form.reset({ value: text });
            setEditing(true);
          }}
        >
          <Pencil aria-hidden="true" className="h-4 w-4" />
          {t("translations.edit")}
        </Button>
        {row.overridden[language] ? (
          <Button
            size="sm"
            variant="ghost"
            aria-label={`${t("translations.revert")}: ${t("translations.editLabel", { language: languageName, key: keyLabel })}`}
            onClick={() => setConfirmRevert(true)}
          >
            <RotateCcw aria-hidden="true" className="h-4 w-4" />
            {t("translations.revert")}
          </Button>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmRevert}
        onOpenChange={setConfirmRevert}
        title={t("translations.revertTitle")}
        description={
          <>
            <p>{t("translations.revertDescription", { language: languageName, key: keyLabel })}</p>
            <p lang={language} className="rounded-lg bg-slate-50 p-3 text-slate-900">
              {row.file[language] || t("translations.emptyText")}
            </p>
          </>
        }
        confirmLabel={t("translations.revertConfirm")}
        busy={revert.isPending}
        onConfirm={() => revert.mutate()}
      />
    </div>
  );
}
