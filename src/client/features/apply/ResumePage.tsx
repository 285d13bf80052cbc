import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { redeemResumeLinkContract, requestResumeLinkContract } from "../../../shared/api/apply";
import { localizedPath } from "../../../shared/i18n/addresses";
import type { Language } from "../../../shared/i18n/languages";
import { type ResumeLinkRequest, resumeLinkRequestSchema } from "../../../shared/schemas/resume";
import { Notice, TextField, useQueryParam } from "../../components/account/auth";
import { Button } from "../../components/ui/Button";
import { Card, Container } from "../../components/ui/Layout";
import { Spinner } from "../../components/ui/Spinner";
import { call } from "../../lib/call";
import { resumeWizard, useWizardState } from "./wizard-state";

/**
 * /apply/resume (docs/product/admissions.md#resume-links, decision 028). With `?token=` (the e-mailed link):
 * uses the link once (POST /api/resume-links/use), which gives this browser the application, keeps
 * the answer as the tab's wizard state and opens the wizard at the step the applicant left. Without
 * a token, or when the link is used up or expired: a form that asks for a new link by e-mail
 * (POST /api/resume-links), whose answer is the same whether or not an application exists.
 */
export default function ResumePage() {
  const { t, i18n } = useTranslation("apply");
  const token = useQueryParam("token");
  const { state, loaded } = useWizardState();

  const resume = useMutation({
    mutationFn: (value: string) => call(redeemResumeLinkContract, { body: { token: value } }),
    onSuccess: (resumed) => {
      resumeWizard(resumed);
      // A fresh load of the wizard, which reads the tab's state as after a reload.
      window.location.replace(
        localizedPath(i18n.language as Language, resumed.step === 3 ? "/apply/payment" : "/apply"),
      );
    },
  });
  const sent = useRef(false);
  const { mutate } = resume;
  useEffect(() => {
    // The link works once: send it once, even if the effect runs twice.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const request = useMutation({
    mutationFn: (values: ResumeLinkRequest) => call(requestResumeLinkContract, { body: values }),
  });
  const form = useForm<ResumeLinkRequest>({
    resolver: zodResolver(resumeLinkRequestSchema),
    defaultValues: { email: "" },
  });
  const { setValue } = form;
  const knownEmail = state.personal.email;
  useEffect(() => {
    // The address this tab's application was made with, when there is one.
    if (loaded && knownEmail) setValue("email", knownEmail);
  }, [loaded, knownEmail, setValue]);
  const emailError = form.formState.errors.email?.message;

  if (token && !resume.isError) {
    return (
      <Container className="max-w-xl py-16">
        <Card>
          <h1 className="text-2xl font-bold text-brand-900">{t("resume.opening")}</h1>
          <div className="mt-6">
            <Spinner />
          </div>
        </Card>
      </Container>
    );
  }

  return (
    <Container className="max-w-xl py-16">
      <Card>
        <h1 className="text-2xl font-bold text-brand-900">{t("resume.title")}</h1>
        <p className="mt-3 text-slate-700">{t("resume.intro")}</p>
        {resume.isError ? (
          <div className="mt-5">
            <Notice tone="error" title={t("resume.invalidTitle")}>
              <p>{resume.error.message}</p>
            </Notice>
          </div>
        ) : null}
        {request.isSuccess ? (
          <div className="mt-5">
            <Notice tone="success" title={t("resume.sentTitle")}>
              <p>{t("resume.sent", { email: request.variables.email })}</p>
            </Notice>
          </div>
        ) : (
          <form
            noValidate
            className="mt-6 space-y-5"
            onSubmit={form.handleSubmit((values) => request.mutate(values))}
          >
            <TextField
              id="resume-email"
              type="email"
              autoComplete="email"
              label={t("resume.email")}
              hint={t("resume.emailHint")}
              error={emailError ? t(`common:${emailError}`) : undefined}
              {...form.register("email")}
            />
            {request.isError ? (
              <Notice tone="error">
                <p>{request.error.message}</p>
              </Notice>
            ) : null}
            <Button type="submit" className="w-full" disabled={request.isPending}>
              {request.isPending ? t("resume.sending") : t("resume.send")}
            </Button>
          </form>
        )}
      </Card>
    </Container>
  );
}
