import { PAYMENT_STATES } from "../balance";
import {
  applicationFiltersSchema,
  applicationListQuerySchema,
  noteBodySchema,
  statusChangeSchema,
} from "../schemas/admin";
import { adminDashboardSchema } from "../schemas/dashboard";
import { z } from "../schemas/zod";
import { APPLICATION_STATUSES } from "../statuses";
import { applicantFieldsSchema, applicationQuoteSchema } from "./application";
import { idParams, noContent, pageOf } from "./common";
import { contract } from "./contract";

/**
 * The back office's applications, applicants, notes and dashboard (docs/product/portals.md#student-portal: "Admin back
 * office, applications"). Amounts are integer euro cents, timestamps ISO 8601 strings, calendar
 * dates yyyy-mm-dd. The types of `src/shared/admin.ts` come from here.
 */

const cents = z.number().int();
const statusSchema = z.enum(APPLICATION_STATUSES);
const paymentStateSchema = z.enum(PAYMENT_STATES);

/** One row of `GET /api/admin/applications`. */
export const adminApplicationListItemSchema = z.object({
  id: z.string(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  status: statusSchema,
  /** The state `balanceOf` gives today (src/shared/balance.ts): never "paid" while money is owed. */
  paymentStatus: paymentStateSchema,
  /** What is still owed, cents (0 when nothing is; `balanceOf`). */
  balanceDue: cents,
  /** When the balance is due, yyyy-mm-dd (The Hague); null when nothing is owed. */
  dueDate: z.string().nullable(),
  applicant: z.object({ id: z.string(), firstName: z.string(), lastName: z.string(), email: z.string() }),
  summerSchool: z.object({ id: z.string(), name: z.string() }),
  /** Stored total (set once a checkout was started or the application was paid); null before. */
  totalAmount: cents.nullable(),
  /** Paid net of refunds, cents (`balanceOf`'s paidNet; docs/product/payments.md#refunds). */
  amountPaid: cents,
  /** Succeeded refunds of the accepted payments, cents. */
  refunded: cents,
  /** Applied code, as typed by the school (upper-case). */
  code: z.string().nullable(),
  flag: z.string().nullable(),
  /** See docs/product/back-office.md#admin-roles: an empty first or last name is missing critical data. */
  missingCriticalData: z.boolean(),
});

/** `GET /api/admin/applications` answer. */
export const adminApplicationListSchema = pageOf(adminApplicationListItemSchema);

/** Every field of an applicant, as the back office sees it (never the capability hash or the file id). */
export const adminApplicantDtoSchema = applicantFieldsSchema.extend({
  hasPassport: z.boolean(),
  /** `GET /api/admin/applicants/:id/passport` when a passport was uploaded, else null. */
  passportUrl: z.string().nullable(),
  missingCriticalData: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/**
 * Why money the provider took is not (yet) an application's payment (docs/product/security.md#p1-the-server-decides-what-is-charged, docs/product/security.md#p10-amount-or-currency-mismatch): it paid a
 * quote the applicant changed since, another amount or currency than asked, or an application
 * already paid.
 */
export const flaggedPaymentReasonSchema = z.enum(["superseded_quote", "amount_mismatch", "second_payment"]);

/** A payment of an application. */
export const adminPaymentDtoSchema = z.object({
  id: z.string(),
  /** Why this money is not (yet) the application's payment; null for an accepted payment. */
  flag: flaggedPaymentReasonSchema.nullable(),
  amount: cents,
  currency: z.string(),
  provider: z.string(),
  reference: z.string(),
  paidAt: z.string(),
});

/** `GET /api/admin/applications/:id` (also the 200 of a status change and `current` of a 409). */
export const adminApplicationDetailSchema = z.object({
  id: z.string(),
  /** Send it back with a change; a stale version is refused with 409. */
  version: z.number().int(),
  status: statusSchema,
  /** The state `balanceOf` gives today: never "paid" while money is owed. */
  paymentStatus: paymentStateSchema,
  /** What is still owed, cents (0 when nothing is; `balanceOf`). */
  balanceDue: cents,
  /** When the balance is due, yyyy-mm-dd (The Hague); null when nothing is owed. */
  dueDate: z.string().nullable(),
  /** Statuses the workflow allows from here. */
  allowedTransitions: z.array(statusSchema),
  flag: z.string().nullable(),
  createdAt: z.string(),
  submittedAt: z.string().nullable(),
  paidAt: z.string().nullable(),
  missingCriticalData: z.boolean(),
  applicant: adminApplicantDtoSchema,
  summerSchool: z.object({ id: z.string(), name: z.string(), startDate: z.string(), endDate: z.string() }),
  package: z.object({ id: z.string(), name: z.string() }),
  housing: z.object({ id: z.string(), name: z.string(), priceAdjustment: cents }),
  addOns: z.array(z.object({ id: z.string(), name: z.string(), price: cents, included: z.boolean() })),
  /** As ApplicationDto.quote; null when the programme's catalogue rows were archived since. */
  quote: applicationQuoteSchema.nullable(),
  totalAmount: cents.nullable(),
  /** Paid net of refunds, cents (`balanceOf`'s paidNet; docs/product/payments.md#refunds). */
  amountPaid: cents,
  /** Succeeded refunds of the accepted payments, cents. */
  refunded: cents,
  code: z.string().nullable(),
  payments: z.array(adminPaymentDtoSchema),
  otherApplications: z.array(
    z.object({
      id: z.string(),
      programName: z.string(),
      status: statusSchema,
      paymentStatus: paymentStateSchema,
    }),
  ),
});

/** One row of `GET /api/admin/applicants/:id/applications`. */
export const adminApplicantApplicationSchema = z.object({
  id: z.string(),
  programName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  status: statusSchema,
  paymentStatus: paymentStateSchema,
  totalAmount: cents.nullable(),
  /** Paid net of refunds, cents (`balanceOf`'s paidNet; docs/product/payments.md#refunds). */
  amountPaid: cents,
  createdAt: z.string(),
});

/** A note of the admissions team on an applicant. */
export const adminNoteDtoSchema = z.object({
  id: z.string(),
  applicantId: z.string(),
  body: z.string(),
  author: z.object({ id: z.string(), name: z.string(), email: z.string() }),
  createdAt: z.string(),
  updatedAt: z.string(),
});

/** `GET /api/admin/applications`: a page of applications (applications:read); 400 for a malformed query. */
export const listApplicationsContract = contract({
  method: "GET",
  path: "/api/admin/applications",
  access: "admin",
  summary: "A page of applications, filtered, searched and sorted",
  query: applicationListQuerySchema,
  response: adminApplicationListSchema,
});

/** `GET /api/admin/applications.csv`: every matching application as CSV (applications:read; audited). */
export const exportApplicationsContract = contract({
  method: "GET",
  path: "/api/admin/applications.csv",
  access: "admin",
  summary: "Every matching application with its balance, as CSV",
  query: applicationFiltersSchema,
  produces: "text/csv",
});

/** `GET /api/admin/applications/:id`: the application in full; 404 for an unknown id. */
export const getAdminApplicationContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id",
  access: "admin",
  summary: "An application with its applicant, programme, quote and payments",
  params: idParams,
  response: adminApplicationDetailSchema,
});

/**
 * `PATCH /api/admin/applications/:id/status` `{ status, version }` → the application. 409
 * `{ message, current }` when stale, 422 for a transition the workflow refuses.
 */
export const changeApplicationStatusContract = contract({
  method: "PATCH",
  path: "/api/admin/applications/:id/status",
  access: "admin",
  summary: "Change the status of an application (the applicant is e-mailed)",
  params: idParams,
  body: statusChangeSchema,
  response: adminApplicationDetailSchema,
});

/** `GET /api/admin/applicants/:id`: every field of an applicant; 404 for an unknown id. */
export const getApplicantContract = contract({
  method: "GET",
  path: "/api/admin/applicants/:id",
  access: "admin",
  summary: "An applicant's details",
  params: idParams,
  response: adminApplicantDtoSchema,
});

/** `GET /api/admin/applicants/:id/applications`: the applicant's applications. */
export const listApplicantApplicationsContract = contract({
  method: "GET",
  path: "/api/admin/applicants/:id/applications",
  access: "admin",
  summary: "The applications of an applicant",
  params: idParams,
  response: z.array(adminApplicantApplicationSchema),
});

/** `GET /api/admin/applicants/:id/passport`: the passport PDF (audited); 404 without one. */
export const downloadPassportContract = contract({
  method: "GET",
  path: "/api/admin/applicants/:id/passport",
  access: "admin",
  summary: "Download the applicant's passport copy",
  params: idParams,
  produces: "application/pdf",
});

/** `GET /api/admin/applicants/:id/notes`: the team's notes on an applicant, oldest first. */
export const listNotesContract = contract({
  method: "GET",
  path: "/api/admin/applicants/:id/notes",
  access: "admin",
  summary: "The team's notes on an applicant",
  params: idParams,
  response: z.array(adminNoteDtoSchema),
});

/** `POST /api/admin/applicants/:id/notes` `{ body }` → 201 the note. */
export const createNoteContract = contract({
  method: "POST",
  path: "/api/admin/applicants/:id/notes",
  access: "admin",
  summary: "Add a note on an applicant",
  params: idParams,
  body: noteBodySchema,
  status: 201,
  response: adminNoteDtoSchema,
});

/** `PATCH /api/admin/notes/:id` `{ body }` → the note; 403 unless the author or an owner. */
export const updateNoteContract = contract({
  method: "PATCH",
  path: "/api/admin/notes/:id",
  access: "admin",
  summary: "Change a note",
  params: idParams,
  body: noteBodySchema,
  response: adminNoteDtoSchema,
});

/** `DELETE /api/admin/notes/:id` → 204; 403 unless the author or an owner. */
export const deleteNoteContract = contract({
  method: "DELETE",
  path: "/api/admin/notes/:id",
  access: "admin",
  summary: "Delete a note",
  params: idParams,
  status: 204,
  response: noContent,
});

/** `GET /api/admin/dashboard`: counts by status, revenue, cohorts' fill and recent audit entries. */
export const getDashboardContract = contract({
  method: "GET",
  path: "/api/admin/dashboard",
  access: "admin",
  summary: "The back office's dashboard",
  response: adminDashboardSchema,
});

/** Every contract of this area. */
export const ADMIN_APPLICATIONS_CONTRACTS = [
  listApplicationsContract,
  exportApplicationsContract,
  getAdminApplicationContract,
  changeApplicationStatusContract,
  getApplicantContract,
  listApplicantApplicationsContract,
  downloadPassportContract,
  listNotesContract,
  createNoteContract,
  updateNoteContract,
  deleteNoteContract,
  getDashboardContract,
];
