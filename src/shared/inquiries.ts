/**
 * The rules of the public forms that copy shows (docs/product/portals.md#public-forms, decision 025), without zod, so pages
 * that only mention them (the privacy policy) do not load the form rules.
 */

/** Business days within which the team answers (docs/product/catalogue-and-pricing.md#quote). */
export const ANSWER_BUSINESS_DAYS = 5;

/** How long a newsletter confirmation link works, in hours (docs/product/portals.md#newsletter: single-use and expiring). */
export const CONFIRM_LINK_HOURS = 48;
