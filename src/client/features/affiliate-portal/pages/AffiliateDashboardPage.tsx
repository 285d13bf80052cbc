import { Check, Copy } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Card, Container } from "../../../components/ui/Layout";
import { toast } from "../../../components/ui/toast-store";
import { useSignedInUser } from "../../../lib/session";
import { useSite } from "../../../lib/site";

/** A read-only value with a Copy button (clipboard; the text stays selectable when copying fails). */
function CopyField({ id, label, value }: { id: string; label: string; value: string }) {
  const { t } = useTranslation("account");
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      clearTimeout(timer.current);
      timer.current = setTimeout(() => setCopied(false), 2000);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
      toast({ title: t("affiliate.dashboard.copyFailed"), variant: "destructive" });
    }
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id={id}
          readOnly
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          className="block w-full min-w-0 rounded-lg border border-slate-400 bg-slate-50 px-3 py-2.5 font-mono text-sm text-slate-900"
        />
        <Button
          variant="secondary"
          className="shrink-0 whitespace-nowrap"
          onClick={() => void copy()}
          aria-label={t("affiliate.dashboard.copyLabel", { label })}
        >
          {copied ? (
            <Check aria-hidden="true" className="h-4 w-4" />
          ) : (
            <Copy aria-hidden="true" className="h-4 w-4" />
          )}
          <span aria-hidden="true">
            {copied ? t("affiliate.dashboard.copied") : t("affiliate.dashboard.copy")}
          </span>
        </Button>
      </div>
      <p className="sr-only" aria-live="polite">
        {copied ? t("affiliate.dashboard.copied") : ""}
      </p>
    </div>
  );
}

/**
 * /affiliate/dashboard: the partner's account status; once approved, the referral code and link
 * with Copy buttons; while pending, what happens next.
 */
export default function AffiliateDashboardPage() {
  const { t } = useTranslation("account");
  const user = useSignedInUser("affiliate");
  const { supportEmail } = useSite();
  return (
    <Container className="py-10 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-brand-900">
        {t("affiliate.dashboard.heading", { name: user.name })}
      </h1>
      <p className="mt-3 max-w-2xl text-slate-700">
        {t("affiliate.dashboard.statusLine")}{" "}
        <strong className="font-semibold text-slate-900">{t(`affiliate.status.${user.status}`)}</strong>
      </p>
      <div className="mt-8 max-w-3xl space-y-6">
        {user.status === "approved" && user.referralCode ? (
          <Card>
            <h2 className="text-xl font-bold text-brand-900">{t("affiliate.dashboard.shareTitle")}</h2>
            <p className="mt-2 text-slate-700">{t("affiliate.dashboard.shareLead")}</p>
            <div className="mt-6 space-y-5">
              <CopyField id="referral-code" label={t("affiliate.dashboard.code")} value={user.referralCode} />
              {user.referralLink ? (
                <CopyField
                  id="referral-link"
                  label={t("affiliate.dashboard.link")}
                  value={user.referralLink}
                />
              ) : null}
            </div>
            <h3 className="mt-8 font-semibold text-brand-900">{t("affiliate.dashboard.howTitle")}</h3>
            <ul className="mt-2 list-disc space-y-1 pl-5 text-slate-700">
              <li>{t("affiliate.dashboard.how1")}</li>
              <li>{t("affiliate.dashboard.how2")}</li>
              <li>{t("affiliate.dashboard.how3")}</li>
            </ul>
          </Card>
        ) : user.status === "approved" ? (
          <Notice title={t("affiliate.dashboard.codeSoonTitle")}>
            <p>{t("affiliate.dashboard.codeSoon", { email: supportEmail })}</p>
          </Notice>
        ) : user.status === "pending" ? (
          <Card>
            <h2 className="text-xl font-bold text-brand-900">{t("affiliate.dashboard.pendingTitle")}</h2>
            <ol className="mt-3 list-decimal space-y-2 pl-5 text-slate-700">
              <li>{t("affiliate.registerSuccess.step1")}</li>
              <li>{t("affiliate.registerSuccess.step2")}</li>
              <li>{t("affiliate.registerSuccess.step3")}</li>
            </ol>
          </Card>
        ) : (
          <Notice tone="error" title={t("affiliate.dashboard.suspendedTitle")}>
            <p>{t("affiliate.dashboard.suspended", { email: supportEmail })}</p>
          </Notice>
        )}
        <p className="text-slate-700">{t("affiliate.dashboard.questions", { email: supportEmail })}</p>
      </div>
    </Container>
  );
}
