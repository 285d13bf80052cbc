import { line } from "./text";
import { z } from "./zod";

/**
 * Building blocks of the back office's list queries (docs/product/back-office.md#lists: "every list paginates, sorts,
 * filters and searches on the server"). Query-string values arrive as strings; an empty value
 * (`status=`) means "no filter".
 */

/** Largest page of any admin list (contract: page size ≤ 100). */
export const MAX_PAGE_SIZE = 100;

/** An optional query parameter: empty or absent → undefined, otherwise `schema`. */
export const optionalParam = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === "" || v === undefined ? undefined : v), schema.optional());

/** A calendar date `yyyy-mm-dd` that exists. */
export const isoDateParam = line({ trim: false })
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((s) => {
    const d = new Date(`${s}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === s;
  });

/** A positive whole number in a query string, at most `max`. */
export const positiveIntParam = (max: number) =>
  line({ trim: false })
    .regex(/^\d{1,7}$/)
    .transform(Number)
    .pipe(z.number().int().min(1).max(max));

/** Free-text search `q` (trimmed, ≤ 200 characters). */
export const searchParam = optionalParam(line().max(200));

/** A page of a list as its query asks for it: `page` from 1, `pageSize` rows. */
export interface PageRequest {
  page: number;
  pageSize: number;
}

/** The answer of every back-office list: one page of items and how many match in all. */
export interface ListPage<T> extends PageRequest {
  items: T[];
  total: number;
}

/** `page` (from 1) and `pageSize` (1-100, default 25). */
export const pageParams = {
  page: optionalParam(positiveIntParam(100_000)).transform((v) => v ?? 1),
  pageSize: optionalParam(positiveIntParam(MAX_PAGE_SIZE)).transform((v) => v ?? 25),
};

/** A sort `<key>:<asc|desc>` over `keys`; absent → `fallback`. */
export function sortParam<K extends string>(
  keys: readonly K[],
  fallback: { key: K; direction: "asc" | "desc" },
) {
  return optionalParam(
    line({ trim: false })
      .regex(new RegExp(`^(${keys.join("|")}):(asc|desc)$`))
      .transform((s) => {
        const [key, direction] = s.split(":") as [K, "asc" | "desc"];
        return { key, direction };
      }),
  ).transform((v) => v ?? fallback);
}

/**
 * The schema of a `ListPage` whose rows parse with `item`: `{ items, total, page, pageSize }`
 * (`total`: the rows matching in all; `page` from 1). The back office parses list answers with it.
 */
export const listPageSchema = <S extends z.ZodType>(item: S) =>
  z.object({
    items: z.array(item),
    total: z.number().int().min(0),
    page: z.number().int().min(1),
    pageSize: z.number().int().min(1),
  });
