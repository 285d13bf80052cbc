/**
 * Entries of the student portal managed from the back office (docs/product/back-office.md#portal-entries: "Student dashboard
 * management: announcements, trip information, FAQ and partner entries shown in the student
 * portal"; table `portal_entries`).
 */
export const PORTAL_KINDS = ["announcement", "trip_info", "faq", "partner"] as const;
export type PortalKind = (typeof PORTAL_KINDS)[number];

/** A text in the site's languages; English is required and is the fallback. */
export type PortalLocalizedText = { en: string; zh?: string; fr?: string };

/* The answers' shapes (entries, the student's portal, next steps) are the contracts': `./api/portal.ts`. */

/** Where an entry stands at a time: archived, a draft (no publication time), scheduled or published. */
export type PortalEntryState = "archived" | "draft" | "scheduled" | "published";

/** The state of an entry at `now` (milliseconds since the epoch), as the list and its CSV show it. */
export function portalEntryState(
  entry: { archivedAt: string | null; publishedAt: string | null },
  now: number,
): PortalEntryState {
  if (entry.archivedAt) return "archived";
  if (!entry.publishedAt) return "draft";
  return new Date(entry.publishedAt).getTime() > now ? "scheduled" : "published";
}

/**
 * What a student has to do next, one kind per thing (docs/product/admissions.md#next-steps; decision 038), in the
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
