import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { RotateCcw } from "lucide-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { urlOf } from "../../../../shared/api/contract";
import {
  exportWebhooksContract,
  getWebhookContract,
  listWebhooksContract,
  replayWebhookContract,
} from "../../../../shared/api/webhooks";
import { type AdminWebhookEventDto, UNPROCESSED_RESULT } from "../../../../shared/webhooks";
import { Button } from "../../../components/ui/Button";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { ConfirmDialog } from "../components/ConfirmDialog";
import { AdminPageHeader, useDateTime } from "../components/common";
import { ClearFiltersButton, CsvLink, FilterPanel, FilterSelect, useListParams } from "../components/list";

const EVENT_TYPES = [
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired",
  "refund.created",
  "refund.updated",
  "refund.failed",
] as const;
const RESULTS = [
  UNPROCESSED_RESULT,
  "paid",
  "already_paid",
  "pending",
  "flagged",
  "failed",
  "expired",
  "ignored",
  "refund pending",
  "refund succeeded",
  "refund failed",
];

const webhookKeys = {
  all: ["admin", "webhooks"] as const,
  list: (search: string) => ["admin", "webhooks", "list", search] as const,
  detail: (id: string) => ["admin", "webhooks", "detail", id] as const,
};

/** The stored payload of one event, loaded when its <details> is opened. */
function Payload({ id }: { id: string }) {
  const { t } = useTranslation("admin");
  const [open, setOpen] = useState(false);
  const detail = useQuery({
    queryKey: webhookKeys.detail(id),
    queryFn: ({ signal }) => call(getWebhookContract, { params: { id }, signal }),
    enabled: open,
  });
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)} className="mt-1">
      <summary className="cursor-pointer text-sm font-medium text-brand-700 underline">
        {t("webhooks.payload")}
      </summary>
      {detail.isPending ? (
        <p className="mt-2 text-sm text-slate-700">{t("webhooks.loadingPayload")}</p>
      ) : detail.isError ? (
        <p className="mt-2 text-sm text-red-800">{detail.error.message}</p>
      ) : (
        <pre className="mt-2 max-h-96 max-w-xl overflow-auto rounded-lg bg-slate-900 p-3 text-xs text-slate-100">
          {JSON.stringify(detail.data.payload, null, 2)}
        </pre>
      )}
    </details>
  );
}

/**
 * /admin/webhooks (owners): every payment provider event received, newest first, with its
 * processing result, the application it concerns, its payload, and a Replay (with a confirmation)
 * that runs it again through the webhook's processing.
 */
export default function AdminWebhooksPage() {
  const { t } = useTranslation("admin");
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const [target, setTarget] = useState<AdminWebhookEventDto | null>(null);
  const list = useListParams({ filterKeys: ["type", "result"] });

  const events = useQuery({
    queryKey: webhookKeys.list(list.search),
    queryFn: ({ signal }) =>
      call(listWebhooksContract, { query: Object.fromEntries(new URLSearchParams(list.search)), signal }),
    placeholderData: keepPreviousData,
  });

  const replay = useMutation({
    mutationFn: (id: string) => call(replayWebhookContract, { params: { id } }),
    onSuccess: (answer) => {
      setTarget(null);
      void queryClient.invalidateQueries({ queryKey: webhookKeys.all });
      void queryClient.invalidateQueries({ queryKey: ["admin", "applications"] });
      toast({ title: t("webhooks.replayed", { result: answer.result }), variant: "success" });
    },
    onError: (error) => {
      setTarget(null);
      toast({ title: t("webhooks.replayFailed"), description: error.message, variant: "destructive" });
    },
  });

  const resultLabel = (value: string) =>
    value === UNPROCESSED_RESULT ? t("webhooks.filters.unprocessed") : value;

  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader
        title={t("webhooks.title")}
        lead={t("webhooks.lead")}
        actions={<CsvLink href={list.csvHref(urlOf(exportWebhooksContract))}>{t("list.exportCsv")}</CsvLink>}
      />

      <FilterPanel>
        <div className="grid gap-4 sm:grid-cols-2">
          <FilterSelect
            id="filter-type"
            label={t("webhooks.filters.type")}
            {...list.filterProps("type")}
            options={EVENT_TYPES.map((value) => ({ value, label: value }))}
            allLabel={t("webhooks.filters.all")}
          />
          <FilterSelect
            id="filter-result"
            label={t("webhooks.filters.result")}
            {...list.filterProps("result")}
            options={RESULTS.map((value) => ({ value, label: resultLabel(value) }))}
            allLabel={t("webhooks.filters.all")}
          />
        </div>
        {list.hasFilters ? (
          <ClearFiltersButton onClick={list.clearFilters}>{t("webhooks.filters.clear")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>

      <div className="mt-6">
        <AdminListFrame
          list={events}
          empty={list.hasFilters ? t("webhooks.emptyFiltered") : t("webhooks.empty")}
          caption={t("webhooks.caption")}
          captionId="webhooks-caption"
          minWidth="min-w-[56rem]"
          paginationLabel={t("webhooks.pagination")}
          pageLink={list.pageLink}
          head={(["type", "received", "processed", "result", "application", "actions"] as const).map(
            (column) => <HeaderCell key={column}>{t(`webhooks.columns.${column}`)}</HeaderCell>,
          )}
          row={(item) => (
            <tr key={item.id} className="align-top hover:bg-slate-50">
              <td className="min-w-64 px-3 py-3">
                <div className="font-mono text-xs font-semibold text-slate-900">{item.type}</div>
                <div className="font-mono text-xs break-all text-slate-700">{item.id}</div>
                <Payload id={item.id} />
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(item.receivedAt)}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                {item.processedAt ? dateTime(item.processedAt) : t("webhooks.notProcessed")}
              </td>
              <td className="px-3 py-3">
                {item.result ? (
                  <span className="rounded-full bg-slate-100 px-2 py-0.5 font-mono text-xs text-slate-800">
                    {item.result}
                  </span>
                ) : (
                  <span className="rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                    {t("webhooks.notProcessed")}
                  </span>
                )}
              </td>
              <td className="px-3 py-3">
                {item.applicationId ? (
                  <Link
                    to={`/admin/applications/${item.applicationId}`}
                    className="font-medium text-brand-700 underline"
                  >
                    {t("webhooks.openApplication")}
                  </Link>
                ) : (
                  "—"
                )}
              </td>
              <td className="px-3 py-3">
                <Button
                  variant="secondary"
                  size="sm"
                  onClick={() => setTarget(item)}
                  disabled={replay.isPending}
                >
                  <RotateCcw aria-hidden="true" className="h-4 w-4" />
                  {t("webhooks.replay")}
                </Button>
              </td>
            </tr>
          )}
        />
      </div>

      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => (open ? undefined : setTarget(null))}
        title={t("webhooks.replayTitle")}
        description={<p>{t("webhooks.replayDescription", { id: target?.id ?? "" })}</p>}
        confirmLabel={t("webhooks.replayConfirm")}
        busy={replay.isPending}
        onConfirm={() => (target ? replay.mutate(target.id) : undefined)}
      />
    </div>
  );
}
