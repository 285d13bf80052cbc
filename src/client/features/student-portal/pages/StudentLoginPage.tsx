import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { AuthShell, LoginForm } from "../../../components/account/auth";

/** /student/login: e-mail and password; the dashboard about 0.5 s after signing in (docs/product/portals.md#student-portal). */
export default function StudentLoginPage() {
  const { t } = useTranslation("account");
  return (
    <AuthShell
      title={t("student.login.title")}
      lead={t("student.login.lead")}
      below={
        <>
          <p>
            <Link to="/student/reset-password" className="font-medium text-brand-700 underline">
              {t("login.forgot")}
            </Link>
          </p>
          <p>
            {t("student.login.noAccount")}{" "}
            <Link to="/student/register" className="font-medium text-brand-700 underline">
              {t("student.login.register")}
            </Link>
          </p>
        </>
      }
    >
      <LoginForm account="student" />
    </AuthShell>
  );
}
