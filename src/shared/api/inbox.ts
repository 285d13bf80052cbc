import { LANGUAGES } from "../i18n/languages";
import {
  INQUIRY_KINDS,
  INQUIRY_STATUSES,
  inquiryFiltersSchema,
  inquiryListQuerySchema,
  inquiryStatusSchema,
  PARTNERSHIP_INTERESTS,
  SUBSCRIBER_STATUSES,
  subscriberFiltersSchema,
  subscriberListQuerySchema,
} from "../schemas/inquiries";
import { z } from "../schemas/zod";
import { idParams, pageOf } from "./common";
import { contract } from "./contract";

/**
 * The back office's inbox (docs/product/back-office.md#admin-roles; `inbox:write`: owners and admissions): partnership
 * inquiries and contact messages (list, status change, CSV) and newsletter subscribers (list, CSV).
 * Instants are ISO 8601 UTC.
 */

/** One partnership inquiry or message as the back office sees it. */
export const inquirySchema = z.object({
  id: z.uuid(),
  kind: z.enum(INQUIRY_KINDS),
  status: z.enum(INQUIRY_STATUSES),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  university: z.string(),
  /** ISO 3166-1 alpha-2, "" for a message. */
  country: z.string(),
  position: z.string(),
  interest: z.enum(PARTNERSHIP_INTERESTS).nullable(),
  message: z.string(),
  language: z.enum(LANGUAGES),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type InquiryDto = z.output<typeof inquirySchema>;

/** A page of the inbox's messages, newest first. */
export const inquiryListSchema = pageOf(inquirySchema);

/** One newsletter subscriber as the back office sees it. */
export const subscriberSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  status: z.enum(SUBSCRIBER_STATUSES),
  language: z.enum(LANGUAGES),
  createdAt: z.iso.datetime(),
  confirmedAt: z.iso.datetime().nullable(),
  unsubscribedAt: z.iso.datetime().nullable(),
});
export type SubscriberDto = z.output<typeof subscriberSchema>;

/** A page of the newsletter's subscribers, newest first. */
export const subscriberListSchema = pageOf(subscriberSchema);

/** `GET /api/admin/inbox/inquiries?kind&status&q&page&pageSize`: a page of the messages, newest first. */
export const listInquiriesContract = contract({
  method: "GET",
  path: "/api/admin/inbox/inquiries",
  access: "admin",
  summary: "A page of the partnership inquiries and contact messages",
  query: inquiryListQuerySchema,
  response: inquiryListSchema,
});

/** `GET /api/admin/inbox/inquiries.csv?kind&status&q`: every matching message as CSV; audited. */
export const exportInquiriesContract = contract({
  method: "GET",
  path: "/api/admin/inbox/inquiries.csv",
  access: "admin",
  summary: "The matching inquiries and messages as CSV",
  query: inquiryFiltersSchema,
  produces: "text/csv",
});

/** `PATCH /api/admin/inbox/inquiries/:id` `{ status }` → the message; audited. 404 when unknown. */
export const setInquiryStatusContract = contract({
  method: "PATCH",
  path: "/api/admin/inbox/inquiries/:id",
  access: "admin",
  summary: "Change the status of an inquiry or message",
  params: idParams,
  body: inquiryStatusSchema,
  response: inquirySchema,
});

/** `GET /api/admin/inbox/subscribers?status&q&page&pageSize`: a page of the subscribers, newest first. */
export const listSubscribersContract = contract({
  method: "GET",
  path: "/api/admin/inbox/subscribers",
  access: "admin",
  summary: "A page of the newsletter subscribers",
  query: subscriberListQuerySchema,
  response: subscriberListSchema,
});

/** `GET /api/admin/inbox/subscribers.csv?status&q`: every matching subscriber as CSV; audited. */
export const exportSubscribersContract = contract({
  method: "GET",
  path: "/api/admin/inbox/subscribers.csv",
  access: "admin",
  summary: "The matching newsletter subscribers as CSV",
  query: subscriberFiltersSchema,
  produces: "text/csv",
});

/** Every contract of this area (the route test checks each is served). */
export const INBOX_CONTRACTS = [
  listInquiriesContract,
  exportInquiriesContract,
  setInquiryStatusContract,
  listSubscribersContract,
  exportSubscribersContract,
];
