import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { sendContactMessageContract } from "../../../../shared/api/public-forms";
import {
  type ContactMessageFormValues,
  contactMessageSchema,
  MESSAGE_MAX,
} from "../../../../shared/schemas/inquiries";
import { Notice, SubmitButton, TextField } from "../../../components/account/auth";
import { describedBy, Field, inputClass } from "../../../components/ui/Field";
import { HydratedFieldset } from "../../../components/ui/HydratedFieldset";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { FormFailure, Honeypot, onFormError, PrivacyLine, useFormMessage } from "./parts";

/**
 * The contact form of /contact (docs/product/portals.md#public-forms: name, e-mail, message; docs/product/portals.md#public-forms): validated with
 * the shared schema in the browser and by `POST /api/public/messages`; on success the sender is
 * told a confirmation is on its way to their address, in the page's language.
 */
export function ContactForm() {
  const { t } = useTranslation("forms");
  const language = useLanguage();
  const message = useFormMessage();
  const { register, handleSubmit, formState, setError } = useForm<ContactMessageFormValues>({
    resolver: zodResolver(contactMessageSchema),
    defaultValues: { name: "", email: "", message: "", language, website: "" },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const send = useMutation({
    mutationFn: (values: ContactMessageFormValues) =>
      call(sendContactMessageContract, { body: { ...values, language } }),
    onError: onFormError(setError),
  });
  if (send.isSuccess)
    return (
      <Notice tone="success" title={t("contact.sentTitle")}>
        <p>{t("contact.sent", { email: send.variables.email })}</p>
      </Notice>
    );
  return (
    <form
      method="post"
      noValidate
      onSubmit={handleSubmit((values) => send.mutate(values))}
      className="relative space-y-5"
    >
      <HydratedFieldset className="space-y-5">
        <TextField
          id="contact-name"
          label={t("fields.name")}
          autoComplete="name"
          error={message(errors.name)}
          {...register("name")}
        />
        <TextField
          id="contact-email"
          label={t("fields.email")}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={message(errors.email)}
          {...register("email")}
        />
        <Field id="contact-message" label={t("fields.message")} required error={message(errors.message)}>
          <textarea
            id="contact-message"
            rows={6}
            maxLength={MESSAGE_MAX}
            className={inputClass}
            aria-invalid={errors.message ? true : undefined}
            aria-describedby={describedBy("contact-message", undefined, errors.message)}
            required
            {...register("message")}
          />
        </Field>
        <Honeypot id="contact-website" field={register("website")} />
        <PrivacyLine kind="inquiry" />
        <FormFailure error={send.error} />
        <SubmitButton busy={send.isPending}>
          {send.isPending ? t("sending") : t("contact.submit")}
        </SubmitButton>
      </HydratedFieldset>
    </form>
  );
}
