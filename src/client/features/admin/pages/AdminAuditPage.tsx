import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { exportAuditContract, getAuditFacetsContract, listAuditContract } from "../../../../shared/api/audit";
import { urlOf } from "../../../../shared/api/contract";
import { Button } from "../../../components/ui/Button";
import { inputClass } from "../../../components/ui/Field";
import { call } from "../../../lib/call";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { AdminPageHeader, useDateTime } from "../components/common";
import { ClearFiltersButton, CsvLink, FilterPanel, FilterSelect, useListParams } from "../components/list";
import { AuditChange } from "../components/people/AuditChange";
import { peopleKeys } from "../components/people/permissions";

const FILTER_KEYS = ["entityType", "entityId", "actorId", "action", "from", "to"] as const;

/**
 * /admin/audit (owners: audit:read): every change made in the back office, newest first, 50 a
 * page; filters by kind of record, record id, acting admin, action and period (kept in the address,
 * applied by the server); "Export CSV" downloads the same selection. Each entry shows who, when,
 * what, and the change as a table of the fields before → after (raw JSON on demand).
 */
export default function AdminAuditPage() {
  const { t } = useTranslation("adminPeople");
  const { dateTime } = useDateTime();
  const state = useListParams({ filterKeys: FILTER_KEYS, withPageSize: false });
  const { params, update } = state;
  const list = useQuery({
    queryKey: peopleKeys.audit(state.search),
    queryFn: ({ signal }) =>
      call(listAuditContract, { query: Object.fromEntries(new URLSearchParams(state.search)), signal }),
    placeholderData: keepPreviousData,
  });
  const facets = useQuery({
    queryKey: peopleKeys.auditFacets(),
    queryFn: ({ signal }) => call(getAuditFacetsContract, { signal }),
  });

  // The record id and the dates are typed, then applied together.
  const [typed, setTyped] = useState({ entityId: "", from: "", to: "" });
  const addressTyped = `${params.get("entityId") ?? ""}|${params.get("from") ?? ""}|${params.get("to") ?? ""}`;
  // biome-ignore lint/correctness/useExhaustiveDependencies: follow the address when it changes (back button, links)
  useEffect(
    () =>
      setTyped({
        entityId: params.get("entityId") ?? "",
        from: params.get("from") ?? "",
        to: params.get("to") ?? "",
      }),
    [addressTyped],
  );
  const apply = (event: FormEvent) => {
    event.preventDefault();
    update({ entityId: typed.entityId.trim() || null, from: typed.from || null, to: typed.to || null });
  };

  const actorOptions = (facets.data?.actors ?? []).map((actor) => ({
    value: actor.id,
    label: actor.name ? `${actor.name} (${actor.email})` : actor.email,
  }));
  const plain = (values: string[] | undefined) => (values ?? []).map((value) => ({ value, label: value }));

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("audit.title")}
        lead={t("audit.lead")}
        actions={<CsvLink href={state.csvHref(urlOf(exportAuditContract))}>{t("common.export")}</CsvLink>}
      />

      <FilterPanel id="audit-filters-heading" title={t("audit.filtersTitle")}>
        <div className="grid gap-4 sm:grid-cols-3">
          <FilterSelect
            id="audit-entity-type"
            label={t("audit.entityType")}
            {...state.filterProps("entityType")}
            options={plain(facets.data?.entityTypes)}
            allLabel={t("common.all")}
          />
          <FilterSelect
            id="audit-action"
            label={t("audit.action")}
            {...state.filterProps("action")}
            options={plain(facets.data?.actions)}
            allLabel={t("common.all")}
          />
          <FilterSelect
            id="audit-actor"
            label={t("audit.actor")}
            {...state.filterProps("actorId")}
            options={actorOptions}
            allLabel={t("common.all")}
          />
        </div>
        <form onSubmit={apply} className="mt-4 grid gap-4 sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end">
          <div>
            <label htmlFor="audit-entity-id" className="block text-sm font-medium text-slate-900">
              {t("audit.entityId")}
            </label>
            <input
              id="audit-entity-id"
              value={typed.entityId}
              maxLength={100}
              onChange={(event) => setTyped({ ...typed, entityId: event.target.value })}
              aria-describedby="audit-entity-id-hint"
              className={inputClass}
            />
            <p id="audit-entity-id-hint" className="mt-1 text-xs text-slate-700">
              {t("audit.entityIdHint")}
            </p>
          </div>
          <div className="self-start">
            <label htmlFor="audit-from" className="block text-sm font-medium text-slate-900">
              {t("audit.from")}
            </label>
            <input
              id="audit-from"
              type="date"
              value={typed.from}
              onChange={(event) => setTyped({ ...typed, from: event.target.value })}
              className={inputClass}
            />
          </div>
          <div className="self-start">
            <label htmlFor="audit-to" className="block text-sm font-medium text-slate-900">
              {t("audit.to")}
            </label>
            <input
              id="audit-to"
              type="date"
              value={typed.to}
              onChange={(event) => setTyped({ ...typed, to: event.target.value })}
              className={inputClass}
            />
          </div>
          <Button type="submit" variant="secondary" className="self-start sm:mt-6">
            {t("audit.apply")}
          </Button>
        </form>
        {state.hasFilters ? (
          <ClearFiltersButton onClick={state.clearFilters}>{t("common.clear")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={list}
          empty={state.hasFilters ? t("audit.emptyFiltered") : t("audit.empty")}
          captionId="audit-caption"
          caption={t("audit.caption")}
          minWidth="min-w-[60rem]"
          paginationLabel={t("audit.pagination")}
          pageLink={state.pageLink}
          head={
            <>
              <HeaderCell>{t("audit.columns.time")}</HeaderCell>
              <HeaderCell>{t("audit.columns.actor")}</HeaderCell>
              <HeaderCell>{t("audit.columns.action")}</HeaderCell>
              <HeaderCell>{t("audit.columns.entity")}</HeaderCell>
              <HeaderCell>{t("audit.columns.change")}</HeaderCell>
            </>
          }
          row={(entry) => (
            <tr key={entry.id} className="align-top">
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                <time dateTime={entry.createdAt}>{dateTime(entry.createdAt)}</time>
              </td>
              <td className="px-3 py-3 text-slate-800">
                <div className="break-all">{entry.actorEmail ?? t(`audit.actorRole.${entry.actorRole}`)}</div>
                {entry.actorEmail ? null : entry.actorId ? (
                  <div className="font-mono text-xs break-all text-slate-700">{entry.actorId}</div>
                ) : null}
              </td>
              <td className="px-3 py-3 font-mono text-xs whitespace-nowrap text-slate-900">{entry.action}</td>
              <td className="px-3 py-3">
                <div className="text-slate-900">{entry.entityType}</div>
                {entry.entityId === "*" ? null : (
                  <button
                    type="button"
                    onClick={() => update({ entityType: entry.entityType, entityId: entry.entityId })}
                    className="text-left font-mono text-xs break-all text-brand-700 underline"
                    aria-label={`${t("audit.showRecord")}: ${entry.entityType} ${entry.entityId}`}
                  >
                    {entry.entityId}
                  </button>
                )}
              </td>
              <td className="px-3 py-3">
                <AuditChange before={entry.before} after={entry.after} />
              </td>
            </tr>
          )}
        />
      </div>
    </div>
  );
}
