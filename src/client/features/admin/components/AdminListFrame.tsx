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
 * What a back-office query shows until its data is there: a spinner while it loads, the API's
 * message when it fails; then `children(data)`.
 */
export function QueryResult<T>({
  query,
  children,
}: {
  query: UseQueryResult<T, Error>;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation("admin");
  if (query.isPending) return <Spinner />;
  if (query.isError)
    return (
      <Notice tone="error" title={t("common:loadError")}>
        <p>{query.error.message}</p>
      </Notice>
    );
  return <>{children(query.data)}</>;
}

/**
 * The table of an admin list: keyboard-scrollable (it scrolls sideways on narrow screens), named by
 * its invisible caption, with the header cells `head` and the rows `children`. `className` styles
 * the scrolling box (AdminListFrame draws it as a white card; inside a Panel it stays bare).
 */
export function ListTable({
  caption,
  captionId,
  head,
  minWidth = "min-w-[48rem]",
  className,
  busy = false,
  children,
}: {
  caption: ReactNode;
  captionId: string;
  head: ReactNode;
  minWidth?: string;
  className?: string;
  /** True while newer rows are on their way (the rows shown are dimmed and announced as busy). */
  busy?: boolean;
  children: ReactNode;
}) {
  return (
    <section
      aria-busy={busy || undefined}
      className={cn("overflow-x-auto", busy && "opacity-70", className)}
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
        <tbody className="divide-y divide-slate-100">{children}</tbody>
      </table>
    </section>
  );
}

/**
 * The frame every server-paginated back-office list shares: spinner while the first page loads,
 * the API's message when it fails, an empty text, "Showing n–m of t" (announced politely), the
 * list's table, and Previous / Page / Next links. The page supplies the header cells (`head`),
 * one `<tr>` per item (`row`) and where page n lives (`pageLink`, from `useListParams`).
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
  minWidth,
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
  return (
    <QueryResult query={list}>
      {(data) => {
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
            <ListTable
              caption={caption}
              captionId={captionId}
              head={head}
              minWidth={minWidth}
              className="rounded-xl border border-slate-200 bg-white shadow-sm"
              busy={list.isFetching}
            >
              {data.items.map(row)}
            </ListTable>
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
      }}
    </QueryResult>
  );
}

/**
 * A plain (not sortable) column header of an admin list; `className` e.g. `text-right` for amounts.
 * `relative` keeps an sr-only label (absolutely positioned, e.g. of the actions column) inside the
 * scrolling table, so it cannot widen the page on a phone.
 */
export function HeaderCell({ children, className }: { children?: ReactNode; className?: string }) {
  return (
    <th
      scope="col"
      className={cn("relative px-3 py-3 text-left font-semibold whitespace-nowrap text-slate-900", className)}
    >
      {children}
    </th>
  );
}
