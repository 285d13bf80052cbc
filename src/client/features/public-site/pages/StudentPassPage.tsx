import { useQuery } from "@tanstack/react-query";
import { BadgeCheck, CalendarDays, XCircle } from "lucide-react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import type { StudentPassDto } from "../../../../shared/application";
import { cn } from "../../../components/ui/cn";
import { Card, Container } from "../../../components/ui/Layout";
import { Spinner } from "../../../components/ui/Spinner";
import { api } from "../../../lib/api";
import { useFormat } from "../../../lib/format";

/**
 * /student-pass/{id} (spec §2): the page a student's pass (QR code) opens, for staff, hosts and
 * venues to check that the holder is enrolled. Shows VALID or NOT VALID, the first name, the
 * initial of the last name and the programme dates; nothing else about the student.
 */
export default function StudentPassPage() {
  const { t } = useTranslation("studentPass");
  const { date } = useFormat();
  const { id = "" } = useParams();
  const pass = useQuery({
    queryKey: ["student-pass", id],
    queryFn: () => api<StudentPassDto>(`/api/student-pass/${encodeURIComponent(id)}`),
    retry: false,
  });
  return (
    <Container className="max-w-lg py-12">
      <h1 className="text-center text-2xl font-bold text-brand-900">{t("heading")}</h1>
      <div className="mt-6">
        {pass.isPending ? (
          <Spinner />
        ) : pass.isError ? (
          <Card className="text-center">
            <XCircle aria-hidden="true" className="mx-auto h-12 w-12 text-red-700" />
            <p className="mt-3 text-lg font-semibold text-red-800" role="status">
              {t("notFound")}
            </p>
            <p className="mt-2 text-slate-700">{t("notFoundHelp")}</p>
          </Card>
        ) : (
          <Card className={cn("text-center", pass.data.valid ? "border-emerald-400" : "border-red-300")}>
            {pass.data.valid ? (
              <BadgeCheck aria-hidden="true" className="mx-auto h-14 w-14 text-emerald-700" />
            ) : (
              <XCircle aria-hidden="true" className="mx-auto h-14 w-14 text-red-700" />
            )}
            <p
              role="status"
              className={cn(
                "mt-3 text-2xl font-bold tracking-wide",
                pass.data.valid ? "text-emerald-800" : "text-red-800",
              )}
            >
              {pass.data.valid ? t("valid") : t("invalid")}
            </p>
            <p className="mt-4 text-xl font-semibold text-brand-900">
              {pass.data.firstName} {pass.data.lastInitial}.
            </p>
            <p className="mt-1 text-slate-700">{pass.data.programName}</p>
            {pass.data.startDate ? (
              <p className="mt-2 flex items-center justify-center gap-2 text-sm text-slate-700">
                <CalendarDays aria-hidden="true" className="h-4 w-4" />
                {t("dates", { start: date(pass.data.startDate), end: date(pass.data.endDate) })}
              </p>
            ) : null}
            <p className="mt-4 text-sm text-slate-600">
              {pass.data.valid ? t("validHelp") : t("invalidHelp")}
            </p>
          </Card>
        )}
      </div>
    </Container>
  );
}
