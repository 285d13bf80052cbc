import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Download, Plus } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { CataloguePage } from "../../../../../shared/catalogue-admin";
import {
  ARCHIVE_STATES,
  ITEM_SORT_KEYS,
  type ItemSortKey,
} from "../../../../../shared/schemas/catalogue-admin";
import { Button, buttonClass } from "../../../../components/ui/Button";
import { inputClass } from "../../../../components/ui/Field";
import { api } from "../../../../lib/api";
import { useFormat } from "../../../../lib/format";
import { AdminListFrame } from "../AdminListFrame";
import { AdminPageHeader } from "../common";
import { ITEM_PATHS, ItemDialog, type ItemDialogState, type ItemKind } from "./ItemForms";
import { type AnyItem, ItemRow } from "./ItemRows";
import {
  catalogueAdminKeys,
  FilterSelect,
  SortHeader,
  useListState,
  useLocalized,
  useSchoolOptions,
} from "./shared";

const PAGE_TITLE: Record<ItemKind, string> = { package: "packages", housing: "housing", addOn: "addOns" };

/**
 * A back-office list of packages, housing options or add-ons across summer schools (or of one
 * school: `schoolId`), paginated, sorted, filtered (school, archived state) and searched on the
 * server, with CSV export of the same selection; Edit / Archive on each row and "New …" for the
 * chosen school. The list state lives in the address.
 */
export function ItemListPage({ kind, schoolId }: { kind: ItemKind; schoolId?: string }) {
  const { t } = useTranslation("adminCatalogue");
  const format = useFormat();
  const l = useLocalized();
  const page = PAGE_TITLE[kind];
  const list = useListState<ItemSortKey>({
    sortKeys: ITEM_SORT_KEYS,
    defaultSort: { key: "school", direction: "asc" },
    filterKeys: schoolId ? ["state", "q"] : ["schoolId", "state", "q"],
    fixed: schoolId ? { schoolId } : undefined,
  });
  const path = ITEM_PATHS[kind];
  const query = useQuery({
    queryKey: catalogueAdminKeys.list(kind, list.search),
    queryFn: ({ signal }) => api<CataloguePage<AnyItem>>(`/api/admin/${path}?${list.search}`, { signal }),
    placeholderData: keepPreviousData,
  });
  const schools = useSchoolOptions();
  const [dialog, setDialog] = useState<ItemDialogState | null>(null);

  const [q, setQ] = useState(list.params.get("q") ?? "");
  const addressQ = list.params.get("q") ?? "";
  useEffect(() => setQ(addressQ), [addressQ]);
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    list.update({ q: q.trim() || null });
  };

  const chosenSchool = schoolId ?? list.params.get("schoolId") ?? "";
  const school = schools.data?.items.find((s) => s.id === chosenSchool);
  const schoolOptions = (schools.data?.items ?? []).map((s) => ({
    value: s.id,
    label: `${l(s.name)} (${format.date(s.startDate)})`,
  }));
  const exportHref = `/api/admin/${path}.csv${list.filters.size ? `?${list.filters.toString()}` : ""}`;
  const title = schoolId && school ? t("addOns.schoolTitle", { school: l(school.name) }) : t(`${page}.title`);
  const showSchool = !schoolId;

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={title}
        lead={
          <>
            <p>{t(`${page}.lead`)}</p>
            {schoolId ? (
              <p className="mt-1">
                <Link
                  to={`/admin/summer-schools/${schoolId}`}
                  className="font-medium text-brand-700 underline"
                >
                  {t("addOns.backToSchool")}
                </Link>
              </p>
            ) : null}
          </>
        }
        actions={
          <>
            <a href={exportHref} download className={buttonClass("secondary", "sm")}>
              <Download aria-hidden="true" className="h-4 w-4" />
              {t("list.export")}
            </a>
            <Button
              size="sm"
              disabled={!chosenSchool}
              aria-describedby={chosenSchool ? undefined : "new-item-hint"}
              onClick={() => setDialog({ kind, schoolId: chosenSchool } as ItemDialogState)}
            >
              <Plus aria-hidden="true" className="h-4 w-4" />
              {t(`${kind}.new`)}
            </Button>
          </>
        }
      />
      {chosenSchool ? null : (
        <p id="new-item-hint" className="mt-2 text-sm text-slate-700">
          {t("items.chooseSchoolFirst")}
        </p>
      )}

      <section
        aria-labelledby="filters-heading"
        className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h2 id="filters-heading" className="sr-only">
          {t("list.filters")}
        </h2>
        <form onSubmit={submitSearch} className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="flex-1">
            <label htmlFor="filter-q" className="block text-sm font-medium text-slate-900">
              {t("list.search")}
            </label>
            <input
              id="filter-q"
              type="search"
              value={q}
              onChange={(event) => setQ(event.target.value)}
              maxLength={200}
              className={inputClass}
              placeholder={t("list.searchItemsPlaceholder")}
            />
          </div>
          <Button type="submit" variant="secondary">
            {t("list.searchButton")}
          </Button>
        </form>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          {schoolId ? null : (
            <FilterSelect
              id="filter-school"
              label={t("list.school")}
              value={list.params.get("schoolId") ?? ""}
              onChange={(value) => list.update({ schoolId: value || null })}
              options={schoolOptions}
              allLabel={t("list.allSchools")}
            />
          )}
          <FilterSelect
            id="filter-state"
            label={t("list.state")}
            value={list.params.get("state") ?? "active"}
            onChange={(value) => list.update({ state: value === "active" ? null : value })}
            options={ARCHIVE_STATES.map((value) => ({ value, label: t(`list.states.${value}`) }))}
          />
        </div>
      </section>

      <div className="mt-6">
        <AdminListFrame
          list={query}
          empty={t("list.empty")}
          captionId={`${kind}-caption`}
          caption={t(`${page}.caption`)}
          minWidth="min-w-[44rem]"
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="name" sort={list.sort} onSort={list.onSort}>
                {t("items.columns.name")}
              </SortHeader>
              {showSchool ? (
                <SortHeader column="school" sort={list.sort} onSort={list.onSort}>
                  {t("items.columns.school")}
                </SortHeader>
              ) : null}
              <SortHeader column="price" sort={list.sort} onSort={list.onSort} className="text-right">
                {kind === "housing" ? t("housing.adjustmentShort") : t("items.columns.price")}
              </SortHeader>
              <th scope="col" className="px-3 py-3 text-right font-semibold whitespace-nowrap text-slate-900">
                {t("items.columns.applications")}
              </th>
              <th scope="col" className="px-3 py-3">
                <span className="sr-only">{t("items.columns.actions")}</span>
              </th>
            </>
          }
          row={(item) => (
            <ItemRow key={item.id} kind={kind} item={item} showSchool={showSchool} onEdit={setDialog} />
          )}
        />
      </div>
      <ItemDialog state={dialog} onClose={() => setDialog(null)} />
    </div>
  );
}
