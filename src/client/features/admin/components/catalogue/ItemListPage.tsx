import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { Plus } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { urlOf } from "../../../../../shared/api/contract";
import type { CataloguePage } from "../../../../../shared/catalogue-admin";
import { ARCHIVE_STATES, ITEM_SORT_KEYS } from "../../../../../shared/schemas/catalogue-admin";
import { Button } from "../../../../components/ui/Button";
import { call } from "../../../../lib/call";
import { useFormat } from "../../../../lib/format";
import { AdminListFrame, HeaderCell } from "../AdminListFrame";
import { AdminPageHeader } from "../common";
import { CsvLink, FilterPanel, FilterSelect, SearchForm, SortHeader, useListParams } from "../list";
import { ITEM_CONTRACTS, ItemDialog, type ItemDialogState, type ItemKind } from "./ItemForms";
import { type AnyItem, ItemRow } from "./ItemRows";
import { catalogueAdminKeys, useLocalized, useSchoolOptions } from "./shared";

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
  const list = useListParams({
    filterKeys: schoolId ? ["state", "q"] : ["schoolId", "state", "q"],
    fixed: schoolId ? { schoolId } : undefined,
    // Every column sorts ascending on its first click.
    sort: {
      keys: ITEM_SORT_KEYS,
      default: { key: "school", direction: "asc" },
      ascendingFirst: ITEM_SORT_KEYS,
    },
  });
  const contracts = ITEM_CONTRACTS[kind];
  const query = useQuery({
    queryKey: catalogueAdminKeys.list(kind, list.search),
    queryFn: ({ signal }): Promise<CataloguePage<AnyItem>> =>
      call(contracts.list, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });
  const schools = useSchoolOptions();
  const [dialog, setDialog] = useState<ItemDialogState | null>(null);

  const chosenSchool = schoolId ?? list.value("schoolId");
  const school = schools.data?.items.find((s) => s.id === chosenSchool);
  const schoolOptions = (schools.data?.items ?? []).map((s) => ({
    value: s.id,
    label: `${l(s.name)} (${format.date(s.startDate)})`,
  }));
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
            <CsvLink href={list.csvHref(urlOf(contracts.export))}>{t("list.export")}</CsvLink>
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

      <FilterPanel id="filters-heading" title={t("list.filters")}>
        <SearchForm
          id="filter-q"
          label={t("list.search")}
          placeholder={t("list.searchItemsPlaceholder")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          {schoolId ? null : (
            <FilterSelect
              id="filter-school"
              label={t("list.school")}
              {...list.filterProps("schoolId")}
              options={schoolOptions}
              allLabel={t("list.allSchools")}
            />
          )}
          <FilterSelect
            id="filter-state"
            label={t("list.state")}
            value={list.value("state") || "active"}
            onChange={(value) => list.update({ state: value === "active" ? null : value })}
            options={ARCHIVE_STATES.map((value) => ({ value, label: t(`list.states.${value}`) }))}
          />
        </div>
      </FilterPanel>

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
              <SortHeader column="name" list={list}>
                {t("items.columns.name")}
              </SortHeader>
              {showSchool ? (
                <SortHeader column="school" list={list}>
                  {t("items.columns.school")}
                </SortHeader>
              ) : null}
              <SortHeader column="price" list={list} className="text-right">
                {kind === "housing" ? t("housing.adjustmentShort") : t("items.columns.price")}
              </SortHeader>
              <HeaderCell className="text-right">{t("items.columns.applications")}</HeaderCell>
              <HeaderCell>
                <span className="sr-only">{t("items.columns.actions")}</span>
              </HeaderCell>
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
