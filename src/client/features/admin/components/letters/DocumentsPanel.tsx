import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import { useTranslation } from "react-i18next";
import { urlOf } from "../../../../../shared/api/contract";
import {
  getApplicationDocumentsContract,
  getCertificateContract,
  getVisaLetterContract,
  setCompletionContract,
} from "../../../../../shared/api/letters";
import { schoolDate } from "../../../../../shared/refunds";
import { Notice } from "../../../../components/account/auth";
import { Button, buttonClass } from "../../../../components/ui/Button";
import { Spinner } from "../../../../components/ui/Spinner";
import { toast } from "../../../../components/ui/toast-store";
import { ApiError } from "../../../../lib/api";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";

/**
 * The documents of an application in the back office (docs/product/admissions.md#documents-and-letters): download the visa
 * invitation letter (or why it is not available) and the certificate of completion, and mark or
 * undo the programme's completion (`POST /api/admin/applications/:id/completion`, version-checked:
 * a 409 reloads the current state). `canWrite`: owners and admissions. `onChanged` runs after a
 * completion change (the application's version moved). Texts in the `letters` namespace.
 */
export function DocumentsPanel({
  applicationId,
  canWrite,
  onChanged,
}: {
  applicationId: string;
  canWrite: boolean;
  onChanged: () => void;
}) {
  const { t } = useTranslation("letters");
  const { date } = useFormat();
  const queryClient = useQueryClient();
  const key = ["admin", "applications", "documents", applicationId] as const;
  const params = { id: applicationId };
  const documents = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(getApplicationDocumentsContract, { params, signal }),
  });
  const change = useMutation({
    mutationFn: (completed: boolean) =>
      call(setCompletionContract, { params, body: { completed, version: documents.data?.version ?? 0 } }),
    onSuccess: (fresh) => {
      queryClient.setQueryData(key, fresh);
      toast({ title: t("admin.saved"), variant: "success" });
      onChanged();
    },
    onError: (error) => {
      toast({ title: error instanceof ApiError ? error.message : String(error), variant: "destructive" });
      void queryClient.invalidateQueries({ queryKey: key });
    },
  });
  if (documents.isPending) return <Spinner />;
  if (documents.isError) return <Notice tone="error">{t("loadError")}</Notice>;
  const d = documents.data;
  return (
    <div className="space-y-5">
      <div>
        <h3 className="font-semibold text-brand-900">{t("admin.visaLetter")}</h3>
        {d.visaLetter.available ? (
          <a
            href={urlOf(getVisaLetterContract, params)}
            download
            className={buttonClass("secondary", "sm", "mt-2")}
          >
            <FileDown aria-hidden="true" className="h-4 w-4" />
            {t("admin.downloadLetter")}
          </a>
        ) : (
          <p className="mt-1 text-sm text-slate-700">
            {t(`visa.blocked.${d.visaLetter.blockedBy ?? "depositDue"}`)}
          </p>
        )}
        <p className="mt-2 text-sm text-slate-700">
          {t("visa.window.range", {
            opens: date(d.visaWindow.opens),
            closes: date(d.visaWindow.closes),
            start: date(d.programme.startDate),
          })}
        </p>
      </div>
      <div>
        <h3 className="font-semibold text-brand-900">{t("admin.certificate")}</h3>
        <p className="mt-1 text-sm text-slate-700">
          {d.certificate.completedAt
            ? t("admin.completedOn", { date: date(schoolDate(new Date(d.certificate.completedAt))) })
            : t("admin.notCompleted")}
        </p>
        <div className="mt-2 flex flex-wrap gap-2">
          {d.certificate.available ? (
            <a
              href={urlOf(getCertificateContract, params)}
              download
              className={buttonClass("secondary", "sm")}
            >
              <FileDown aria-hidden="true" className="h-4 w-4" />
              {t("admin.downloadCertificate")}
            </a>
          ) : null}
          {canWrite ? (
            d.certificate.completedAt ? (
              <Button
                variant="ghost"
                size="sm"
                disabled={change.isPending}
                onClick={() => change.mutate(false)}
              >
                {t("admin.unmarkCompleted")}
              </Button>
            ) : (
              <Button size="sm" disabled={change.isPending} onClick={() => change.mutate(true)}>
                {t("admin.markCompleted")}
              </Button>
            )
          ) : null}
        </div>
      </div>
    </div>
  );
}
