import { useQuery } from "@tanstack/react-query";
import type { RefObject } from "react";
import { useTranslation } from "react-i18next";
import { listMailingsContract, type MailingSummaryDto } from "../../../../../shared/api/mailings";
import { LOCALE_OF } from "../../../../../shared/i18n/languages";
import { cn } from "../../../../components/ui/cn";
import { ScrollTable } from "../../../../components/ui/ScrollTable";
import { call } from "../../../../lib/call";
import { useLanguage } from "../../../../lib/catalogue";
import { useDateTime } from "../common";
import { messagesKeys, useAudienceWords } from "./audience";

/** How often the list asks again while a message is still being queued or sent, in ms. */
export const SENDING_REFRESH_MS = 15_000;

/** True while some recipients of a message have no outbox e-mail yet or one not yet sent. */
const inProgress = (mailing: MailingSummaryDto) => mailing.queuedAt === null || mailing.counts.waiting > 0;

/**
 * The sent messages, newest first (`GET /api/admin/mailings`): when, the English subject, who they
 * were written to (in words), by whom, the recipients and how many e-mails wait, were sent or
 * failed (docs/product/back-office.md#messages). Asks again every 15 s while one is in progress.
 * `headingRef` receives the focus after a send.
 */
export function SentMessages({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const { t } = useTranslation("adminMessages");
  const { dateTime } = useDateTime();
  const number = new Intl.NumberFormat(LOCALE_OF[useLanguage()]);
  const audience = useAudienceWords();
  const list = useQuery({
    queryKey: messagesKeys.list(),
    queryFn: ({ signal }) => call(listMailingsContract, { signal }),
    refetchInterval: (query) => (query.state.data?.some(inProgress) ? SENDING_REFRESH_MS : false),
  });
  const columns = ["sentAt", "subject", "audience", "by", "recipients", "waiting", "sent", "failed"] as const;
  return (
    <section
      aria-labelledby="messages-sent-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2
        id="messages-sent-title"
        ref={headingRef}
        tabIndex={-1}
        className="mb-4 text-lg font-bold text-brand-900 focus:outline-none"
      >
        {t("sent.title")}
      </h2>
      {list.isPending ? (
        <p className="text-sm text-slate-700" role="status">
          {t("admin:list.loading")}
        </p>
      ) : list.isError ? (
        <p className="text-sm text-red-800" role="alert">
          {t("sent.loadFailed")}
        </p>
      ) : list.data.length === 0 ? (
        <p className="text-sm text-slate-700">{t("sent.empty")}</p>
      ) : (
        <ScrollTable
          caption={t("sent.caption")}
          captionId="messages-sent-caption"
          minWidth="min-w-[52rem]"
          tableClassName="text-left text-sm"
        >
          <thead className="border-b border-slate-200 text-slate-700">
            <tr>
              {columns.map((column) => (
                <th
                  key={column}
                  scope="col"
                  className={cn(
                    "px-3 py-2 font-semibold",
                    ["recipients", "waiting", "sent", "failed"].includes(column) && "text-right",
                  )}
                >
                  {t(`sent.columns.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {list.data.map((mailing) => (
              <tr key={mailing.id} className="align-top">
                <th scope="row" className="bg-white px-3 py-3 font-normal whitespace-nowrap text-slate-800">
                  {dateTime(mailing.createdAt)}
                  {mailing.queuedAt === null ? (
                    <div className="text-xs font-semibold text-brand-800">{t("sent.queuing")}</div>
                  ) : null}
                </th>
                <td className="max-w-xs px-3 py-3 font-semibold break-words text-slate-900">
                  {mailing.subject}
                </td>
                <td className="max-w-xs px-3 py-3 text-slate-800">
                  {audience(mailing.audience, mailing.cohortName)}
                </td>
                <td className="px-3 py-3 break-all text-slate-800">{mailing.createdBy}</td>
                <td className="px-3 py-3 text-right tabular-nums text-slate-900">
                  {number.format(mailing.recipients)}
                </td>
                <td
                  className={cn(
                    "px-3 py-3 text-right tabular-nums",
                    mailing.counts.waiting > 0 ? "font-semibold text-brand-800" : "text-slate-800",
                  )}
                >
                  {number.format(mailing.counts.waiting)}
                </td>
                <td className="px-3 py-3 text-right tabular-nums text-slate-800">
                  {number.format(mailing.counts.sent)}
                </td>
                <td
                  className={cn(
                    "px-3 py-3 text-right tabular-nums",
                    mailing.counts.failed > 0 ? "font-semibold text-red-800" : "text-slate-800",
                  )}
                >
                  {number.format(mailing.counts.failed)}
                </td>
              </tr>
            ))}
          </tbody>
        </ScrollTable>
      )}
    </section>
  );
}
