import {
  contactMessageSchema,
  linkTokenSchema,
  newsletterSignupSchema,
  partnershipInquirySchema,
  SUBSCRIBER_STATUSES,
} from "../schemas/inquiries";
import { z } from "../schemas/zod";
import { contract } from "./contract";

/**
 * The public forms (docs/product/portals.md#public-forms): partnership inquiry, contact message,
 * newsletter sign-up with double opt-in, and the e-mailed links that confirm or end a
 * subscription. No sign-in; each is rate-limited per address (429). Bad input: 400 with the field's
 * message in the visitor's language.
 */

/** Answer of every public form: the same whatever happened (honeypot, known address: docs/product/portals.md#public-forms). */
export const formReceivedSchema = z.object({ ok: z.literal(true) });
export type FormReceived = z.output<typeof formReceivedSchema>;

/** Answer of the confirmation and unsubscribe links. */
export const subscriptionStateSchema = z.object({ status: z.enum(SUBSCRIBER_STATUSES) });
export type SubscriptionState = z.output<typeof subscriptionStateSchema>;

/** `POST /api/public/partnership-inquiries`: a university's partnership inquiry → `{ ok: true }`. */
export const sendPartnershipInquiryContract = contract({
  method: "POST",
  path: "/api/public/partnership-inquiries",
  access: "public",
  summary: "Send a university's partnership inquiry",
  body: partnershipInquirySchema,
  response: formReceivedSchema,
});

/** `POST /api/public/messages`: the contact form → `{ ok: true }`. */
export const sendContactMessageContract = contract({
  method: "POST",
  path: "/api/public/messages",
  access: "public",
  summary: "Send a message through the contact form",
  body: contactMessageSchema,
  response: formReceivedSchema,
});

/** `POST /api/public/newsletter`: sign up (double opt-in) → `{ ok: true }` whether or not the address is known. */
export const signUpNewsletterContract = contract({
  method: "POST",
  path: "/api/public/newsletter",
  access: "public",
  summary: "Sign up for the newsletter (a confirmation link is e-mailed)",
  body: newsletterSignupSchema,
  response: formReceivedSchema,
});

/** `POST /api/public/newsletter/confirm` `{ token }` → `{ status }`; 410 when the link was used or expired. */
export const confirmNewsletterContract = contract({
  method: "POST",
  path: "/api/public/newsletter/confirm",
  access: "public",
  summary: "Confirm a newsletter subscription through the e-mailed link",
  body: linkTokenSchema,
  response: subscriptionStateSchema,
});

/**
 * `POST /api/public/newsletter/unsubscribe`: `{ token }` as JSON, or `?token=` with the one-click
 * form body `List-Unsubscribe=One-Click` of RFC 8058 → `{ status }`. The token is checked by the
 * handler (`linkTokenSchema`, wherever it came from): 400 `errors.forms.linkInvalid`.
 */
export const unsubscribeNewsletterContract = contract({
  method: "POST",
  path: "/api/public/newsletter/unsubscribe",
  access: "public",
  summary: "Unsubscribe from the newsletter (one click, RFC 8058)",
  query: z.object({ token: z.string().optional() }),
  body: z.object({ token: z.string().optional() }).optional(),
  response: subscriptionStateSchema,
});

/** Every contract of this area (the route test checks each is served). */
export const PUBLIC_FORMS_CONTRACTS = [
  sendPartnershipInquiryContract,
  sendContactMessageContract,
  signUpNewsletterContract,
  confirmNewsletterContract,
  unsubscribeNewsletterContract,
];
