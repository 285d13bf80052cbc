import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Download, FileText } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import {
  cancelEmailChangeContract,
  changeStudentPasswordContract,
  exportStudentArchiveContract,
  getStudentProfileContract,
  requestEmailChangeContract,
  requestErasureContract,
  updateStudentProfileContract,
} from "../../../../shared/api/profile";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../../shared/i18n/languages";
import { emailField } from "../../../../shared/schemas/applicant";
import { V } from "../../../../shared/schemas/messages";
import {
  erasureRequestSchema,
  type StudentProfile,
  studentProfileUpdateSchema,
} from "../../../../shared/schemas/profile";
import { line } from "../../../../shared/schemas/text";
import { z } from "../../../../shared/schemas/zod";
import { applyServerErrors, Notice, TextField } from "../../../components/account/auth";
import { PasswordChangePanel, ProfilePanel, useProfileMessage } from "../../../components/account/profile";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { roleDataKey, sessionKey } from "../../../lib/session";
import { useSite } from "../../../lib/site";

const PROFILE_KEY = [...roleDataKey("student"), "profile"] as const;

const currentPassword = line({ error: V.required, trim: false }).min(1, { error: V.required });

const emailFormSchema = z.object({ newEmail: emailField, currentPassword });
const erasureFormSchema = erasureRequestSchema.extend({
  confirm: z.literal(true, { error: "profile:erasure.confirmRequired" }),
});

/** Name and e-mail language (PATCH /api/student/profile); the application's phone, read only. */
function DetailsPanel({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation("profile");
  const message = useProfileMessage();
  const format = useFormat();
  const { supportEmail } = useSite();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(studentProfileUpdateSchema),
    defaultValues: { firstName: profile.firstName, lastName: profile.lastName, language: profile.language },
  });
  const save = useMutation({
    mutationFn: (values: z.output<typeof studentProfileUpdateSchema>) =>
      call(updateStudentProfileContract, { body: values }),
    onSuccess: (updated) => {
      queryClient.setQueryData(PROFILE_KEY, updated);
      void queryClient.invalidateQueries({ queryKey: sessionKey("student") });
      toast({ title: t("details.saved"), variant: "success" });
    },
    onError: (error) => applyServerErrors(error, form.setError),
  });
  const errors = form.formState.errors;
  return (
    <ProfilePanel id="details" title={t("details.title")} lead={<p>{t("details.lead")}</p>}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
        className="grid gap-4 sm:grid-cols-2"
      >
        <TextField
          id="firstName"
          label={t("details.firstName")}
          autoComplete="given-name"
          error={message(errors.firstName)}
          {...form.register("firstName")}
        />
        <TextField
          id="lastName"
          label={t("details.lastName")}
          autoComplete="family-name"
          error={message(errors.lastName)}
          {...form.register("lastName")}
        />
        <Field
          id="language"
          label={t("details.language")}
          hint={t("details.languageHelp")}
          error={message(errors.language)}
          className="sm:col-span-2"
        >
          <select
            id="language"
            className={inputClass}
            aria-describedby={describedBy("language", true, errors.language)}
            {...form.register("language")}
          >
            {LANGUAGES.map((language) => (
              <option key={language} value={language} lang={language}>
                {LANGUAGE_NAMES[language]}
              </option>
            ))}
          </select>
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {t("details.save")}
          </Button>
        </div>
      </form>
      <dl className="mt-6 grid gap-4 border-t border-slate-200 pt-5 sm:grid-cols-2">
        <div>
          <dt className="text-sm font-medium text-slate-900">{t("details.phone")}</dt>
          <dd className="mt-1 text-slate-800">{profile.applicationPhone ?? t("details.noPhone")}</dd>
          {profile.applicationPhone ? (
            <dd className="mt-1 text-sm text-slate-600">{t("details.phoneHelp", { email: supportEmail })}</dd>
          ) : null}
        </div>
        <div>
          <dt className="text-sm font-medium text-slate-900">{t("details.email")}</dt>
          <dd className="mt-1 break-all text-slate-800">{profile.email}</dd>
          <dd className="mt-1 text-sm text-slate-600">
            {t("details.memberSince", { date: format.date(profile.createdAt) })}
          </dd>
        </div>
      </dl>
    </ProfilePanel>
  );
}

/** E-mail change with re-verification (POST/DELETE /api/student/profile/email). */
function EmailPanel({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation("profile");
  const message = useProfileMessage();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(emailFormSchema),
    defaultValues: { newEmail: "", currentPassword: "" },
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: PROFILE_KEY });
  const start = useMutation({
    mutationFn: (values: z.output<typeof emailFormSchema>) =>
      call(requestEmailChangeContract, { body: values }),
    onSuccess: () => {
      form.reset();
      void refresh();
    },
    onError: (error) => {
      applyServerErrors(error, form.setError);
      if (error instanceof ApiError && !Object.keys(error.fieldErrors).length) {
        form.setError("newEmail", { type: "server", message: error.message });
      }
    },
  });
  const cancel = useMutation({
    mutationFn: () => call(cancelEmailChangeContract),
    onSuccess: () => {
      toast({ title: t("email.cancelled"), variant: "success" });
      void refresh();
    },
  });
  const errors = form.formState.errors;
  return (
    <ProfilePanel id="email" title={t("email.title")} lead={<p>{t("email.help")}</p>}>
      <p className="mb-4 break-words text-slate-800">{t("email.current", { email: profile.email })}</p>
      {!profile.emailVerified ? (
        <div className="mb-4">
          <Notice tone="info">
            <p>{t("email.unverified")}</p>
          </Notice>
        </div>
      ) : null}
      {profile.pendingEmail ? (
        <div className="mb-4 space-y-3">
          <Notice tone="info">
            <p className="break-words">{t("email.pending", { email: profile.pendingEmail })}</p>
          </Notice>
          <Button variant="secondary" size="sm" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
            {t("email.cancel")}
          </Button>
        </div>
      ) : null}
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => start.mutate(values))}
        className="grid gap-4 sm:grid-cols-2"
      >
        <TextField
          id="newEmail"
          type="email"
          autoComplete="email"
          label={t("email.newEmail")}
          error={message(errors.newEmail)}
          {...form.register("newEmail")}
        />
        <TextField
          id="emailCurrentPassword"
          type="password"
          autoComplete="current-password"
          label={t("email.currentPassword")}
          error={message(errors.currentPassword)}
          {...form.register("currentPassword")}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={start.isPending}>
            {t("email.submit")}
          </Button>
        </div>
      </form>
      {start.isSuccess ? (
        <div className="mt-4">
          <Notice tone="success">
            <p className="break-words">{t("email.sent", { email: start.variables?.newEmail })}</p>
          </Notice>
        </div>
      ) : null}
    </ProfilePanel>
  );
}

/** Password change (POST /api/student/profile/password): current password, new one twice. */
function PasswordPanel() {
  const { t } = useTranslation("profile");
  return (
    <PasswordChangePanel
      texts={{
        title: t("password.title"),
        lead: <p>{t("password.lead")}</p>,
        current: t("password.current"),
        new: t("password.new"),
        newHint: t("password.newHint"),
        confirm: t("password.confirm"),
        submit: t("password.submit"),
        changed: t("password.changed"),
      }}
      mismatch="profile:password.differ"
      send={(change) => call(changeStudentPasswordContract, { body: change })}
    />
  );
}

/** Download my data: one ZIP archive (the data and the files), and each uploaded file (authenticated downloads). */
function DataPanel({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation("profile");
  const format = useFormat();
  const link = "inline-flex min-h-11 items-center gap-2 font-medium text-brand-700 underline";
  return (
    <ProfilePanel id="data" title={t("data.title")} lead={<p>{t("data.lead")}</p>}>
      <a href={urlOf(exportStudentArchiveContract)} download className={link}>
        <Download aria-hidden="true" className="h-4 w-4" />
        {t("data.download")}
      </a>
      <h3 className="mt-5 font-semibold text-brand-900">{t("data.files")}</h3>
      {profile.files.length === 0 ? (
        <p className="mt-1 text-slate-700">{t("data.noFiles")}</p>
      ) : (
        <ul className="mt-1">
          {profile.files.map((file) => (
            <li key={file.id}>
              <a href={file.downloadUrl} download className={link}>
                <FileText aria-hidden="true" className="h-4 w-4" />
                {t(`data.file.${file.kind}`, { date: format.date(file.uploadedAt) })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </ProfilePanel>
  );
}

/** Erasure request (POST /api/student/profile/erasure), with what it does and what is kept. */
function ErasurePanel({ profile }: { profile: StudentProfile }) {
  const { t } = useTranslation("profile");
  const message = useProfileMessage();
  const format = useFormat();
  const { supportEmail } = useSite();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(erasureFormSchema),
    defaultValues: { message: "", confirm: false as unknown as true },
  });
  const ask = useMutation({
    mutationFn: (values: z.output<typeof erasureFormSchema>) =>
      call(requestErasureContract, { body: { message: values.message } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: PROFILE_KEY }),
    onError: (error) => {
      if (error instanceof ApiError) form.setError("message", { type: "server", message: error.message });
    },
  });
  const errors = form.formState.errors;
  const lead = (
    <div className="space-y-2">
      <p>{t("erasure.lead")}</p>
      <p>{t("erasure.kept")}</p>
      <p>{t("erasure.paid", { email: supportEmail })}</p>
    </div>
  );
  return (
    <ProfilePanel id="erasure" title={t("erasure.title")} lead={lead}>
      {profile.erasureRequestedAt ? (
        <Notice tone="info">
          <p>{t("erasure.requested", { date: format.date(profile.erasureRequestedAt) })}</p>
        </Notice>
      ) : (
        <form noValidate onSubmit={form.handleSubmit((values) => ask.mutate(values))} className="space-y-4">
          <Field id="erasureMessage" label={t("erasure.message")} error={message(errors.message)}>
            <textarea
              id="erasureMessage"
              rows={3}
              maxLength={1000}
              className={inputClass}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={describedBy("erasureMessage", false, errors.message)}
              {...form.register("message")}
            />
          </Field>
          <div>
            <label className="flex items-start gap-3 text-slate-900">
              <input
                type="checkbox"
                className="mt-1 h-5 w-5"
                aria-invalid={errors.confirm ? true : undefined}
                aria-describedby={errors.confirm ? "erasureConfirm-error" : undefined}
                {...form.register("confirm")}
              />
              <span>{t("erasure.confirm")}</span>
            </label>
            {errors.confirm ? (
              <p id="erasureConfirm-error" role="alert" className="mt-1 text-sm font-medium text-red-700">
                {message(errors.confirm)}
              </p>
            ) : null}
          </div>
          <Button type="submit" variant="danger" disabled={ask.isPending}>
            {t("erasure.submit")}
          </Button>
        </form>
      )}
    </ProfilePanel>
  );
}

/**
 * /student/profile (docs/product/portals.md#student-portal; docs/product/languages.md#supported-languages): the account's details and e-mail language,
 * its e-mail address (changed with re-verification), password, data download and erasure request.
 * Works before the e-mail is verified (a mistyped address can be corrected); application data shows after.
 */
export default function StudentProfilePage() {
  const { t } = useTranslation("profile");
  const [attempt, setAttempt] = useState(0);
  const profile = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: ({ signal }) => call(getStudentProfileContract, { signal }),
  });
  let content: ReactNode;
  if (profile.isPending) content = <Spinner />;
  else if (profile.isError)
    content = (
      <Notice tone="error" title={t("loadError")}>
        <Button
          variant="secondary"
          size="sm"
          onClick={() => {
            setAttempt(attempt + 1);
            void profile.refetch();
          }}
        >
          {t("retry")}
        </Button>
      </Notice>
    );
  else
    content = (
      <div className="space-y-6">
        <DetailsPanel
          key={`details-${profile.data.firstName}-${profile.data.language}`}
          profile={profile.data}
        />
        <EmailPanel profile={profile.data} />
        <PasswordPanel />
        <DataPanel profile={profile.data} />
        <ErasurePanel profile={profile.data} />
      </div>
    );
  return (
    <Container className="py-8 sm:py-10">
      <h1 className="text-2xl font-bold tracking-tight text-brand-900 sm:text-3xl">{t("page.title")}</h1>
      <p className="mt-2 max-w-2xl text-slate-700">{t("page.lead")}</p>
      <div className="mt-8">{content}</div>
    </Container>
  );
}
