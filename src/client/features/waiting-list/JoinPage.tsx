import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { joinWaitingListContract } from "../../../shared/api/waiting-list";
import { LANGUAGE_NAMES, LANGUAGES } from "../../../shared/i18n/languages";
import { type WaitingListJoinInput, waitingListJoinSchema } from "../../../shared/schemas/waiting-list";
import { applyServerErrors, Notice, SubmitButton, TextField } from "../../components/account/auth";
import { Field, inputClass } from "../../components/ui/Field";
import { HydratedFieldset } from "../../components/ui/HydratedFieldset";
import { Card, Container, PageHeader } from "../../components/ui/Layout";
import { Spinner } from "../../components/ui/Spinner";
import { ApiError } from "../../lib/api";
import { call } from "../../lib/call";
import { useCatalogueSummary, useLanguage } from "../../lib/catalogue";
import { useFormat } from "../../lib/format";

/** A field error's text: a shared schema's key (`validation.*`) in the visitor's language, or the server's words. */
function useMessage() {
  const { t } = useTranslation("waitingList");
  return (error: { message?: string; type?: string } | undefined) =>
    !error?.message ? undefined : error.type === "server" ? error.message : t(`common:${error.message}`);
}

/**
 * /waiting-list/:cohortId (docs/product/admissions.md#waiting-list): the join form of a full cohort, on its own
 * lazily loaded route (the landing page's cohort card only links here). Name, e-mail, the
 * language of the e-mails (the page's by default), consent, and a honeypot field hidden from
 * people. Validated with the shared `waitingListJoinSchema`; `POST /api/waiting-list/:cohortId`
 * answers the same whether or not the address was already on the list, so the page always
 * thanks the visitor and says an e-mail confirms it. The server sends the form in the page (the
 * catalogue summary is prerendered into it); the page runs as islands until the visitor uses it
 * (decision 042), and the form stays disabled until the application has taken it over.
 */
export default function JoinPage() {
  const { t } = useTranslation("waitingList");
  const language = useLanguage();
  const format = useFormat();
  const message = useMessage();
  const { cohortId = "" } = useParams();
  // The summary the server prerenders into the page (route data "catalogue"): the form is in the
  // page's HTML, with no request before it shows.
  const summary = useCatalogueSummary();
  const school = summary.data?.schools.find((s) => s.id === cohortId);
  const { register, handleSubmit, formState, setError } = useForm<WaitingListJoinInput>({
    resolver: zodResolver(waitingListJoinSchema),
    defaultValues: { name: "", email: "", language, website: "" },
    mode: "onTouched",
  });
  const join = useMutation({
    mutationFn: (values: WaitingListJoinInput) =>
      call(joinWaitingListContract, { params: { cohortId }, body: values }),
    onError: (error) => applyServerErrors(error, setError),
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit((values) => join.mutate(values));

  let content: ReactNode;
  if (summary.isPending) content = <Spinner />;
  else if (!school)
    content = (
      <Notice tone="error" title={t("unknown.title")}>
        <p>
          {t("unknown.body")} <Link to="/courses">{t("unknown.link")}</Link>
        </p>
      </Notice>
    );
  else if (join.isSuccess)
    content = (
      <Notice tone="success" title={t("joined.title")}>
        <p>{t("joined.body", { program: school.name })}</p>
      </Notice>
    );
  else
    content = (
      <form method="post" onSubmit={onSubmit} noValidate>
        {/* Disabled until the application has taken the page over: nothing typed before is lost. */}
        <HydratedFieldset className="space-y-5">
          {join.error instanceof ApiError && join.error.status !== 400 ? (
            <Notice tone="error">
              <p>{join.error.message}</p>
            </Notice>
          ) : null}
          <TextField
            id="wl-name"
            label={t("fields.name")}
            autoComplete="name"
            maxLength={200}
            error={message(errors.name)}
            {...register("name")}
          />
          <TextField
            id="wl-email"
            label={t("fields.email")}
            type="email"
            autoComplete="email"
            inputMode="email"
            maxLength={254}
            error={message(errors.email)}
            {...register("email")}
          />
          <Field id="wl-language" label={t("fields.language")} required error={message(errors.language)}>
            <select
              id="wl-language"
              className={inputClass}
              // In the page the server sends too, before the form has started (the form sets it then).
              defaultValue={language}
              {...register("language")}
            >
              {LANGUAGES.map((l) => (
                <option key={l} value={l} lang={l}>
                  {LANGUAGE_NAMES[l]}
                </option>
              ))}
            </select>
          </Field>
          {/* Honeypot: people never see or reach this field; a bot that fills it is answered like anyone. */}
          <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
            <label htmlFor="wl-website">{t("fields.website")}</label>
            <input id="wl-website" type="text" tabIndex={-1} autoComplete="off" {...register("website")} />
          </div>
          <div>
            <label className="flex items-start gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                className="mt-1 h-5 w-5 shrink-0 accent-brand-600"
                aria-invalid={errors.consent ? true : undefined}
                aria-describedby={errors.consent ? "wl-consent-error" : undefined}
                {...register("consent")}
              />
              <span>
                {t("fields.consent")} <Link to="/privacy-policy">{t("fields.privacyLink")}</Link>
              </span>
            </label>
            {errors.consent ? (
              <p id="wl-consent-error" role="alert" className="mt-1 text-sm font-medium text-red-700">
                {message(errors.consent)}
              </p>
            ) : null}
          </div>
          <SubmitButton busy={join.isPending}>{join.isPending ? t("submitting") : t("submit")}</SubmitButton>
        </HydratedFieldset>
      </form>
    );

  return (
    <>
      <PageHeader
        title={t("title")}
        lead={
          school
            ? t("lead", {
                program: school.name,
                start: format.date(school.startDate),
                end: format.date(school.endDate),
              })
            : undefined
        }
      />
      <Container className="max-w-xl pb-16">
        <Card>{content}</Card>
      </Container>
    </>
  );
}
