import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { ButtonLink } from "../../components/ui/Button";
import { Card, Container } from "../../components/ui/Layout";
import { useFormat } from "../../lib/format";
import { useApplication } from "./api";
import { readLastSubmitted, useWizardState } from "./wizard-state";

/** /apply/success (docs/product/admissions.md#application-wizard): Application ID, Applicant ID and date submitted of this tab's application. */
export default function ApplySuccessPage() {
  const { t } = useTranslation("apply");
  const { date } = useFormat();
  const { state, loaded } = useWizardState();
  const [ids, setIds] = useState<{ applicationId?: string; applicantId?: string }>({});
  useEffect(() => {
    if (!loaded) return;
    setIds(
      state.applicationId
        ? { applicationId: state.applicationId, applicantId: state.applicantId }
        : readLastSubmitted(),
    );
  }, [loaded, state.applicationId, state.applicantId]);
  const application = useApplication(ids.applicationId);
  const submitted = application.data?.submittedAt ?? application.data?.createdAt;
  return (
    <Container className="max-w-2xl py-16">
      <Card>
        <h1 className="text-2xl font-bold text-brand-900">{t("success.title")}</h1>
        {ids.applicationId ? (
          <dl className="mt-6 space-y-3">
            <div>
              <dt className="text-sm text-slate-700">{t("success.applicationId")}</dt>
              <dd className="font-mono text-slate-900">{ids.applicationId}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-700">{t("success.applicantId")}</dt>
              <dd className="font-mono text-slate-900">{ids.applicantId}</dd>
            </div>
            <div>
              <dt className="text-sm text-slate-700">{t("success.dateSubmitted")}</dt>
              <dd className="text-slate-900">{submitted ? date(submitted) : "—"}</dd>
            </div>
          </dl>
        ) : (
          <p className="mt-4 text-slate-700">{t("success.none")}</p>
        )}
        <p className="mt-6 text-slate-700">{t("success.next")}</p>
        <ButtonLink to="/" className="mt-6">
          {t("confirmation.home")}
        </ButtonLink>
      </Card>
    </Container>
  );
}
