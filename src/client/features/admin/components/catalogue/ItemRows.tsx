import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Archive, ArchiveRestore, Pencil } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import {
  archiveSummerSchoolContract,
  unarchiveSummerSchoolContract,
} from "../../../../../shared/api/catalogue-admin";
import type { AdminAddOnDto, AdminHousingDto, AdminPackageDto } from "../../../../../shared/catalogue-admin";
import { Button } from "../../../../components/ui/Button";
import { toast } from "../../../../components/ui/toast-store";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { ConfirmButton, toastFailure } from "../forms";
import { ITEM_CONTRACTS, type ItemDialogState, type ItemKind } from "./ItemForms";
import { ArchivedBadge, catalogueAdminKeys, useLocalized } from "./shared";

/** The archive and unarchive contracts of a summer school. */
const SCHOOL_ARCHIVE_CONTRACTS = {
  archive: archiveSummerSchoolContract,
  unarchive: unarchiveSummerSchoolContract,
};

/** Any school item with the fields the rows show. */
export type AnyItem = AdminPackageDto | AdminHousingDto | AdminAddOnDto;

/**
 * Archive or unarchive an item (or a school: kind "school") after a confirmation that says what
 * happens to applications; sends the version the admin saw (a 409 explains someone else changed
 * it). Refreshes the catalogue queries.
 */
export function ArchiveButton({
  kind,
  id,
  name,
  version,
  archived,
  applications,
}: {
  kind: ItemKind | "school";
  id: string;
  name: string;
  version: number;
  archived: boolean;
  applications: number;
}) {
  const { t } = useTranslation("adminCatalogue");
  const queryClient = useQueryClient();
  const contracts = kind === "school" ? SCHOOL_ARCHIVE_CONTRACTS : ITEM_CONTRACTS[kind];
  const mutation = useMutation({
    mutationFn: () =>
      call(archived ? contracts.unarchive : contracts.archive, { params: { id }, body: { version } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all() });
      void queryClient.invalidateQueries({ queryKey: ["catalogue"] });
      toast({
        title: t(archived ? "archive.unarchivedTitle" : "archive.archivedTitle", { name }),
        variant: "success",
      });
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all() });
      toastFailure(t("failedTitle"), error);
    },
  });
  const Icon = archived ? ArchiveRestore : Archive;
  return (
    <ConfirmButton
      variant="ghost"
      label={t(archived ? "archive.unarchiveLabel" : "archive.archiveLabel", { name })}
      title={t(archived ? "archive.unarchiveTitle" : "archive.archiveTitle", { name })}
      description={
        <p>
          {archived
            ? t(kind === "school" ? "archive.unarchiveSchoolBody" : "archive.unarchiveItemBody")
            : t(kind === "school" ? "archive.archiveSchoolBody" : "archive.archiveItemBody", {
                count: applications,
              })}
        </p>
      }
      confirmLabel={t(archived ? "archive.unarchive" : "archive.archive")}
      danger={!archived}
      busy={mutation.isPending}
      onConfirm={(close) => mutation.mutate(undefined, { onSettled: close })}
    >
      <Icon aria-hidden="true" className="h-4 w-4" />
      {t(archived ? "archive.unarchive" : "archive.archive")}
    </ConfirmButton>
  );
}

/** The amount cell of an item: package and add-on price, housing adjustment (signed). */
export function ItemAmount({ kind, item }: { kind: ItemKind; item: AnyItem }) {
  const format = useFormat();
  if (kind === "housing") {
    const cents = (item as AdminHousingDto).priceAdjustmentCents;
    return <>{cents > 0 ? `+${format.money(cents)}` : format.money(cents)}</>;
  }
  return <>{format.money((item as AdminPackageDto | AdminAddOnDto).priceCents)}</>;
}

/** Short facts of an item under its name (urgency, included add-ons, required). */
function ItemFacts({ kind, item }: { kind: ItemKind; item: AnyItem }) {
  const { t } = useTranslation("adminCatalogue");
  const l = useLocalized();
  const facts: string[] = [];
  if (kind === "package") {
    const p = item as AdminPackageDto;
    if (p.urgencyText && p.urgencyColor)
      facts.push(`${l(p.urgencyText)} (${t(`package.colors.${p.urgencyColor}`)})`);
    if (p.includedAddOnIds.length)
      facts.push(t("package.includesAddOns", { count: p.includedAddOnIds.length }));
  }
  if (kind === "addOn") {
    const a = item as AdminAddOnDto;
    facts.push(a.isRequired ? t("addOn.requiredShort") : t("addOn.optionalShort"));
    if (a.includedInPackageIds.length)
      facts.push(t("addOn.includedIn", { count: a.includedInPackageIds.length }));
  }
  return facts.length ? <div className="text-sm text-slate-700">{facts.join(" · ")}</div> : null;
}

/**
 * One row of an item table: name (with facts and state), optionally the school (linking to its
 * page), the amount, the applications that chose it, and Edit / Archive.
 */
export function ItemRow({
  kind,
  item,
  showSchool,
  onEdit,
}: {
  kind: ItemKind;
  item: AnyItem;
  showSchool: boolean;
  onEdit: (state: ItemDialogState) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const format = useFormat();
  const l = useLocalized();
  const name = l(item.name);
  return (
    <tr className="align-top hover:bg-slate-50">
      <td className="min-w-48 px-3 py-3">
        <div className="flex flex-wrap items-center gap-2 font-semibold text-slate-900">
          {name}
          {item.archivedAt ? <ArchivedBadge /> : null}
        </div>
        <ItemFacts kind={kind} item={item} />
      </td>
      {showSchool ? (
        <td className="min-w-48 px-3 py-3">
          <Link
            to={`/admin/summer-schools/${item.school.id}`}
            className="font-medium text-brand-700 underline"
          >
            {l(item.school.name) || t("items.unknownSchool")}
          </Link>
          {item.school.startDate ? (
            <div className="text-sm text-slate-700">{format.date(item.school.startDate)}</div>
          ) : null}
        </td>
      ) : null}
      <td className="px-3 py-3 text-right whitespace-nowrap text-slate-900">
        <ItemAmount kind={kind} item={item} />
      </td>
      <td className="px-3 py-3 text-right text-slate-800">{item.applications}</td>
      <td className="px-3 py-3">
        <div className="flex flex-wrap justify-end gap-1">
          <Button
            variant="ghost"
            size="sm"
            aria-label={t("items.editLabel", { name })}
            onClick={() => onEdit({ kind, schoolId: item.summerSchoolId, item } as ItemDialogState)}
          >
            <Pencil aria-hidden="true" className="h-4 w-4" />
            {t("items.edit")}
          </Button>
          <ArchiveButton
            kind={kind}
            id={item.id}
            name={name}
            version={item.version}
            archived={Boolean(item.archivedAt)}
            applications={item.applications}
          />
        </div>
      </td>
    </tr>
  );
}

/** Header cells matching ItemRow. */
export function ItemHeaderCells({ kind, showSchool }: { kind: ItemKind; showSchool: boolean }) {
  const { t } = useTranslation("adminCatalogue");
  const cell = "px-3 py-3 font-semibold whitespace-nowrap text-slate-900";
  return (
    <>
      <th scope="col" className={`${cell} text-left`}>
        {t("items.columns.name")}
      </th>
      {showSchool ? (
        <th scope="col" className={`${cell} text-left`}>
          {t("items.columns.school")}
        </th>
      ) : null}
      <th scope="col" className={`${cell} text-right`}>
        {kind === "housing" ? t("housing.adjustmentShort") : t("items.columns.price")}
      </th>
      <th scope="col" className={`${cell} text-right`}>
        {t("items.columns.applications")}
      </th>
      <th scope="col" className={`${cell} text-right`}>
        <span className="sr-only">{t("items.columns.actions")}</span>
      </th>
    </>
  );
}
