import { useQuery } from "@tanstack/react-query";
import { FileDown } from "lucide-react";
import { useTranslation } from "react-i18next";
import { getApplicationTripContract } from "../../../../shared/api/cohort";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { call } from "../../../lib/call";
import { useFileSize } from "../../../lib/file-size";
import { useFormat } from "../../../lib/format";
import { DetailItem, DetailList } from "./forms";

/**
 * What the student entered on /student/trip, for the school's team (docs/product/portals.md#cohort-pages): the emergency
 * contact and the proof of travel and health insurance with its download (audited on the server),
 * from `GET /api/admin/applications/:id/trip` (applicants:read). Texts: `admin`
 * `applicationDetail.trip.*`.
 */
export function TripPanel({ applicationId }: { applicationId: string }) {
  const { t } = useTranslation("admin");
  const format = useFormat();
  const size = useFileSize();
  const query = useQuery({
    queryKey: ["admin", "trip", applicationId],
    queryFn: () => call(getApplicationTripContract, { params: { id: applicationId } }),
  });
  if (query.isPending) return <Spinner />;
  if (query.isError)
    return (
      <Notice tone="error" title={t("applicationDetail.trip.loadError")}>
        <Button variant="secondary" size="sm" className="mt-2" onClick={() => void query.refetch()}>
          {t("applicationDetail.trip.retry")}
        </Button>
      </Notice>
    );
  const { emergencyContact: contact, insurance } = query.data;
  return (
    <DetailList className="gap-x-6">
      <DetailItem label={t("applicationDetail.trip.emergencyContact")} wide>
        {contact ? (
          <>
            {contact.name} ({contact.relationship})
            <br />
            <a href={`tel:${contact.phone.replace(/[^0-9+]/g, "")}`} className="text-brand-700 underline">
              {contact.phone}
            </a>
          </>
        ) : (
          <span className="text-slate-700">{t("applicationDetail.trip.noContact")}</span>
        )}
      </DetailItem>
      <DetailItem
        label={t("applicationDetail.trip.insurance")}
        hint={
          insurance.proofRequired
            ? t("applicationDetail.trip.proofRequired")
            : t("applicationDetail.trip.proofOptional")
        }
        wide
      >
        {insurance.proof ? (
          <a
            href={insurance.proof.url}
            download
            className="inline-flex items-center gap-1 font-medium text-brand-700 underline"
          >
            <FileDown aria-hidden="true" className="h-4 w-4" />
            {t("applicationDetail.trip.downloadProof", {
              type: insurance.proof.type.toUpperCase(),
              size: size(insurance.proof.sizeBytes),
              date: format.date(insurance.proof.uploadedAt),
            })}
          </a>
        ) : (
          <span className={insurance.proofRequired ? "text-red-800" : "text-slate-700"}>
            {t("applicationDetail.trip.noProof")}
          </span>
        )}
      </DetailItem>
    </DetailList>
  );
}
