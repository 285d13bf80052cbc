import { Award, Download } from "lucide-react";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import { getStudentCertificateContract } from "../../../../shared/api/letters";
import { schoolDate } from "../../../../shared/refunds";
import { Notice } from "../../../components/account/auth";
import { buttonClass } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { useFormat } from "../../../lib/format";
import { useDocuments } from "./useDocuments";

/**
 * The certificate of completion of one application, for /student/dashboard (docs/product/admissions.md#certificate
 * "6 ECTS"): available once an admin marked the programme completed, then downloadable
 * (`GET /api/student/applications/:id/certificate.pdf`); until then, when it will come.
 * Self-contained: give it the application (`{ id }`); texts in the `letters` namespace.
 */
export function CertificateCard({ application }: { application: { id: string } }) {
  const { t } = useTranslation("letters");
  const { date } = useFormat();
  const documents = useDocuments(application.id);
  const headingId = `certificate-${application.id}`;
  return (
    <section aria-labelledby={headingId}>
      <Card>
        <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold text-brand-900">
          <Award aria-hidden="true" className="h-5 w-5 shrink-0" />
          {t("certificate.title")}
        </h2>
        {documents.isPending ? (
          <div className="mt-4">
            <Spinner />
          </div>
        ) : documents.isError ? (
          <div className="mt-4">
            <Notice tone="error">{t("loadError")}</Notice>
          </div>
        ) : (
          <>
            <p className="mt-2 text-slate-700">
              {t("certificate.intro", { ects: documents.data.certificate.ects })}
            </p>
            {documents.data.certificate.available && documents.data.certificate.completedAt ? (
              <>
                <p className="mt-4 text-slate-800">
                  {t("certificate.available", {
                    date: date(schoolDate(new Date(documents.data.certificate.completedAt))),
                  })}
                </p>
                <a
                  href={urlOf(getStudentCertificateContract, { id: application.id })}
                  download
                  className={buttonClass("primary", "md", "mt-4 w-full sm:w-auto")}
                >
                  <Download aria-hidden="true" className="h-5 w-5" />
                  {t("certificate.download")}
                </a>
              </>
            ) : (
              <div className="mt-4">
                <Notice>{t("certificate.pending")}</Notice>
              </div>
            )}
          </>
        )}
      </Card>
    </section>
  );
}
