import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useMemo } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { sendPartnershipInquiryContract } from "../../../../shared/api/public-forms";
import { LOCALE_OF } from "../../../../shared/i18n/languages";
import { countryOptions } from "../../../../shared/options";
import {
  ANSWER_BUSINESS_DAYS,
  MESSAGE_MAX,
  PARTNERSHIP_INTERESTS,
  type PartnershipInquiryFormValues,
  partnershipInquirySchema,
} from "../../../../shared/schemas/inquiries";
import { Notice, SubmitButton, TextField } from "../../../components/account/auth";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { HydratedFieldset } from "../../../components/ui/HydratedFieldset";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { useHydrated } from "../../../lib/hydration";
import { FormFailure, Honeypot, onFormError, PrivacyLine, useFormMessage } from "./parts";

/**
 * The partnership inquiry of /for-universities (docs/product/portals.md#public-forms: university name, country, contact person,
 * position, e-mail, phone, partnership interest, message; docs/product/portals.md#public-forms), validated with the shared
 * schema here and by `POST /api/public/partnership-inquiries`.
 */
export function PartnershipForm() {
  const { t } = useTranslation("forms");
  const language = useLanguage();
  const message = useFormMessage();
  // Country names come from the runtime's Intl data, which differs between server and browser:
  // listed once hydration is over, so the prerendered HTML matches.
  const hydrated = useHydrated();
  const countries = useMemo(
    () => (hydrated ? countryOptions(LOCALE_OF[language]) : []),
    [hydrated, language],
  );
  const { register, handleSubmit, formState, setError } = useForm<PartnershipInquiryFormValues>({
    resolver: zodResolver(partnershipInquirySchema),
    defaultValues: {
      university: "",
      contactPerson: "",
      position: "",
      email: "",
      phone: "",
      message: "",
      language,
      website: "",
    },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const send = useMutation({
    mutationFn: (values: PartnershipInquiryFormValues) =>
      call(sendPartnershipInquiryContract, { body: { ...values, language } }),
    onError: onFormError(setError),
  });
  if (send.isSuccess)
    return (
      <Notice tone="success" title={t("partnership.sentTitle")}>
        <p>{t("partnership.sent", { email: send.variables.email, days: ANSWER_BUSINESS_DAYS })}</p>
      </Notice>
    );
  const select = (id: string, error: typeof errors.country) => ({
    id,
    className: inputClass,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": describedBy(id, undefined, error),
    required: true,
  });
  return (
    <form
      method="post"
      noValidate
      onSubmit={handleSubmit((values) => send.mutate(values))}
      className="relative"
    >
      <HydratedFieldset className="grid gap-5 sm:grid-cols-2">
        <TextField
          id="pi-university"
          label={t("fields.university")}
          autoComplete="organization"
          className="sm:col-span-2"
          error={message(errors.university)}
          {...register("university")}
        />
        <Field id="pi-country" label={t("fields.country")} required error={message(errors.country)}>
          <select {...select("pi-country", errors.country)} autoComplete="country" {...register("country")}>
            <option value="">{t("fields.choose")}</option>
            {countries.map((country) => (
              <option key={country.code} value={country.code}>
                {country.name}
              </option>
            ))}
          </select>
        </Field>
        <Field id="pi-interest" label={t("fields.interest")} required error={message(errors.interest)}>
          <select {...select("pi-interest", errors.interest)} {...register("interest")}>
            <option value="">{t("fields.choose")}</option>
            {PARTNERSHIP_INTERESTS.map((interest) => (
              <option key={interest} value={interest}>
                {t(`interests.${interest}`)}
              </option>
            ))}
          </select>
        </Field>
        <TextField
          id="pi-contact"
          label={t("fields.contactPerson")}
          autoComplete="name"
          error={message(errors.contactPerson)}
          {...register("contactPerson")}
        />
        <TextField
          id="pi-position"
          label={t("fields.position")}
          autoComplete="organization-title"
          error={message(errors.position)}
          {...register("position")}
        />
        <TextField
          id="pi-email"
          label={t("fields.email")}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={message(errors.email)}
          {...register("email")}
        />
        <TextField
          id="pi-phone"
          label={t("fields.phone")}
          type="tel"
          autoComplete="tel"
          required={false}
          error={message(errors.phone)}
          {...register("phone")}
        />
        <Field
          id="pi-message"
          label={t("fields.message")}
          required
          hint={t("partnership.messageHint")}
          error={message(errors.message)}
          className="sm:col-span-2"
        >
          <textarea
            id="pi-message"
            rows={6}
            maxLength={MESSAGE_MAX}
            className={inputClass}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy("pi-message", true, errors.message)}
            required
            {...register("message")}
          />
        </Field>
        <Honeypot id="pi-website" field={register("website")} />
        <div className="space-y-5 sm:col-span-2">
          <PrivacyLine kind="inquiry" />
          <FormFailure error={send.error} />
          <SubmitButton busy={send.isPending}>
            {send.isPending ? t("sending") : t("partnership.submit")}
          </SubmitButton>
        </div>
      </HydratedFieldset>
    </form>
  );
}
