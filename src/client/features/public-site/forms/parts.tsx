import type { FieldError, FieldValues, UseFormRegisterReturn, UseFormSetError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { applyServerErrors, Notice } from "../../../components/account/auth";
import { ApiError } from "../../../lib/api";
import { useSite } from "../../../lib/site";

/**
 * Translates a field error of the public forms: a schema's message key (`validation.*`,
 * `errors.*` of `common`) or the server's text (already in the visitor's language).
 */
export function useFormMessage() {
  const { t } = useTranslation("forms");
  return (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    return t(`common:${error.message}`);
  };
}

/**
 * The honeypot (docs/product/portals.md#public-forms, decision 025): a field people never see or reach (off-screen, hidden from
 * screen readers, out of the tab order, no autofill) that bots fill in. The server answers a filled
 * one as a success and keeps nothing.
 */
export function Honeypot({ id, field }: { id: string; field: UseFormRegisterReturn }) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor={id}>Website</label>
      <input id={id} type="text" tabIndex={-1} autoComplete="off" {...field} />
    </div>
  );
}

/**
 * What went wrong with a sending, said plainly: the fields' messages go onto the form; a refusal
 * (too many attempts) shows the server's message; a network failure says to try again. What was
 * typed stays in the form, so pressing the button again retries.
 */
export function FormFailure({ error }: { error: unknown }) {
  const { t } = useTranslation("forms");
  if (!error) return null;
  if (error instanceof ApiError && Object.keys(error.fieldErrors).length > 0) return null;
  return (
    <Notice tone="error" title={t("failure.title")}>
      <p>{error instanceof ApiError ? error.message : t("failure.network")}</p>
      <p>{t("failure.kept")}</p>
    </Notice>
  );
}

/** Copies the server's field errors onto the form (a 400 with `fieldErrors`). */
export function onFormError<T extends FieldValues>(setError: UseFormSetError<T>) {
  return (error: unknown) => applyServerErrors(error, setError);
}

/** The consent line under each form: what is stored, for how long, with a link to the privacy policy. */
export function PrivacyLine({ kind }: { kind: "inquiry" | "newsletter" }) {
  const { t } = useTranslation("forms");
  const { retention } = useSite();
  return (
    <p className="text-sm text-slate-700">
      {t(`consent.${kind}`, { months: retention.inquiryMonths })}{" "}
      <Link to="/privacy-policy" className="font-medium text-brand-700 underline">
        {t("consent.privacyLink")}
      </Link>
    </p>
  );
}
