import { useState } from "react";
import { useTranslation } from "react-i18next";
import { AuthShell, LoginForm, ResetRequestForm } from "../../../components/account/auth";

/**
 * /admin/login (bare page, no public header): e-mail and password, then the dashboard (or the
 * back-office page that sent the admin here). A forgotten password is reset by e-mail: the link
 * leads to /admin/accept-invite, where a new password is chosen.
 */
export default function AdminLoginPage() {
  const { t } = useTranslation("account");
  const [resetOpen, setResetOpen] = useState(false);
  return (
    <AuthShell
      brand
      title={t("admin.login.title")}
      lead={t("admin.login.lead")}
      below={<p className="text-sm">{t("admin.login.help")}</p>}
    >
      <LoginForm account="admin" idPrefix="admin-login" />
      <div className="mt-6 border-t border-slate-200 pt-4">
        <button
          type="button"
          aria-expanded={resetOpen}
          aria-controls={resetOpen ? "admin-reset" : undefined}
          onClick={() => setResetOpen((open) => !open)}
          className="font-medium text-brand-700 underline"
        >
          {t("login.forgot")}
        </button>
        {resetOpen ? (
          <div id="admin-reset" className="mt-4 space-y-4">
            <h2 className="text-lg font-semibold text-brand-900">{t("admin.login.resetTitle")}</h2>
            <p className="text-sm text-slate-700">{t("admin.login.resetLead")}</p>
            <ResetRequestForm account="admin" embedded />
          </div>
        ) : null}
      </div>
    </AuthShell>
  );
}
