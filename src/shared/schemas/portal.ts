import { PORTAL_KINDS } from "../portal";
import { optionalParam, pageParams, searchParam } from "./list";
import { V } from "./messages";
import { z } from "./zod";

/** Longest title and body of a portal entry. */
export const PORTAL_TITLE_MAX = 200;
export const PORTAL_BODY_MAX = 5000;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: V.tooLong })
    .optional()
    .transform((v) => v ?? "");

/** A text in en (required), zh and fr (optional: English shows instead). */
const localized = (max: number) =>
  z.object({
    en: z.string({ error: V.required }).trim().min(1, { error: V.required }).max(max, { error: V.tooLong }),
    zh: optionalText(max),
    fr: optionalText(max),
  });

/** An http(s) address, or empty. Other schemes (javascript:, data:) are refused. */
const webAddress = z
  .string()
  .trim()
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
    body: localized(PORTAL_BODY_MAX),
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

/** Query of `GET /api/admin/portal-entries`: kind, archived=1 (archived entries too), q, page, pageSize. */
export const portalEntryListQuerySchema = z.object({
  kind: optionalParam(z.enum(PORTAL_KINDS, { error: V.invalidChoice })),
  archived: optionalParam(z.enum(["0", "1"])).transform((v) => v === "1"),
  q: searchParam,
  ...pageParams,
});
export type PortalEntryListQuery = z.output<typeof portalEntryListQuerySchema>;
