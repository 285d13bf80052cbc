import { z } from "../schemas/zod";

/**
 * Shapes many contracts share: the `:id` of a record, a page of a list, an empty answer.
 * Response schemas describe the JSON on the wire (dates as ISO strings), without transforms, so
 * the server checks and the browser parses the same thing.
 */

/** `:id` path parameter: a UUID (anything else is an unknown record: 404). */
export const idParams = z.object({ id: z.uuid() });

/** A page of a back-office list: `{ items, total, page, pageSize }` (server-side pagination). */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({
    items: z.array(item),
    total: z.number().int(),
    page: z.number().int(),
    pageSize: z.number().int(),
  });

/** A 204 answer: no body. */
export const noContent = z.undefined();
