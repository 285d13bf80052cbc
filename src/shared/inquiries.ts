/**
 * The rules of the public forms that copy shows (issue 13, decision 025), without zod, so pages
 * that only mention them (the privacy policy) do not load the form rules.
 */

/** Business days within which the team answers (spec §9 "team contact within 5 business days"). */
export const ANSWER_BUSINESS_DAYS = 5;

/** How long a newsletter confirmation link works, in hours (issue 13: single-use and expiring). */
export const CONFIRM_LINK_HOURS = 48;

/**
 * How long the school keeps a partnership inquiry or message after its last reply, in months
 * (the privacy policy and the forms' consent line say so).
 */
export const INQUIRY_RETENTION_MONTHS = 24;
