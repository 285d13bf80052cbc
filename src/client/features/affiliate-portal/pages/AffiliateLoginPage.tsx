import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { AuthShell, LoginForm } from "../../../components/account/auth";
import { ResendVerification } from "../../../components/account/ResendVerification";

/** /affiliate/login: partners sign in once their account is approved. */
export default function AffiliateLoginPage() {
  const { t } = useTranslation("account");
  return (
    <AuthShell
      title={t("affiliate.login.title")}
      lead={t("affiliate.login.lead")}
      below={
        <>
          <p>
            <Link to="/affiliate/reset-password" className="font-medium text-brand-700 underline">
              {t("login.forgot")}
            </Link>
          </p>
          <p>
            {t("affiliate.login.noAccount")}{" "}
            <Link to="/affiliate/register" className="font-medium text-brand-700 underline">
              {t("affiliate.login.register")}
            </Link>
          </p>
          <ResendVerification account="affiliate" idPrefix="affiliate-resend" />
        </>
      }
    >
      <LoginForm account="affiliate" />
    </AuthShell>
  );
}
