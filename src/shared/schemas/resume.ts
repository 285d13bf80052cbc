import { tokenInput } from "./accounts";
import { emailField } from "./applicant";
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
 * the stored details and passport). `hasPassport`: the uploaded passport is kept on the server.
 */
export const resumedWizardSchema = z.object({
  applicantId: z.uuid(),
  applicationId: z.uuid().nullable(),
  step: z.union([z.literal(1), z.literal(3)]),
  summerSchoolId: z.uuid().nullable(),
  packageId: z.uuid().nullable(),
  housingOptionId: z.uuid().nullable(),
  selectedAddOns: z.array(z.uuid()),
  hasPassport: z.boolean(),
});
export type ResumedWizard = z.output<typeof resumedWizardSchema>;

/** `{ ok: true }` of the request and the opt-out. */
export const okSchema = z.object({ ok: z.literal(true) });
