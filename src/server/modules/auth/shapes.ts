import type { AffiliateUser, StudentUser } from "../../../shared/api/auth";
import type { StudentApplication } from "../../../shared/schemas/student-payment";
import type { AdminTeamMember } from "../../../shared/students-admin";
import type { AdminUser } from "../../lib/admin-user";
import type { AdminRow, StudentRow } from "./core";

/** GET /api/student/me and friends: the student as the browser sees it (the shared schema's type). */
export type StudentDto = StudentUser;

/** GET /api/affiliate/me: the affiliate with its referral code and link once approved (the shared schema's type). */
export type AffiliateDto = AffiliateUser;

/** An admin in the owner's list (GET /api/admin/admins): the shared AdminTeamMember. */
export type AdminListItem = AdminTeamMember;

/** An application in the student portal (GET /api/student/applications): the shared schema's type. */
export type StudentApplicationDto = StudentApplication;

/** A student row as the browser sees it: `{ id, email, firstName, lastName, emailVerified }` (contract "user shapes"). */
export const studentDto = (s: StudentRow): StudentDto => ({
  id: s.id,
  email: s.email,
  firstName: s.firstName,
  lastName: s.lastName,
  emailVerified: s.emailVerifiedAt !== null,
});

/** An admin row as the browser sees it: `{ id, email, name, role }` (contract "user shapes"). */
export const adminDto = (a: AdminRow): AdminUser => ({
  id: a.id,
  email: a.email,
  name: a.name,
  role: a.role,
});

/** An admin row as the owner's team list shows it: the user shape with `status` (invited, active, disabled) and `createdAt` (ISO 8601 UTC). */
export const adminListItem = (a: AdminRow): AdminListItem => ({
  ...adminDto(a),
  status: a.disabledAt ? "disabled" : a.passwordHash ? "active" : "invited",
  createdAt: a.createdAt.toISOString(),
});

/**
 * A referral code derived from an affiliate's name (contract "Affiliate approval"): its letters
 * and digits, upper-case, accents removed, at most 12 characters; "PARTNER" when nothing is left.
 */
export function referralCodeBase(name: string): string {
  const base = name
    .normalize("NFKD")
    .replace(/[^A-Za-z0-9]/g, "")
    .toUpperCase()
    .slice(0, 12);
  return base.length >= 3 ? base : `PARTNER${base}`;
}
