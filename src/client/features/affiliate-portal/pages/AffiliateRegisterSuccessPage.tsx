import { useTranslation } from "react-i18next";
import { useLocation } from "react-router";
import { AuthShell, Notice } from "../../../components/account/auth";
import { ResendVerification } from "../../../components/account/ResendVerification";
import { ButtonLink } from "../../../components/ui/Button";
import { useSite } from "../../../lib/site";

/** /affiliate/register-success: the account is pending approval; what happens next. */
export default function AffiliateRegisterSuccessPage() {
  const { t } = useTranslation("account");
  const { supportEmail } = useSite();
  const email = (useLocation().state as { email?: unknown } | null)?.email;
  return (
    <AuthShell title={t("affiliate.registerSuccess.title")} lead={t("affiliate.registerSuccess.lead")}>
      <div className="space-y-5">
        <Notice tone="success" title={t("affiliate.registerSuccess.checkInbox")}>
          <p>
            {typeof email === "string"
              ? t("affiliate.registerSuccess.sentTo", { email })
              : t("affiliate.registerSuccess.sent")}
          </p>
        </Notice>
        <ResendVerification
          account="affiliate"
          email={typeof email === "string" ? email : undefined}
          idPrefix="affiliate-resend"
        />
        <div>
          <h2 className="text-lg font-semibold text-brand-900">{t("affiliate.registerSuccess.nextTitle")}</h2>
          <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-700">
            <li>{t("affiliate.registerSuccess.step1")}</li>
            <li>{t("affiliate.registerSuccess.step2")}</li>
            <li>{t("affiliate.registerSuccess.step3")}</li>
          </ol>
        </div>
        <p className="text-sm text-slate-700">
          {t("affiliate.registerSuccess.questions", { email: supportEmail })}
        </p>
        <ButtonLink to="/affiliate-program" variant="secondary" className="w-full">
          {t("affiliate.registerSuccess.back")}
        </ButtonLink>
      </div>
    </AuthShell>
  );
}
