import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { signUpNewsletterContract } from "../../../../shared/api/public-forms";
import {
  CONFIRM_LINK_HOURS,
  type NewsletterSignupFormValues,
  newsletterSignupSchema,
} from "../../../../shared/schemas/inquiries";
import { Notice, SubmitButton, TextField } from "../../../components/account/auth";
import { HydratedFieldset } from "../../../components/ui/HydratedFieldset";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { FormFailure, Honeypot, onFormError, PrivacyLine, useFormMessage } from "./parts";

/**
 * The newsletter sign-up (docs/product/portals.md#newsletter): `POST /api/public/newsletter`.
 * Double opt-in: the answer is the same for every address, and says a confirmation link is on its
 * way; nothing is sent until that link is opened.
 */
export function NewsletterForm() {
  const { t } = useTranslation("forms");
  const language = useLanguage();
  const message = useFormMessage();
  const { register, handleSubmit, formState, setError } = useForm<NewsletterSignupFormValues>({
    resolver: zodResolver(newsletterSignupSchema),
    defaultValues: { email: "", language, website: "" },
    mode: "onTouched",
  });
  const send = useMutation({
    mutationFn: (values: NewsletterSignupFormValues) =>
      call(signUpNewsletterContract, { body: { ...values, language } }),
    onError: onFormError(setError),
  });
  if (send.isSuccess)
    return (
      <Notice tone="success" title={t("newsletter.sentTitle")}>
        <p>{t("newsletter.sent", { email: send.variables.email, hours: CONFIRM_LINK_HOURS })}</p>
      </Notice>
    );
  return (
    <form
      method="post"
      noValidate
      onSubmit={handleSubmit((values) => send.mutate(values))}
      className="relative"
    >
      <HydratedFieldset className="space-y-5">
        <TextField
          id="newsletter-email"
          label={t("fields.email")}
          type="email"
          inputMode="email"
          autoComplete="email"
          error={message(formState.errors.email)}
          {...register("email")}
        />
        <Honeypot id="newsletter-website" field={register("website")} />
        <PrivacyLine kind="newsletter" />
        <FormFailure error={send.error} />
        <SubmitButton busy={send.isPending}>
          {send.isPending ? t("sending") : t("newsletter.submit")}
        </SubmitButton>
      </HydratedFieldset>
    </form>
  );
}
