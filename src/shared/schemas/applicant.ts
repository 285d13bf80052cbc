import { checkAge, todayIso } from "../age";
import { COUNTRY_CODES, FIELDS_OF_STUDY, REFERRAL_SOURCES, STUDENT_STATUSES } from "../options";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

/** A required single-line text field: trimmed, not empty, at most `max` characters, no control characters. */
export const requiredText = (max = 200) =>
  line({ error: V.required }).min(1, { error: V.required }).max(max, { error: V.tooLong });

/** An optional text ("" when absent) of at most `max` characters; `multiline` for a textarea. */
const optionalText = (max: number, multiline = false) =>
  (multiline ? lines() : line()).max(max, { error: V.tooLong }).optional().default("");

/** A country: its ISO 3166-1 alpha-2 code among those the forms offer (`COUNTRY_CODES`). */
export const countryCodeField = z.enum(COUNTRY_CODES, { error: V.required });

/** A real yyyy-mm-dd calendar date (Date.parse alone accepts 2001-02-31 as 3 March). */
const isCalendarDate = (value: string) => {
  const time = /^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Number.NaN;
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value;
};

const isoDate = line({ error: V.required })
  .min(1, { error: V.required, abort: true })
  .refine(isCalendarDate, { error: V.invalidDate });

/** Email rule of docs/product/admissions.md#email-address: the ordinary pattern, at most 254 characters, stored lower-case. */
export const emailField = requiredText(254)
  .pipe(z.email({ error: V.invalidEmail }))
  .transform((value) => value.toLowerCase());

/**
 * Personal information of an applicant (docs/product/admissions.md#personal-step, rules docs/product/admissions.md#personal-step).
 * Shared by the wizard's step 2 form and `POST /api/applicants`. Age is checked against today's
 * date at validation time (18–40, docs/product/catalogue-and-pricing.md#applicant-age).
 */
export const applicantInputSchema = z
  .object({
    firstName: requiredText(100),
    lastName: requiredText(100),
    email: emailField,
    phone: requiredText(40),
    address: requiredText(200),
    city: requiredText(100),
    postalCode: requiredText(20),
    countryOfResidence: countryCodeField,
    nationality: countryCodeField,
    dateOfBirth: isoDate,
    passportNumber: requiredText(30),
    university: requiredText(200),
    fieldOfStudy: z.enum(FIELDS_OF_STUDY, { error: V.required }),
    studentStatus: z.enum(STUDENT_STATUSES, { error: V.required }),
    expectations: optionalText(2000, true),
    referralSource: z
      .union([z.enum(REFERRAL_SOURCES), z.literal("")])
      .optional()
      .default(""),
    otherReferralDetail: optionalText(500),
    /** "Remind me": consent to one e-mail a day after an abandoned application (docs/product/admissions.md#abandoned-application-reminder, decision 028). */
    remindMe: z.boolean().optional().default(false),
  })
  .superRefine((value, ctx) => {
    // Only a valid date has an age; an invalid one already has its own message.
    const age = isCalendarDate(value.dateOfBirth) ? checkAge(value.dateOfBirth, todayIso()) : null;
    if (age === "tooYoung") ctx.addIssue({ code: "custom", path: ["dateOfBirth"], message: V.tooYoung });
    if (age === "tooOld") ctx.addIssue({ code: "custom", path: ["dateOfBirth"], message: V.tooOld });
    if (value.referralSource === "other" && !value.otherReferralDetail) {
      ctx.addIssue({ code: "custom", path: ["otherReferralDetail"], message: V.specifyReferral });
    }
  });

/** What the form holds (before defaults and transforms). */
export type ApplicantFormValues = z.input<typeof applicantInputSchema>;
/** What the server stores. */
export type ApplicantInput = z.output<typeof applicantInputSchema>;

/** `PATCH /api/applicants/{id}`: any subset of the fields, plus the passport address from the upload. */
export const applicantPatchSchema = z.object({
  passportUrl: line().max(300).optional(),
});

/** Passport upload limits (docs/product/admissions.md#passport-upload). */
export const PASSPORT_MAX_BYTES = 5 * 1024 * 1024;
export const PDF_MAGIC = "%PDF-";
