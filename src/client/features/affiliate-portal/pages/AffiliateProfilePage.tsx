import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import {
  changePartnerPasswordContract,
  getPartnerProfileContract,
  updatePartnerProfileContract,
} from "../../../../shared/api/partner-portal";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../../shared/i18n/languages";
import {
  type AffiliateProfile,
  affiliateProfileUpdateSchema,
} from "../../../../shared/schemas/affiliate-portal";
import type { z } from "../../../../shared/schemas/zod";
import { applyServerErrors, TextField } from "../../../components/account/auth";
import { PasswordChangePanel, ProfilePanel, useProfileMessage } from "../../../components/account/profile";
import { Button } from "../../../components/ui/Button";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { sessionKey } from "../../../lib/session";
import { useSite } from "../../../lib/site";
import { AffiliatePage, affiliateKey, LoadError } from "../components/shared";

const PROFILE_KEY = affiliateKey("profile");

/** Name, e-mail language, website and country (PATCH /api/affiliate/profile). */
function DetailsPanel({ profile }: { profile: AffiliateProfile }) {
  const { t } = useTranslation("affiliatePortal");
  const message = useProfileMessage();
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
      call(updatePartnerProfileContract, { body: values }),
    onSuccess: (updated) => {
      queryClient.setQueryData(PROFILE_KEY, updated);
      void queryClient.invalidateQueries({ queryKey: sessionKey("affiliate") });
      toast({ title: t("profile.saved"), variant: "success" });
    },
    onError: (error) => applyServerErrors(error, form.setError),
  });
  const errors = form.formState.errors;
  return (
    <ProfilePanel id="details" title={t("profile.detailsTitle")}>
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
    </ProfilePanel>
  );
}

/** Password change (POST /api/affiliate/password, 204): current password, new one twice. */
function PasswordPanel() {
  const { t } = useTranslation("affiliatePortal");
  return (
    <PasswordChangePanel
      texts={{
        title: t("profile.passwordTitle"),
        lead: t("profile.passwordLead"),
        current: t("profile.current"),
        new: t("profile.new"),
        newHint: t("profile.newHint"),
        confirm: t("profile.confirm"),
        submit: t("profile.submit"),
        changed: t("profile.changed"),
      }}
      mismatch="affiliatePortal:profile.differ"
      send={(change) => call(changePartnerPasswordContract, { body: change })}
    />
  );
}

/**
 * /affiliate/profile (docs/product/languages.md#supported-languages): the partner's name, e-mail language, website and country
 * (GET/PATCH /api/affiliate/profile), and the password change.
 */
export default function AffiliateProfilePage() {
  const { t } = useTranslation("affiliatePortal");
  const profile = useQuery({
    queryKey: PROFILE_KEY,
    queryFn: ({ signal }) => call(getPartnerProfileContract, { signal }),
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
