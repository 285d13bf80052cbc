import type { Language } from "./i18n/languages";
import type { ListPage } from "./schemas/list";
import { line } from "./schemas/text";
import { z } from "./schemas/zod";

/**
 * Entries of the student portal managed from the back office (issue "Student dashboard
 * management: announcements, trip information, FAQ and partner entries shown in the student
 * portal"; table `portal_entries`).
 */
export const PORTAL_KINDS = ["announcement", "trip_info", "faq", "partner"] as const;
export type PortalKind = (typeof PORTAL_KINDS)[number];

/** A text in the site's languages; English is required and is the fallback. */
export type PortalLocalizedText = { en: string; zh?: string; fr?: string };

/** One entry in the back office (`/api/admin/portal-entries`). Times are ISO strings. */
export interface AdminPortalEntryDto {
  id: string;
  kind: PortalKind;
  /** The cohort (summer school) the entry is for; null: every cohort. */
  summerSchool: { id: string; name: string } | null;
  title: Required<PortalLocalizedText>;
  body: Required<PortalLocalizedText>;
  /** The partner's web address (partners only; "" otherwise). */
  url: string;
  sortOrder: number;
  /** When the entry shows in the portal; null: a draft. */
  publishedAt: string | null;
  archivedAt: string | null;
  /** Sent back on every change; a stale version is answered 409. */
  version: number;
  createdAt: string;
  updatedAt: string;
}

/** Where an entry stands at a time: archived, a draft (no publication time), scheduled or published. */
export type PortalEntryState = "archived" | "draft" | "scheduled" | "published";

/** The state of an entry at `now` (milliseconds since the epoch), as the list and its CSV show it. */
export function portalEntryState(
  entry: Pick<AdminPortalEntryDto, "archivedAt" | "publishedAt">,
  now: number,
): PortalEntryState {
  if (entry.archivedAt) return "archived";
  if (!entry.publishedAt) return "draft";
  return new Date(entry.publishedAt).getTime() > now ? "scheduled" : "published";
}

/**
 * `GET /api/admin/portal-entries` → one page of the entries matching the filters, in the requested
 * sort (default: by kind, then sort order, then newest); `total` counts every matching entry.
 */
export type AdminPortalEntryList = ListPage<AdminPortalEntryDto>;

/** An entry as a student reads it (`GET /api/student/portal`), in their language (English fallback). */
export interface StudentPortalEntryDto {
  id: string;
  kind: PortalKind;
  title: string;
  body: string;
  url: string;
  publishedAt: string;
  /** The cohort's name when the entry is for one cohort only. */
  summerSchoolName: string | null;
}

/** `GET /api/student/portal` → the published entries for the student, in `language`. */
export interface StudentPortal {
  language: Language;
  entries: StudentPortalEntryDto[];
}

/**
 * What a student has to do next, one kind per thing (issue 22 item 16; decision 038), in the
 * order the dashboard lists them within an application:
 * - `balance_overdue` / `pay_balance`: the balance (`amount`, cents) is owed, due on `date`
 *   (shared rule `balanceOf`, decision 016);
 * - `finish_payment`: the application was never paid (the wizard's payment step);
 * - `emergency_contact`: a member of the cohort has not given an emergency contact;
 * - `insurance_proof`: the cohort requires proof of travel and health insurance, none is on file,
 *   and the application did not buy the school's own insurance add-on;
 * - `visa_letter`: the visa invitation letter can be downloaded and has not been yet;
 * - `await_review`, `waitlisted`: nothing to do but wait (no link);
 * - `prepare_trip`: accepted, and nothing above is missing.
 */
export const NEXT_STEP_KINDS = [
  "balance_overdue",
  "pay_balance",
  "finish_payment",
  "emergency_contact",
  "insurance_proof",
  "visa_letter",
  "await_review",
  "waitlisted",
  "prepare_trip",
] as const;
export type NextStepKind = (typeof NEXT_STEP_KINDS)[number];

/** One next step of one application. */
export const nextStepSchema = z.object({
  kind: z.enum(NEXT_STEP_KINDS),
  applicationId: z.uuid(),
  /** The cohort's name in the request's language. */
  programName: line(),
  /** The portal page (path, with its anchor) where the step is done; null for waiting. */
  href: line().nullable(),
  /** Balance steps: the amount owed, integer euro cents; null otherwise. */
  amount: z.number().int().nullable(),
  /** Balance steps: the due date `yyyy-mm-dd`; null otherwise. */
  date: line().nullable(),
});
export type NextStep = z.infer<typeof nextStepSchema>;

/**
 * `GET /api/student/next-steps` → every next step of the student's applications (newest
 * application first, each application's steps in NEXT_STEP_KINDS order), computed on the server.
 */
export const studentNextStepsSchema = z.object({ steps: z.array(nextStepSchema) });
export type StudentNextSteps = z.infer<typeof studentNextStepsSchema>;
