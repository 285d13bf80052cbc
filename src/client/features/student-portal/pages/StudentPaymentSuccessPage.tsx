import { useQuery } from "@tanstack/react-query";
import { AlertCircle, CheckCircle2, Loader2 } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { verifyBalanceCheckoutContract } from "../../../../shared/api/student";
import { Button, ButtonLink } from "../../../components/ui/Button";
import { Card, Container } from "../../../components/ui/Layout";
import { call } from "../../../lib/call";
import { roleDataKey, useSignedInUser } from "../../../lib/session";

/**
 * /student/payment-success?session_id=… (docs/product/portals.md#student-portal; docs/product/security.md#p12-the-webhook-never-arrives): verifies a
 * balance payment with the server, which asks the payment provider and fulfils through the one
 * fulfilment function if the webhook has not yet. A delayed method shows "being processed" and is
 * asked again every three seconds for a minute.
 */
export default function StudentPaymentSuccessPage() {
  const { t } = useTranslation("balance");
  const user = useSignedInUser("student");
  const [params] = useSearchParams();
  const sessionId = params.get("session_id") ?? "";
  const verification = useQuery({
    queryKey: [...roleDataKey("student"), "balance-verification", user.id, sessionId],
    queryFn: () => call(verifyBalanceCheckoutContract, { query: { session_id: sessionId } }),
    enabled: /^[A-Za-z0-9_-]{8,255}$/.test(sessionId),
    refetchOnWindowFocus: false,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return (state === "pending" || state === "open") && query.state.dataUpdateCount < 20 ? 3000 : false;
    },
  });
  const state = verification.data?.state;
  const back = verification.data
    ? `/student/payment?application=${verification.data.applicationId}`
    : "/student/payment";
  const failed = !sessionId || verification.isError || state === "failed" || state === "expired";
  return (
    <Container className="max-w-2xl py-16">
      <Card className="text-center">
        {state === "confirmed" ? (
          <>
            <CheckCircle2 aria-hidden="true" className="mx-auto h-12 w-12 text-emerald-700" />
            <h1 className="mt-3 text-2xl font-bold text-brand-900">{t("success.title")}</h1>
            <p className="mt-3 text-slate-700" role="status">
              {t("success.body")}
            </p>
            <ButtonLink to={back} className="mt-6">
              {t("success.see")}
            </ButtonLink>
          </>
        ) : failed ? (
          <>
            <AlertCircle aria-hidden="true" className="mx-auto h-12 w-12 text-red-700" />
            <h1 className="mt-3 text-2xl font-bold text-brand-900">{t("success.errorTitle")}</h1>
            <p className="mt-3 text-slate-700" role="alert">
              {state === "failed"
                ? t("success.failed")
                : state === "expired"
                  ? t("success.expired")
                  : (verification.error?.message ?? t("success.unknown"))}
            </p>
            <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
              <Button variant="secondary" onClick={() => void verification.refetch()}>
                {t("common:retry")}
              </Button>
              <ButtonLink to={back}>{t("success.back")}</ButtonLink>
            </div>
          </>
        ) : (
          <>
            <Loader2 aria-hidden="true" className="mx-auto h-12 w-12 animate-spin text-brand-700" />
            <h1 className="mt-3 text-2xl font-bold text-brand-900">{t("success.checking")}</h1>
            <p className="mt-3 text-slate-700" role="status">
              {state === "pending" ? t("success.pending") : t("success.wait")}
            </p>
          </>
        )}
      </Card>
    </Container>
  );
}
