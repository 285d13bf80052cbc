import { PAYMENT_STATES } from "../balance";
import {
  studentCreateSchema,
  studentFiltersSchema,
  studentListQuerySchema,
  studentUpdateSchema,
} from "../schemas/students-admin";
import { z } from "../schemas/zod";
import { APPLICATION_STATUSES } from "../statuses";
import { idParams, pageOf } from "./common";
import { contract } from "./contract";

/**
 * The back office's student accounts (docs/product/back-office.md#students-admin): list, CSV export,
 * creation, detail, change and the links e-mailed to a student. Amounts are integer euro cents;
 * timestamps ISO 8601 strings. The types of `src/shared/students-admin.ts` come from here.
 */

/** One row of `GET /api/admin/students`. */
export const adminStudentListItemSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  language: z.string(),
  emailVerified: z.boolean(),
  disabled: z.boolean(),
  /** False until the student chose a password (an account added by the school). */
  hasPassword: z.boolean(),
  createdAt: z.string(),
  /** Applications made with the account's e-mail address (any status). */
  applicationCount: z.number().int(),
  /** Of those, the ones paid in full (`balanceOf`'s paidInFull; a deposit alone does not count). */
  paidApplicationCount: z.number().int(),
  /** Sum of what was paid on those applications net of refunds, in cents. */
  amountPaid: z.number().int(),
});

/** `GET /api/admin/students` answer. */
export const adminStudentListSchema = pageOf(adminStudentListItemSchema);

/** An application made with the student's e-mail address (detail page). */
export const adminStudentApplicationSchema = z.object({
  id: z.string(),
  programName: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  status: z.enum(APPLICATION_STATUSES),
  /** The state `balanceOf` gives today: never "paid" while money is owed. */
  paymentStatus: z.enum(PAYMENT_STATES),
  /** True when paid in full (`balanceOf`'s paidInFull). */
  paid: z.boolean(),
  totalAmount: z.number().int().nullable(),
  /** Paid net of refunds, cents (`balanceOf`'s paidNet). */
  amountPaid: z.number().int(),
  createdAt: z.string(),
});

/** A payment of one of those applications. */
export const adminStudentPaymentSchema = z.object({
  id: z.string(),
  applicationId: z.string(),
  programName: z.string(),
  amount: z.number().int(),
  currency: z.string(),
  provider: z.string(),
  /** The provider's payment reference (payment intent id). */
  reference: z.string(),
  kind: z.enum(["deposit", "balance"]),
  paidAt: z.string(),
});

/** `GET /api/admin/students/:id`: the account, its applications and their payments. */
export const adminStudentDetailSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  language: z.string(),
  emailVerified: z.boolean(),
  emailVerifiedAt: z.string().nullable(),
  disabled: z.boolean(),
  disabledAt: z.string().nullable(),
  hasPassword: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Start of the newest session still stored (sessions are deleted at logout): null when none. */
  lastLoginAt: z.string().nullable(),
  /** Send it back with a change; a stale version is refused with 409. */
  version: z.number().int(),
  applications: z.array(adminStudentApplicationSchema),
  payments: z.array(adminStudentPaymentSchema),
});

/** What the resend-verification and send-password-reset endpoints e-mailed. */
export const studentLinkSentSchema = z.object({
  /** `verification`: confirm-your-address link; `setPassword`: choose-a-password link (24 hours); `passwordReset`: reset link (1 hour). */
  sent: z.enum(["verification", "setPassword", "passwordReset"]),
  email: z.string(),
});

/** `GET /api/admin/students`: a page of student accounts (applicants:read); 400 for a malformed query. */
export const listStudentsContract = contract({
  method: "GET",
  path: "/api/admin/students",
  access: "admin",
  summary: "A page of student accounts, filtered, searched and sorted",
  query: studentListQuerySchema,
  response: adminStudentListSchema,
});

/** `GET /api/admin/students.csv`: every matching account as CSV (applicants:read; audited). */
export const exportStudentsContract = contract({
  method: "GET",
  path: "/api/admin/students.csv",
  access: "admin",
  summary: "Every matching student account, as CSV",
  query: studentFiltersSchema,
  produces: "text/csv",
});

/** `POST /api/admin/students`: adds an account and e-mails a choose-your-password link → 201; 409 `{ message, existingId }`. */
export const createStudentContract = contract({
  method: "POST",
  path: "/api/admin/students",
  access: "admin",
  summary: "Add a student account; the student is e-mailed a link to choose a password",
  body: studentCreateSchema,
  status: 201,
  response: adminStudentDetailSchema,
});

/** `GET /api/admin/students/:id`: the account with its applications and payments; 404 for an unknown id. */
export const getStudentContract = contract({
  method: "GET",
  path: "/api/admin/students/:id",
  access: "admin",
  summary: "A student account with its applications and payments",
  params: idParams,
  response: adminStudentDetailSchema,
});

/** `PATCH /api/admin/students/:id`: names, language, disabled → the account; 409 `{ message, current }` when stale. */
export const updateStudentContract = contract({
  method: "PATCH",
  path: "/api/admin/students/:id",
  access: "admin",
  summary: "Change a student account (names, language, disabled)",
  params: idParams,
  body: studentUpdateSchema,
  response: adminStudentDetailSchema,
});

/** `POST /api/admin/students/:id/resend-verification` → 202; 409 when verified or disabled. */
export const resendStudentVerificationContract = contract({
  method: "POST",
  path: "/api/admin/students/:id/resend-verification",
  access: "admin",
  summary: "E-mail the student the confirm-your-address link again",
  params: idParams,
  status: 202,
  response: studentLinkSentSchema,
});

/** `POST /api/admin/students/:id/send-password-reset` → 202 (reset or choose-a-password link); 409 when disabled. */
export const sendStudentPasswordResetContract = contract({
  method: "POST",
  path: "/api/admin/students/:id/send-password-reset",
  access: "admin",
  summary: "E-mail the student a password reset link",
  params: idParams,
  status: 202,
  response: studentLinkSentSchema,
});

/** Every contract of this area. */
export const STUDENTS_ADMIN_CONTRACTS = [
  listStudentsContract,
  exportStudentsContract,
  createStudentContract,
  getStudentContract,
  updateStudentContract,
  resendStudentVerificationContract,
  sendStudentPasswordResetContract,
];
