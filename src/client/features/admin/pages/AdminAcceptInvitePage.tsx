import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { acceptInviteContract } from "../../../../shared/api/auth";
import {
  AuthShell,
  applyServerErrors,
  NewPasswordField,
  Notice,
  SubmitButton,
  TextField,
  useFieldMessage,
  useQueryParam,
} from "../../../components/account/auth";
import { type AcceptInviteFormValues, acceptInviteFormSchema } from "../../../components/account/schemas";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useHydrated } from "../../../lib/hydration";
import { REDIRECT_DELAY_MS, sessionKey } from "../../../lib/session";

/**
 * /admin/accept-invite?token=…: the link of an invitation (or of a password reset) — choose a name
 * and a password, then signed in and on to /admin/dashboard.
 */
export default function AdminAcceptInvitePage() {
  const { t } = useTranslation("account");
  const message = useFieldMessage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const hydrated = useHydrated();
  const token = useQueryParam("token");
  const [failure, setFailure] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const { register, handleSubmit, formState, setError } = useForm<AcceptInviteFormValues>({
    resolver: zodResolver(acceptInviteFormSchema),
    defaultValues: { name: "", password: "", confirm: "" },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const accept = useMutation({
    mutationFn: (values: AcceptInviteFormValues) =>
      call(acceptInviteContract, {
        body: {
          token: token ?? "",
          password: values.password,
          ...(values.name.trim() ? { name: values.name.trim() } : {}),
        },
      }),
    onSuccess: ({ user }) => {
      queryClient.removeQueries({ queryKey: sessionKey("admin") });
      toast({
        title: t("admin.invite.successTitle"),
        description: t("admin.invite.success", { name: user.name || user.email }),
        variant: "success",
      });
      timer.current = setTimeout(() => navigate("/admin/dashboard", { replace: true }), REDIRECT_DELAY_MS);
    },
    onError: (error) => {
      applyServerErrors(error, setError);
      const fieldErrors = error instanceof ApiError ? Object.keys(error.fieldErrors) : [];
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        (fieldErrors.length === 0 || fieldErrors.includes("token"))
      )
        setFailure(error.message);
      else
        toast({
          title: t("admin.invite.failedTitle"),
          description: error instanceof Error ? error.message : t("admin.invite.failed"),
          variant: "destructive",
        });
    },
  });
  const busy = accept.isPending || accept.isSuccess;

  if ((hydrated && !token) || failure) {
    return (
      <AuthShell brand title={t("admin.invite.title")}>
        <div className="space-y-5">
          <Notice tone="error" title={t("admin.invite.invalidTitle")}>
            {failure ? <p>{failure}</p> : null}
            <p>{t("admin.invite.invalidHelp")}</p>
          </Notice>
          <p>
            <Link to="/admin/login" className="font-medium text-brand-700 underline">
              {t("admin.invite.toLogin")}
            </Link>
          </p>
        </div>
      </AuthShell>
    );
  }
  return (
    <AuthShell brand title={t("admin.invite.title")} lead={t("admin.invite.lead")}>
      <form
        method="post"
        onSubmit={handleSubmit((values) => accept.mutate(values))}
        noValidate
        className="space-y-5"
      >
        <TextField
          id="invite-name"
          label={t("fields.yourName")}
          hint={t("admin.invite.nameHint")}
          autoComplete="name"
          error={message(errors.name)}
          {...register("name")}
        />
        <NewPasswordField
          id="invite-password"
          label={t("fields.newPassword")}
          hint={t("fields.passwordHint")}
          error={message(errors.password)}
          {...register("password")}
        />
        <NewPasswordField
          id="invite-confirm"
          label={t("fields.confirmPassword")}
          error={message(errors.confirm)}
          {...register("confirm")}
        />
        <SubmitButton busy={busy}>
          {busy ? t("admin.invite.submitting") : t("admin.invite.submit")}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
