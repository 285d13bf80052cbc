import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../../shared/i18n/languages";
import {
  type AffiliateProfile,
  affiliateProfileSchema,
  affiliateProfileUpdateSchema,
} from "../../../../shared/schemas/affiliate-portal";
import { V } from "../../../../shared/schemas/messages";
import { newPasswordField } from "../../../../shared/schemas/password";
import { line } from "../../../../shared/schemas/text";
import { z } from "../../../../shared/schemas/zod";
import { applyServerErrors, NewPasswordField, Notice, TextField } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError, api, apiParsed } from "../../../lib/api";
import { sessionKey } from "../../../lib/session";
import { useSite } from "../../../lib/site";
import { AffiliatePage, affiliateKey, LoadError } from "../components/shared";

const PROFILE_KEY = affiliateKey("profile");

const passwordFormSchema = z
  .object({
    currentPassword: line({ error: V.required, trim: false }).min(1, { error: V.required }),
    newPassword: newPasswordField,
    confirm: line({ trim: false }),
  })
  .refine((v) => v.newPassword === v.confirm, { path: ["confirm"], error: "affiliatePortal:profile.differ" });

/** Translates a form error: `validation.*`/`errors.*` of common, `affiliatePortal:*` keys, or the server's own text. */
function useMessage() {
  const { t } = useTranslation("affiliatePortal");
  return (error: { type?: string; message?: string } | undefined) => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    return error.message.startsWith("affiliatePortal:") ? t(error.message) : t(`common:${error.message}`);
  };
}

/** A titled card (`h2`). */
function Panel({
  id,
  title,
  lead,
  children,
}: {
  id: string;
  title: string;
  lead?: string;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={id}>
      <Card>
        <h2 id={id} className="text-xl font-bold text-brand-900">
          {title}
        </h2>
        {lead ? <p className="mt-2 max-w-2xl text-slate-700">{lead}</p> : null}
        <div className="mt-5">{children}</div>
      </Card>
    </section>
  );
}

/** Name, e-mail language, website and country (PATCH /api/affiliate/profile). */
function DetailsPanel({ profile }: { profile: AffiliateProfile }) {
  const { t } = useTranslation("affiliatePortal");
  const message = useMessage();
  const { supportEmail } = useSite();
  const queryClient = useQueryClient();
  const form = useForm({
    resolver: zodResolver(affiliateProfileUpdateSchema),
    defaultValues: {
      name: profile.name,
      language: profile.language,
      website: profile.website,
      country: profile.country,
    },
  });
  const save = useMutation({
    mutationFn: (values: z.output<typeof affiliateProfileUpdateSchema>) =>
      apiParsed(affiliateProfileSchema, "/api/affiliate/profile", { method: "PATCH", body: values }),
    onSuccess: (updated) => {
      queryClient.setQueryData(PROFILE_KEY, updated);
      void queryClient.invalidateQueries({ queryKey: sessionKey("affiliate") });
      toast({ title: t("profile.saved"), variant: "success" });
    },
    onError: (error) => applyServerErrors(error, form.setError),
  });
  const errors = form.formState.errors;
  return (
    <Panel id="details" title={t("profile.detailsTitle")}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => save.mutate(values))}
        className="grid gap-4 sm:grid-cols-2"
      >
        <TextField
          id="name"
          label={t("profile.name")}
          autoComplete="organization"
          error={message(errors.name)}
          className="sm:col-span-2"
          {...form.register("name")}
        />
        <Field
          id="language"
          label={t("profile.language")}
          hint={t("profile.languageHelp")}
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
        <TextField
          id="website"
          type="url"
          required={false}
          label={t("profile.website")}
          hint={t("profile.websiteHint")}
          autoComplete="url"
          error={message(errors.website)}
          {...form.register("website")}
        />
        <TextField
          id="country"
          required={false}
          maxLength={2}
          label={t("profile.country")}
          hint={t("profile.countryHint")}
          autoComplete="country"
          error={message(errors.country)}
          {...form.register("country")}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={save.isPending}>
            {t("profile.save")}
          </Button>
        </div>
      </form>
      <dl className="mt-6 border-t border-slate-200 pt-5">
        <dt className="text-sm font-medium text-slate-900">{t("profile.email")}</dt>
        <dd className="mt-1 break-all text-slate-800">{profile.email}</dd>
        <dd className="mt-1 text-sm text-slate-600">{t("profile.emailHelp", { email: supportEmail })}</dd>
      </dl>
    </Panel>
  );
}

/** Password change (POST /api/affiliate/password): current password, new one twice. */
function PasswordPanel() {
  const { t } = useTranslation("affiliatePortal");
  const message = useMessage();
  const form = useForm({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { currentPassword: "", newPassword: "", confirm: "" },
  });
  const change = useMutation({
    // 204, no body.
    mutationFn: ({ currentPassword, newPassword }: z.output<typeof passwordFormSchema>) =>
      api<null>("/api/affiliate/password", { body: { currentPassword, newPassword } }),
    onSuccess: () => form.reset(),
    onError: (error) => {
      applyServerErrors(error, form.setError);
      if (error instanceof ApiError && !Object.keys(error.fieldErrors).length) {
        form.setError("newPassword", { type: "server", message: error.message });
      }
    },
  });
  const errors = form.formState.errors;
  return (
    <Panel id="password" title={t("profile.passwordTitle")} lead={t("profile.passwordLead")}>
      <form
        noValidate
        onSubmit={form.handleSubmit((values) => change.mutate(values))}
        className="grid gap-4 sm:grid-cols-2"
      >
        <TextField
          id="currentPassword"
          type="password"
          autoComplete="current-password"
          label={t("profile.current")}
          error={message(errors.currentPassword)}
          className="sm:col-span-2"
          {...form.register("currentPassword")}
        />
        <NewPasswordField
          id="newPassword"
          label={t("profile.new")}
          hint={t("profile.newHint")}
          error={message(errors.newPassword)}
          {...form.register("newPassword")}
        />
        <NewPasswordField
          id="confirmPassword"
          label={t("profile.confirm")}
          error={message(errors.confirm)}
          {...form.register("confirm")}
        />
        <div className="sm:col-span-2">
          <Button type="submit" disabled={change.isPending}>
            {t("profile.submit")}
          </Button>
        </div>
      </form>
      {change.isSuccess ? (
        <div className="mt-4">
          <Notice tone="success">
            <p>{t("profile.changed")}</p>
          </Notice>
        </div>
      ) : null}
    </Panel>
  );
}

/**
 * /affiliate/profile (issue 12): the partner's name, e-mail language, website and country
 * (GET/PATCH /api/affiliate/profile), and the password change.
 */
export default function AffiliateProfilePage() {
  const { t } = useTranslation("affiliatePortal");
  const profile = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: ({ signal }) => apiParsed(affiliateProfileSchema, "/api/affiliate/profile", { signal }),
  });
  return (
    <AffiliatePage title={t("profile.title")} lead={t("profile.lead")}>
      {profile.isPending ? <Spinner /> : null}
      {profile.isError ? <LoadError onRetry={() => void profile.refetch()} /> : null}
      {profile.data ? <DetailsPanel profile={profile.data} /> : null}
      <PasswordPanel />
    </AffiliatePage>
  );
}
