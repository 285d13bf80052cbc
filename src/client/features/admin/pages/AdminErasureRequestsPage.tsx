import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { completeErasureRequestContract, listErasureRequestsContract } from "../../../../shared/api/profile";
import type { AdminErasureRequest } from "../../../../shared/schemas/profile";
import { Button } from "../../../components/ui/Button";
import { Card } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { AdminPageHeader, useDateTime } from "../components/common";

const KEY = ["admin", "erasure-requests"] as const;

/** One request: who asked, when, their message, their applicant records (erase each), then "Complete". */
function RequestCard({ request }: { request: AdminErasureRequest }) {
  const { t } = useTranslation("profile");
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const complete = useMutation({
    mutationFn: () => call(completeErasureRequestContract, { params: { id: request.id } }),
    onSuccess: () => {
      toast({ title: t("adminErasure.completed"), variant: "success" });
      void queryClient.invalidateQueries({ queryKey: KEY });
    },
    onError: (error) =>
      toast({
        title: t("adminErasure.failed"),
        description: error instanceof ApiError ? error.message : undefined,
        variant: "destructive",
      }),
  });
  const pending = request.applicants.filter((a) => !a.erased).length;
  const name = `${request.student.firstName} ${request.student.lastName}`.trim();
  return (
    <li>
      <Card>
        <h2 className="text-lg font-semibold break-words text-brand-900">{name || request.student.email}</h2>
        <p className="break-all text-sm text-slate-700">{request.student.email}</p>
        <p className="mt-1 text-sm text-slate-700">
          {t("adminErasure.requestedOn", { date: dateTime(request.createdAt) })}
        </p>
        {request.message ? (
          <blockquote className="mt-3 border-l-4 border-slate-300 pl-3 whitespace-pre-line text-slate-800">
            {request.message}
          </blockquote>
        ) : null}
        <h3 className="mt-4 font-semibold text-brand-900">{t("adminErasure.applicants")}</h3>
        {request.applicants.length === 0 ? (
          <p className="text-slate-700">{t("adminErasure.noApplicants")}</p>
        ) : (
          <ul className="mt-1 space-y-1">
            {request.applicants.map((applicant) => (
              <li key={applicant.id} className="flex flex-wrap items-center gap-2">
                <Link
                  to={`/admin/applications/${applicant.applicationIds[0]}`}
                  className="font-medium text-brand-700 underline"
                >
                  {t("adminErasure.applicant", { count: applicant.applicationIds.length })}
                </Link>
                <span className={applicant.erased ? "text-emerald-800" : "text-amber-800"}>
                  {applicant.erased ? t("adminErasure.erased") : t("adminErasure.notErased")}
                </span>
              </li>
            ))}
          </ul>
        )}
        {request.status === "open" ? (
          <div className="mt-4 space-y-2">
            {request.applicants.length > 0 ? (
              <p className="text-sm text-slate-700">
                {pending > 0 ? t("adminErasure.eraseFirst", { count: pending }) : t("adminErasure.ready")}
              </p>
            ) : null}
            <Button
              variant="danger"
              size="sm"
              disabled={pending > 0 || complete.isPending}
              onClick={() => complete.mutate()}
            >
              {t("adminErasure.complete")}
            </Button>
          </div>
        ) : (
          <p className="mt-4 text-sm text-slate-700">
            {t("adminErasure.completedOn", { date: dateTime(request.completedAt) })}
          </p>
        )}
      </Card>
    </li>
  );
}

/**
 * /admin/erasure-requests (owners; docs/product/privacy.md#erasure): students' requests to erase their
 * data. Each applicant record is erased on its application's page (the existing erasure); then
 * "Complete" erases the student account itself. Financial records stay (7 years).
 */
export default function AdminErasureRequestsPage() {
  const { t } = useTranslation("profile");
  const [status, setStatus] = useState<"open" | "completed">("open");
  const list = useQuery({
    queryKey: [...KEY, status],
    queryFn: ({ signal }) => call(listErasureRequestsContract, { query: { status }, signal }),
  });
  return (
    <div className="space-y-6">
      <AdminPageHeader title={t("adminErasure.title")} lead={t("adminErasure.lead")} />
      <fieldset className="flex gap-2">
        <legend className="sr-only">{t("adminErasure.show")}</legend>
        {(["open", "completed"] as const).map((value) => (
          <Button
            key={value}
            size="sm"
            variant={status === value ? "primary" : "secondary"}
            aria-pressed={status === value}
            onClick={() => setStatus(value)}
          >
            {t(`adminErasure.status.${value}`)}
          </Button>
        ))}
      </fieldset>
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <p role="alert" className="text-red-700">
          {list.error.message}
        </p>
      ) : list.data.items.length === 0 ? (
        <p className="text-slate-700">{t("adminErasure.empty")}</p>
      ) : (
        <ul className="space-y-4">
          {list.data.items.map((request) => (
            <RequestCard key={request.id} request={request} />
          ))}
        </ul>
      )}
    </div>
  );
}
