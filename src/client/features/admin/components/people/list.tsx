import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useState } from "react";
import type { FieldError } from "react-hook-form";
import { useTranslation } from "react-i18next";
import { useLocation, useSearchParams } from "react-router";
import { MAX_PAGE_SIZE } from "../../../../../shared/schemas/list";
import { Button } from "../../../../components/ui/Button";
import { cn } from "../../../../components/ui/cn";
import { inputClass } from "../../../../components/ui/Field";

/** A sort of a server-sorted list: `<key>:<asc|desc>` in the address. */
export interface Sort<K extends string> {
  key: K;
  direction: "asc" | "desc";
}

const positive = (value: string | null, fallback: number, max: number) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
};

/**
 * The state of a server-paginated list kept in the address (so a view can be shared or reloaded):
 * page, pageSize, sort and the filters named in `filterKeys`. Returns the API query string, the
 * filters alone (for the CSV export), `update` (changes parameters and goes back to page 1 unless
 * `page` is given), `onSort` for the column headers and `pageLink` for the page links.
 */
export function useListState<K extends string>(options: {
  filterKeys: readonly string[];
  sortKeys: readonly K[];
  defaultSort: Sort<K>;
  /** Columns whose first click sorts ascending (text columns). */
  ascendingFirst?: readonly K[];
  withPageSize?: boolean;
}) {
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const page = positive(params.get("page"), 1, 100_000);
  const pageSize = positive(params.get("pageSize"), 25, MAX_PAGE_SIZE);
  const defaultSortText = `${options.defaultSort.key}:${options.defaultSort.direction}`;
  const [sortKey, sortDirection] = (params.get("sort") ?? defaultSortText).split(":");
  const sort: Sort<K> =
    (options.sortKeys as readonly string[]).includes(sortKey ?? "") &&
    (sortDirection === "asc" || sortDirection === "desc")
      ? { key: sortKey as K, direction: sortDirection }
      : options.defaultSort;
  const filters = new URLSearchParams();
  for (const key of options.filterKeys) {
    const value = params.get(key)?.trim();
    if (value) filters.set(key, value);
  }
  const query = new URLSearchParams(filters);
  query.set("page", String(page));
  if (options.withPageSize !== false) query.set("pageSize", String(pageSize));
  if (options.sortKeys.length) query.set("sort", `${sort.key}:${sort.direction}`);

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    if (!("page" in changes)) next.delete("page");
    for (const [key, value] of Object.entries(changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    setParams(next);
  };
  const clearFilters = () => {
    const next = new URLSearchParams(params);
    for (const key of options.filterKeys) next.delete(key);
    next.delete("page");
    setParams(next);
  };
  const onSort = (column: K) => {
    const direction =
      sort.key === column
        ? sort.direction === "asc"
          ? "desc"
          : "asc"
        : options.ascendingFirst?.includes(column)
          ? "asc"
          : "desc";
    const value = `${column}:${direction}`;
    update({ sort: value === defaultSortText ? null : value });
  };
  const pageLink = (n: number) => {
    const next = new URLSearchParams(params);
    if (n > 1) next.set("page", String(n));
    else next.delete("page");
    const s = next.toString();
    return s ? `?${s}` : location.pathname;
  };
  return {
    params,
    page,
    pageSize,
    sort,
    filters,
    search: query.toString(),
    update,
    clearFilters,
    onSort,
    pageLink,
  };
}

/** A column header that sorts the list (aria-sort on the sorted column). */
export function SortHeader<K extends string>({
  column,
  sort,
  onSort,
  children,
  className,
}: {
  column: K;
  sort: Sort<K>;
  onSort: (column: K) => void;
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation("adminPeople");
  const active = sort.key === column;
  const Icon = !active ? ArrowUpDown : sort.direction === "asc" ? ArrowUp : ArrowDown;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.direction === "asc" ? "ascending" : "descending") : undefined}
      className={cn("px-3 py-3 text-left font-semibold whitespace-nowrap text-slate-900", className)}
    >
      <button
        type="button"
        onClick={() => onSort(column)}
        className="inline-flex items-center gap-1 rounded hover:text-brand-700 hover:underline focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        {children}
        <Icon aria-hidden="true" className={cn("h-4 w-4", active ? "text-brand-700" : "text-slate-500")} />
        <span className="sr-only">
          {active
            ? t(sort.direction === "asc" ? "common.sortedAsc" : "common.sortedDesc")
            : t("common.sortable")}
        </span>
      </button>
    </th>
  );
}

/** A labelled select of a list filter (empty value = no filter). */
export function FilterSelect({
  id,
  label,
  value,
  onChange,
  options,
  allLabel,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string | null) => void;
  options: Array<{ value: string; label: string }>;
  allLabel: string;
}) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-slate-900">
        {label}
      </label>
      <select
        id={id}
        className={inputClass}
        value={value}
        onChange={(event) => onChange(event.target.value || null)}
      >
        <option value="">{allLabel}</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The search box of a list: typed text goes into the address (`q`) when submitted. */
export function SearchForm({
  id,
  label,
  placeholder,
  value,
  onSearch,
}: {
  id: string;
  label: string;
  placeholder?: string;
  value: string;
  onSearch: (value: string | null) => void;
}) {
  const { t } = useTranslation("adminPeople");
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSearch(text.trim() || null);
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 sm:flex-row sm:items-end">
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
        {t("common.searchButton")}
      </Button>
    </form>
  );
}

/** A small pill (account state, role); `tone` picks its colours, the text carries the meaning. */
export function Pill({
  tone = "neutral",
  children,
}: {
  tone?: "neutral" | "good" | "warn" | "bad" | "info";
  children: ReactNode;
}) {
  const colours = {
    neutral: "bg-slate-100 text-slate-800 ring-slate-300",
    good: "bg-emerald-100 text-emerald-900 ring-emerald-300",
    warn: "bg-amber-100 text-amber-900 ring-amber-300",
    bad: "bg-red-100 text-red-900 ring-red-300",
    info: "bg-sky-100 text-sky-900 ring-sky-300",
  }[tone];
  return (
    <span
      className={cn(
        "inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset",
        colours,
      )}
    >
      {children}
    </span>
  );
}

/**
 * Translates a form field's error: the shared schemas' keys (`validation.*` of common) or, for an
 * error the server sent (`type: "server"`), its text as written (already in the admin's language).
 */
export function useFieldError() {
  const { t } = useTranslation("adminPeople");
  return (error: FieldError | undefined): string | undefined => {
    if (!error?.message) return undefined;
    if (error.type === "server") return error.message;
    return t(`common:${error.message}`);
  };
}
