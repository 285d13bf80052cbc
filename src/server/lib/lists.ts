import { type SQL, sql } from "drizzle-orm";
import type { ListPage, PageRequest } from "../../shared/schemas/list";

/**
 * The server half of the back office's lists (the query half is src/shared/schemas/list.ts): every
 * list counts its matching rows, reads one page in the requested sort, and answers `ListPage`.
 */

/** The SQL keyword of a sort direction: `asc` or `desc`. */
export const sortKeyword = (direction: "asc" | "desc"): SQL => (direction === "asc" ? sql`asc` : sql`desc`);

/** `ORDER BY` term of a list's sort: the sort key's expression in its direction, empty values last. */
export const sortedBy = (expression: SQL, direction: "asc" | "desc"): SQL =>
  sql`${expression} ${sortKeyword(direction)} nulls last`;

/** OFFSET of the first row of the requested page (pages count from 1). */
export const pageOffset = ({ page, pageSize }: PageRequest): number => (page - 1) * pageSize;

/** The answer of a list: the page's items, how many rows match in all, and the page asked for. */
export const pageOf = <T>(items: T[], total: number, { page, pageSize }: PageRequest): ListPage<T> => ({
  items,
  total: Number(total),
  page,
  pageSize,
});

/** Escapes `%`, `_` and `\` so a search term matches literally inside ILIKE (default escape `\`). */
export const likePattern = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
