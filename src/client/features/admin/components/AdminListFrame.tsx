import type { UseQueryResult } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Notice } from "../../../components/account/auth";
import { cn } from "../../../components/ui/cn";
import { Spinner } from "../../../components/ui/Spinner";
import { PageLinks } from "./common";

/** One page of a server-paginated admin list (every list API of the back office answers this shape). */
export interface ListPage<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * The frame every back-office list shares: spinner while the first page loads, the API's message
 * when it fails, an empty text, "Showing n–m of t" (announced politely), a keyboard-scrollable
 * table with a caption, and Previous / Page / Next links. The page supplies the header cells
 * (`head`), one `<tr>` per item (`row`) and where page n lives (`pageLink`).
 * `tools` sits beside the page links (e.g. a page-size select).
 */
export function AdminListFrame<T>({
  list,
  empty,
  caption,
  captionId,
  head,
  row,
  pageLink,
  minWidth = "min-w-[48rem]",
  tools,
  paginationLabel,
}: {
  list: UseQueryResult<ListPage<T>, Error>;
  empty: ReactNode;
  caption: ReactNode;
  captionId: string;
  head: ReactNode;
  row: (item: T) => ReactNode;
  pageLink: (page: number) => string;
  minWidth?: string;
  tools?: ReactNode;
  paginationLabel?: string;
}) {
  const { t } = useTranslation("admin");
  if (list.isPending) return <Spinner />;
  if (list.isError)
    return (
      <Notice tone="error" title={t("common:loadError")}>
        <p>{list.error.message}</p>
      </Notice>
    );
  const data = list.data;
  if (data.items.length === 0)
    return <p className="rounded-xl border border-slate-200 bg-white p-6 text-slate-700">{empty}</p>;
  const pages = Math.max(1, Math.ceil(data.total / data.pageSize));
  return (
    <>
      <p className="mb-3 text-sm text-slate-700" aria-live="polite">
        {t("list.showing", {
          from: (data.page - 1) * data.pageSize + 1,
          to: (data.page - 1) * data.pageSize + data.items.length,
          total: data.total,
        })}
      </p>
      <section
        className={cn(
          "overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm",
          list.isFetching && "opacity-70",
        )}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable table must be reachable by keyboard (WCAG 2.1.1)
        tabIndex={0}
        aria-labelledby={captionId}
      >
        <table className={cn("w-full text-sm", minWidth)}>
          <caption id={captionId} className="sr-only">
            {caption}
          </caption>
          <thead className="border-b border-slate-200 bg-slate-50">
            <tr>{head}</tr>
          </thead>
          <tbody className="divide-y divide-slate-100">{data.items.map(row)}</tbody>
        </table>
      </section>
      <nav
        aria-label={paginationLabel ?? t("list.pagination")}
        className="mt-4 flex flex-wrap items-center justify-end gap-4"
      >
        {tools}
        <PageLinks
          page={data.page}
          pages={pages}
          pageLink={pageLink}
          labels={{
            previous: t("list.previous"),
            next: t("list.next"),
            page: t("list.page", { page: data.page, pages }),
          }}
        />
      </nav>
    </>
  );
}

/** A plain column header of an admin list. */
export function HeaderCell({ children }: { children: ReactNode }) {
  return (
    <th scope="col" className="px-3 py-3 text-left font-semibold whitespace-nowrap text-slate-900">
      {children}
    </th>
  );
}
