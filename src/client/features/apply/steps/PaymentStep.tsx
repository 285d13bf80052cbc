import { useQueryClient } from "@tanstack/react-query";
import { AlertTriangle, BadgePercent, CreditCard, ShieldCheck, Tag, X } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import {
  cancelCheckoutContract,
  createCheckoutSessionContract,
  processZeroPaymentContract,
  removeCodeContract,
  validateCodeContract,
} from "../../../../shared/api/apply";
import type { ApplicationDto, ApplicationQuoteDto } from "../../../../shared/application";
import { Button } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useLanguage } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { clearReferral, currentReferral } from "../../../lib/referral";
import { useSite } from "../../../lib/site";
import { useVatContext } from "../../../lib/vat";
import { applicationKey, useApplication } from "../api";

/** True when the fully discounted view applies (docs/product/admissions.md#payment-step-views). */
export const isFullyDiscounted = (q: ApplicationQuoteDto) =>
  q.totalAmount === 0 || q.discountAmount >= q.originalAmount;

/**
 * Step 3, payment (docs/product/admissions.md#payment-step-views, docs/product/catalogue-and-pricing.md#quote, docs/product/catalogue-and-pricing.md#code-discounts, docs/product/api.md#errors): the server's quote, the discount or
 * referral code card (with auto-apply of a referral code after 300 ms and again after 800 ms), the
 * terms checkbox, and either Proceed to the hosted checkout or, when the server's quote is 0,
 * Complete Application without payment.
 */
export function PaymentStep({
  applicationId,
  onBack,
  onCompleted,
}: {
  applicationId: string;
  onBack: () => void;
  onCompleted: (paymentId: string) => void;
}) {
  const { t } = useTranslation("apply");
  const vatCtx = useVatContext();
  const { money, date } = useFormat();
  const language = useLanguage();
  const { paymentProvider } = useSite();
  const queryClient = useQueryClient();
  const application = useApplication(applicationId);
  const [code, setCode] = useState("");
  const [validating, setValidating] = useState(false);
  const [terms, setTerms] = useState(false);
  const [processing, setProcessing] = useState(false);
  const [paymentError, setPaymentError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);
  const autoApplied = useRef(false);
  const codeId = useId();
  const termsId = useId();
  const [searchParams, setSearchParams] = useSearchParams();

  const quote = application.data?.quote;
  const applied = quote?.appliedCode ?? null;

  const setQuote = (next: ApplicationQuoteDto) =>
    queryClient.setQueryData<ApplicationDto>(applicationKey(applicationId, language), (old) =>
      old ? { ...old, quote: next } : old,
    );

  /** Validates and attaches a code; `silent` for the referral auto-apply. */
  const applyCode = async (value: string, silent = false) => {
    const trimmed = value.trim();
    if (!trimmed) {
      setCodeError(t("common:validation.enterCode"));
      return;
    }
    setValidating(true);
    setCodeError(null);
    try {
      const result = await call(validateCodeContract, {
        body: { code: trimmed, applicationId, source: silent ? "link" : "code" },
      });
      if (!result.isValid) {
        const text = result.message || t("payment.codeNotValid");
        setCodeError(text);
        if (!silent)
          toast({ title: t("common:validation.errorTitle"), description: text, variant: "destructive" });
        return;
      }
      if (result.quote) setQuote(result.quote);
      setCode("");
      toast({
        title: t("payment.codeAppliedTitle"),
        // A code smaller than the early application discount leaves the price as it was: the
        // server's message says so (decision 030), rather than "discount of …".
        description:
          result.discountAmount && result.quote?.discountSource !== "automatic"
            ? t("payment.codeAppliedDiscount", { amount: money(result.discountAmount) })
            : result.message,
        variant: "success",
      });
    } catch (err) {
      const text = err instanceof Error && err.message ? err.message : t("payment.applyFailed");
      setCodeError(text);
      if (!silent)
        toast({ title: t("common:validation.errorTitle"), description: text, variant: "destructive" });
    } finally {
      setValidating(false);
    }
  };

  const removeCode = async () => {
    try {
      const { quote: next } = await call(removeCodeContract, { params: { id: applicationId } });
      setQuote(next);
      if (applied?.codeType === "referral") clearReferral();
      toast({ title: t("payment.codeRemovedTitle"), description: t("payment.codeRemoved") });
    } catch (err) {
      toast({
        title: t("common:validation.errorTitle"),
        description: err instanceof Error ? err.message : "",
        variant: "destructive",
      });
    }
  };

  // Back from the hosted checkout with "Cancel" (`?checkout=cancelled`): the open session is ended
  // by a POST, never by the page's GET, so the code's hold is released at once (docs/product/security.md#p4-a-code-held-by-an-open-checkout, docs/product/security.md#s3-cross-site-requests-change-nothing).
  // A failure is harmless: the hold then ends with the session's time limit.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per return from the checkout
  useEffect(() => {
    if (searchParams.get("checkout") !== "cancelled") return;
    setSearchParams(
      (params) => {
        params.delete("checkout");
        return params;
      },
      { replace: true },
    );
    void call(cancelCheckoutContract, { params: { id: applicationId } })
      .catch(() => undefined)
      .finally(() => void queryClient.invalidateQueries({ queryKey: ["application", applicationId] }));
  }, [applicationId]);

  // Auto-apply a referral code from ?ref= or the affiliate cookie, once (docs/product/privacy.md#partner-cookie), unless a code is applied.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the quote first arrives
  useEffect(() => {
    if (!quote || autoApplied.current) return;
    autoApplied.current = true;
    const referral = currentReferral();
    if (!referral || quote.appliedCode) return;
    setCode(referral);
    const first = window.setTimeout(() => void applyCode(referral, true), 300);
    const second = window.setTimeout(() => {
      const current = queryClient.getQueryData<ApplicationDto>(applicationKey(applicationId, language));
      if (!current?.quote.appliedCode) void applyCode(referral, true);
    }, 800);
    return () => {
      window.clearTimeout(first);
      window.clearTimeout(second);
    };
  }, [quote]);

  /** The terms must be accepted before checkout or zero-payment completion (docs/product/admissions.md#payment-step-views). */
  const termsAccepted = () => {
    if (!terms) {
      toast({
        title: t("common:validation.errorTitle"),
        description: t("common:validation.acceptTerms"),
        variant: "destructive",
      });
    }
    return terms;
  };

  const checkout = async () => {
    if (!quote || !termsAccepted()) return;
    setProcessing(true);
    setPaymentError(null);
    try {
      const result = await call(createCheckoutSessionContract, {
        body: {
          applicationId,
          totalAmount: quote.totalAmount,
          discountAmount: quote.discountAmount,
          originalAmount: quote.originalAmount,
          appliedCodeId: applied?.codeId ?? null,
          successUrl: `${window.location.origin}/payment-success?session_id={CHECKOUT_SESSION_ID}`,
          cancelUrl: `${window.location.origin}/apply/payment?checkout=cancelled`,
          termsAccepted: true,
        },
      });
      if (!result.url) throw new Error(t("payment.noUrl"));
      window.location.assign(result.url);
    } catch (err) {
      setProcessing(false);
      if (err instanceof ApiError && err.status === 409 && err.body?.quote) {
        setQuote(err.body.quote as ApplicationQuoteDto);
        toast({ title: t("payment.priceChangedTitle"), description: err.message, variant: "destructive" });
        return;
      }
      const text = err instanceof Error && err.message ? err.message : t("payment.setupError");
      setPaymentError(text);
      toast({
        title: t("payment.errorTitle"),
        description: text || t("payment.errorFallback"),
        variant: "destructive",
      });
    }
  };

  const completeZero = async () => {
    if (!quote || !termsAccepted()) return;
    setProcessing(true);
    try {
      const { paymentIntentId } = await call(processZeroPaymentContract, {
        body: {
          applicationId,
          codeId: applied?.codeId ?? null,
          affiliateId: applied?.affiliateId ?? null,
          discountInfo: {
            appliedCodeId: applied?.codeId ?? null,
            discountAmount: quote.discountAmount,
            originalAmount: quote.originalAmount,
          },
          termsAccepted: true,
        },
      });
      await queryClient.invalidateQueries({ queryKey: ["application", applicationId] });
      toast({ title: t("confirmation.toast"), description: t("payment.submitted"), variant: "success" });
      onCompleted(paymentIntentId);
    } catch (err) {
      setProcessing(false);
      if (err instanceof ApiError && err.body?.quote) setQuote(err.body.quote as ApplicationQuoteDto);
      toast({
        title: t("common:validation.errorTitle"),
        description: err instanceof Error && err.message ? err.message : t("payment.zeroFailed"),
        variant: "destructive",
      });
    }
  };

  if (application.isPending) return <Spinner />;
  if (application.isError || !application.data || !quote) {
    return (
      <Card>
        <p role="alert" className="text-red-800">
          {application.error?.message || t("common:loadError")}
        </p>
        <div className="mt-4 flex gap-3">
          <Button variant="secondary" onClick={onBack}>
            {t("back")}
          </Button>
          <Button variant="secondary" onClick={() => void application.refetch()}>
            {t("common:retry")}
          </Button>
        </div>
      </Card>
    );
  }

  const app = application.data;
  if (app.paymentStatus === "paid") {
    onCompleted(app.payment?.reference ?? "");
    return <Spinner />;
  }
  const zero = isFullyDiscounted(quote);

  const termsBox = (
    <div className="flex items-start gap-3">
      <input
        id={termsId}
        type="checkbox"
        checked={terms}
        onChange={(e) => setTerms(e.target.checked)}
        className="mt-1 h-5 w-5 accent-brand-700"
      />
      <label htmlFor={termsId} className="text-sm text-slate-800">
        {t("payment.termsBefore")}{" "}
        <Link to="/terms" target="_blank" className="text-brand-700 underline">
          {t("payment.termsLink")}
        </Link>{" "}
        {t("payment.termsAnd")}{" "}
        <Link to="/privacy" target="_blank" className="text-brand-700 underline">
          {t("payment.privacyLink")}
        </Link>
        .
      </label>
    </div>
  );

  if (zero) {
    return (
      <div className="space-y-6">
        <h2 className="text-2xl font-bold text-brand-900">{t("payment.zeroTitle")}</h2>
        <Card className="border-emerald-300 bg-emerald-50">
          <p className="flex items-center gap-2 font-semibold text-emerald-900">
            <BadgePercent aria-hidden="true" className="h-5 w-5" />
            {t("payment.fullDiscount")}
          </p>
          <p className="mt-3 text-slate-800">
            <span className="sr-only">{t("payment.originalPrice")}: </span>
            <s className="text-slate-700">{money(quote.originalAmount)}</s>{" "}
            <span className="ml-2 text-xl font-bold text-brand-900">
              {t("payment.totalDue")}: {money(0)}
            </span>
          </p>
          {applied ? (
            <p className="mt-2 text-sm text-slate-700">
              {t("payment.appliedCode")}: <strong>{applied.code}</strong>
            </p>
          ) : null}
        </Card>
        <Card>{termsBox}</Card>
        <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-between">
          <Button variant="secondary" onClick={onBack} disabled={processing}>
            {t("back")}
          </Button>
          <Button size="lg" onClick={() => void completeZero()} disabled={!terms || processing}>
            {processing ? t("payment.processing") : t("payment.completeApplication")}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="space-y-6">
      <h2 className="text-2xl font-bold text-brand-900">
        {quote.depositAmount === 0 ? t("payment.completeTitle") : t("payment.title")}
      </h2>
      <div className="grid gap-6 lg:grid-cols-5">
        <div className="space-y-6 lg:col-span-3">
          <Card>
            <h3 className="flex items-center gap-2 text-lg font-semibold text-brand-900">
              <Tag aria-hidden="true" className="h-5 w-5" />
              {t("payment.codeTitle")}
            </h3>
            {applied ? (
              <div className="mt-3 flex items-center justify-between rounded-lg bg-emerald-50 p-3">
                <p className="text-sm text-emerald-900">
                  {t("payment.appliedCode")}: <strong>{applied.code}</strong>
                  {applied.codeType === "referral" ? ` (${t("payment.referral")})` : ""}
                </p>
                <Button variant="ghost" size="sm" onClick={() => void removeCode()}>
                  <X aria-hidden="true" className="h-4 w-4" />
                  {t("payment.remove")}
                </Button>
              </div>
            ) : (
              <form
                className="mt-3 flex flex-col gap-2 sm:flex-row"
                onSubmit={(e) => {
                  e.preventDefault();
                  void applyCode(code);
                }}
              >
                <label htmlFor={codeId} className="sr-only">
                  {t("payment.codeLabel")}
                </label>
                <input
                  id={codeId}
                  value={code}
                  onChange={(e) => setCode(e.target.value)}
                  placeholder={t("payment.codePlaceholder")}
                  autoComplete="off"
                  aria-invalid={codeError ? true : undefined}
                  aria-describedby={codeError ? `${codeId}-error` : undefined}
                  className={`${inputClass} mt-0 uppercase`}
                />
                <Button type="submit" variant="secondary" disabled={!code.trim() || validating}>
                  {validating ? t("payment.validating") : t("payment.apply")}
                </Button>
              </form>
            )}
            {codeError && !applied ? (
              <p id={`${codeId}-error`} role="alert" className="mt-2 text-sm font-medium text-red-700">
                {codeError}
              </p>
            ) : null}
          </Card>

          <Card>
            <h3 className="flex items-center gap-2 text-lg font-semibold text-brand-900">
              <ShieldCheck aria-hidden="true" className="h-5 w-5" />
              {t("payment.secureTitle")}
            </h3>
            <p className="mt-2 text-sm text-slate-700">{t("payment.secureText")}</p>
            {paymentProvider === "offline" ? (
              <p className="mt-2 rounded bg-amber-50 p-2 text-sm text-amber-900">{t("payment.testMode")}</p>
            ) : null}
            <div className="mt-4">{termsBox}</div>
            {paymentError ? (
              <div
                role="alert"
                className="mt-4 flex gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
              >
                <AlertTriangle aria-hidden="true" className="h-5 w-5 shrink-0" />
                <div>
                  <p className="font-semibold">{t("payment.errorTitle")}</p>
                  <p>{paymentError}</p>
                </div>
              </div>
            ) : null}
            <Button
              size="lg"
              className="mt-5 w-full"
              onClick={() => void checkout()}
              disabled={!terms || processing}
            >
              <CreditCard aria-hidden="true" className="h-5 w-5" />
              {processing
                ? t("payment.processing")
                : t("payment.proceed", { amount: money(quote.depositAmount) })}
            </Button>
          </Card>
        </div>

        <Card className="h-fit lg:col-span-2">
          <h3 className="text-lg font-semibold text-brand-900">{t("payment.summaryTitle")}</h3>
          <p className="mt-1 text-sm text-slate-700">
            {app.summerSchool.name} ·{" "}
            {t("common:dates.range", {
              start: date(app.summerSchool.startDate),
              end: date(app.summerSchool.endDate),
            })}
          </p>
          <dl className="mt-4 space-y-2 text-sm">
            {quote.lineItems.map((line) => (
              <div key={`${line.kind}-${line.id}`} className="flex justify-between gap-3">
                <dt className="text-slate-800">
                  {line.name}
                  {line.included ? ` (${t("program.included")})` : ""}
                </dt>
                <dd className="font-medium text-slate-900">
                  {line.kind === "housing" && line.amount === 0
                    ? t("program.housingIncluded")
                    : money(line.amount)}
                </dd>
              </div>
            ))}
            <div className="flex justify-between gap-3 border-t border-slate-200 pt-2">
              <dt className="text-slate-800">{t("payment.subtotal")}</dt>
              <dd className="font-medium">{money(quote.originalAmount)}</dd>
            </div>
            {quote.discountAmount > 0 ? (
              <div className="flex justify-between gap-3 text-emerald-800">
                <dt>
                  {quote.discountSource === "automatic" && quote.automaticDiscount
                    ? t("common:pricing.earlyDiscountLabel", {
                        percent: quote.automaticDiscount.percent,
                        date: date(quote.automaticDiscount.endsOn),
                      })
                    : `${t("payment.discount")} (${applied?.code})`}
                </dt>
                <dd className="font-medium">− {money(quote.discountAmount)}</dd>
              </div>
            ) : null}
            <div className="flex justify-between gap-3 border-t border-slate-200 pt-2 text-base">
              <dt className="font-bold text-brand-900">{t("payment.total")}</dt>
              <dd className="font-bold text-brand-900">{money(quote.totalAmount)}</dd>
            </div>
            <div className="flex justify-between gap-3 text-xs text-slate-600">
              <dt>{t("payment.vat", { context: vatCtx })}</dt>
              {vatCtx === "exempt" ? null : <dd>{money(quote.vatAmount)}</dd>}
            </div>
            {quote.remainingAmount > 0 ? (
              <>
                <div className="flex justify-between gap-3">
                  <dt>{t("payment.depositNow", { percent: quote.depositPercent })}</dt>
                  <dd className="font-medium">{money(quote.depositAmount)}</dd>
                </div>
                <div className="flex justify-between gap-3">
                  <dt>{t("payment.remaining", { date: date(app.remainingDueDate) })}</dt>
                  <dd className="font-medium">{money(quote.remainingAmount)}</dd>
                </div>
              </>
            ) : null}
          </dl>
          {quote.remainingAmount > 0 ? null : (
            <p className="pt-3 text-xs text-slate-600">{t("payment.fullPayment")}</p>
          )}
        </Card>
      </div>
      <Button variant="secondary" onClick={onBack} disabled={processing}>
        {t("back")}
      </Button>
    </div>
  );
}
