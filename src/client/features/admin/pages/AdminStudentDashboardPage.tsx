import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Archive, ArchiveRestore, Pencil, Plus, Send } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import {
  type AdminPortalEntryDto,
  type AdminPortalEntryList,
  PORTAL_KINDS,
  type PortalKind,
} from "../../../../shared/portal";
import { Notice } from "../../../components/account/auth";
import { Button } from "../../../components/ui/Button";
import { Spinner } from "../../../components/ui/Spinner";
import { toast } from "../../../components/ui/toast-store";
import { api } from "../../../lib/api";
import { AdminPageHeader, Panel, useDateTime } from "../components/common";
import { PortalEntryDialog } from "../components/content/PortalEntryDialog";

/** Entries shown at once (the API's largest page); the school keeps far fewer live entries. */
const PAGE_SIZE = 100;

const portalKeys = {
  all: ["admin", "portal-entries"] as const,
  list: (archived: boolean) => ["admin", "portal-entries", archived] as const,
};

type EntryState = "published" | "scheduled" | "draft" | "archived";

const stateOf = (entry: AdminPortalEntryDto, now: number): EntryState =>
  entry.archivedAt
    ? "archived"
    : !entry.publishedAt
      ? "draft"
      : new Date(entry.publishedAt).getTime() > now
        ? "scheduled"
        : "published";

const STATE_CLASS: Record<EntryState, string> = {
  published: "bg-green-100 text-green-900",
  scheduled: "bg-sky-100 text-sky-900",
  draft: "bg-slate-100 text-slate-800",
  archived: "bg-amber-100 text-amber-900",
};

/**
 * /admin/student-dashboard-management (owners and admissions; issue "Student dashboard
 * management"): the student portal's entries grouped by kind (announcements, trip information,
 * FAQ, partners) with their state, cohort and order; create and edit in a dialog with en/zh/fr
 * texts, publish now, archive and restore. Changes carry the entry's version (409 when someone
 * else changed it: the list reloads).
 */
export default function AdminStudentDashboardPage() {
  const { t } = useTranslation("adminContent");
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const archived = params.get("archived") === "1";
  const [dialog, setDialog] = useState<{ entry: AdminPortalEntryDto | null; kind: PortalKind } | null>(null);

  const list = useQuery({
    queryKey: portalKeys.list(archived),
    queryFn: ({ signal }) =>
      api<AdminPortalEntryList>(
        `/api/admin/portal-entries?pageSize=${PAGE_SIZE}${archived ? "&archived=1" : ""}`,
        {
          signal,
        },
      ),
  });

  const change = useMutation({
    mutationFn: (input: { entry: AdminPortalEntryDto; body: Record<string, unknown>; done: string }) =>
      api<AdminPortalEntryDto>(`/api/admin/portal-entries/${input.entry.id}`, {
        method: "PATCH",
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
  let content: ReactNode;
  if (list.isPending) content = <Spinner />;
  else if (list.isError)
    content = (
      <Notice tone="error" title={t("common:loadError")}>
        <p>{list.error.message}</p>
      </Notice>
    );
  else
    content = (
      <div className="space-y-6">
        {list.data.total > list.data.items.length ? (
          <p className="text-sm text-slate-700">
            {t("portal.tooMany", { shown: list.data.items.length, total: list.data.total })}
          </p>
        ) : null}
        {PORTAL_KINDS.map((kind) => {
          const entries = list.data.items.filter((e) => e.kind === kind);
          return (
            <Panel
              key={kind}
              id={`kind-${kind}`}
              title={t(`portal.kinds.${kind}`)}
              actions={
                <Button size="sm" variant="secondary" onClick={() => setDialog({ entry: null, kind })}>
                  <Plus aria-hidden="true" className="h-4 w-4" />
                  {t("portal.new")}
                  <span className="sr-only">: {t(`portal.kind.${kind}`)}</span>
                </Button>
              }
            >
              {entries.length === 0 ? (
                <p className="text-slate-700">{t("portal.emptyKind")}</p>
              ) : (
                <ul className="divide-y divide-slate-100">
                  {entries.map((entry) => {
                    const state = stateOf(entry, now);
                    return (
                      <li key={entry.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
                        <div className="min-w-0 flex-1">
                          <h3 className="font-semibold break-words text-slate-900">{entry.title.en}</h3>
                          <p className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-slate-700">
                            <span
                              className={`rounded-full px-2 py-0.5 text-xs font-semibold ${STATE_CLASS[state]}`}
                            >
                              {t(`portal.state.${state}`)}
                            </span>
                            <span>{entry.summerSchool?.name ?? t("portal.allCohorts")}</span>
                            <span>{t("portal.order", { order: entry.sortOrder })}</span>
                            {entry.publishedAt && state !== "archived" ? (
                              <span>
                                {t(state === "scheduled" ? "portal.scheduledFor" : "portal.publishedOn", {
                                  date: dateTime(entry.publishedAt),
                                })}
                              </span>
                            ) : null}
                          </p>
                          {entry.url ? (
                            <p className="mt-1 text-sm break-all text-slate-700">{entry.url}</p>
                          ) : null}
                        </div>
                        <div className="flex flex-wrap gap-2">
                          <Button
                            size="sm"
                            variant="secondary"
                            onClick={() => setDialog({ entry, kind })}
                            aria-label={`${t("portal.edit")}: ${entry.title.en}`}
                          >
                            <Pencil aria-hidden="true" className="h-4 w-4" />
                            {t("portal.edit")}
                          </Button>
                          {state === "draft" || state === "scheduled" ? (
                            <Button
                              size="sm"
                              variant="secondary"
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
                      </li>
                    );
                  })}
                </ul>
              )}
            </Panel>
          );
        })}
      </div>
    );

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("admin:nav.studentPortal")}
        lead={t("portal.lead")}
        actions={
          <Button onClick={() => setDialog({ entry: null, kind: "announcement" })}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            {t("portal.new")}
          </Button>
        }
      />
      <div className="mt-6 flex items-center gap-2">
        <input
          id="show-archived"
          type="checkbox"
          className="h-4 w-4 accent-brand-700"
          checked={archived}
          onChange={(event) => {
            const next = new URLSearchParams(params);
            if (event.target.checked) next.set("archived", "1");
            else next.delete("archived");
            setParams(next);
          }}
        />
        <label htmlFor="show-archived" className="text-sm font-medium text-slate-900">
          {t("portal.showArchived")}
        </label>
      </div>
      <div className="mt-6">{content}</div>
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
