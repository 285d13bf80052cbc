import { LANGUAGES } from "../i18n/languages";
import { countryCodeField, emailField, requiredText } from "./applicant";
import { optionalParam, pageParams, searchParam } from "./list";
import { V } from "./messages";
import { line, lines } from "./text";
import { z } from "./zod";

export { ANSWER_BUSINESS_DAYS, CONFIRM_LINK_HOURS } from "../inquiries";

/**
 * The public forms of docs/product/portals.md#public-forms (docs/product/portals.md#public-forms): the
 * partnership inquiry, the contact message (the spec's "chat" form) and the newsletter sign-up
 * with double opt-in, and the back office's inbox of them. Shared by the browser's forms and the
 * API (400 with a message key of `common` per field). Instants are ISO 8601 UTC.
 */

/** Partnership interests of the inquiry form (docs/product/admissions.md#personal-step), in that order. */
export const PARTNERSHIP_INTERESTS = [
  "creditTransfer",
  "groupReferral",
  "coBranded",
  "facultyExchange",
  "customProgram",
  "other",
] as const;
export type PartnershipInterest = (typeof PARTNERSHIP_INTERESTS)[number];

/** The two kinds of message the inbox holds. */
export const INQUIRY_KINDS = ["partnership", "message"] as const;
export type InquiryKind = (typeof INQUIRY_KINDS)[number];

/** Statuses of a partnership inquiry or a message in the inbox (docs/product/portals.md#public-forms). */
export const INQUIRY_STATUSES = ["new", "answered", "archived"] as const;
export type InquiryStatus = (typeof INQUIRY_STATUSES)[number];

/** Statuses of a newsletter subscriber: only `confirmed` addresses receive the newsletter. */
export const SUBSCRIBER_STATUSES = ["pending", "confirmed", "unsubscribed"] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** Longest message of either form, in characters. */
export const MESSAGE_MAX = 5000;

/**
 * The honeypot: a field people never see (hidden from sight and from screen readers) that bots
 * fill in. Any text is accepted, so a bot gets the same answer as a person; the server then stores
 * and sends nothing (docs/product/portals.md#public-forms).
 */
const honeypot = line({ trim: false }).max(500).optional().default("");

/** The language of the page the form was sent from: the sender's confirmation is written in it. */
const languageField = z.enum(LANGUAGES, { error: V.invalidChoice });

/** A required message of several lines. */
const messageField = lines({ error: V.required })
  .min(1, { error: V.required })
  .max(MESSAGE_MAX, { error: V.tooLong });

/**
 * `POST /api/public/partnership-inquiries`: docs/product/portals.md#public-forms (university name,
 * country, contact person, position, e-mail, phone, partnership interest, message). Phone is
 * optional: many universities write from a shared office address.
 */
export const partnershipInquirySchema = z.object({
  university: requiredText(200),
  country: countryCodeField,
  contactPerson: requiredText(100),
  position: requiredText(100),
  email: emailField,
  phone: line().max(40, { error: V.tooLong }).optional().default(""),
  interest: z.enum(PARTNERSHIP_INTERESTS, { error: V.required }),
  message: messageField,
  language: languageField,
  website: honeypot,
});
export type PartnershipInquiryFormValues = z.input<typeof partnershipInquirySchema>;
export type PartnershipInquiryInput = z.output<typeof partnershipInquirySchema>;

/** `POST /api/public/messages`: the contact form (docs/product/portals.md#public-forms: name, e-mail, message). */
export const contactMessageSchema = z.object({
  name: requiredText(100),
  email: emailField,
  message: messageField,
  language: languageField,
  website: honeypot,
});
export type ContactMessageFormValues = z.input<typeof contactMessageSchema>;
export type ContactMessageInput = z.output<typeof contactMessageSchema>;

/** `POST /api/public/newsletter`: the sign-up (docs/product/portals.md#newsletter), double opt-in. */
export const newsletterSignupSchema = z.object({
  email: emailField,
  language: languageField,
  website: honeypot,
});
export type NewsletterSignupFormValues = z.input<typeof newsletterSignupSchema>;

/** A one-time or unsubscribe token from an e-mailed link (base64url, 43 characters). */
export const linkTokenSchema = z.object({
  token: line({ trim: false, error: "errors.forms.linkInvalid" })
    .min(20, { error: "errors.forms.linkInvalid" })
    .max(200, { error: "errors.forms.linkInvalid" }),
});

/* ---------------------------------------------------------------- back office: the inbox */

/** Filters of the inbox's messages (and their CSV): kind, status, free-text search. */
export const inquiryFiltersSchema = z.object({
  kind: optionalParam(z.enum(INQUIRY_KINDS, { error: V.invalidChoice })),
  status: optionalParam(z.enum(INQUIRY_STATUSES, { error: V.invalidChoice })),
  q: searchParam,
});
export type InquiryFilters = z.output<typeof inquiryFiltersSchema>;
/** `GET /api/admin/inbox/inquiries`: the filters plus page and pageSize. */
export const inquiryListQuerySchema = inquiryFiltersSchema.extend(pageParams);

/** `PATCH /api/admin/inbox/inquiries/:id` body. */
export const inquiryStatusSchema = z.object({ status: z.enum(INQUIRY_STATUSES, { error: V.invalidChoice }) });

/** Filters of the inbox's subscribers (and their CSV). */
export const subscriberFiltersSchema = z.object({
  status: optionalParam(z.enum(SUBSCRIBER_STATUSES, { error: V.invalidChoice })),
  q: searchParam,
});
export type SubscriberFilters = z.output<typeof subscriberFiltersSchema>;
/** `GET /api/admin/inbox/subscribers`: the filters plus page and pageSize. */
export const subscriberListQuerySchema = subscriberFiltersSchema.extend(pageParams);
