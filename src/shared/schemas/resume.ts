import { tokenInput } from "./accounts";
import { applicantInputSchema, emailField } from "./applicant";
import { line } from "./text";
import { z } from "./zod";

/**
 * Save and resume (issue 13, decision 028): the request for an e-mailed resume link, its use on
 * another device, and the one-click opt-out of the abandoned-application reminder.
 */

/** POST /api/resume-links `{ email }` → 202 `{ ok: true }` whether or not an application exists. */
export const resumeLinkRequestSchema = z.object({ email: emailField });
export type ResumeLinkRequest = z.input<typeof resumeLinkRequestSchema>;

/** POST /api/resume-links/use `{ token }` (the link's token, single-use). */
export const resumeLinkUseSchema = z.object({ token: tokenInput });

/** POST /api/resume-reminders/opt-out `{ token }` (the reminder e-mail's opt-out token). */
export const reminderOptOutSchema = z.object({ token: tokenInput });

/**
 * The answer of POST /api/resume-links/use: where the wizard continues. `step` 3 (payment) when
 * the applicant has an unpaid application, whose choices come with it; `step` 1 when the
 * applicant never got as far as an application (the programme is chosen again; step 2 then shows
 * the stored details and passport). The uploaded passport stays on the server.
 */
export const resumedWizardSchema = z.object({
  applicantId: z.uuid(),
  applicationId: z.uuid().nullable(),
  step: z.union([z.literal(1), z.literal(3)]),
  summerSchoolId: z.uuid().nullable(),
  packageId: z.uuid().nullable(),
  housingOptionId: z.uuid().nullable(),
  selectedAddOns: z.array(z.uuid()),
  /** Where the uploaded passport is served to its owner; null when none was uploaded. */
  passportUrl: line().nullable(),
  /**
   * The applicant's stored details (the fields of `applicantInputSchema`), to refill step 2; the
   * form checks them with that schema again before anything is sent.
   */
  personal: z.record(z.string(), z.union([line(), z.boolean()])),
});
export type ResumedWizard = z.output<typeof resumedWizardSchema>;

/** The names of the applicant's own fields, as step 2 and `POST /api/applicants` take them. */
export const APPLICANT_FIELDS = Object.keys(applicantInputSchema.shape) as Array<
  keyof typeof applicantInputSchema.shape
>;

/**
 * `GET /api/resume/draft` (issue 22 item 16, decision 038): the unfinished application this
 * browser's capability cookie (decisions.md §3) holds on the server, for the wizard's step 1 to
 * offer "Continue your application". `draft` is null when the browser holds none, or when the
 * application (or another of the same address) was paid or submitted. `savedAt` is when the
 * application or the applicant last changed (ISO 8601 UTC); `programme` the cohort chosen (its
 * name in the request's language), null when the applicant never got to an application.
 */
export const savedDraftSchema = z.object({
  draft: z
    .object({
      savedAt: line(),
      programme: z.object({ name: line(), startDate: line(), endDate: line() }).nullable(),
      wizard: resumedWizardSchema,
    })
    .nullable(),
});
export type SavedDraft = z.output<typeof savedDraftSchema>;

/** `{ ok: true }` of the request and the opt-out. */
export const okSchema = z.object({ ok: z.literal(true) });
