import { zodResolver } from "@hookform/resolvers/zod";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { CheckCircle2, CircleAlert, MailCheck } from "lucide-react";
import {
  type ComponentProps,
  type InputHTMLAttributes,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from "react";
import { type FieldError, type FieldValues, type Path, type UseFormSetError, useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { SESSION_CONTRACTS, VERIFICATION_CONTRACTS } from "../../../shared/api/auth";
import { ApiError } from "../../lib/api";
import { call } from "../../lib/call";
import { useHydrated } from "../../lib/hydration";
import { loginPath, type Role, roleDataKey, sessionKey, useLogin, useReturnPath } from "../../lib/session";
import { Button, ButtonLink } from "../ui/Button";
import { describedBy, Field, inputClass } from "../ui/Field";
import { Spinner } from "../ui/Spinner";
import { toast } from "../ui/toast-store";
import {
  type LoginFormValues,
  loginFormSchema,
  type NewPasswordFormValues,
  newPasswordFormSchema,
  PASSWORD_MAX,
  type ResetRequestFormValues,
  resetRequestFormSchema,
} from "./schemas";

/**
 * Building blocks of the sign-in pages of the three roles (login, registration, password reset,
 * e-mail verification): a narrow card with the page's one h1, and labelled fields whose messages
 * are translated (schema keys) or shown as the server wrote them.
 */
export function AuthShell({
  title,
  lead,
  children,
  below,
  brand = false,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  below?: ReactNode;
  /** Shows the school's name above the card (pages without the public header). */
  brand?: boolean;
}) {
  const { t } = useTranslation("common");
  return (
    <div className="mx-auto w-full max-w-md px-4 py-10 sm:py-16">
      {brand ? (
        <p className="mb-6 text-center text-lg font-bold text-brand-900">
          <Link to="/" className="hover:underline">
            {t("brand.name")}
          </Link>
        </p>
      ) : null}
      <div className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-brand-900">{title}</h1>
        {lead ? <div className="mt-2 text-slate-700">{lead}</div> : null}
        <div className="mt-6">{children}</div>
      </div>
      {below ? <div className="mt-6 space-y-2 text-center text-slate-700">{below}</div> : null}
    </div>
  );
}

/**
 * The submit button of a sign-in form: disabled while busy, and until hydration is over so a form
 * sent before the scripts run never falls back to a native submission (which would put the
 * password in a request to the page).
 */
export function SubmitButton({ busy, children }: { busy: boolean; children: ReactNode }) {
  const hydrated = useHydrated();
  return (
    <Button type="submit" className="w-full" disabled={busy || !hydrated}>
      {children}
    </Button>
  );
}

/** A query-string parameter, null until hydration is over (see `useHydrated` in lib/hydration). */
export function useQueryParam(name: string): string | null {
  const [params] = useSearchParams();
  return useHydrated() ? params.get(name) : null;
}

/** Translates a form error: schema keys (`validation.*` in common, `form.*` in account) or server text. */
export function useFieldMessage() {
  const { t } = useTranslation("account");
  return (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    const key = error.message;
    return key.startsWith("validation.") || key.startsWith("errors.") ? t(`common:${key}`) : t(key);
  };
}

/** Copies the server's field errors (`{ fieldErrors }` of a 400) onto the form. */
export function applyServerErrors<T extends FieldValues>(error: unknown, setError: UseFormSetError<T>) {
  if (!(error instanceof ApiError)) return;
  for (const [field, text] of Object.entries(error.fieldErrors)) {
    setError(field as Path<T>, { type: "server", message: text });
  }
}

/** A labelled input with hint and translated error. */
export function TextField({
  id,
  label,
  hint,
  error,
  required = true,
  className,
  ...input
}: {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  required?: boolean;
  className?: string;
} & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Field id={id} label={label} required={required} hint={hint} error={error} className={className}>
      <input
        id={id}
        className={inputClass}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        required={required}
        {...input}
      />
    </Field>
  );
}

/** A field for choosing a password (new, or its confirmation): hidden input, the browser's password manager hint, the policy's length limit. */
export function NewPasswordField(
  props: Omit<ComponentProps<typeof TextField>, "type" | "autoComplete" | "maxLength">,
) {
  return <TextField type="password" autoComplete="new-password" maxLength={PASSWORD_MAX} {...props} />;
}

/** A short status message with an icon, announced politely. */
export function Notice({
  tone = "info",
  title,
  children,
}: {
  tone?: "info" | "success" | "error";
  title?: string;
  children?: ReactNode;
}) {
  const Icon = tone === "success" ? CheckCircle2 : tone === "error" ? CircleAlert : MailCheck;
  const colours =
    tone === "success"
      ? "border-emerald-300 bg-emerald-50 text-emerald-900"
      : tone === "error"
        ? "border-red-300 bg-red-50 text-red-900"
        : "border-brand-200 bg-brand-50 text-brand-900";
  return (
    <div
      className={`flex gap-3 rounded-lg border p-4 ${colours}`}
      role={tone === "error" ? "alert" : "status"}
    >
      <Icon aria-hidden="true" className="mt-0.5 h-5 w-5 shrink-0" />
      <div className="space-y-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        {children ? <div className="text-sm">{children}</div> : null}
      </div>
    </div>
  );
}

/**
 * E-mail and password sign-in of a role, with the toasts of docs/product/portals.md#sign-in-failures and the 0.5 s redirect; a 403
 * (an affiliate not approved, after its password was verified) also stays on the page as a notice.
 */
export function LoginForm({ account: role, idPrefix = "login" }: { account: Role; idPrefix?: string }) {
  const { t } = useTranslation("account");
  const message = useFieldMessage();
  const to = useReturnPath(role);
  const login = useLogin(role, { to });
  const { register, handleSubmit, formState, setError } = useForm<LoginFormValues>({
    resolver: zodResolver(loginFormSchema),
    defaultValues: { email: "", password: "" },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const onSubmit = handleSubmit((values) =>
    login.mutate(
      { email: values.email, password: values.password },
      { onError: (error) => applyServerErrors(error, setError) },
    ),
  );
  const busy = login.isPending || login.isSuccess;
  // An affiliate with the right password but not approved is told why (403, docs/product/portals.md#sessions): being
  // reviewed, rejected with the admin's reason, or suspended. Kept on the page, not only in a
  // toast; the reason is rendered as text, never as HTML.
  const refusal =
    login.error instanceof ApiError && login.error.status === 403 && !busy ? login.error.message : null;
  // The server could not be reached, or failed (docs/product/portals.md#sign-in-failures): said on the page, apart from
  // wrong credentials; the e-mail and password stay in the form and the button tries again.
  const unreachable =
    login.error instanceof ApiError && (login.error.status === 0 || login.error.status >= 500) && !busy
      ? login.error.message
      : null;
  return (
    <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
      {unreachable ? (
        <Notice tone="error" title={t("login.unreachableTitle")}>
          <p>{unreachable}</p>
        </Notice>
      ) : null}
      {refusal ? (
        <Notice tone="error" title={t("login.refusedTitle")}>
          <p className="whitespace-pre-line break-words">{refusal}</p>
        </Notice>
      ) : null}
      <TextField
        id={`${idPrefix}-email`}
        label={t("fields.email")}
        type="email"
        autoComplete="username"
        inputMode="email"
        error={message(errors.email)}
        {...register("email")}
      />
      <TextField
        id={`${idPrefix}-password`}
        label={t("fields.password")}
        type="password"
        autoComplete="current-password"
        maxLength={PASSWORD_MAX}
        error={message(errors.password)}
        {...register("password")}
      />
      <SubmitButton busy={busy}>{busy ? t("login.submitting") : t("login.submit")}</SubmitButton>
    </form>
  );
}

/**
 * Password reset of a role: without a token, the request form (the same answer whether or not the
 * address has an account); with `?token=`, the new-password form.
 */
export function ResetPasswordView({ account }: { account: "student" | "affiliate" }) {
  const token = useQueryParam("token");
  return token ? <NewPasswordForm account={account} token={token} /> : <ResetRequestForm account={account} />;
}

/** Asks for a reset link (POST /api/{role}/password-reset). Used by the admin login too. */
export function ResetRequestForm({
  account: role,
  embedded = false,
}: {
  account: Role;
  /** Inside another page (admin login): an h2 instead of the page card. */
  embedded?: boolean;
}) {
  const { t } = useTranslation("account");
  const message = useFieldMessage();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const { register, handleSubmit, formState } = useForm<ResetRequestFormValues>({
    resolver: zodResolver(resetRequestFormSchema),
    defaultValues: { email: "" },
    mode: "onTouched",
  });
  const request = useMutation({
    mutationFn: (email: string) => call(SESSION_CONTRACTS[role].passwordReset, { body: { email } }),
    onSuccess: (_data, email) => setSentTo(email),
    onError: (error) =>
      toast({
        title: t("reset.failedTitle"),
        description: error instanceof Error ? error.message : t("reset.failed"),
        variant: "destructive",
      }),
  });
  const body = sentTo ? (
    <Notice tone="success" title={t("reset.sentTitle")}>
      <p>{t("reset.sent", { email: sentTo })}</p>
    </Notice>
  ) : (
    <form
      method="post"
      onSubmit={handleSubmit((values) => request.mutate(values.email))}
      noValidate
      className="space-y-5"
    >
      <TextField
        id={`reset-email-${role}`}
        label={t("fields.email")}
        type="email"
        autoComplete="email"
        inputMode="email"
        error={message(formState.errors.email)}
        {...register("email")}
      />
      <SubmitButton busy={request.isPending}>
        {request.isPending ? t("reset.sending") : t("reset.submit")}
      </SubmitButton>
    </form>
  );
  if (embedded) return body;
  return (
    <AuthShell
      title={t("reset.title")}
      lead={t("reset.lead")}
      below={
        <p>
          <Link to={loginPath(role)} className="font-medium text-brand-700 underline">
            {t("reset.backToLogin")}
          </Link>
        </p>
      }
    >
      {body}
    </AuthShell>
  );
}

/** Sets a new password with a reset token (POST /api/{role}/password-reset/confirm). */
function NewPasswordForm({ account: role, token }: { account: "student" | "affiliate"; token: string }) {
  const { t } = useTranslation("account");
  const message = useFieldMessage();
  const queryClient = useQueryClient();
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, handleSubmit, formState, setError } = useForm<NewPasswordFormValues>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { password: "", confirm: "" },
    mode: "onTouched",
  });
  const confirm = useMutation({
    mutationFn: (password: string) =>
      call(SESSION_CONTRACTS[role].passwordResetConfirm, { body: { token, password } }),
    onSuccess: () => {
      // Every session of the account has ended, this browser's included.
      queryClient.removeQueries({ queryKey: sessionKey(role) });
      queryClient.removeQueries({ queryKey: roleDataKey(role) });
      setDone(true);
    },
    onError: (error) => {
      applyServerErrors(error, setError);
      const hasFieldErrors = error instanceof ApiError && Object.keys(error.fieldErrors).length > 0;
      if (error instanceof ApiError && error.status === 400 && !hasFieldErrors) setFailure(error.message);
      else
        toast({
          title: t("reset.failedTitle"),
          description: error instanceof Error ? error.message : t("reset.failed"),
          variant: "destructive",
        });
    },
  });
  const loginLink = (
    <ButtonLink to={loginPath(role)} className="w-full">
      {t("reset.toLogin")}
    </ButtonLink>
  );
  return (
    <AuthShell title={t("reset.newTitle")} lead={done || failure ? undefined : t("reset.newLead")}>
      {done ? (
        <div className="space-y-5">
          <Notice tone="success" title={t("reset.doneTitle")}>
            <p>{t("reset.done")}</p>
          </Notice>
          {loginLink}
        </div>
      ) : failure ? (
        <div className="space-y-5">
          <Notice tone="error" title={t("reset.invalidTitle")}>
            <p>{failure}</p>
            <p>{t("reset.invalidHelp")}</p>
          </Notice>
          <ButtonLink to={`/${role}/reset-password`} variant="secondary" className="w-full">
            {t("reset.requestAgain")}
          </ButtonLink>
        </div>
      ) : (
        <form
          method="post"
          onSubmit={handleSubmit((values) => confirm.mutate(values.password))}
          noValidate
          className="space-y-5"
        >
          <NewPasswordField
            id="new-password"
            label={t("fields.newPassword")}
            hint={t("fields.passwordHint")}
            error={message(formState.errors.password)}
            {...register("password")}
          />
          <NewPasswordField
            id="new-password-confirm"
            label={t("fields.confirmPassword")}
            error={message(formState.errors.confirm)}
            {...register("confirm")}
          />
          <SubmitButton busy={confirm.isPending}>
            {confirm.isPending ? t("reset.saving") : t("reset.save")}
          </SubmitButton>
        </form>
      )}
    </AuthShell>
  );
}

/**
 * E-mail verification (POST /api/{role}/verify-email `{ token }`), sent once when the page opens;
 * shows the result and where to go next.
 */
export function VerifyEmailView({ account: role }: { account: "student" | "affiliate" }) {
  const { t } = useTranslation("account");
  const hydrated = useHydrated();
  const token = useQueryParam("token");
  const queryClient = useQueryClient();
  const verify = useMutation({
    mutationFn: (value: string) => call(VERIFICATION_CONTRACTS[role].verifyEmail, { body: { token: value } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: sessionKey(role) });
      void queryClient.invalidateQueries({ queryKey: roleDataKey(role) });
    },
  });
  const sent = useRef(false);
  const { mutate } = verify;
  useEffect(() => {
    // The token is single use: send it once, even if the effect runs twice.
    if (!token || sent.current) return;
    sent.current = true;
    mutate(token);
  }, [token, mutate]);

  const next =
    role === "student" ? (
      <ButtonLink to="/student/dashboard" className="w-full">
        {t("verify.toDashboard")}
      </ButtonLink>
    ) : (
      <ButtonLink to="/affiliate/login" className="w-full">
        {t("verify.toLogin")}
      </ButtonLink>
    );
  let content: ReactNode;
  if (hydrated && !token) {
    content = (
      <Notice tone="error" title={t("verify.missingTitle")}>
        <p>{t("verify.missing")}</p>
      </Notice>
    );
  } else if (verify.isSuccess) {
    content = (
      <div className="space-y-5">
        <Notice tone="success" title={t("verify.successTitle")}>
          <p>{role === "student" ? t("verify.successStudent") : t("verify.successAffiliate")}</p>
        </Notice>
        {next}
      </div>
    );
  } else if (verify.isError) {
    content = (
      <div className="space-y-5">
        <Notice tone="error" title={t("verify.failedTitle")}>
          <p>{verify.error.message}</p>
          <p>{t("verify.failedHelp")}</p>
        </Notice>
        <ButtonLink to={loginPath(role)} variant="secondary" className="w-full">
          {t("verify.toLogin")}
        </ButtonLink>
      </div>
    );
  } else {
    content = (
      <div>
        <Spinner className="py-6" />
        <p className="text-center text-slate-700">{t("verify.checking")}</p>
      </div>
    );
  }
  return <AuthShell title={t("verify.title")}>{content}</AuthShell>;
}
