import { lines } from "./text";
import { z } from "./zod";

/**
 * Request and response shapes of the letters module (docs/product/admissions.md#documents-and-letters: visa invitation
 * letter, its public verification, the certificate of completion; decision 018). Dates are
 * `yyyy-mm-dd`, timestamps ISO 8601 UTC.
 */

const isoDate = lines().regex(/^\d{4}-\d{2}-\d{2}$/);

/** Why the visa letter is not available (src/shared/letters.ts `VisaLetterBlock`). */
export const visaLetterBlockSchema = z.enum([
  "closed",
  "refunded",
  "erased",
  "depositDue",
  "awaitingAcceptance",
]);

/**
 * `GET /api/student/applications/:id/documents` and `GET /api/admin/applications/:id/documents`:
 * what the student's document cards (and the admin's panel) show of one application.
 */
export const applicationDocumentsSchema = z.object({
  applicationId: z.uuid(),
  programme: z.object({ name: lines(), startDate: isoDate, endDate: isoDate }),
  visaLetter: z.object({
    available: z.boolean(),
    /** Null when available. */
    blockedBy: visaLetterBlockSchema.nullable(),
    /** The school's "acceptance first" setting. */
    requiresAcceptance: z.boolean(),
    /** When the current letter was first issued; null before the first download. */
    issuedAt: lines().nullable(),
  }),
  /** The visa application window: 8 to 6 weeks before the start (docs/product/admissions.md#visa-letter). */
  visaWindow: z.object({
    opens: isoDate,
    closes: isoDate,
    phase: z.enum(["before", "open", "late"]),
  }),
  certificate: z.object({
    available: z.boolean(),
    /** When an admin marked the programme completed; null until then. */
    completedAt: lines().nullable(),
    ects: z.number().int(),
  }),
  /** The application's version (admin completion changes are version-checked). */
  version: z.number().int(),
  /** Admin view only: whether the cohort-wide action would mark this one (accepted and paid in full). */
  completionEligible: z.boolean(),
});
export type ApplicationDocuments = z.output<typeof applicationDocumentsSchema>;

/**
 * `GET /api/visa-letters/:token`: the public check of a visa invitation letter. `unknown` when no
 * letter has that token; otherwise only initials, programme dates and the day it was issued.
 */
export const visaLetterVerificationSchema = z.discriminatedUnion("state", [
  z.object({ state: z.literal("unknown") }),
  z.object({
    state: z.enum(["genuine", "revoked"]),
    /** "A. O."; empty once the applicant's data was erased. */
    initials: lines(),
    startDate: isoDate,
    endDate: isoDate,
    /** Day of issue in The Hague, `yyyy-mm-dd`. */
    issuedOn: isoDate,
    /** Day of revocation, when revoked. */
    revokedOn: isoDate.nullable(),
  }),
]);
export type VisaLetterVerification = z.output<typeof visaLetterVerificationSchema>;

/** `POST /api/admin/applications/:id/completion` body: mark (true) or unmark, with the version seen. */
export const completionChangeSchema = z.object({
  completed: z.boolean(),
  version: z.number().int().min(1),
});
export type CompletionChange = z.output<typeof completionChangeSchema>;

/** `POST /api/admin/summer-schools/:id/complete-cohort` body: the school's version the admin saw. */
export const cohortCompletionSchema = z.object({
  version: z.number().int().min(1),
});

/** `POST /api/admin/summer-schools/:id/complete-cohort` answer. */
export const cohortCompletionResultSchema = z.object({
  /** Applications marked completed now. */
  marked: z.number().int(),
  /** Eligible applications that were already marked. */
  alreadyCompleted: z.number().int(),
  /** Applications of the cohort left unmarked (not accepted, or not paid in full). */
  notEligible: z.number().int(),
});
export type CohortCompletionResult = z.output<typeof cohortCompletionResultSchema>;
