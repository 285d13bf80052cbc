import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { getSummerSchoolContract } from "../../../../shared/api/catalogue-admin";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { ApiError } from "../../../lib/api";
import { call } from "../../../lib/call";
import { useFormat } from "../../../lib/format";
import { useSignedInUser } from "../../../lib/session";
import { CohortGuidePanel } from "../components/catalogue/CohortGuideForm";
import { ItemDialog, type ItemDialogState, type ItemKind } from "../components/catalogue/ItemForms";
import { type AnyItem, ArchiveButton, ItemHeaderCells, ItemRow } from "../components/catalogue/ItemRows";
import { SchoolForm } from "../components/catalogue/SchoolForm";
import { catalogueAdminKeys, SchoolStatusBadge, useLocalized } from "../components/catalogue/shared";
import { AdminPageHeader, Panel } from "../components/common";
import { CohortCompletionPanel } from "../components/letters/CohortCompletionPanel";
import { EarlyDiscountPanel } from "../components/pricing/EarlyDiscountPanel";
import { WaitingListPanel } from "../components/waiting-list/WaitingListPanel";
import { canChangeStatus } from "../permissions";

/** One school's packages, housing options or add-ons as a table with "New …". */
function ItemSection({
  kind,
  schoolId,
  items,
  onEdit,
}: {
  kind: ItemKind;
  schoolId: string;
  items: AnyItem[];
  onEdit: (state: ItemDialogState) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const section = kind === "package" ? "packages" : kind === "housing" ? "housing" : "addOns";
  const headingId = `${section}-heading`;
  return (
    <Panel
      title={t(`${section}.title`)}
      id={headingId}
      className="mt-6"
      actions={
        <div className="flex flex-wrap gap-2">
          {kind === "addOn" ? (
            <Link
              to={`/admin/courses/${schoolId}/add-ons`}
              className="self-center text-sm font-medium text-brand-700 underline"
            >
              {t("addOns.openList")}
            </Link>
          ) : null}
          <Button size="sm" onClick={() => onEdit({ kind, schoolId } as ItemDialogState)}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t(`${kind}.new`)}
          </Button>
        </div>
      }
    >
      {items.length === 0 ? (
        <p className="text-slate-700">{t(`${section}.none`)}</p>
      ) : (
        <section
          className="overflow-x-auto"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
          tabIndex={0}
          aria-labelledby={headingId}
        >
          <table className="w-full min-w-[36rem] text-sm">
            <thead className="border-b border-slate-200 bg-slate-50">
              <tr>
                <ItemHeaderCells kind={kind} showSchool={false} />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {items.map((item) => (
                <ItemRow key={item.id} kind={kind} item={item} showSchool={false} onEdit={onEdit} />
              ))}
            </tbody>
          </table>
        </section>
      )}
    </Panel>
  );
}

/**
 * /admin/summer-schools/:id: a summer school's form (texts in English, Chinese and French, dates,
 * capacity, deposit) with its status and paid places, Archive / Unarchive, its waiting list
 * (decision 027; `#waiting-list` scrolls to it), its early application discount (decision 030), and below it the school's packages, housing options and add-ons with
 * New, Edit and Archive (docs/product/back-office.md#catalogue-admin).
 */
export default function AdminSummerSchoolPage() {
  const { t } = useTranslation("adminCatalogue");
  const { t: tl } = useTranslation("letters");
  const admin = useSignedInUser("admin");
  const { id = "" } = useParams();
  const l = useLocalized();
  const format = useFormat();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<ItemDialogState | null>(null);
  const detail = useQuery({
    queryKey: catalogueAdminKeys.school(id),
    queryFn: ({ signal }) => call(getSummerSchoolContract, { params: { id }, signal }),
  });

  const back = (
    <p className="mb-3">
      <Link to="/admin/courses" className="font-medium text-brand-700 underline">
        {t("school.backToList")}
      </Link>
    </p>
  );
  if (detail.isPending) return <Spinner className="py-16" />;
  if (detail.isError) {
    const notFound = detail.error instanceof ApiError && detail.error.status === 404;
    return (
      <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
        {back}
        <AdminPageHeader title={notFound ? t("school.notFoundTitle") : t("school.title")} />
        <div className="mt-6">
          <Notice tone="error" title={notFound ? t("school.notFoundTitle") : t("common:loadError")}>
            <p>{detail.error.message}</p>
          </Notice>
        </div>
      </div>
    );
  }
  const { school, packages, housing, addOns } = detail.data;
  const name = l(school.name);

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      {back}
      <AdminPageHeader
        title={name}
        lead={
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <SchoolStatusBadge status={school.status} />
            <span>
              {format.date(school.startDate)} – {format.date(school.endDate)}
            </span>
            <span>{t("school.placesPaid", { paid: school.paidPlaces, capacity: school.capacity })}</span>
          </div>
        }
        actions={
          <ArchiveButton
            kind="school"
            id={school.id}
            name={name}
            version={school.version}
            archived={Boolean(school.archivedAt)}
            applications={school.paidPlaces}
          />
        }
      />
      <Panel title={t("school.detailsTitle")} id="school-details" className="mt-6">
        <SchoolForm
          key={`${school.id}:${school.version}`}
          school={school}
          onSaved={() => void queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all() })}
        />
      </Panel>
      <WaitingListPanel schoolId={school.id} role={admin.role} />
      <EarlyDiscountPanel schoolId={school.id} role={admin.role} />
      {admin && canChangeStatus(admin) ? (
        <Panel title={tl("admin.cohortTitle")} id="school-completion" className="mt-6">
          <CohortCompletionPanel schoolId={school.id} version={school.version} />
        </Panel>
      ) : null}
      <ItemSection kind="package" schoolId={school.id} items={packages} onEdit={setDialog} />
      <ItemSection kind="housing" schoolId={school.id} items={housing} onEdit={setDialog} />
      <ItemSection kind="addOn" schoolId={school.id} items={addOns} onEdit={setDialog} />
      <CohortGuidePanel schoolId={school.id} />
      <ItemDialog state={dialog} onClose={() => setDialog(null)} />
    </div>
  );
}
