import { tokenInput } from "./accounts";
import { applicantInputSchema, emailField } from "./applicant";
import { z } from "./zod";

export type { ResumedWizard, SavedDraft } from "../api/application";

/**
 * Save and resume (docs/product/admissions.md#resume-links, decision 028): the request for an e-mailed resume link, its use on
 * another device, and the one-click opt-out of the abandoned-application reminder. The answers'
 * schemas are the contracts' (src/shared/api/application.ts).
 */

/** POST /api/resume-links `{ email }` → 202 `{ ok: true }` whether or not an application exists. */
export const resumeLinkRequestSchema = z.object({ email: emailField });
export type ResumeLinkRequest = z.input<typeof resumeLinkRequestSchema>;

/** POST /api/resume-links/use `{ token }` (the link's token, single-use). */
export const resumeLinkUseSchema = z.object({ token: tokenInput });

/** POST /api/resume-reminders/opt-out `{ token }` (the reminder e-mail's opt-out token). */
export const reminderOptOutSchema = z.object({ token: tokenInput });

/** The names of the applicant's own fields, as step 2 and `POST /api/applicants` take them. */
export const APPLICANT_FIELDS = Object.keys(applicantInputSchema.shape) as Array<
  keyof typeof applicantInputSchema.shape
>;
