import type {
  adminAddOnSchema,
  adminHousingSchema,
  adminPackageSchema,
  adminSummerSchoolDetailSchema,
  adminSummerSchoolSchema,
  localizedTextDtoSchema,
  schoolRefSchema,
  staleVersionBodySchema,
} from "./schemas/catalogue-admin";
import type { listPageSchema } from "./schemas/list";
import type { z } from "./schemas/zod";

/**
 * Shapes of the catalogue API of the back office (docs/product/back-office.md#catalogue-admin),
 * derived from the zod schemas the back office parses the answers with
 * (src/shared/schemas/catalogue-admin.ts, "Responses"; the fields are documented there).
 * Unlike the public catalogue (src/shared/catalogue.ts, one language), texts here are every
 * language as stored (`LocalizedText`), so the forms can edit them. Amounts are integer euro cents;
 * dates yyyy-mm-dd; timestamps ISO 8601. Every editable row carries `version` (409 when stale).
 */

/** A text in the site's languages; `en` is required and is the fallback (db LocalizedText). */
export type LocalizedTextDto = z.output<typeof localizedTextDtoSchema>;

/** A summer school (cohort) as the back office sees it. */
export type AdminSummerSchoolDto = z.output<typeof adminSummerSchoolSchema>;

/** The school a package, housing option or add-on belongs to (list columns). */
export type SchoolRefDto = z.output<typeof schoolRefSchema>;

/** A package of a summer school. */
export type AdminPackageDto = z.output<typeof adminPackageSchema>;

/** A housing option of a summer school (the price adjustment may be negative). */
export type AdminHousingDto = z.output<typeof adminHousingSchema>;

/** An add-on of a summer school. */
export type AdminAddOnDto = z.output<typeof adminAddOnSchema>;

/** `GET /api/admin/summer-schools/:id`: the school with all its items, archived ones included. */
export type AdminSummerSchoolDetail = z.output<typeof adminSummerSchoolDetailSchema>;

/** A page of a catalogue list (`{ items, total, page, pageSize }`), as `listPageSchema` parses it. */
export type CataloguePage<T> = z.output<ReturnType<typeof listPageSchema<z.ZodType<T>>>>;

/** The body of a 409 on a stale version: the message and the record as it is now. */
export type StaleVersionBody<T> = z.output<ReturnType<typeof staleVersionBodySchema<z.ZodType<T>>>>;
