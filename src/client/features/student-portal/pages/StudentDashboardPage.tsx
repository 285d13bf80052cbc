import { useQuery } from "@tanstack/react-query";
import { CalendarDays } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { listStudentApplicationsContract } from "../../../../shared/api/auth";
import { Notice } from "../../../components/account/auth";
import { ResendVerification } from "../../../components/account/ResendVerification";
import { StatusBadge } from "../../../components/account/StatusBadge";
import { ButtonLink } from "../../../components/ui/Button";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { roleDataKey, useSignedInUser } from "../../../lib/session";
import { useSite } from "../../../lib/site";
import { CertificateCard } from "../components/CertificateCard";
import { NextSteps, useNextSteps } from "../components/NextSteps";
import { PortalEntries } from "../components/PortalEntries";

/**
 * /student/dashboard: the student's applications (those made with their verified e-mail address)
 * with status, payment state, balance and their next steps from the server (docs/product/portals.md#student-portal: "Student portal in
 * full"; docs/product/admissions.md#next-steps: what is missing, each with the page where it is done); until the
 * address is verified, a notice asking to verify it.
 */
export default function StudentDashboardPage() {
  const { t } = useTranslation("account");
  const user = useSignedInUser("student");
  const { supportEmail } = useSite();
  const format = useFormat();
  const applications = useQuery({
    queryKey: [...roleDataKey("student"), "applications", user.id],
    queryFn: () => call(listStudentApplicationsContract),
    enabled: user.emailVerified,
  });
  const nextSteps = useNextSteps(user.id, user.emailVerified);
  const needsVerification =
    !user.emailVerified || (applications.error instanceof ApiError && applications.error.status === 403);

  let content: ReactNode;
  if (needsVerification) {
    content = (
      <Notice tone="info" title={t("student.dashboard.verifyTitle")}>
        <p>{t("student.dashboard.verify", { email: user.email })}</p>
        <p>{t("student.dashboard.verifyHelp", { email: supportEmail })}</p>
        <ResendVerification account="student" email={user.email} />
      </Notice>
    );
  } else if (applications.isPending) {
    content = <Spinner />;
  } else if (applications.isError) {
    content = (
      <Notice tone="error" title={t("student.dashboard.loadErrorTitle")}>
        <p>{applications.error.message}</p>
        <button
          type="button"
          className="mt-2 font-medium text-red-900 underline"
          onClick={() => void applications.refetch()}
        >
          {t("common:retry")}
        </button>
      </Notice>
    );
  } else if (applications.data.length === 0) {
    content = (
      <Card>
        <p className="text-slate-700">{t("student.dashboard.empty", { email: user.email })}</p>
        <ButtonLink to="/apply" className="mt-4">
          {t("student.dashboard.apply")}
        </ButtonLink>
      </Card>
    );
  } else {
    content = (
      <ul className="grid gap-4 lg:grid-cols-2">
        {applications.data.map((application) => (
          <li key={application.id}>
            <Card className="h-full">
              <h3 className="text-lg font-semibold text-brand-900">{application.programName}</h3>
              <p className="mt-1 flex items-center gap-2 text-slate-700">
                <CalendarDays aria-hidden="true" className="h-4 w-4 shrink-0" />
                {t("common:dates.range", {
                  start: format.date(application.startDate),
                  end: format.date(application.endDate),
                })}
              </p>
              <dl className="mt-4 grid grid-cols-2 gap-x-4 gap-y-3 text-sm">
                <div>
                  <dt className="text-slate-700">{t("student.dashboard.status")}</dt>
                  <dd className="mt-1">
                    <StatusBadge
                      kind="status"
                      value={application.status}
                      label={t(`status.${application.status}`)}
                    />
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-700">{t("student.dashboard.payment")}</dt>
                  <dd className="mt-1">
                    <StatusBadge
                      kind="payment"
                      value={application.paymentState}
                      label={t(`paymentStatus.${application.paymentState}`)}
                    />
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-700">{t("student.dashboard.total")}</dt>
                  <dd className="mt-1 font-semibold text-slate-900">
                    {format.money(application.totalAmount)}
                  </dd>
                </div>
                <div>
                  <dt className="text-slate-700">{t("student.dashboard.paid")}</dt>
                  <dd className="mt-1 font-semibold text-slate-900">
                    {format.money(application.amountPaid)}
                  </dd>
                </div>
              </dl>
              <NextSteps steps={nextSteps.data?.steps ?? []} applicationId={application.id} />
              <p className="mt-4 text-xs text-slate-700">
                {t("student.dashboard.reference", { id: application.id })}
              </p>
            </Card>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <Container className="py-10 sm:py-12">
      <h1 className="text-3xl font-bold tracking-tight text-brand-900">
        {t("student.dashboard.heading", { name: user.firstName })}
      </h1>
      <p className="mt-3 max-w-2xl text-slate-700">{t("student.dashboard.lead")}</p>
      <section className="mt-8" aria-labelledby="applications-heading">
        <h2 id="applications-heading" className="mb-4 text-xl font-bold text-brand-900">
          {t("student.dashboard.applications")}
        </h2>
        {content}
      </section>
      {/* Nothing of a cohort before the e-mail is verified (docs/product/catalogue-and-pricing.md#cohorts; the API answers 403). */}
      {applications.data
        ?.filter((application) => application.status === "accepted")
        .map((application) => (
          <div key={`certificate-${application.id}`} className="mt-8">
            <CertificateCard application={application} />
          </div>
        ))}
      {user.emailVerified ? <PortalEntries /> : null}
      <section className="mt-10" aria-labelledby="help-heading">
        <h2 id="help-heading" className="text-xl font-bold text-brand-900">
          {t("student.dashboard.helpTitle")}
        </h2>
        <p className="mt-2 max-w-2xl text-slate-700">
          {t("student.dashboard.help")}{" "}
          <a href={`mailto:${supportEmail}`} className="font-medium text-brand-700 underline">
            {supportEmail}
          </a>
        </p>
        <p className="mt-2 max-w-2xl text-slate-700">
          <Link to="/faq" className="font-medium text-brand-700 underline">
            {t("student.dashboard.faq")}
          </Link>
        </p>
      </section>
    </Container>
  );
}
