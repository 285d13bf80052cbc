import { PORTAL_KINDS } from "../portal";
import { optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/** Longest title and body of a portal entry. */
export const PORTAL_TITLE_MAX = 200;
export const PORTAL_BODY_MAX = 5000;

/** A text of one line (a title), or of several (`multiline`: a body). */
const textOf = (multiline: boolean, options: { error?: string } = {}) =>
  multiline ? lines(options) : line(options);

const optionalText = (max: number, multiline: boolean) =>
  textOf(multiline)
    .max(max, { error: V.tooLong })
    .optional()
    .transform((v) => v ?? "");

/** A text in en (required), zh and fr (optional: English shows instead). */
const localized = (max: number, multiline = false) =>
  z.object({
    en: textOf(multiline, { error: V.required }).min(1, { error: V.required }).max(max, { error: V.tooLong }),
    zh: optionalText(max, multiline),
    fr: optionalText(max, multiline),
  });

/** An http(s) address, or empty. Other schemes (javascript:, data:) are refused. */
const webAddress = line()
  .max(500, { error: V.tooLong })
  .refine((value) => value === "" || /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(value), {
    error: "errors.portal.invalidUrl",
  });

/**
 * Body of `POST /api/admin/portal-entries` and of the back office's entry dialog: kind, the cohort
 * (`summerSchoolId`, null for every cohort), title and body in en/zh/fr, the partner's address
 * (required for partners), sort order, and when it is published (null: a draft).
 */
export const portalEntryInputSchema = z
  .object({
    kind: z.enum(PORTAL_KINDS, { error: V.invalidChoice }),
    summerSchoolId: z.uuid({ error: V.invalidChoice }).nullable().default(null),
    title: localized(PORTAL_TITLE_MAX),
    body: localized(PORTAL_BODY_MAX, true),
    url: webAddress.default(""),
    sortOrder: z.number({ error: V.invalidChoice }).int().min(0).max(10_000).default(0),
    publishedAt: z.iso.datetime({ offset: true, error: V.invalidDate }).nullable().default(null),
  })
  .superRefine((entry, ctx) => {
    if (entry.kind === "partner" && entry.url === "")
      ctx.addIssue({ code: "custom", path: ["url"], message: V.required });
  });
export type PortalEntryInput = z.output<typeof portalEntryInputSchema>;
/** What the entry dialog holds before parsing. */
export type PortalEntryFormValues = z.input<typeof portalEntryInputSchema>;

/**
 * Body of `PATCH /api/admin/portal-entries/:id`: the full entry (as for a creation) and the
 * `version` the admin saw; `archived` archives (true) or restores (false) it.
 */
export const portalEntryUpdateSchema = z.object({
  version: z.number().int().min(1),
  entry: portalEntryInputSchema.optional(),
  archived: z.boolean().optional(),
});
export type PortalEntryUpdateInput = z.output<typeof portalEntryUpdateSchema>;

/**
 * Sort keys of the back office's entry list (`sort=<key>:<asc|desc>`): kind (announcements, trip
 * information, FAQ, partners; then order), English title (case-insensitive), order, publication
 * time and last change.
 */
export const PORTAL_SORT_KEYS = ["kind", "title", "sortOrder", "publishedAt", "updatedAt"] as const;
export type PortalSortKey = (typeof PORTAL_SORT_KEYS)[number];

/** The `schoolId` filter value of the entries shown to every cohort (no summer school). */
export const PORTAL_EVERY_COHORT = "all";

/**
 * Filters of `GET /api/admin/portal-entries` and `.csv`: kind; schoolId (a summer school's id: the
 * entries for that cohort only; `all`: the entries for every cohort); archived=1 (archived entries
 * too; left out otherwise); q (part of the title or text, in English, Chinese or French).
 */
export const portalEntryFiltersSchema = z.object({
  kind: optionalParam(z.enum(PORTAL_KINDS, { error: V.invalidChoice })),
  schoolId: optionalParam(z.union([z.uuid(), z.literal(PORTAL_EVERY_COHORT)], { error: V.invalidChoice })),
  archived: optionalParam(z.enum(["0", "1"], { error: V.invalidChoice })).transform((v) => v === "1"),
  q: searchParam,
});
export type PortalEntryFilters = z.output<typeof portalEntryFiltersSchema>;

/** Query of `GET /api/admin/portal-entries`: the filters plus page, pageSize (≤ 100) and sort (default kind:asc). */
export const portalEntryListQuerySchema = portalEntryFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(PORTAL_SORT_KEYS, { key: "kind", direction: "asc" }),
});
export type PortalEntryListQuery = z.output<typeof portalEntryListQuerySchema>;
