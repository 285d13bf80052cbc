import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { registerAffiliateContract } from "../../../../shared/api/auth";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import { countryOptions } from "../../../../shared/options";
import {
  AuthShell,
  applyServerErrors,
  NewPasswordField,
  SubmitButton,
  TextField,
  useFieldMessage,
} from "../../../components/account/auth";
import {
  type AffiliateRegisterFormValues,
  affiliateRegisterFormSchema,
} from "../../../components/account/schemas";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { useHydrated } from "../../../lib/hydration";
import { registrationFailed } from "../../../lib/session";

/**
 * /affiliate/register: a partner applies for an account (name, e-mail, password, website and
 * country optional). No session: the account waits for approval; the page then shows
 * /affiliate/register-success.
 */
export default function AffiliateRegisterPage() {
  const { t } = useTranslation("account");
  const language = useLanguage();
  const message = useFieldMessage();
  const navigate = useNavigate();
  // Country names come from the runtime's Intl data, which differs between the server and the
  // browser: list them once hydration is over, so the prerendered HTML matches.
  const hydrated = useHydrated();
  const countries = useMemo(
    () => (hydrated ? countryOptions(LOCALE_OF[language]) : []),
    [hydrated, language],
  );
  const { register, handleSubmit, formState, setError } = useForm<AffiliateRegisterFormValues>({
    resolver: zodResolver(affiliateRegisterFormSchema),
    defaultValues: { name: "", email: "", password: "", website: "", country: "" },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const registration = useMutation({
    mutationFn: (values: AffiliateRegisterFormValues) =>
      // The account's language is the request's (its cookie or Accept-Language), as the server reads it.
      call(registerAffiliateContract, {
        body: {
          name: values.name,
          email: values.email,
          password: values.password,
          ...(values.website ? { website: values.website } : {}),
          ...(values.country ? { country: values.country } : {}),
        },
      }),
    onSuccess: (_data, values) => navigate("/affiliate/register-success", { state: { email: values.email } }),
    onError: (error) => {
      applyServerErrors(error, setError);
      registrationFailed(t, error);
    },
  });
  const busy = registration.isPending || registration.isSuccess;
  return (
    <AuthShell
      title={t("affiliate.register.title")}
      lead={t("affiliate.register.lead")}
      below={
        <>
          <p>
            {t("affiliate.register.haveAccount")}{" "}
            <Link to="/affiliate/login" className="font-medium text-brand-700 underline">
              {t("affiliate.register.login")}
            </Link>
          </p>
          <p>
            <Link to="/affiliate-program" className="font-medium text-brand-700 underline">
              {t("affiliate.register.programLink")}
            </Link>
          </p>
        </>
      }
    >
      <form
        method="post"
        onSubmit={handleSubmit((values) => registration.mutate(values))}
        noValidate
        className="space-y-5"
      >
        <TextField
          id="aff-name"
          label={t("fields.partnerName")}
          hint={t("fields.partnerNameHint")}
          autoComplete="organization"
          error={message(errors.name)}
          {...register("name")}
        />
        <TextField
          id="aff-email"
          label={t("fields.email")}
          type="email"
          autoComplete="email"
          inputMode="email"
          error={message(errors.email)}
          {...register("email")}
        />
        <NewPasswordField
          id="aff-password"
          label={t("fields.password")}
          hint={t("fields.passwordHint")}
          error={message(errors.password)}
          {...register("password")}
        />
        <TextField
          id="aff-website"
          label={t("fields.website")}
          type="url"
          inputMode="url"
          autoComplete="url"
          placeholder="https://"
          required={false}
          hint={t("fields.websiteHint")}
          error={message(errors.website)}
          {...register("website")}
        />
        <Field id="aff-country" label={t("fields.country")} error={message(errors.country)}>
          <select
            id="aff-country"
            className={inputClass}
            aria-describedby={describedBy("aff-country", undefined, errors.country)}
            autoComplete="country"
            {...register("country")}
          >
            <option value="">{t("fields.countryNone")}</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </Field>
        <p className="text-sm text-slate-700">
          {t("affiliate.register.terms")}{" "}
          <Link to="/privacy-policy" className="font-medium text-brand-700 underline">
            {t("student.register.privacyLink")}
          </Link>
        </p>
        <SubmitButton busy={busy}>
          {busy ? t("affiliate.register.submitting") : t("affiliate.register.submit")}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
