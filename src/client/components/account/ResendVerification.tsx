import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { VERIFICATION_CONTRACTS } from "../../../shared/api/auth";
import {
  type ResendVerificationInput,
  resendVerificationSchema,
} from "../../../shared/schemas/students-admin";
import { call } from "../../lib/call";
import { Button } from "../ui/Button";
import { Notice, TextField, useFieldMessage } from "./auth";

/**
 * "Didn't get the e-mail? Send it again" for a student or an affiliate whose confirmation e-mail
 * went missing (`POST /api/{role}/resend-verification`; the server answers the same whether or not
 * the address has an account waiting for confirmation, so the page says "if"). With a known
 * `email` (signed-in student, the address just registered) it is one button; without, the link
 * opens a small e-mail form. A refused request (too many attempts: 429) shows the server's message.
 */
export function ResendVerification({
  account: role,
  email,
  idPrefix = "resend",
}: {
  account: "student" | "affiliate";
  email?: string;
  idPrefix?: string;
}) {
  const { t } = useTranslation("account");
  const message = useFieldMessage();
  const [open, setOpen] = useState(false);
  const send = useMutation({
    mutationFn: (value: string) =>
      call(VERIFICATION_CONTRACTS[role].resendVerification, { body: { email: value } }).then(() => value),
  });
  const { register, handleSubmit, formState } = useForm<ResendVerificationInput>({
    resolver: zodResolver(resendVerificationSchema),
    defaultValues: { email: "" },
    mode: "onTouched",
  });

  if (send.isSuccess)
    return (
      <Notice tone="success" title={t("resend.sentTitle")}>
        <p>{t("resend.sent", { email: send.data })}</p>
      </Notice>
    );
  const failure = send.isError ? (
    <Notice tone="error" title={t("resend.failedTitle")}>
      <p>{send.error.message}</p>
    </Notice>
  ) : null;

  if (email)
    return (
      <div className="space-y-2">
        {failure}
        <p className="text-sm">
          {t("resend.question")}{" "}
          <button
            type="button"
            onClick={() => send.mutate(email)}
            disabled={send.isPending}
            className="font-medium underline disabled:opacity-60"
          >
            {send.isPending ? t("resend.sending") : t("resend.link")}
          </button>
        </p>
      </div>
    );

  return (
    <div className="space-y-3">
      <p>
        {t("resend.question")}{" "}
        <button
          type="button"
          aria-expanded={open}
          aria-controls={open ? `${idPrefix}-form` : undefined}
          onClick={() => setOpen(!open)}
          className="font-medium text-brand-700 underline"
        >
          {t("resend.link")}
        </button>
      </p>
      {open ? (
        <form
          id={`${idPrefix}-form`}
          onSubmit={handleSubmit((values) => send.mutate(values.email))}
          noValidate
          className="space-y-3 rounded-lg border border-slate-200 bg-white p-4 text-left"
        >
          {failure}
          <TextField
            id={`${idPrefix}-email`}
            type="email"
            autoComplete="email"
            label={t("fields.email")}
            hint={t("resend.hint")}
            error={message(formState.errors.email)}
            {...register("email")}
          />
          <Button type="submit" variant="secondary" size="sm" disabled={send.isPending}>
            {send.isPending ? t("resend.sending") : t("resend.submit")}
          </Button>
        </form>
      ) : null}
    </div>
  );
}
