import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ArrowDown, ArrowUp, RefreshCw, Send, Trash2 } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import {
  type AdminWaitingList,
  type AdminWaitingListEntry,
  getAdminWaitingListContract,
  moveWaitingListEntryContract,
  offerWaitingListPlaceContract,
  removeWaitingListEntryContract,
} from "../../../../../shared/api/waiting-list";
import { dateFormatFor } from "../../../../../shared/date-format";
import type { AdminRoleName } from "../../../../../shared/schemas/accounts";
import type { WAITING_LIST_STATUSES } from "../../../../../shared/schemas/waiting-list";
import { Notice } from "../../../../components/account/auth";
import { Button } from "../../../../components/ui/Button";
import { cn } from "../../../../components/ui/cn";
import { Spinner } from "../../../../components/ui/Spinner";
import { toast } from "../../../../components/ui/toast-store";
import { call } from "../../../../lib/call";
import { useLanguage } from "../../../../lib/catalogue";
import { adminCan } from "../../permissions";
import { ConfirmDialog } from "../ConfirmDialog";
import { catalogueAdminKeys } from "../catalogue/shared";
import { Panel, useRolesThatCan } from "../common";

/** The list's query key, under the school's (saving the school, e.g. its capacity, refreshes it). */
export const waitingListKey = (schoolId: string) =>
  [...catalogueAdminKeys.school(schoolId), "waiting-list"] as const;

type Status = (typeof WAITING_LIST_STATUSES)[number];

/** One action on one person of the list, kept so a failed one can be sent again. */
type Action =
  | { kind: "move"; entry: AdminWaitingListEntry; place: number }
  | { kind: "offer"; entry: AdminWaitingListEntry }
  | { kind: "remove"; entry: AdminWaitingListEntry };

const STATUS_COLOURS: Record<Status, string> = {
  waiting: "bg-sky-100 text-sky-900 ring-sky-300",
  offered: "bg-amber-100 text-amber-900 ring-amber-300",
  enrolled: "bg-emerald-100 text-emerald-900 ring-emerald-300",
  expired: "bg-slate-100 text-slate-900 ring-slate-400",
  left: "bg-slate-100 text-slate-900 ring-slate-400",
  removed: "bg-slate-100 text-slate-900 ring-slate-400",
};

/** Dates and times of the list, in The Hague's time zone (offers are held until a time there). */
function useHagueTime() {
  const language = useLanguage();
  const date = dateFormatFor(language, { dateStyle: "medium", timeZone: "Europe/Amsterdam" });
  const dateTime = dateFormatFor(language, {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "Europe/Amsterdam",
  });
  return {
    date: (iso: string) => date.format(new Date(iso)),
    dateTime: (iso: string) => dateTime.format(new Date(iso)),
  };
}

/** The cohort's places: capacity, paid, held by offers and by checkouts, free, and what that means. */
function PlacesSummary({ list }: { list: AdminWaitingList }) {
  const { t } = useTranslation("adminCatalogue");
  const { places } = list;
  const figures = [
    ["capacity", places.capacity],
    ["paid", places.paid],
    ["offers", places.offers],
    ["checkouts", places.checkouts],
    ["free", Math.max(0, places.free)],
  ] as const;
  return (
    <div>
      <h3 className="sr-only">{t("waitingList.places.title")}</h3>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
        {figures.map(([key, value]) => (
          <div
            key={key}
            className={cn(
              "rounded-lg border p-3",
              key === "free" && value > 0
                ? "border-emerald-300 bg-emerald-50"
                : "border-slate-200 bg-slate-50",
            )}
          >
            <dt className="text-sm text-slate-700">{t(`waitingList.places.${key}`)}</dt>
            <dd className="text-2xl font-bold text-brand-900">{value}</dd>
          </div>
        ))}
      </dl>
      <p id="waiting-list-places-note" className="mt-3 max-w-3xl text-sm text-slate-700">
        {places.free > 0
          ? t("waitingList.places.freeNote", { count: places.free, hours: list.offerHours })
          : t("waitingList.places.fullNote", { hours: list.offerHours })}
      </p>
    </div>
  );
}

/** A coloured pill naming an entry's status (the text carries the meaning). */
function EntryStatus({ entry }: { entry: AdminWaitingListEntry }) {
  const { t } = useTranslation("adminCatalogue");
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        STATUS_COLOURS[entry.status],
      )}
    >
      {t(
        entry.status === "offered" && entry.offeredByHand
          ? "waitingList.status.offeredByHand"
          : `waitingList.status.${entry.status}`,
      )}
    </span>
  );
}

/**
 * The "Waiting list" section of /admin/summer-schools/{id} (docs/product/admissions.md#waiting-list, decision 027):
 * the cohort's places (capacity, paid, held by open offers and by open checkouts, free) and the
 * people on its list in line order (`GET …/waiting-list`, through `getAdminWaitingListContract`):
 * place, name, e-mail, language, status, the day they joined and, for an open offer, until when
 * the place is held (time in The Hague). Admins whose `role` holds `applications:write` (owners,
 * admissions; src/shared/permissions.ts) move people up and down, send an offer by hand (only into a
 * free place: the server refuses otherwise, 409 `noFreePlace`) and remove people after confirming;
 * others read. A failed action shows the server's words and offers to try it again.
 */
export function WaitingListPanel({ schoolId, role }: { schoolId: string; role: AdminRoleName }) {
  const { t } = useTranslation("adminCatalogue");
  const queryClient = useQueryClient();
  const time = useHagueTime();
  const [failed, setFailed] = useState<{ action: Action; message: string } | null>(null);
  const [removing, setRemoving] = useState<AdminWaitingListEntry | null>(null);
  const key = waitingListKey(schoolId);
  const canWrite = adminCan({ role }, "applications:write");
  const writers = useRolesThatCan("applications:write");
  const list = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => call(getAdminWaitingListContract, { params: { id: schoolId }, signal }),
  });

  const act = useMutation({
    mutationFn: (action: Action) => {
      const params = { id: action.entry.id };
      if (action.kind === "move")
        return call(moveWaitingListEntryContract, { params, body: { place: action.place } });
      if (action.kind === "offer") return call(offerWaitingListPlaceContract, { params });
      return call(removeWaitingListEntryContract, { params });
    },
    onSuccess: (_none, action) => {
      setFailed(null);
      setRemoving(null);
      if (action.kind !== "move")
        toast({
          title: t(action.kind === "offer" ? "waitingList.offered" : "waitingList.removed", {
            name: action.entry.name,
          }),
          variant: "success",
        });
    },
    onError: (error, action) => {
      setRemoving(null);
      setFailed({ action, message: error.message });
    },
    // Whatever happened, the list shows where everyone stands now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: key }),
  });

  // The cohorts list links here with #waiting-list: once the list is drawn, it comes into view.
  const sectionRef = useRef<HTMLDivElement>(null);
  const loaded = list.isSuccess;
  useEffect(() => {
    if (loaded && window.location.hash === "#waiting-list")
      sectionRef.current?.closest("section")?.scrollIntoView();
  }, [loaded]);

  const refresh = (
    <Button variant="secondary" size="sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
      <RefreshCw aria-hidden="true" className="h-4 w-4" />
      {t("waitingList.refresh")}
    </Button>
  );

  return (
    <Panel
      title={t("waitingList.title")}
      id="waiting-list"
      className="mt-6"
      actions={list.isSuccess ? refresh : null}
    >
      {list.isPending ? (
        <Spinner />
      ) : list.isError ? (
        <Notice tone="error" title={t("waitingList.loadError")}>
          <p>{list.error.message}</p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => void list.refetch()}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            {t("waitingList.retry")}
          </Button>
        </Notice>
      ) : (
        <div
          ref={sectionRef}
          className="space-y-5"
          aria-busy={list.isFetching || act.isPending ? true : undefined}
        >
          <PlacesSummary list={list.data} />
          {failed ? (
            <Notice
              tone="error"
              title={t(`waitingList.failed.${failed.action.kind}`, { name: failed.action.entry.name })}
            >
              <p>{failed.message}</p>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button
                  variant="secondary"
                  size="sm"
                  disabled={act.isPending}
                  onClick={() => act.mutate(failed.action)}
                >
                  <RefreshCw aria-hidden="true" className="h-4 w-4" />
                  {t("waitingList.retry")}
                </Button>
                <Button variant="ghost" size="sm" onClick={() => setFailed(null)}>
                  {t("waitingList.dismiss")}
                </Button>
              </div>
            </Notice>
          ) : null}
          {list.data.entries.length === 0 ? (
            <p className="text-slate-700">{t("waitingList.empty")}</p>
          ) : (
            <EntriesTable
              list={list.data}
              canWrite={canWrite}
              busy={act.isPending}
              time={time}
              onMove={(entry, place) => act.mutate({ kind: "move", entry, place })}
              onOffer={(entry) => act.mutate({ kind: "offer", entry })}
              onRemove={setRemoving}
            />
          )}
          {canWrite ? null : (
            <p className="text-sm text-slate-700">{t("waitingList.readOnly", { roles: writers })}</p>
          )}
        </div>
      )}
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(open) => (open ? undefined : setRemoving(null))}
        title={t("waitingList.removeTitle", { name: removing?.name ?? "" })}
        description={
          <p>
            {t(removing?.status === "offered" ? "waitingList.removeOffered" : "waitingList.removeBody", {
              email: removing?.email ?? "",
            })}
          </p>
        }
        confirmLabel={t("waitingList.removeConfirm")}
        danger
        busy={act.isPending}
        onConfirm={() => (removing ? act.mutate({ kind: "remove", entry: removing }) : undefined)}
      />
    </Panel>
  );
}

/** The people on the list as a table; the action buttons only for admins who may change it. */
function EntriesTable({
  list,
  canWrite,
  busy,
  time,
  onMove,
  onOffer,
  onRemove,
}: {
  list: AdminWaitingList;
  canWrite: boolean;
  busy: boolean;
  time: ReturnType<typeof useHagueTime>;
  onMove: (entry: AdminWaitingListEntry, place: number) => void;
  onOffer: (entry: AdminWaitingListEntry) => void;
  onRemove: (entry: AdminWaitingListEntry) => void;
}) {
  const { t } = useTranslation("adminCatalogue");
  const waiting = list.entries.filter((e) => e.place !== null).length;
  const free = list.places.free > 0;
  const offerable = (e: AdminWaitingListEntry) => e.status === "waiting" || e.status === "expired";
  const removable = (e: AdminWaitingListEntry) => ["waiting", "offered", "expired"].includes(e.status);
  const cell = "px-3 py-3 align-top";
  return (
    <section
      className="overflow-x-auto"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      aria-labelledby="waiting-list-caption"
    >
      <table className="w-full min-w-[52rem] text-sm">
        <caption id="waiting-list-caption" className="sr-only">
          {t("waitingList.caption")}
        </caption>
        <thead className="border-b border-slate-200 bg-slate-50 text-left">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
              {t("waitingList.columns.place")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
              {t("waitingList.columns.name")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
              {t("waitingList.columns.language")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
              {t("waitingList.columns.status")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
              {t("waitingList.columns.joined")}
            </th>
            <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
              {t("waitingList.columns.offerExpires")}
            </th>
            {canWrite ? (
              <th scope="col" className="px-3 py-2 font-semibold text-slate-900">
                {t("waitingList.columns.actions")}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {list.entries.map((entry) => (
            <tr key={entry.id}>
              <td className={cn(cell, "font-semibold text-slate-900")}>{entry.place ?? "—"}</td>
              <th scope="row" className={cn(cell, "text-left font-normal")}>
                <span className="block font-semibold text-slate-900">{entry.name}</span>
                <span className="block break-all text-slate-700">{entry.email}</span>
              </th>
              <td className={cell}>{t(`languages.${entry.language}`)}</td>
              <td className={cell}>
                <EntryStatus entry={entry} />
              </td>
              <td className={cn(cell, "whitespace-nowrap")}>{time.date(entry.joinedAt)}</td>
              <td className={cell}>
                {entry.status === "offered" && entry.offerExpiresAt
                  ? t("waitingList.heldUntil", { time: time.dateTime(entry.offerExpiresAt) })
                  : "—"}
              </td>
              {canWrite ? (
                <td className={cell}>
                  <div className="flex flex-wrap gap-2">
                    {entry.place !== null ? (
                      <>
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-label={t("waitingList.moveUp", { name: entry.name })}
                          disabled={busy || entry.place <= 1}
                          onClick={() => onMove(entry, (entry.place ?? 1) - 1)}
                        >
                          <ArrowUp aria-hidden="true" className="h-4 w-4" />
                        </Button>
                        <Button
                          variant="secondary"
                          size="sm"
                          aria-label={t("waitingList.moveDown", { name: entry.name })}
                          disabled={busy || entry.place >= waiting}
                          onClick={() => onMove(entry, (entry.place ?? 1) + 1)}
                        >
                          <ArrowDown aria-hidden="true" className="h-4 w-4" />
                        </Button>
                      </>
                    ) : null}
                    {offerable(entry) ? (
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t("waitingList.offerLabel", { name: entry.name })}
                        aria-describedby={free ? undefined : "waiting-list-places-note"}
                        disabled={busy || !free}
                        onClick={() => onOffer(entry)}
                      >
                        <Send aria-hidden="true" className="h-4 w-4" />
                        {t("waitingList.offer")}
                      </Button>
                    ) : null}
                    {removable(entry) ? (
                      <Button
                        variant="secondary"
                        size="sm"
                        aria-label={t("waitingList.removeLabel", { name: entry.name })}
                        disabled={busy}
                        onClick={() => onRemove(entry)}
                      >
                        <Trash2 aria-hidden="true" className="h-4 w-4" />
                        {t("waitingList.remove")}
                      </Button>
                    ) : null}
                  </div>
                </td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
