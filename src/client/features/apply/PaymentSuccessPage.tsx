import { useQuery } from "@tanstack/react-query";
import { AlertCircle, Loader2 } from "lucide-react";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { verifyCheckoutContract } from "../../../shared/api/apply";
import { Button, ButtonLink } from "../../components/ui/Button";
import { Card, Container } from "../../components/ui/Layout";
import { toast } from "../../components/ui/toast-store";
import { call } from "../../lib/call";
import { useHydrated } from "../../lib/hydration";
import { ConfirmationDetails } from "./steps/ConfirmationStep";

/**
 * /payment-success?session_id=… (docs/product/payments.md#checkout-session): verifies the checkout session with the server, which
 * asks the payment provider and fulfils the application if the webhook has not yet (P12). States:
 * checking → verifying → confirmed, or error. A delayed payment method shows "pending" and is
 * checked again every few seconds for a minute.
 */
export default function PaymentSuccessPage() {
  const { t } = useTranslation("apply");
  const [params] = useSearchParams();
  const sessionId = params.get("session_id") ?? "";
  const hydrated = useHydrated();
  const toasted = useRef(false);
  const verification = useQuery({
    queryKey: ["checkout-verification", sessionId],
    queryFn: ({ signal }) => call(verifyCheckoutContract, { params: { sessionId }, signal }),
    enabled: /^[A-Za-z0-9_-]{8,255}$/.test(sessionId),
    refetchOnWindowFocus: false,
    refetchInterval: (query) => {
      const state = query.state.data?.state;
      return (state === "pending" || state === "open") && query.state.dataUpdateCount < 20 ? 3000 : false;
    },
  });
  const data = verification.data;

  useEffect(() => {
    if (data?.state === "confirmed" && !toasted.current) {
      toasted.current = true;
      toast({ title: t("confirmation.toast"), description: t("payment.submitted"), variant: "success" });
    }
  }, [data?.state, t]);

  if (data?.state === "confirmed" && data.application) {
    return (
      <Container className="max-w-4xl py-10">
        <ConfirmationDetails app={data.application} />
      </Container>
    );
  }

  // The server renders this page without its query string (the HTML is cached, docs/product/portals.md#public-site):
  // until hydration is done the page shows "checking", as the server did, so that React does not
  // find a different page (hydration error #418) when the session id appears.
  const failed =
    hydrated && (!sessionId || verification.isError || data?.state === "failed" || data?.state === "expired");
  const confirmedElsewhere = data?.state === "confirmed" && !data.application;
  return (
    <Container className="max-w-2xl py-16">
      <Card className="text-center">
        {failed ? (
          <>
            <AlertCircle aria-hidden="true" className="mx-auto h-12 w-12 text-red-700" />
            <h1 className="mt-3 text-2xl font-bold text-brand-900">{t("verify.errorTitle")}</h1>
            <p className="mt-3 text-slate-700" role="alert">
              {data?.state === "failed"
                ? t("verify.failed")
                : data?.state === "expired"
                  ? t("verify.expired")
                  : t("verify.issue")}
            </p>
            <p className="mt-2 text-slate-700">{t("verify.couldNotVerify")}</p>
            <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
              <Button variant="secondary" onClick={() => void verification.refetch()}>
                {t("common:retry")}
              </Button>
              <ButtonLink to="/apply/payment">{t("verify.backToPayment")}</ButtonLink>
            </div>
          </>
        ) : confirmedElsewhere ? (
          <>
            <h1 className="text-2xl font-bold text-brand-900">{t("confirmation.title")}</h1>
            <p className="mt-3 text-slate-700">{t("verify.confirmedOtherBrowser")}</p>
            <ButtonLink to="/" className="mt-6">
              {t("confirmation.home")}
            </ButtonLink>
          </>
        ) : (
          <>
            <Loader2 aria-hidden="true" className="mx-auto h-12 w-12 animate-spin text-brand-600" />
            <h1 className="mt-3 text-2xl font-bold text-brand-900">
              {verification.isPending
                ? t("verify.checking")
                : data?.state === "pending"
                  ? t("verify.pendingTitle")
                  : t("verify.verifying")}
            </h1>
            <p className="mt-3 text-slate-700" role="status">
              {data?.state === "pending" ? t("verify.pending") : t("verify.wait")}
            </p>
          </>
        )}
      </Card>
    </Container>
  );
}
