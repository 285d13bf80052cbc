import { ArrowDown, ArrowUp, ArrowUpDown, Download } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { MAX_PAGE_SIZE } from "../../../../shared/schemas/list";
import { Button, buttonClass } from "../../../components/ui/Button";
import { cn } from "../../../components/ui/cn";
import { inputClass } from "../../../components/ui/Field";

// The pieces every server-paginated back-office list shares: its state in the address
// (`useListParams`), the sortable column header, and the filter controls above the table.
// The table itself is `AdminListFrame`.

/** The sort of a server-sorted list, written `<key>:<asc|desc>` in the address (`sort`). */
export interface ListSort<K extends string> {
  key: K;
  direction: "asc" | "desc";
}

/** The sortable columns of a list: the API's sort keys, the default and which columns start ascending. */
export interface ListSortOptions<K extends string> {
  keys: readonly K[];
  /** Applied when the address has no (valid) `sort`; choosing it again removes `sort` from the address. */
  default: ListSort<K>;
  /** Columns whose first click sorts ascending (text columns); the others start descending. */
  ascendingFirst?: readonly K[];
}

interface ListOptions {
  /** The filters kept in the address, in the order they are sent (the list and its CSV export take them). */
  filterKeys: readonly string[];
  /** Whether an address value of a filter is usable (e.g. a date `YYYY-MM-DD`); default: any non-empty text. */
  accept?: (key: string, value: string) => boolean;
  /** Filters the page always sends (e.g. the school of a school's own add-on list); not in the address. */
  fixed?: Record<string, string>;
  /** Send `pageSize` (default true; the audit log's API has a fixed page of 50 and takes none). */
  withPageSize?: boolean;
}

/** The state of a list in the address and what changes it (see `useListParams`). */
export interface ListParams {
  params: URLSearchParams;
  /** Page number from 1 (`page`, absent on page 1). */
  page: number;
  /** Rows per page (`pageSize`, absent for the default 25; 1 to MAX_PAGE_SIZE). */
  pageSize: number;
  /** The usable filters in the address plus the fixed ones: the selection of the list and of its CSV export. */
  filters: URLSearchParams;
  /** Whether the address holds any filter (fixed ones do not count). */
  hasFilters: boolean;
  /** The API query string: filters, page, pageSize and sort. */
  search: string;
  /** The usable value of a filter in the address, or "" (an empty select shows "All"). */
  value: (key: string) => string;
  /** Changes some parameters of the address (empty values removed); back to page 1 unless `page` is given. */
  update: (changes: Record<string, string | null>) => void;
  /** `{ value, onChange }` of a filter control bound to the address ("" removes the filter). */
  filterProps: (key: string) => { value: string; onChange: (value: string) => void };
  /** Removes every filter of `filterKeys` (and the page) from the address. */
  clearFilters: () => void;
  /** The address of page n with everything else kept (the list's path alone for page 1 without filters). */
  pageLink: (n: number) => string;
  /** The CSV export of the same selection: `path` with the filters as query string. */
  csvHref: (path: string) => string;
}

/** A list with sortable columns: also its sort and what a column header's click does. */
export interface SortedListParams<K extends string> extends ListParams {
  sort: ListSort<K>;
  /** Sorts by `column`: the other direction when it is the current column, else its first direction. */
  onSort: (column: K) => void;
}

/** Rows-per-page choices of the lists that offer them; 25 is the API's default. */
export const PAGE_SIZES = [25, 50, 100] as const;
const DEFAULT_PAGE_SIZE = 25;

/** A whole number from the address between 1 and `max`, else `fallback`. */
const positive = (value: string | null, fallback: number, max: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

/**
 * The state of a server-paginated admin list kept in the address, so a view can be shared,
 * reloaded and left with Back: `page`, `pageSize`, `sort` (with `options.sort`) and the filters of
 * `filterKeys`. Returns the API query string, the filters alone for the CSV export, and the
 * helpers that change the address (a change of filter or sort goes back to page 1).
 */
export function useListParams<K extends string>(
  options: ListOptions & { sort: ListSortOptions<K> },
): SortedListParams<K>;
export function useListParams(options: ListOptions): ListParams;
export function useListParams<K extends string>(
  options: ListOptions & { sort?: ListSortOptions<K> },
): ListParams | SortedListParams<K> {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  // The address as the list last asked for it. A navigation renders as a transition, which an
  // urgent update (typing) or a pending chunk can hold back; a second change made meanwhile (a
  // section chosen, then Enter in the search box) must build on the first, not on the address
  // of the last render, or it drops it. A new address from outside (Back, a link) resets it.
  const latest = useRef({ rendered: params, asked: params });
  if (latest.current.rendered !== params) latest.current = { rendered: params, asked: params };
  const change = (edit: (next: URLSearchParams) => void) => {
    const next = new URLSearchParams(latest.current.asked);
    edit(next);
    latest.current.asked = next;
    setParams(next);
  };
  const page = positive(params.get("page"), 1, 100_000);
  const pageSize = positive(params.get("pageSize"), DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE);

  const sortOptions = options.sort;
  let sort: ListSort<K> | undefined;
  if (sortOptions) {
    const [key, direction] = (params.get("sort") ?? "").split(":");
    sort =
      (sortOptions.keys as readonly string[]).includes(key ?? "") &&
      (direction === "asc" || direction === "desc")
        ? { key: key as K, direction }
        : sortOptions.default;
  }

  const filters = new URLSearchParams();
  for (const key of options.filterKeys) {
    const value = params.get(key)?.trim();
    if (value && (options.accept?.(key, value) ?? true)) filters.set(key, value);
  }
  const hasFilters = filters.size > 0;
  for (const [key, value] of Object.entries(options.fixed ?? {})) filters.set(key, value);
  const query = new URLSearchParams(filters);
  query.set("page", String(page));
  if (options.withPageSize !== false) query.set("pageSize", String(pageSize));
  if (sort) query.set("sort", `${sort.key}:${sort.direction}`);

  const update = (changes: Record<string, string | null>) =>
    change((next) => {
      if (!("page" in changes)) next.delete("page");
      for (const [key, value] of Object.entries(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
    });
  const value = (key: string) => filters.get(key) ?? "";
  const list: ListParams = {
    params,
    page,
    pageSize,
    filters,
    hasFilters,
    search: query.toString(),
    value,
    update,
    filterProps: (key) => ({ value: value(key), onChange: (next) => update({ [key]: next || null }) }),
    clearFilters: () =>
      change((next) => {
        for (const key of options.filterKeys) next.delete(key);
        next.delete("page");
      }),
    pageLink: (n) => {
      const next = new URLSearchParams(params);
      if (n > 1) next.set("page", String(n));
      else next.delete("page");
      const s = next.toString();
      return s ? `?${s}` : location.pathname;
    },
    csvHref: (path) => `${path}${filters.size ? `?${filters.toString()}` : ""}`,
  };
  if (!sortOptions || !sort) return list;
  const current = sort;
  const defaultText = `${sortOptions.default.key}:${sortOptions.default.direction}`;
  return {
    ...list,
    sort: current,
    onSort: (column: K) => {
      const direction =
        current.key === column
          ? current.direction === "asc"
            ? "desc"
            : "asc"
          : sortOptions.ascendingFirst?.includes(column)
            ? "asc"
            : "desc";
      const text = `${column}:${direction}`;
      update({ sort: text === defaultText ? null : text });
    },
  };
}

/**
 * A column header that sorts the list on the server: a button with an arrow, `aria-sort` on the
 * sorted column and a screen-reader text saying what a press does. `list` is what
 * `useListParams` returned (its `sort` and `onSort`).
 */
export function SortHeader<K extends string>({
  column,
  list,
  children,
  className,
}: {
  column: K;
  list: { sort: ListSort<K>; onSort: (column: K) => void };
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation("admin");
  const { sort } = list;
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === "asc" ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
      // relative: the screen-reader text (absolutely positioned) stays inside the scrolling table
      className={cn("relative px-3 py-3 text-left font-semibold whitespace-nowrap text-slate-900", className)}
    >
      <button
        type="button"
        onClick={() => list.onSort(column)}
        className="inline-flex items-center gap-1 rounded hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {children}
        <Icon aria-hidden="true" className={cn("h-4 w-4", active ? "text-brand-700" : "text-slate-500")} />
        <span className="sr-only">
          {active ? t(sort.direction === "asc" ? "list.sortedAsc" : "list.sortedDesc") : t("list.sortable")}
        </span>
      </button>
    </th>
  );
}

/**
 * The white band above a list that holds its search and filters, named for screen readers by an
 * invisible h2 (`title`, id `id`).
 */
export function FilterPanel({ id, title, children }: { id?: string; title?: string; children: ReactNode }) {
  return (
    <section
      aria-labelledby={title && id ? id : undefined}
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      {title && id ? (
        <h2 id={id} className="sr-only">
          {title}
        </h2>
      ) : null}
      {children}
    </section>
  );
}

/** A labelled select of a list filter; the empty value (`allLabel`, when given) means no filter. */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
  allLabel,
  className,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  options: ReadonlyArray<{ value: string; label: string }>;
  allLabel?: string;
  className?: string;
}) {
  return (
    <div className={cn("min-w-0", className)}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <select id={id} className={inputClass} value={value} onChange={(event) => onChange(event.target.value)}>
        {allLabel ? <option value="">{allLabel}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The search box of a list: the typed text goes into the address (`q`, trimmed; empty removes it)
 * when submitted, and follows the address when it changes (Back, "Clear filters").
 */
export function SearchForm({
  id,
  label,
  placeholder,
  value,
  onSearch,
  className,
}: {
  id: string;
  label: string;
  placeholder?: string;
  value: string;
  onSearch: (value: string | null) => void;
  className?: string;
}) {
  const { t } = useTranslation("admin");
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || null);
  };
  return (
    <form onSubmit={submit} className={cn("flex flex-col gap-2 sm:flex-row sm:items-end", className)}>
      <div className="flex-1">
        <label htmlFor={id} className="block text-sm font-medium text-slate-900">
          {label}
        </label>
        <input
          id={id}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          maxLength={200}
          className={inputClass}
          placeholder={placeholder}
        />
      </div>
      <Button type="submit" variant="secondary">
        {t("list.search")}
      </Button>
    </form>
  );
}

/** The "Clear filters" link-styled button of a list (shown by the page while a filter is set). */
export function ClearFiltersButton({
  onClick,
  children,
  className = "mt-4",
}: {
  onClick: () => void;
  children: ReactNode;
  className?: string;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      className={cn("text-sm font-medium text-brand-700 underline", className)}
    >
      {children}
    </button>
  );
}

/** The rows-per-page select beside the page links (`pageSize` in the address; 25 is left out). */
export function PageSizeSelect({ id, list }: { id: string; list: Pick<ListParams, "pageSize" | "update"> }) {
  const { t } = useTranslation("admin");
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-slate-800">
        {t("list.pageSize")}
      </label>
      <select
        id={id}
        value={list.pageSize}
        onChange={(event) =>
          list.update({
            pageSize: event.target.value === String(DEFAULT_PAGE_SIZE) ? null : event.target.value,
          })
        }
        className="rounded-lg border border-slate-400 bg-white px-2 py-1.5 text-sm text-slate-900"
      >
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </div>
  );
}

/** A "download CSV" link styled as a small secondary button (the export of a list's selection). */
export function CsvLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} download className={buttonClass("secondary", "sm")}>
      <Download aria-hidden="true" className="h-4 w-4" />
      {children}
    </a>
  );
}
