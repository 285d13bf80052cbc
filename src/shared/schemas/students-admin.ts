import { LANGUAGES } from "../i18n/languages";
import { ADMIN_ROLES } from "./accounts";
import { emailField, requiredText } from "./applicant";
import { listPageSchema, optionalParam, pageParams, searchParam, sortParam } from "./list";
import { V } from "./messages";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the back office's student accounts and admin team (docs/product/back-office.md#students-admin: "Students: list, add,
 * detail"; admin team). Shared by the server (parseOrThrow → 400 with
 * a plain message) and the browser forms (zodResolver); the team's answers ("Responses") are
 * parsed by the browser (`call` with the contract).
 */

/** A yes/no filter of a list's query string: `yes` / `no`, empty or absent = no filter. */
const yesNoParam = optionalParam(z.enum(["yes", "no"]));

/** Sort keys of the student list; a sort is `<key>:<asc|desc>`. */
export const STUDENT_SORT_KEYS = ["createdAt", "lastName", "email", "applications", "amountPaid"] as const;
export type StudentSortKey = (typeof STUDENT_SORT_KEYS)[number];

/**
 * Filters of `GET /api/admin/students` and `.csv`: q (part of first name, last name, full name or
 * e-mail), verified / disabled / paid (yes|no: has at least one paid application with the account's
 * e-mail), schoolId (has an application for that summer school).
 */
export const studentFiltersSchema = z.object({
  q: searchParam,
  verified: yesNoParam,
  disabled: yesNoParam,
  paid: yesNoParam,
  schoolId: optionalParam(z.uuid()),
});
export type StudentFilters = z.output<typeof studentFiltersSchema>;

/** Query of `GET /api/admin/students`: the filters plus page (from 1), pageSize (1-100) and sort. */
export const studentListQuerySchema = studentFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(STUDENT_SORT_KEYS, { key: "createdAt", direction: "desc" }),
});
export type StudentListQuery = z.output<typeof studentListQuerySchema>;

/** The states of an admin of the team: invitation not yet accepted, active, disabled. */
export const ADMIN_STATUSES = ["invited", "active", "disabled"] as const;
export type AdminStatus = (typeof ADMIN_STATUSES)[number];

/**
 * Sort keys of the team list; a sort is `<key>:<asc|desc>`. `role` orders owner, admissions,
 * finance; `status` orders active, invited, disabled.
 */
export const TEAM_SORT_KEYS = ["email", "name", "role", "status", "createdAt"] as const;
export type TeamSortKey = (typeof TEAM_SORT_KEYS)[number];

/**
 * Filters of `GET /api/admin/admins` and `.csv`: role, status (invited / active / disabled), q
 * (part of the e-mail address or the name).
 */
export const teamFiltersSchema = z.object({
  role: optionalParam(z.enum(ADMIN_ROLES, { error: V.invalidChoice })),
  status: optionalParam(z.enum(ADMIN_STATUSES, { error: V.invalidChoice })),
  q: searchParam,
});
export type TeamFilters = z.output<typeof teamFiltersSchema>;

/** Query of `GET /api/admin/admins`: the filters plus page (from 1), pageSize (1-100) and sort (default role:asc). */
export const teamListQuerySchema = teamFiltersSchema.extend({
  ...pageParams,
  sort: sortParam(TEAM_SORT_KEYS, { key: "role", direction: "asc" }),
});
export type TeamListQuery = z.output<typeof teamListQuerySchema>;

/** A name of a student account (1-100 characters, trimmed). */
const nameField = requiredText(100);

/** A language of the site (the student's e-mails are written in it). */
const languageField = z.enum(LANGUAGES, { error: V.invalidChoice });

/**
 * `POST /api/admin/students` (students:write): the account is created without a password and the
 * student is e-mailed a link to choose one.
 */
export const studentCreateSchema = z.object({
  email: emailField,
  firstName: nameField,
  lastName: nameField,
  language: languageField,
});
export type StudentCreateInput = z.output<typeof studentCreateSchema>;
export type StudentCreateFormValues = z.input<typeof studentCreateSchema>;

/**
 * `PATCH /api/admin/students/:id` (students:write): any of names, language, disabled, with the
 * `version` the admin saw (a stale version → 409 with the current account).
 */
export const studentUpdateSchema = z
  .object({
    firstName: nameField.optional(),
    lastName: nameField.optional(),
    language: languageField.optional(),
    disabled: z.boolean().optional(),
    version: z.number({ error: V.required }).int().min(1),
  })
  .refine(
    (value) =>
      value.firstName !== undefined ||
      value.lastName !== undefined ||
      value.language !== undefined ||
      value.disabled !== undefined,
    { error: V.required },
  );
export type StudentUpdateInput = z.output<typeof studentUpdateSchema>;

/** The edit form of the student detail page (names and language; disabling has its own button). */
export const studentEditFormSchema = z.object({
  firstName: nameField,
  lastName: nameField,
  language: languageField,
});
export type StudentEditFormValues = z.input<typeof studentEditFormSchema>;

/** `POST /api/{student|affiliate}/resend-verification` — `{ email }`. */
export const resendVerificationSchema = z.object({ email: emailField });
export type ResendVerificationInput = z.output<typeof resendVerificationSchema>;

// ---------------------------------------------------------------------------------------------
// Responses
//
// What the team API answers, parsed by the back office (`call` with the contract) so the browser's types come
// from the same source as the server's (src/shared/students-admin.ts derives them). Timestamps
// ISO 8601 strings.

/** An admin of the team list (`GET /api/admin/admins`; also the answer of an invitation or a change). */
export const adminTeamMemberSchema = z.object({
  id: z.uuid(),
  email: line(),
  /** "" when none was given (the list shows the e-mail address instead). */
  name: line(),
  role: z.enum(ADMIN_ROLES),
  /** invited until the invitation is accepted, then active; disabled by an owner. */
  status: z.enum(ADMIN_STATUSES),
  /** ISO 8601 UTC. */
  createdAt: line(),
});

/** `GET /api/admin/admins` answer. */
export const adminTeamListSchema = listPageSchema(adminTeamMemberSchema);
