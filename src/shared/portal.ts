import type { Language } from "./i18n/languages";
import type { ListPage } from "./schemas/list";

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
