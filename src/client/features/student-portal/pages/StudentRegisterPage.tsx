import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import {
  AuthShell,
  applyServerErrors,
  NewPasswordField,
  SubmitButton,
  TextField,
  useFieldMessage,
} from "../../../components/account/auth";
import {
  type StudentRegisterFormValues,
  studentRegisterFormSchema,
} from "../../../components/account/schemas";
import { useLanguage } from "../../../lib/catalogue";
import { useRegisterStudent } from "../../../lib/session";

/**
 * /student/register: name, e-mail and password (?email= pre-fills the address, as in the link
 * sent to paid applicants). Signed in at once; the dashboard about 0.5 s later (docs/product/portals.md#student-portal).
 */
export default function StudentRegisterPage() {
  const { t } = useTranslation("account");
  const language = useLanguage();
  const message = useFieldMessage();
  const [params] = useSearchParams();
  const registration = useRegisterStudent();
  const { register, handleSubmit, formState, setError } = useForm<StudentRegisterFormValues>({
    resolver: zodResolver(studentRegisterFormSchema),
    defaultValues: { firstName: "", lastName: "", email: params.get("email") ?? "", password: "" },
    mode: "onTouched",
  });
  const errors = formState.errors;
  const busy = registration.isPending || registration.isSuccess;
  const onSubmit = handleSubmit((values) =>
    registration.mutate({ ...values, language }, { onError: (error) => applyServerErrors(error, setError) }),
  );
  return (
    <AuthShell
      title={t("student.register.title")}
      lead={t("student.register.lead")}
      below={
        <p>
          {t("student.register.haveAccount")}{" "}
          <Link to="/student/login" className="font-medium text-brand-700 underline">
            {t("student.register.login")}
          </Link>
        </p>
      }
    >
      <form method="post" onSubmit={onSubmit} noValidate className="space-y-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            id="reg-firstName"
            label={t("fields.firstName")}
            autoComplete="given-name"
            error={message(errors.firstName)}
            {...register("firstName")}
          />
          <TextField
            id="reg-lastName"
            label={t("fields.lastName")}
            autoComplete="family-name"
            error={message(errors.lastName)}
            {...register("lastName")}
          />
        </div>
        <TextField
          id="reg-email"
          label={t("fields.email")}
          type="email"
          autoComplete="email"
          inputMode="email"
          hint={t("student.register.emailHint")}
          error={message(errors.email)}
          {...register("email")}
        />
        <NewPasswordField
          id="reg-password"
          label={t("fields.password")}
          hint={t("fields.passwordHint")}
          error={message(errors.password)}
          {...register("password")}
        />
        <p className="text-sm text-slate-700">
          {t("student.register.privacy")}{" "}
          <Link to="/privacy-policy" className="font-medium text-brand-700 underline">
            {t("student.register.privacyLink")}
          </Link>
        </p>
        <SubmitButton busy={busy}>
          {busy ? t("student.register.submitting") : t("student.register.submit")}
        </SubmitButton>
      </form>
    </AuthShell>
  );
}
