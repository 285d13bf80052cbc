import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Archive, ArchiveRestore, Pencil, Plus, Send } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type BodyOf, urlOf } from "../../../../shared/api/contract";
import {
  type AdminPortalEntryDto,
  exportPortalEntriesContract,
  listPortalEntriesContract,
  updatePortalEntryContract,
} from "../../../../shared/api/portal";
import {
  PORTAL_KINDS,
  type PortalEntryState,
  type PortalKind,
  portalEntryState,
} from "../../../../shared/portal";
import { PORTAL_EVERY_COHORT, PORTAL_SORT_KEYS } from "../../../../shared/schemas/portal";
import { Button } from "../../../components/ui/Button";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { useSummerSchools } from "../../../lib/catalogue";
import { useFormat } from "../../../lib/format";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { AdminPageHeader, useDateTime } from "../components/common";
import { PortalEntryDialog } from "../components/content/PortalEntryDialog";
import {
  ClearFiltersButton,
  CsvLink,
  FilterPanel,
  FilterSelect,
  PageSizeSelect,
  SearchForm,
  SortHeader,
  useListParams,
} from "../components/list";

/** Filters kept in the address (the list and the CSV export take the same ones). */
const FILTER_KEYS = ["q", "kind", "schoolId", "archived"] as const;

const portalKeys = {
  all: ["admin", "portal-entries"] as const,
  list: (search: string) => ["admin", "portal-entries", "list", search] as const,
};

const STATE_CLASS: Record<PortalEntryState, string> = {
  published: "bg-green-100 text-green-900",
  scheduled: "bg-sky-100 text-sky-900",
  draft: "bg-slate-100 text-slate-800",
  archived: "bg-amber-100 text-amber-900",
};

/**
 * /admin/student-dashboard-management (owners and admissions; docs/product/back-office.md#portal-entries: "Student dashboard
 * management"): the student portal's entries (announcements, trip information, FAQ, partners)
 * with server-side search in titles and texts (en/zh/fr), filters (kind, cohort, archived
 * entries), sort and pages, all kept in the address; "Export CSV" downloads the same selection.
 * Create and edit in a dialog with en/zh/fr texts, publish now, archive and restore. Changes carry
 * the entry's version (409 when someone else changed it: the list reloads).
 */
export default function AdminStudentDashboardPage() {
  const { t } = useTranslation("adminContent");
  const { dateTime } = useDateTime();
  const format = useFormat();
  const queryClient = useQueryClient();
  const schools = useSummerSchools();
  const [dialog, setDialog] = useState<{ entry: AdminPortalEntryDto | null; kind: PortalKind } | null>(null);
  const list = useListParams({
    filterKeys: FILTER_KEYS,
    accept: (key, value) => key !== "archived" || value === "1",
    sort: {
      keys: PORTAL_SORT_KEYS,
      default: { key: "kind", direction: "asc" },
      ascendingFirst: ["kind", "title", "sortOrder"],
    },
  });
  const archived = list.value("archived") === "1";

  const entries = useQuery({
    queryKey: portalKeys.list(list.search),
    queryFn: ({ signal }) =>
      call(listPortalEntriesContract, {
        query: Object.fromEntries(new URLSearchParams(list.search)),
        signal,
      }),
    placeholderData: keepPreviousData,
  });

  const change = useMutation({
    mutationFn: (input: {
      entry: AdminPortalEntryDto;
      body: Omit<BodyOf<typeof updatePortalEntryContract>, "version">;
      done: string;
    }) =>
      call(updatePortalEntryContract, {
        params: { id: input.entry.id },
        body: { version: input.entry.version, ...input.body },
      }),
    onSuccess: (_saved, input) => {
      void queryClient.invalidateQueries({ queryKey: portalKeys.all });
      toast({ title: t(input.done), variant: "success" });
    },
    onError: (error) => {
      void queryClient.invalidateQueries({ queryKey: portalKeys.all });
      toast({ title: t("portal.failedTitle"), description: error.message, variant: "destructive" });
    },
  });

  const now = Date.now();
  const schoolOptions = [
    { value: PORTAL_EVERY_COHORT, label: t("portal.everyCohortOnly") },
    ...(schools.data ?? []).map((school) => ({
      value: school.id,
      label: `${school.name} (${format.date(school.startDate)})`,
    })),
  ];

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("admin:nav.studentPortal")}
        lead={t("portal.lead")}
        actions={
          <>
            <Button size="sm" onClick={() => setDialog({ entry: null, kind: "announcement" })}>
              <Plus aria-hidden="true" className="h-4 w-4" />
              {t("portal.new")}
            </Button>
            <CsvLink href={urlOf(exportPortalEntriesContract, {}, Object.fromEntries(list.filters))}>
              {t("admin:list.exportCsv")}
            </CsvLink>
          </>
        }
      />

      <FilterPanel id="portal-filters-heading" title={t("portal.filtersTitle")}>
        <SearchForm
          id="portal-q"
          label={t("portal.search")}
          placeholder={t("portal.searchPlaceholder")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <FilterSelect
            id="portal-kind"
            label={t("portal.form.kind")}
            {...list.filterProps("kind")}
            options={PORTAL_KINDS.map((kind) => ({ value: kind, label: t(`portal.kinds.${kind}`) }))}
            allLabel={t("portal.all")}
          />
          <FilterSelect
            id="portal-school"
            label={t("portal.cohort")}
            {...list.filterProps("schoolId")}
            options={schoolOptions}
            allLabel={t("portal.all")}
          />
          <div className="flex items-center gap-2 sm:self-end sm:pb-2">
            <input
              id="portal-archived"
              type="checkbox"
              className="h-4 w-4 accent-brand-700"
              checked={archived}
              onChange={(event) => list.update({ archived: event.target.checked ? "1" : null })}
            />
            <label htmlFor="portal-archived" className="text-sm font-medium text-slate-900">
              {t("portal.showArchived")}
            </label>
          </div>
        </div>
        {list.hasFilters ? (
          <ClearFiltersButton onClick={list.clearFilters}>{t("admin:list.clearFilters")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={entries}
          empty={list.hasFilters ? t("portal.emptyFiltered") : t("portal.empty")}
          captionId="portal-caption"
          caption={t("portal.caption")}
          minWidth="min-w-[60rem]"
          paginationLabel={t("portal.pagination")}
          pageLink={list.pageLink}
          head={
            <>
              <SortHeader column="title" list={list}>
                {t("portal.columns.title")}
              </SortHeader>
              <SortHeader column="kind" list={list}>
                {t("portal.columns.kind")}
              </SortHeader>
              <HeaderCell>{t("portal.columns.cohort")}</HeaderCell>
              <SortHeader column="publishedAt" list={list}>
                {t("portal.columns.state")}
              </SortHeader>
              <SortHeader column="sortOrder" list={list}>
                {t("portal.columns.sortOrder")}
              </SortHeader>
              <SortHeader column="updatedAt" list={list}>
                {t("portal.columns.updatedAt")}
              </SortHeader>
              <HeaderCell>
                <span className="sr-only">{t("portal.columns.actions")}</span>
              </HeaderCell>
            </>
          }
          row={(entry) => {
            const state = portalEntryState(entry, now);
            return (
              <tr key={entry.id} className="align-top hover:bg-slate-50">
                <td className="min-w-56 px-3 py-3">
                  <div className="font-semibold break-words text-slate-900">{entry.title.en}</div>
                  {entry.url ? (
                    <div className="mt-1 text-xs break-all text-slate-700">{entry.url}</div>
                  ) : null}
                </td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                  {t(`portal.kind.${entry.kind}`)}
                </td>
                <td className="px-3 py-3 text-slate-800">
                  {entry.summerSchool?.name ?? t("portal.allCohorts")}
                </td>
                <td className="px-3 py-3">
                  <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_CLASS[state]}`}>
                    {t(`portal.state.${state}`)}
                  </span>
                  {entry.publishedAt && state !== "archived" && state !== "draft" ? (
                    <div className="mt-1 text-xs text-slate-700">
                      {t(state === "scheduled" ? "portal.scheduledFor" : "portal.publishedOn", {
                        date: dateTime(entry.publishedAt),
                      })}
                    </div>
                  ) : null}
                </td>
                <td className="px-3 py-3 text-slate-800">{entry.sortOrder}</td>
                <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(entry.updatedAt)}</td>
                <td className="px-3 py-3">
                  <div className="flex flex-wrap justify-end gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => setDialog({ entry, kind: entry.kind })}
                      aria-label={`${t("portal.edit")}: ${entry.title.en}`}
                    >
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                      {t("portal.edit")}
                    </Button>
                    {state === "draft" || state === "scheduled" ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={change.isPending}
                        aria-label={`${t("portal.publish")}: ${entry.title.en}`}
                        onClick={() =>
                          change.mutate({
                            entry,
                            body: {
                              entry: {
                                ...entry,
                                summerSchoolId: entry.summerSchool?.id ?? null,
                                publishedAt: new Date().toISOString(),
                              },
                            },
                            done: "portal.publishedTitle",
                          })
                        }
                      >
                        <Send aria-hidden="true" className="h-4 w-4" />
                        {t("portal.publish")}
                      </Button>
                    ) : null}
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={change.isPending}
                      aria-label={`${t(state === "archived" ? "portal.restore" : "portal.archive")}: ${entry.title.en}`}
                      onClick={() =>
                        change.mutate({
                          entry,
                          body: { archived: state !== "archived" },
                          done: state === "archived" ? "portal.restoredTitle" : "portal.archivedTitle",
                        })
                      }
                    >
                      {state === "archived" ? (
                        <ArchiveRestore aria-hidden="true" className="h-4 w-4" />
                      ) : (
                        <Archive aria-hidden="true" className="h-4 w-4" />
                      )}
                      {t(state === "archived" ? "portal.restore" : "portal.archive")}
                    </Button>
                  </div>
                </td>
              </tr>
            );
          }}
          tools={<PageSizeSelect id="portal-page-size" list={list} />}
        />
      </div>

      <PortalEntryDialog
        open={dialog !== null}
        onOpenChange={(open) => (open ? undefined : setDialog(null))}
        entry={dialog?.entry ?? null}
        initialKind={dialog?.kind ?? "announcement"}
        onSaved={() => {
          setDialog(null);
          void queryClient.invalidateQueries({ queryKey: portalKeys.all });
          toast({ title: t("portal.savedTitle"), variant: "success" });
        }}
      />
    </div>
  );
}
