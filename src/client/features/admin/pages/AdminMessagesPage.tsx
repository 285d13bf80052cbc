import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Eye, Send, TestTube } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { type FieldError, get, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  type MailingPreviewDto,
  previewMailingContract,
  sendMailingContract,
  testMailingContract,
} from "../../../../shared/api/mailings";
import { LANGUAGES, type Language, LOCALE_OF } from "../../../../shared/i18n/languages";
import {
  MAILING_BODY_MAX,
  MAILING_SUBJECT_MAX,
  type MailingDraft,
  mailingDraftSchema,
} from "../../../../shared/schemas/mailings";
import type { z } from "../../../../shared/schemas/zod";
import { APPLICATION_STATUSES, PAYMENT_STATUSES } from "../../../../shared/statuses";
import { applyServerErrors, Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { useSignedInUser } from "../../../lib/session";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AdminPageHeader } from "../components/common";
import { messagesKeys, useCohortOptions } from "../components/messages/audience";
import { MailingPreview } from "../components/messages/MailingPreview";
import { SentMessages } from "../components/messages/SentMessages";
import { adminCan } from "../permissions";

type DraftInput = z.input<typeof mailingDraftSchema>;

/** An empty message to the applicants of every cohort in any open status. */
const EMPTY: DraftInput = {
  audience: { kind: "applicants" },
  content: { subject: { en: "", zh: "", fr: "" }, body: { en: "", zh: "", fr: "" } },
};

const KINDS = ["applicants", "waitingList", "newsletter"] as const;

/** A select's "" (all, any) is no filter. */
const emptyAsUndefined = (value: unknown) => (value === "" || value == null ? undefined : value);

/**
 * The form of a new message (docs/product/back-office.md#messages): who receives it (the
 * applicants of a cohort or of every cohort by application and payment status, a cohort's waiting
 * list, or the newsletter subscribers), then a subject and a text per language (English required),
 * checked with the shared schema. "Preview" counts the recipients per language and shows the
 * message in each; "Send a test to me" e-mails it to the writer; "Send" previews again, asks to
 * confirm with the count, and posts the message with an id chosen once per message, so a double
 * click or a retry after a lost answer sends it once. After a send the form empties, a new id is
 * chosen and the focus moves to the list of sent messages.
 */
function NewMessage({ onSent }: { onSent: () => void }) {
  const { t } = useTranslation("adminMessages");
  const number = new Intl.NumberFormat(LOCALE_OF[useLanguage()]);
  const queryClient = useQueryClient();
  const cohorts = useCohortOptions();
  const sendId = useRef<string>(crypto.randomUUID());
  const errorRef = useRef<HTMLDivElement>(null);
  const [preview, setPreview] = useState<{ draft: string; result: MailingPreviewDto } | null>(null);
  const [confirming, setConfirming] = useState<{ draft: MailingDraft; count: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, watch, getValues, reset, setError } = useForm<
    DraftInput,
    unknown,
    MailingDraft
  >({
    resolver: zodResolver(mailingDraftSchema),
    defaultValues: EMPTY,
    mode: "onTouched",
  });
  const kind = watch("audience.kind");
  const current = JSON.stringify(watch());

  /** The translated message of the field at `path` (schema keys through `common`, server messages as they are). */
  const errorOf = (path: string): string | undefined => {
    const error = get(formState.errors, path) as FieldError | undefined;
    if (!error?.message) return undefined;
    return error.type === "server" ? error.message : t(`common:${error.message}`);
  };

  /** Shows a failed request's message under the buttons (and the fields' own messages next to them). */
  const fail = (error: Error) => {
    applyServerErrors(error, setError);
    setFailure(error.message);
    // The message is announced (role="alert"); the focus follows so the keyboard starts from it.
    setTimeout(() => errorRef.current?.focus(), 0);
  };

  const previewing = useMutation({
    // `key`: the form's values when asked, to tell whether the preview still shows them.
    mutationFn: ({ draft }: { draft: MailingDraft; key: string }) =>
      call(previewMailingContract, { body: draft }),
    onMutate: () => setFailure(null),
    onSuccess: (result, { key }) => setPreview({ draft: key, result }),
    onError: fail,
  });
  const testing = useMutation({
    mutationFn: (draft: MailingDraft) => call(testMailingContract, { body: draft }),
    onMutate: () => setFailure(null),
    onSuccess: ({ to }) => toast({ title: t("actions.testSent", { to }), variant: "success" }),
    onError: fail,
  });
  const sending = useMutation({
    mutationFn: (draft: MailingDraft) =>
      call(sendMailingContract, { body: { ...draft, id: sendId.current } }),
    onMutate: () => setFailure(null),
    onSuccess: (mailing) => {
      sendId.current = crypto.randomUUID();
      setConfirming(null);
      setPreview(null);
      reset(EMPTY);
      void queryClient.invalidateQueries({ queryKey: messagesKeys.list() });
      toast({
        title: t("actions.sent", { count: mailing.recipients, total: number.format(mailing.recipients) }),
        variant: "success",
      });
      onSent();
    },
    onError: (error) => {
      setConfirming(null);
      fail(error);
    },
  });
  const busy = previewing.isPending || testing.isPending || sending.isPending;

  /** A button's action on the checked form; a form with errors clears the last failure (the fields say what is wrong). */
  const submit = (action: (draft: MailingDraft) => unknown) => handleSubmit(action, () => setFailure(null));

  /** Counts the recipients again (the preview shows them) and asks to confirm, unless no one matches. */
  const askToSend = submit(async (draft) => {
    const result = await previewing
      .mutateAsync({ draft, key: JSON.stringify(getValues()) })
      .catch(() => null);
    if (!result) return;
    if (result.recipients.total === 0) {
      setFailure(t("common:errors.mailingNobody"));
      setTimeout(() => errorRef.current?.focus(), 0);
      return;
    }
    setConfirming({ draft, count: result.recipients.total });
  });

  const fresh = preview && preview.draft === current ? preview.result : null;
  const cohortError = errorOf("audience.cohortId");

  const select = (
    id: string,
    label: string,
    path: "audience.cohortId" | "audience.status" | "audience.payment",
    first: string,
    options: Array<{ value: string; label: string }>,
    required = false,
  ) => {
    const error = path === "audience.cohortId" ? cohortError : errorOf(path);
    return (
      <Field id={id} label={label} required={required} error={error}>
        <select
          id={id}
          className={inputClass}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, false, error)}
          aria-required={required || undefined}
          {...register(path, { setValueAs: emptyAsUndefined })}
        >
          <option value="">{first}</option>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </Field>
    );
  };

  return (
    <section
      aria-labelledby="messages-new-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="messages-new-title" className="mb-4 text-lg font-bold text-brand-900">
        {t("form.title")}
      </h2>
      <form
        noValidate
        onSubmit={submit((draft) => previewing.mutate({ draft, key: JSON.stringify(getValues()) }))}
        className="space-y-6"
      >
        <fieldset>
          <legend className="text-base font-semibold text-slate-900">{t("form.audience")}</legend>
          <div className="mt-2 grid gap-2 md:grid-cols-3">
            {KINDS.map((value) => (
              <label
                key={value}
                htmlFor={`message-kind-${value}`}
                className="flex cursor-pointer gap-3 rounded-lg border border-slate-300 p-3 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
              >
                <input
                  id={`message-kind-${value}`}
                  type="radio"
                  value={value}
                  className="mt-1 h-4 w-4 shrink-0 accent-brand-700"
                  aria-describedby={`message-kind-${value}-hint`}
                  {...register("audience.kind")}
                />
                <span>
                  <span className="block font-medium text-slate-900">{t(`form.kinds.${value}`)}</span>
                  <span id={`message-kind-${value}-hint`} className="block text-sm text-slate-700">
                    {t(`form.kindHints.${value}`)}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>

        {kind === "applicants" ? (
          <div className="grid gap-4 md:grid-cols-3">
            {select(
              "message-cohort",
              t("form.cohort"),
              "audience.cohortId",
              t("form.allCohorts"),
              cohorts.options,
            )}
            {select(
              "message-status",
              t("form.status"),
              "audience.status",
              t("form.anyStatus"),
              APPLICATION_STATUSES.map((value) => ({ value, label: t(`admin:status.${value}`) })),
            )}
            {select(
              "message-payment",
              t("form.payment"),
              "audience.payment",
              t("form.anyPayment"),
              PAYMENT_STATUSES.map((value) => ({ value, label: t(`form.payments.${value}`) })),
            )}
          </div>
        ) : kind === "waitingList" ? (
          <div className="grid gap-4 md:grid-cols-3">
            {select(
              "message-cohort",
              t("form.cohort"),
              "audience.cohortId",
              t("form.chooseCohort"),
              cohorts.options,
              true,
            )}
          </div>
        ) : null}

        <div>
          <p className="text-sm text-slate-700">{t("form.languagesNote")}</p>
          <p id="message-body-help" className="mt-1 text-sm text-slate-700">
            {t("form.bodyHelp")}
          </p>
        </div>
        {LANGUAGES.map((language: Language) => {
          const required = language === "en";
          const subjectId = `message-subject-${language}`;
          const bodyId = `message-body-${language}`;
          const subjectError = errorOf(`content.subject.${language}`);
          const bodyError = errorOf(`content.body.${language}`);
          return (
            <fieldset key={language} className="space-y-4 rounded-lg border border-slate-200 p-3 sm:p-4">
              <legend className="px-1 font-semibold text-slate-900">
                {t(`form.languages.${language}`)}{" "}
                <span className="font-normal text-slate-700">
                  {required ? t("form.required") : t("form.optional")}
                </span>
              </legend>
              <Field id={subjectId} label={t("form.subject")} required={required} error={subjectError}>
                <input
                  id={subjectId}
                  type="text"
                  lang={language}
                  maxLength={MAILING_SUBJECT_MAX}
                  className={inputClass}
                  aria-invalid={subjectError ? true : undefined}
                  aria-describedby={describedBy(subjectId, false, subjectError)}
                  aria-required={required || undefined}
                  {...register(`content.subject.${language}`)}
                />
              </Field>
              <Field id={bodyId} label={t("form.body")} required={required} error={bodyError}>
                <textarea
                  id={bodyId}
                  lang={language}
                  rows={required ? 10 : 6}
                  maxLength={MAILING_BODY_MAX}
                  className={inputClass}
                  aria-invalid={bodyError ? true : undefined}
                  aria-describedby={[describedBy(bodyId, false, bodyError), "message-body-help"]
                    .filter(Boolean)
                    .join(" ")}
                  aria-required={required || undefined}
                  {...register(`content.body.${language}`)}
                />
              </Field>
            </fieldset>
          );
        })}

        {failure ? (
          <div ref={errorRef} tabIndex={-1} className="focus:outline-none">
            <Notice tone="error" title={t("actions.failed")}>
              <p>{failure}</p>
            </Notice>
          </div>
        ) : null}

        <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
          <Button type="submit" variant="secondary" disabled={busy}>
            <Eye aria-hidden="true" className="h-4 w-4" />
            {previewing.isPending ? t("actions.previewing") : t("actions.preview")}
          </Button>
          <Button variant="secondary" disabled={busy} onClick={submit((draft) => testing.mutate(draft))}>
            <TestTube aria-hidden="true" className="h-4 w-4" />
            {testing.isPending ? t("actions.testing") : t("actions.test")}
          </Button>
          <Button disabled={busy} onClick={askToSend}>
            <Send aria-hidden="true" className="h-4 w-4" />
            {fresh
              ? t("actions.sendTo", {
                  count: fresh.recipients.total,
                  total: number.format(fresh.recipients.total),
                })
              : t("actions.send")}
          </Button>
        </div>
      </form>

      {preview ? <MailingPreview preview={preview.result} stale={!fresh} /> : null}

      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(open) => (open ? undefined : setConfirming(null))}
        title={t("confirm.title")}
        description={
          <p>
            {t("confirm.description", {
              count: confirming?.count ?? 0,
              total: number.format(confirming?.count ?? 0),
            })}
          </p>
        }
        confirmLabel={t("actions.sendTo", {
          count: confirming?.count ?? 0,
          total: number.format(confirming?.count ?? 0),
        })}
        busy={sending.isPending}
        onConfirm={() => {
          if (confirming && !sending.isPending) sending.mutate(confirming.draft);
        }}
      />
    </section>
  );
}

/**
 * /admin/messages (docs/product/back-office.md#messages; permission `messages:write`: owners and
 * admissions): a new message to the people a filter picks, with its preview, a test to oneself and
 * the send, and the list of sent messages with their progress. The cohorts to choose from are every
 * cohort, past and archived ones included (`GET /api/admin/mailings/cohorts`).
 */
export default function AdminMessagesPage() {
  const { t } = useTranslation("adminMessages");
  const admin = useSignedInUser("admin");
  const sentHeading = useRef<HTMLHeadingElement>(null);
  const [sentCount, setSentCount] = useState(0);
  // After a send, once the confirmation has closed and handed the focus back, it moves to the list.
  useEffect(() => {
    if (sentCount === 0) return;
    const timer = setTimeout(() => sentHeading.current?.focus(), 50);
    return () => clearTimeout(timer);
  }, [sentCount]);

  if (!adminCan(admin, "messages:write"))
    return (
      <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        <AdminPageHeader title={t("title")} />
        <div className="mt-6">
          <Notice tone="error" title={t("actions.failed")}>
            <p>{t("common:errors.forbiddenRole")}</p>
          </Notice>
        </div>
      </div>
    );

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader title={t("title")} lead={t("lead")} />
      <div className="max-w-5xl">
        <NewMessage onSent={() => setSentCount((n) => n + 1)} />
        <SentMessages headingRef={sentHeading} />
      </div>
    </div>
  );
}
