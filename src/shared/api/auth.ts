import { AFFILIATE_STATUSES } from "../affiliates";
import {
  ADMIN_ROLES,
  acceptInviteSchema,
  adminInviteSchema,
  adminUpdateSchema,
  affiliateRegistrationSchema,
  loginSchema,
  passwordResetConfirmSchema,
  passwordResetRequestSchema,
  studentRegistrationSchema,
  tokenSchema,
} from "../schemas/accounts";
import { studentApplicationSchema } from "../schemas/student-payment";
import {
  adminTeamListSchema,
  adminTeamMemberSchema,
  resendVerificationSchema,
  teamFiltersSchema,
  teamListQuerySchema,
} from "../schemas/students-admin";
import { z } from "../schemas/zod";
import { idParams, noContent } from "./common";
import { type Access, contract } from "./contract";

/**
 * Sessions of the three roles (docs/product/portals.md#sessions; docs/product/security.md#sessions-and-access):
 * login, logout and session check per role, password reset, e-mail verification, registrations,
 * the admin invitation and the owner's team. Each role's endpoints are contracts of their own
 * (`SESSION_CONTRACTS[role]`), with the user shape of that role.
 */

/** A student as the browser sees it (contract "user shapes"). */
export const studentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailVerified: z.boolean(),
});

/** An affiliate (partner) with its referral code and link once approved. */
export const affiliateUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  status: z.enum(AFFILIATE_STATUSES),
  referralCode: z.string().nullable(),
  referralLink: z.string().nullable(),
});

/** A signed-in admin: `{ id, email, name, role }`. */
export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ADMIN_ROLES),
});

/** A student as the browser sees it: the type of `studentUserSchema`. */
export type StudentUser = z.output<typeof studentUserSchema>;
/** An affiliate as the browser sees it: the type of `affiliateUserSchema`. */
export type AffiliateUser = z.output<typeof affiliateUserSchema>;

const USER_SCHEMAS = { student: studentUserSchema, affiliate: affiliateUserSchema, admin: adminUserSchema };

/** A role that signs in: student, affiliate (partner) or admin. */
export type SessionRole = keyof typeof USER_SCHEMAS;

const ACCESS_OF: Record<SessionRole, Access> = { student: "student", affiliate: "partner", admin: "admin" };

/** `{ ok: true }`: the answer of the calls that only acknowledge. */
const okSchema = z.object({ ok: z.literal(true) });

/**
 * The session endpoints of one role: login (401 for wrong credentials, 403 for a partner not
 * approved, 429 when throttled), logout (204), me (401 without a session of this role), the reset
 * link's request (202 whether or not the address has an account; 429 when throttled) and its
 * confirmation (400 for a bad token or a password the policy refuses).
 */
function sessionContractsOf<R extends SessionRole>(role: R) {
  const user = USER_SCHEMAS[role];
  return {
    login: contract({
      method: "POST",
      path: `/api/${role}/login`,
      access: "public",
      summary: `Sign in (${role}); starts a session`,
      body: loginSchema,
      response: z.object({ user }),
    }),
    logout: contract({
      method: "POST",
      path: `/api/${role}/logout`,
      // Anyone may sign out: without a session of this role there is nothing to end (204 all the same).
      access: "public",
      summary: `Sign out (${role}); ends the session`,
      status: 204,
      response: noContent,
    }),
    me: contract({
      method: "GET",
      path: `/api/${role}/me`,
      access: ACCESS_OF[role],
      summary: `The signed-in ${role}`,
      response: z.object({ user }),
    }),
    passwordReset: contract({
      method: "POST",
      path: `/api/${role}/password-reset`,
      access: "public",
      summary: `E-mail a password reset link (${role})`,
      body: passwordResetRequestSchema,
      status: 202,
      response: okSchema,
    }),
    passwordResetConfirm: contract({
      method: "POST",
      path: `/api/${role}/password-reset/confirm`,
      access: "public",
      summary: `Set a new password with a reset link's token (${role})`,
      body: passwordResetConfirmSchema,
      response: okSchema,
    }),
  };
}

/** The session endpoints of each role (see `sessionContractsOf`). */
export const SESSION_CONTRACTS = {
  student: sessionContractsOf("student"),
  affiliate: sessionContractsOf("affiliate"),
  admin: sessionContractsOf("admin"),
};

/** A role whose e-mail address is verified by a link: student or affiliate. */
export type VerifiedRole = "student" | "affiliate";

/**
 * E-mail verification of a role: the link's token (400 when invalid, expired or used) and a new
 * link (202 whether or not the address has an account; 429 when throttled).
 */
function verificationContractsOf<R extends VerifiedRole>(role: R) {
  return {
    verifyEmail: contract({
      method: "POST",
      path: `/api/${role}/verify-email`,
      access: "public",
      summary: `Verify the e-mail address with the link's token (${role})`,
      body: tokenSchema,
      response: z.object({ verified: z.literal(true) }),
    }),
    resendVerification: contract({
      method: "POST",
      path: `/api/${role}/resend-verification`,
      access: "public",
      summary: `E-mail a new verification link (${role})`,
      body: resendVerificationSchema,
      status: 202,
      response: okSchema,
    }),
  };
}

/** The e-mail verification endpoints of each role that has them. */
export const VERIFICATION_CONTRACTS = {
  student: verificationContractsOf("student"),
  affiliate: verificationContractsOf("affiliate"),
};

/** `POST /api/student/register` → 201 `{ user }` and a session; 400 for the password policy or a taken address. */
export const registerStudentContract = contract({
  method: "POST",
  path: "/api/student/register",
  access: "public",
  summary: "Create a student account; starts a session and sends the verification e-mail",
  body: studentRegistrationSchema,
  status: 201,
  response: z.object({ user: studentUserSchema }),
});

/** `GET /api/student/applications`: the student's applications; 401 without a session, 403 until verified. */
export const listStudentApplicationsContract = contract({
  method: "GET",
  path: "/api/student/applications",
  access: "student",
  summary: "The signed-in student's applications with their balance",
  response: z.array(studentApplicationSchema),
});

/** `POST /api/affiliate/register` → 201 `{ status: "pending" }` (the same for a taken address); 400 for the password policy. */
export const registerAffiliateContract = contract({
  method: "POST",
  path: "/api/affiliate/register",
  access: "public",
  summary: "Apply for a partner account (reviewed by the school)",
  body: affiliateRegistrationSchema,
  status: 201,
  response: z.object({ status: z.literal("pending") }),
});

/** `POST /api/admin/accept-invite` → `{ user }` and an admin session; 400 for a bad token or password. */
export const acceptInviteContract = contract({
  method: "POST",
  path: "/api/admin/accept-invite",
  access: "public",
  summary: "Accept an admin invitation (or an admin's reset link) and choose a password",
  body: acceptInviteSchema,
  response: z.object({ user: adminUserSchema }),
});

/** `GET /api/admin/admins`: a page of the team (owners); 400 for a malformed query. */
export const listAdminsContract = contract({
  method: "GET",
  path: "/api/admin/admins",
  access: "admin",
  summary: "A page of the admin team",
  query: teamListQuerySchema,
  response: adminTeamListSchema,
});

/** `GET /api/admin/admins.csv`: every matching admin as CSV (owners; audited). */
export const exportAdminsContract = contract({
  method: "GET",
  path: "/api/admin/admins.csv",
  access: "admin",
  summary: "Every matching admin, as CSV",
  query: teamFiltersSchema,
  produces: "text/csv",
});

/** `POST /api/admin/admins` → 201 the invited admin; 409 when the address is an active admin's. */
export const inviteAdminContract = contract({
  method: "POST",
  path: "/api/admin/admins",
  access: "admin",
  summary: "Invite an admin (the invitation is e-mailed)",
  body: adminInviteSchema,
  status: 201,
  response: adminTeamMemberSchema,
});

/** `PATCH /api/admin/admins/:id` `{ role?, disabled? }` → the admin; 400 for one's own account, 404 unknown. */
export const updateAdminContract = contract({
  method: "PATCH",
  path: "/api/admin/admins/:id",
  access: "admin",
  summary: "Change an admin's role or disable the account",
  params: idParams,
  body: adminUpdateSchema,
  response: adminTeamMemberSchema,
});

/** Every contract of this area. */
export const AUTH_CONTRACTS = [
  ...Object.values(SESSION_CONTRACTS).flatMap((c) => Object.values(c)),
  ...Object.values(VERIFICATION_CONTRACTS).flatMap((c) => Object.values(c)),
  registerStudentContract,
  listStudentApplicationsContract,
  registerAffiliateContract,
  acceptInviteContract,
  listAdminsContract,
  exportAdminsContract,
  inviteAdminContract,
  updateAdminContract,
];
