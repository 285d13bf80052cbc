import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { NavLink, useLocation } from "react-router";
import { type QueryInputOf, urlOf } from "../../../../shared/api/contract";
import {
  exportInquiriesContract,
  exportSubscribersContract,
  type InquiryDto,
  listInquiriesContract,
  listSubscribersContract,
  setInquiryStatusContract,
} from "../../../../shared/api/inbox";
import {
  INQUIRY_KINDS,
  INQUIRY_STATUSES,
  type InquiryStatus,
  SUBSCRIBER_STATUSES,
} from "../../../../shared/schemas/inquiries";
import { inputClass } from "../../../components/ui/Field";
import { toast } from "../../../components/ui/toast-store";
import { call } from "../../../lib/call";
import { AdminListFrame, HeaderCell } from "../components/AdminListFrame";
import { AdminPageHeader, useDateTime } from "../components/common";
import {
  ClearFiltersButton,
  CsvLink,
  FilterPanel,
  FilterSelect,
  SearchForm,
  useListParams,
} from "../components/list";

const inboxKeys = {
  all: ["admin", "inbox"] as const,
  inquiries: (search: string) => ["admin", "inbox", "inquiries", search] as const,
  subscribers: (search: string) => ["admin", "inbox", "subscribers", search] as const,
};

const STATUS_COLOURS: Record<string, string> = {
  new: "bg-amber-100 text-amber-900",
  answered: "bg-emerald-100 text-emerald-900",
  archived: "bg-slate-100 text-slate-800",
  pending: "bg-amber-100 text-amber-900",
  confirmed: "bg-emerald-100 text-emerald-900",
  unsubscribed: "bg-slate-100 text-slate-800",
};

function StatusPill({ status }: { status: string }) {
  const { t } = useTranslation("adminInbox");
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap ${STATUS_COLOURS[status]}`}
    >
      {t(`statuses.${status}`)}
    </span>
  );
}

/** Partnership inquiries and messages: filters, search, status change (audited on the server), CSV. */
function InquiriesView() {
  const { t } = useTranslation("adminInbox");
  const { dateTime } = useDateTime();
  const queryClient = useQueryClient();
  const list = useListParams({ filterKeys: ["kind", "status", "q"] });
  const rows = useQuery({
    queryKey: inboxKeys.inquiries(list.search),
    queryFn: ({ signal }) =>
      call(listInquiriesContract, {
        query: Object.fromEntries(new URLSearchParams(list.search)) as QueryInputOf<
          typeof listInquiriesContract
        >,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const change = useMutation({
    mutationFn: ({ id, status }: { id: string; status: InquiryStatus }) =>
      call(setInquiryStatusContract, { params: { id }, body: { status } }),
    onSuccess: (row) => {
      void queryClient.invalidateQueries({ queryKey: inboxKeys.all });
      toast({ title: t("statusChanged", { status: t(`statuses.${row.status}`) }), variant: "success" });
    },
    onError: (error) =>
      toast({ title: t("statusFailed"), description: error.message, variant: "destructive" }),
  });
  const sender = (item: InquiryDto) =>
    item.kind === "partnership" ? (
      <>
        <div className="font-semibold text-slate-900">{item.university}</div>
        <div className="text-slate-800">
          {item.name}, {item.position}
        </div>
        <div className="text-slate-700">{item.country}</div>
      </>
    ) : (
      <div className="font-semibold text-slate-900">{item.name}</div>
    );
  return (
    <>
      <FilterPanel>
        <SearchForm
          id="inbox-q"
          label={t("search")}
          placeholder={t("searchPlaceholder")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <FilterSelect
            id="inbox-kind"
            label={t("filters.kind")}
            {...list.filterProps("kind")}
            options={INQUIRY_KINDS.map((value) => ({ value, label: t(`kinds.${value}`) }))}
            allLabel={t("filters.all")}
          />
          <FilterSelect
            id="inbox-status"
            label={t("filters.status")}
            {...list.filterProps("status")}
            options={INQUIRY_STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) }))}
            allLabel={t("filters.all")}
          />
        </div>
        {list.hasFilters ? (
          <ClearFiltersButton onClick={list.clearFilters}>{t("filters.clear")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>
      <div className="mt-4 flex justify-end">
        <CsvLink href={urlOf(exportInquiriesContract, {}, Object.fromEntries(list.filters))}>
          {t("exportInquiries")}
        </CsvLink>
      </div>
      <div className="mt-4">
        <AdminListFrame
          list={rows}
          empty={list.hasFilters ? t("emptyFiltered") : t("empty")}
          caption={t("inquiriesCaption")}
          captionId="inquiries-caption"
          minWidth="min-w-[60rem]"
          paginationLabel={t("pagination")}
          pageLink={list.pageLink}
          head={(["received", "kind", "from", "message", "status"] as const).map((column) => (
            <HeaderCell key={column}>{t(`columns.${column}`)}</HeaderCell>
          ))}
          row={(item) => (
            <tr key={item.id} className="align-top hover:bg-slate-50">
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(item.createdAt)}</td>
              <td className="px-3 py-3 text-slate-800">
                {t(`kinds.${item.kind}`)}
                {item.interest ? (
                  <div className="text-xs text-slate-700">{t(`interests.${item.interest}`)}</div>
                ) : null}
              </td>
              <td className="min-w-56 px-3 py-3">
                {sender(item)}
                <a href={`mailto:${item.email}`} className="break-all text-brand-700 underline">
                  {item.email}
                </a>
                {item.phone ? <div className="text-slate-700">{item.phone}</div> : null}
              </td>
              <td className="max-w-md px-3 py-3 whitespace-pre-line text-slate-800">{item.message}</td>
              <td className="px-3 py-3">
                <StatusPill status={item.status} />
                <label htmlFor={`status-${item.id}`} className="sr-only">
                  {t("changeStatus")}
                </label>
                <select
                  id={`status-${item.id}`}
                  className={`${inputClass} mt-2 py-1.5 text-sm`}
                  value={item.status}
                  disabled={change.isPending}
                  onChange={(event) =>
                    change.mutate({ id: item.id, status: event.target.value as InquiryStatus })
                  }
                >
                  {INQUIRY_STATUSES.map((status) => (
                    <option key={status} value={status}>
                      {t(`statuses.${status}`)}
                    </option>
                  ))}
                </select>
              </td>
            </tr>
          )}
        />
      </div>
    </>
  );
}

/** Newsletter subscribers: status filter, search, CSV. Only confirmed addresses are subscribers. */
function SubscribersView() {
  const { t } = useTranslation("adminInbox");
  const { dateTime } = useDateTime();
  const list = useListParams({ filterKeys: ["status", "q"] });
  const rows = useQuery({
    queryKey: inboxKeys.subscribers(list.search),
    queryFn: ({ signal }) =>
      call(listSubscribersContract, {
        query: Object.fromEntries(new URLSearchParams(list.search)) as QueryInputOf<
          typeof listSubscribersContract
        >,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  return (
    <>
      <FilterPanel>
        <SearchForm
          id="subscriber-q"
          label={t("searchEmail")}
          value={list.value("q")}
          onSearch={(q) => list.update({ q })}
        />
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <FilterSelect
            id="subscriber-status"
            label={t("filters.status")}
            {...list.filterProps("status")}
            options={SUBSCRIBER_STATUSES.map((value) => ({ value, label: t(`statuses.${value}`) }))}
            allLabel={t("filters.all")}
          />
        </div>
        {list.hasFilters ? (
          <ClearFiltersButton onClick={list.clearFilters}>{t("filters.clear")}</ClearFiltersButton>
        ) : null}
      </FilterPanel>
      <div className="mt-4 flex justify-end">
        <CsvLink href={urlOf(exportSubscribersContract, {}, Object.fromEntries(list.filters))}>
          {t("exportSubscribers")}
        </CsvLink>
      </div>
      <div className="mt-4">
        <AdminListFrame
          list={rows}
          empty={list.hasFilters ? t("emptyFiltered") : t("emptySubscribers")}
          caption={t("subscribersCaption")}
          captionId="subscribers-caption"
          minWidth="min-w-[44rem]"
          paginationLabel={t("pagination")}
          pageLink={list.pageLink}
          head={(["email", "language", "status", "signedUp", "confirmed"] as const).map((column) => (
            <HeaderCell key={column}>{t(`columns.${column}`)}</HeaderCell>
          ))}
          row={(item) => (
            <tr key={item.id} className="hover:bg-slate-50">
              <td className="px-3 py-3 break-all text-slate-900">{item.email}</td>
              <td className="px-3 py-3 text-slate-800">{t(`languages.${item.language}`)}</td>
              <td className="px-3 py-3">
                <StatusPill status={item.status} />
              </td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">{dateTime(item.createdAt)}</td>
              <td className="px-3 py-3 whitespace-nowrap text-slate-800">
                {item.confirmedAt ? dateTime(item.confirmedAt) : "—"}
              </td>
            </tr>
          )}
        />
      </div>
    </>
  );
}

/**
 * /admin/inbox and /admin/inbox/subscribers (docs/product/back-office.md#admin-roles; owners and admissions, permission
 * `inbox:write`): the partnership inquiries and messages sent from the public site, with their
 * status (new, answered, archived), and the newsletter's subscribers (pending, confirmed,
 * unsubscribed); each list with filters and a CSV export.
 */
export default function AdminInboxPage() {
  const { t } = useTranslation("adminInbox");
  const subscribers = useLocation().pathname.endsWith("/subscribers");
  const tab = ({ isActive }: { isActive: boolean }) =>
    `rounded-t-lg border-b-2 px-4 py-2 font-medium ${isActive ? "border-brand-700 text-brand-900" : "border-transparent text-slate-700 hover:text-brand-900"}`;
  return (
    <div className="px-4 py-6 sm:px-6 lg:px-8 lg:py-8">
      <AdminPageHeader title={t("title")} lead={t("lead")} />
      <nav aria-label={t("tabs")} className="mt-4 flex gap-2 border-b border-slate-200">
        <NavLink to="/admin/inbox" end className={tab}>
          {t("tabInquiries")}
        </NavLink>
        <NavLink to="/admin/inbox/subscribers" className={tab}>
          {t("tabSubscribers")}
        </NavLink>
      </nav>
      {subscribers ? <SubscribersView /> : <InquiriesView />}
    </div>
  );
}
