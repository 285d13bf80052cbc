import { useQuery } from "@tanstack/react-query";
import { BadgeCheck, CircleHelp, XCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { verifyVisaLetterContract } from "../../../../shared/api/letters";
import { cn } from "../../../components/ui/cn";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";

/**
 * /verify/visa-letter/{token} (docs/product/admissions.md#documents-and-letters): the page a visa invitation letter's QR code
 * opens, for a consulate to check the letter. Says genuine, revoked or not found, with the
 * participant's initials, the programme dates and the day of issue: nothing else
 * (`GET /api/visa-letters/:token`, VisaLetterVerification). Texts in the `letters` namespace.
 */
export default function VisaLetterVerifyPage() {
  const { t } = useTranslation("letters");
  const { date } = useFormat();
  const { token = "" } = useParams();
  const check = useQuery({
    queryKey: ["visa-letter", token],
    queryFn: () => call(verifyVisaLetterContract, { params: { token } }),
    retry: false,
  });
  const data = check.data;
  const known = data && data.state !== "unknown" ? data : null;
  const genuine = known?.state === "genuine";
  return (
    <Container className="max-w-lg py-12">
      <h1 className="text-center text-2xl font-bold text-brand-900">{t("verify.heading")}</h1>
      <div className="mt-6">
        {check.isPending ? (
          <Spinner />
        ) : !known ? (
          <Card className="text-center">
            <CircleHelp aria-hidden="true" className="mx-auto h-12 w-12 text-slate-600" />
            <p className="mt-3 text-xl font-semibold text-slate-900" role="status">
              {t("verify.unknown")}
            </p>
            <p className="mt-2 text-slate-700">{t("verify.unknownHelp")}</p>
          </Card>
        ) : (
          <Card className={cn("text-center", genuine ? "border-emerald-400" : "border-red-300")}>
            {genuine ? (
              <BadgeCheck aria-hidden="true" className="mx-auto h-14 w-14 text-emerald-700" />
            ) : (
              <XCircle aria-hidden="true" className="mx-auto h-14 w-14 text-red-700" />
            )}
            <p
              role="status"
              className={cn(
                "mt-3 text-2xl font-bold tracking-wide",
                genuine ? "text-emerald-800" : "text-red-800",
              )}
            >
              {genuine ? t("verify.genuine") : t("verify.revoked")}
            </p>
            <p className="mt-2 text-slate-700">
              {genuine ? t("verify.genuineHelp") : t("verify.revokedHelp")}
            </p>
            <dl className="mt-6 grid gap-3 text-left sm:grid-cols-[auto_1fr] sm:gap-x-6">
              {known.initials ? (
                <>
                  <dt className="text-sm font-medium text-slate-600">{t("verify.initials")}</dt>
                  <dd className="text-lg font-semibold text-brand-900">{known.initials}</dd>
                </>
              ) : null}
              <dt className="text-sm font-medium text-slate-600">{t("verify.programme")}</dt>
              <dd className="text-slate-900">
                {t("verify.dates", { start: date(known.startDate), end: date(known.endDate) })}
              </dd>
              <dt className="text-sm font-medium text-slate-600">{t("verify.issued")}</dt>
              <dd className="text-slate-900">{date(known.issuedOn)}</dd>
            </dl>
            {known.revokedOn ? (
              <p className="mt-4 font-medium text-red-800">
                {t("verify.revokedOn", { date: date(known.revokedOn) })}
              </p>
            ) : null}
            <p className="mt-6 text-sm text-slate-600">{t("verify.privacy")}</p>
          </Card>
        )}
      </div>
    </Container>
  );
}
