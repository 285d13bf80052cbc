import { LANGUAGES } from "../i18n/languages";
import { NEXT_STEP_KINDS, PORTAL_KINDS } from "../portal";
import {
  portalEntryFiltersSchema,
  portalEntryInputSchema,
  portalEntryListQuerySchema,
  portalEntryUpdateSchema,
} from "../schemas/portal";
import { z } from "../schemas/zod";
import { idParams, pageOf } from "./common";
import { contract } from "./contract";

/**
 * The student portal's entries (announcements, trip information, FAQ, partners): the back
 * office's management of them (`portal:write`: owners and admissions; 401 without an admin
 * session, 403 for finance) and the student's view, with the student's next steps (401 without
 * a student session, 403 `errors.verifyEmailFirst` before the e-mail is verified). Times are ISO
 * 8601 UTC.
 */

/** A text in en, zh and fr as the back office edits it ("" where not translated). */
const localizedTextSchema = z.object({ en: z.string(), zh: z.string(), fr: z.string() });

/** One entry in the back office (`/api/admin/portal-entries`). */
export const adminPortalEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(PORTAL_KINDS),
  /** The cohort (summer school) the entry is for; null: every cohort. */
  summerSchool: z.object({ id: z.string(), name: z.string() }).nullable(),
  title: localizedTextSchema,
  body: localizedTextSchema,
  /** The partner's web address (partners only; "" otherwise). */
  url: z.string(),
  sortOrder: z.number().int(),
  /** When the entry shows in the portal; null: a draft. */
  publishedAt: z.string().nullable(),
  archivedAt: z.string().nullable(),
  /** Sent back on every change; a stale version is answered 409. */
  version: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminPortalEntryDto = z.output<typeof adminPortalEntrySchema>;

/** One page of the back office's entries. */
export const adminPortalEntryListSchema = pageOf(adminPortalEntrySchema);
export type AdminPortalEntryList = z.output<typeof adminPortalEntryListSchema>;

/** An entry as a student reads it, in their language (English fallback). */
export const studentPortalEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(PORTAL_KINDS),
  title: z.string(),
  body: z.string(),
  url: z.string(),
  publishedAt: z.string(),
  /** The cohort's name when the entry is for one cohort only. */
  summerSchoolName: z.string().nullable(),
});
export type StudentPortalEntryDto = z.output<typeof studentPortalEntrySchema>;

/** `GET /api/student/portal` → the published entries for the student, in `language`. */
export const studentPortalSchema = z.object({
  language: z.enum(LANGUAGES),
  entries: z.array(studentPortalEntrySchema),
});
export type StudentPortal = z.output<typeof studentPortalSchema>;

/** One next step of one application (see NEXT_STEP_KINDS in `../portal`). */
export const nextStepSchema = z.object({
  kind: z.enum(NEXT_STEP_KINDS),
  applicationId: z.string(),
  /** The cohort's name in the request's language. */
  programName: z.string(),
  /** The portal page (path, with its anchor) where the step is done; null for waiting. */
  href: z.string().nullable(),
  /** Balance steps: the amount owed, integer euro cents; null otherwise. */
  amount: z.number().int().nullable(),
  /** Balance steps: the due date `yyyy-mm-dd`; null otherwise. */
  date: z.string().nullable(),
});
export type NextStep = z.output<typeof nextStepSchema>;

/** `GET /api/student/next-steps` → every next step of the student's applications. */
export const studentNextStepsSchema = z.object({ steps: z.array(nextStepSchema) });
export type StudentNextSteps = z.output<typeof studentNextStepsSchema>;

/**
 * `GET /api/admin/portal-entries?page&pageSize&sort&kind&schoolId&archived&q` → one page of the
 * entries. 400 with `fieldErrors` for a malformed parameter.
 */
export const listPortalEntriesContract = contract({
  method: "GET",
  path: "/api/admin/portal-entries",
  access: "admin",
  summary: "A page of the student portal's entries, filtered, searched and sorted",
  query: portalEntryListQuerySchema,
  response: adminPortalEntryListSchema,
});

/** `GET /api/admin/portal-entries.csv?kind&schoolId&archived&q` → CSV of every matching entry (audited). 400 bad filter. */
export const exportPortalEntriesContract = contract({
  method: "GET",
  path: "/api/admin/portal-entries.csv",
  access: "admin",
  summary: "Every matching portal entry as a CSV file",
  query: portalEntryFiltersSchema,
  produces: "text/csv",
});

/** `GET /api/admin/portal-entries/:id` → the entry. 404 unknown id. */
export const getPortalEntryContract = contract({
  method: "GET",
  path: "/api/admin/portal-entries/:id",
  access: "admin",
  summary: "One portal entry",
  params: idParams,
  response: adminPortalEntrySchema,
});

/** `POST /api/admin/portal-entries` → 201 the entry. 400 missing English text, a partner without address, an unknown cohort. */
export const createPortalEntryContract = contract({
  method: "POST",
  path: "/api/admin/portal-entries",
  access: "admin",
  summary: "Create a portal entry",
  body: portalEntryInputSchema,
  status: 201,
  response: adminPortalEntrySchema,
});

/** `PATCH /api/admin/portal-entries/:id` `{ version, entry?, archived? }` → the entry. 404 unknown; 409 `{ message, current }` stale version. */
export const updatePortalEntryContract = contract({
  method: "PATCH",
  path: "/api/admin/portal-entries/:id",
  access: "admin",
  summary: "Change, archive or restore a portal entry",
  params: idParams,
  body: portalEntryUpdateSchema,
  response: adminPortalEntrySchema,
});

/** `GET /api/student/portal` → `{ language, entries }`: the published entries of the student's cohorts. 401/403. */
export const getStudentPortalContract = contract({
  method: "GET",
  path: "/api/student/portal",
  access: "student",
  summary: "The published portal entries for the student's cohorts, in the request's language",
  response: studentPortalSchema,
});

/** `GET /api/student/next-steps` → `{ steps }`: everything the student has to do next. 401/403. */
export const getStudentNextStepsContract = contract({
  method: "GET",
  path: "/api/student/next-steps",
  access: "student",
  summary: "What the student has to do next, for each of their applications",
  response: studentNextStepsSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const PORTAL_CONTRACTS = [
  listPortalEntriesContract,
  exportPortalEntriesContract,
  getPortalEntryContract,
  createPortalEntryContract,
  updatePortalEntryContract,
  getStudentPortalContract,
  getStudentNextStepsContract,
];
