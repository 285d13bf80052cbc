import { CalendarClock, Download, FileText } from "lucide-react";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../shared/api/contract";
import { getStudentVisaLetterContract } from "../../../../shared/api/letters";
import { schoolDate } from "../../../../shared/refunds";
import { Notice } from "../../../components/account/auth";
import { buttonClass } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { useFormat } from "../../../lib/format";
import { useDocuments } from "./useDocuments";

/**
 * The visa invitation letter of one application, for /student/trip (docs/product/admissions.md#documents-and-letters):
 * whether it is available and, if not, why (deposit not paid, awaiting acceptance where the school
 * asks for it, closed, refunded); the visa window (8 to 6 weeks before the start, docs/product/payments.md#refunds) with
 * dates written for people; and the download (`GET /api/student/applications/:id/visa-letter.pdf`).
 * Self-contained: give it the application (`{ id }`); texts in the `letters` namespace.
 */
export function VisaLetterCard({ application }: { application: { id: string } }) {
  const { t } = useTranslation("letters");
  const { date } = useFormat();
  const documents = useDocuments(application.id);
  const headingId = `visa-letter-${application.id}`;
  return (
    <section aria-labelledby={headingId}>
      <Card>
        <h2 id={headingId} className="flex items-center gap-2 text-xl font-semibold text-brand-900">
          <FileText aria-hidden="true" className="h-5 w-5 shrink-0" />
          {t("visa.title")}
        </h2>
        <p className="mt-2 text-slate-700">{t("visa.intro")}</p>
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
            <div className="mt-4">
              {documents.data.visaLetter.available ? (
                <>
                  <p className="text-slate-800">{t("visa.available")}</p>
                  {documents.data.visaLetter.issuedAt ? (
                    <p className="mt-1 text-sm text-slate-600">
                      {t("visa.issuedOn", {
                        date: date(schoolDate(new Date(documents.data.visaLetter.issuedAt))),
                      })}
                    </p>
                  ) : null}
                  <a
                    href={urlOf(getStudentVisaLetterContract, { id: application.id })}
                    download
                    className={buttonClass("primary", "md", "mt-4 w-full sm:w-auto")}
                    onClick={() => setTimeout(() => void documents.refetch(), 1500)}
                  >
                    <Download aria-hidden="true" className="h-5 w-5" />
                    {t("visa.download")}
                  </a>
                </>
              ) : (
                <Notice>{t(`visa.blocked.${documents.data.visaLetter.blockedBy ?? "depositDue"}`)}</Notice>
              )}
            </div>
            {documents.data.visaLetter.blockedBy === "closed" ||
            documents.data.visaLetter.blockedBy === "refunded" ||
            documents.data.visaLetter.blockedBy === "erased" ? null : (
              <div className="mt-6 rounded-lg border border-slate-200 bg-slate-50 p-4">
                <h3 className="flex items-center gap-2 font-semibold text-brand-900">
                  <CalendarClock aria-hidden="true" className="h-5 w-5 shrink-0" />
                  {t("visa.window.title")}
                </h3>
                <p className="mt-1 text-slate-800">
                  {t("visa.window.range", {
                    opens: date(documents.data.visaWindow.opens),
                    closes: date(documents.data.visaWindow.closes),
                    start: date(documents.data.programme.startDate),
                  })}
                </p>
                <p className="mt-1 text-sm text-slate-700">
                  {t(`visa.window.${documents.data.visaWindow.phase}`)}
                </p>
              </div>
            )}
          </>
        )}
      </Card>
    </section>
  );
}
