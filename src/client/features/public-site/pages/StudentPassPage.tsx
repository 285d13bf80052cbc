import { useQuery } from "@tanstack/react-query";
import { BadgeCheck, XCircle } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { checkPassContract } from "../../../../shared/api/pass";
import { dateFormatFor } from "../../../../shared/date-format";
import type { PassCheck } from "../../../../shared/schemas/pass";
import { cn } from "../../../components/ui/cn";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useSite } from "../../../lib/site";

/** What the page shows when the check cannot be made at all (an address too long to be a pass). */
const UNKNOWN: Omit<PassCheck, "checkedAt"> = {
  valid: false,
  reason: "unknown",
  initials: null,
  cohort: null,
};

/**
 * /student-pass/{token} (docs/product/admissions.md#student-pass): the page a
 * student pass's QR code opens, for the school's staff and hosts. GET /api/student-pass/:token
 * (`passCheckSchema`) decides; the page shows VALID or NOT VALID, the reason in words with what it
 * means, the holder's initials and the cohort with its dates, and the time of the check. Nothing
 * else about the holder exists in the answer.
 */
export default function StudentPassPage() {
  const { t } = useTranslation("studentPass");
  const format = useFormat();
  const { supportEmail } = useSite();
  const { token = "" } = useParams();
  const pass = useQuery({
    queryKey: ["student-pass", token],
    queryFn: async () => {
      try {
        return await call(checkPassContract, { params: { token } });
      } catch (error) {
        // The router's 404 for an address no token fits: the same as a token nobody issued.
        if ((error as { status?: number }).status === 404) return { ...UNKNOWN, checkedAt: null };
        throw error;
      }
    },
    retry: false,
    staleTime: 0,
  });
  const when = (iso: string) =>
    dateFormatFor(format.language, { dateStyle: "long", timeStyle: "short" }).format(new Date(iso));

  let content: ReactNode;
  if (pass.isPending) content = <Spinner />;
  else if (pass.isError)
    content = (
      <Card className="text-center">
        <p role="alert" className="text-slate-800">
          {t("loadError")}
        </p>
        <button
          type="button"
          className="mt-3 font-medium text-brand-700 underline"
          onClick={() => void pass.refetch()}
        >
          {t("common:retry")}
        </button>
      </Card>
    );
  else {
    const check = pass.data;
    content = (
      <div
        className={cn(
          "rounded-xl border-2 bg-white p-6 text-center shadow-sm",
          check.valid ? "border-emerald-500" : "border-red-400",
        )}
      >
        {check.valid ? (
          <BadgeCheck aria-hidden="true" className="mx-auto h-16 w-16 text-emerald-700" />
        ) : (
          <XCircle aria-hidden="true" className="mx-auto h-16 w-16 text-red-700" />
        )}
        <p
          role="status"
          className={cn(
            "mt-3 text-3xl font-bold tracking-wide",
            check.valid ? "text-emerald-800" : "text-red-800",
          )}
        >
          {check.valid ? t("valid") : t("invalid")}
        </p>
        {check.reason ? (
          <p className="mt-1 text-lg font-semibold text-red-800">{t(`reasons.${check.reason}.title`)}</p>
        ) : null}
        {check.initials || check.cohort ? (
          <dl className="mx-auto mt-5 grid max-w-sm grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-left">
            {check.initials ? (
              <>
                <dt className="text-slate-700">{t("initials")}</dt>
                <dd className="text-xl font-semibold text-brand-900">{check.initials}</dd>
              </>
            ) : null}
            {check.cohort ? (
              <>
                <dt className="text-slate-700">{t("cohort")}</dt>
                <dd className="font-medium text-slate-900">{check.cohort.name}</dd>
                <dt className="text-slate-700">{t("dates")}</dt>
                <dd className="text-slate-900">
                  {t("common:dates.range", {
                    start: format.date(check.cohort.startDate),
                    end: format.date(check.cohort.endDate),
                  })}
                </dd>
              </>
            ) : null}
          </dl>
        ) : null}
        <div className="mt-5 border-t border-slate-200 pt-4 text-left">
          <h2 className="text-sm font-semibold text-brand-900">{t("whatToDo")}</h2>
          <p className="mt-1 text-slate-700">
            {check.reason ? t(`reasons.${check.reason}.help`) : t("validHelp")}
          </p>
        </div>
        {check.checkedAt ? (
          <p className="mt-4 text-sm text-slate-600">{t("checkedAt", { when: when(check.checkedAt) })}</p>
        ) : null}
      </div>
    );
  }

  return (
    <Container className="max-w-lg py-10 sm:py-12">
      <h1 className="text-center text-2xl font-bold text-brand-900">{t("heading")}</h1>
      <p className="mt-2 text-center text-sm text-slate-700">{t("lead")}</p>
      <div className="mt-6">{content}</div>
      <p className="mt-6 text-center text-sm text-slate-700">
        {t("contact")}{" "}
        <a href={`mailto:${supportEmail}`} className="font-medium text-brand-700 underline">
          {supportEmail}
        </a>
      </p>
    </Container>
  );
}
