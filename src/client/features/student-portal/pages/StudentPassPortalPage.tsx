import * as Dialog from "@radix-ui/react-dialog";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { BadgeCheck, CalendarDays, XCircle } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { listStudentPassesContract, reissueStudentPassContract } from "../../../../shared/api/pass";
import { dateFormatFor } from "../../../../shared/date-format";
import type { StudentPass } from "../../../../shared/schemas/pass";
import { Notice } from "../../../components/account/auth";
import { ResendVerification } from "../../../components/account/ResendVerification";
import { Button, ButtonLink } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { roleDataKey, useSignedInUser } from "../../../lib/session";
import { useSite } from "../../../lib/site";

/** The query key of the signed-in student's passes. */
const passesKey = (studentId: string) => [...roleDataKey("student"), "passes", studentId] as const;

/**
 * /student/qrcode (docs/product/portals.md#student-portal; docs/product/admissions.md#student-pass): the student pass of each of
 * the signed-in student's applications (GET /api/student/passes, `studentPassListSchema`): name,
 * cohort and dates, application and payment status in words, whether a checker scanning it sees
 * VALID and, if not, why; the QR code (an SVG made on the server, shown as an image) that opens the
 * public check; and "Replace this pass" with a confirmation (POST …/pass/reissue), after which the
 * old code answers "replaced". Until the e-mail is verified: a notice and the resend button.
 */
export default function StudentPassPortalPage() {
  const { t } = useTranslation("studentPass");
  const user = useSignedInUser("student");
  const { supportEmail } = useSite();
  const passes = useQuery({
    queryKey: passesKey(user.id),
    queryFn: () => call(listStudentPassesContract),
    enabled: user.emailVerified,
  });
  const needsVerification =
    !user.emailVerified || (passes.error instanceof ApiError && passes.error.status === 403);

  let content: ReactNode;
  if (needsVerification) {
    content = (
      <Notice tone="info" title={t("mine.verifyTitle")}>
        <p>{t("mine.verify", { email: user.email })}</p>
        <ResendVerification account="student" email={user.email} />
      </Notice>
    );
  } else if (passes.isPending) {
    content = <Spinner />;
  } else if (passes.isError) {
    content = (
      <Notice tone="error" title={t("mine.loadErrorTitle")}>
        <p>{passes.error.message}</p>
        <button
          type="button"
          className="mt-2 font-medium text-red-900 underline"
          onClick={() => void passes.refetch()}
        >
          {t("common:retry")}
        </button>
      </Notice>
    );
  } else if (passes.data.length === 0) {
    content = (
      <Card>
        <p className="text-slate-700">{t("mine.empty", { email: user.email })}</p>
        <ButtonLink to="/apply" className="mt-4">
          {t("mine.apply")}
        </ButtonLink>
      </Card>
    );
  } else {
    content = (
      <ul className="grid gap-6">
        {passes.data.map((pass) => (
          <li key={pass.applicationId}>
            <PassCard pass={pass} studentId={user.id} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Container className="max-w-3xl py-8 sm:py-12">
      <h1 className="text-2xl font-bold tracking-tight text-brand-900 sm:text-3xl">{t("mine.heading")}</h1>
      <p className="mt-3 max-w-2xl text-slate-700">{t("mine.lead")}</p>
      <div className="mt-6">{content}</div>
      <p className="mt-8 text-sm text-slate-700">
        {t("mine.help")}{" "}
        <a href={`mailto:${supportEmail}`} className="font-medium text-brand-700 underline">
          {supportEmail}
        </a>
      </p>
    </Container>
  );
}

/** One application's pass: the card a checker is shown, and the replace action under it. */
function PassCard({ pass, studentId }: { pass: StudentPass; studentId: string }) {
  const { t } = useTranslation("studentPass");
  const format = useFormat();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const reissue = useMutation({
    mutationFn: () => call(reissueStudentPassContract, { params: { id: pass.applicationId } }),
    onSuccess: (fresh) => {
      queryClient.setQueryData<StudentPass[]>(passesKey(studentId), (list) =>
        list?.map((item) => (item.applicationId === fresh.applicationId ? fresh : item)),
      );
      setConfirming(false);
      toast({ title: t("mine.replaced"), variant: "success" });
    },
    onError: (error) => {
      setConfirming(false);
      toast({ title: error.message, variant: "destructive" });
    },
  });
  const issued = dateFormatFor(format.language, { dateStyle: "long" }).format(new Date(pass.issuedAt));
  const reason = pass.check.reason;
  // An application not paid yet is not being reviewed: the student is told to pay, not to wait.
  const advice =
    reason === "awaiting_acceptance" && pass.status === "pending_payment" ? "awaiting_payment" : reason;

  return (
    <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <div className="grid gap-6 p-5 sm:grid-cols-[auto_1fr] sm:p-6">
        <div className="mx-auto w-full max-w-[260px] sm:w-[220px]">
          <img
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(pass.qrSvg)}`}
            alt={t("mine.qrAlt", { cohort: pass.cohort.name })}
            width={260}
            height={260}
            className="h-auto w-full rounded-md border border-slate-200 bg-white"
            data-testid="pass-qr"
          />
          <p className="mt-2 text-center text-xs text-slate-600">{t("mine.issued", { date: issued })}</p>
        </div>
        <div className="min-w-0">
          <h2 className="text-lg font-semibold text-brand-900">{pass.cohort.name}</h2>
          <p className="mt-1 flex items-center gap-2 text-slate-700">
            <CalendarDays aria-hidden="true" className="h-4 w-4 shrink-0" />
            {t("common:dates.range", {
              start: format.date(pass.cohort.startDate),
              end: format.date(pass.cohort.endDate),
            })}
          </p>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-700">{t("mine.name")}</dt>
            <dd className="font-semibold text-slate-900">{pass.holderName}</dd>
            <dt className="text-slate-700">{t("mine.status")}</dt>
            <dd className="text-slate-900">{t(`account:status.${pass.status}`)}</dd>
            <dt className="text-slate-700">{t("mine.payment")}</dt>
            <dd className="text-slate-900">{t(`account:paymentStatus.${pass.paymentState}`)}</dd>
          </dl>
          <div
            className={cn(
              "mt-4 flex gap-2 rounded-lg p-3 text-sm",
              pass.check.valid ? "bg-emerald-50 text-emerald-900" : "bg-amber-50 text-amber-950",
            )}
          >
            {pass.check.valid ? (
              <BadgeCheck aria-hidden="true" className="h-5 w-5 shrink-0 text-emerald-700" />
            ) : (
              <XCircle aria-hidden="true" className="h-5 w-5 shrink-0 text-amber-700" />
            )}
            <div>
              <p className="font-semibold">
                {reason
                  ? t("mine.notValidNow", { reason: t(`reasons.${reason}.title`) })
                  : t("mine.validNow")}
              </p>
              {advice ? <p className="mt-1">{t(`mine.reasons.${advice}`)}</p> : null}
            </div>
          </div>
          <a
            href={pass.url}
            className="mt-4 inline-block font-medium break-all text-brand-700 underline"
            data-testid="pass-check-link"
          >
            {t("mine.openCheck")}
          </a>
        </div>
      </div>
      <div className="border-t border-slate-200 p-5 sm:p-6">
        <h3 className="font-semibold text-brand-900">{t("mine.replaceTitle")}</h3>
        <p className="mt-1 text-sm text-slate-700">{t("mine.replaceHelp")}</p>
        <Dialog.Root
          open={confirming}
          onOpenChange={(open) => (!reissue.isPending ? setConfirming(open) : undefined)}
        >
          <Dialog.Trigger asChild>
            <Button variant="secondary" size="sm" className="mt-3">
              {t("mine.replace")}
            </Button>
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
            <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[calc(100%-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-xl bg-white p-6 shadow-xl focus:outline-none">
              <Dialog.Title className="text-lg font-bold text-brand-900">
                {t("mine.confirmTitle")}
              </Dialog.Title>
              <Dialog.Description className="mt-2 text-slate-700">{t("mine.confirmBody")}</Dialog.Description>
              <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
                <Dialog.Close asChild>
                  <Button variant="secondary" disabled={reissue.isPending}>
                    {t("mine.cancel")}
                  </Button>
                </Dialog.Close>
                <Button variant="danger" disabled={reissue.isPending} onClick={() => reissue.mutate()}>
                  {reissue.isPending ? t("mine.working") : t("mine.confirm")}
                </Button>
              </div>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </div>
    </div>
  );
}
