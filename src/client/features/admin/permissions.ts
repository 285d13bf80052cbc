import { can, type Permission } from "../../../shared/permissions";
import { ADMIN_ROLES, type AdminRoleName } from "../../../shared/schemas/accounts";
import type { AdminUser } from "../../lib/session";

/**
 * What the signed-in admin's role may change, read from the one permission table the server's
 * guard enforces (`can`, src/shared/permissions.ts), so the screens only offer actions that will be
 * accepted. The server still decides: a refused action answers 403.
 */

/** True when the admin's role holds `permission` (the shared table). */
export const adminCan = (admin: Pick<AdminUser, "role">, permission: Permission) =>
  can(admin.role, permission);

/** The roles that hold `permission`, in the table's order (to tell a reader who may change something). */
export const rolesThatCan = (permission: Permission): AdminRoleName[] =>
  ADMIN_ROLES.filter((role) => can(role, permission));

/** Changing an application's status, sending offers, the waiting list (applications:write). */
export const canChangeStatus = (admin: AdminUser) => adminCan(admin, "applications:write");
/** Writing notes on applicants (notes:write). */
export const canWriteNotes = (admin: AdminUser) => adminCan(admin, "notes:write");
/** Export and erasure of an applicant's personal data (GDPR, privacy:write): owners only. */
export const canManagePersonalData = (admin: AdminUser) => adminCan(admin, "privacy:write");
/** Authors edit and delete their own notes; owners any note. */
export const canEditNote = (admin: AdminUser, authorId: string) =>
  canWriteNotes(admin) && (admin.role === "owner" || admin.id === authorId);

/** Query keys of the back office (all under ["admin"], dropped at logout). */
export const adminKeys = {
  dashboard: () => ["admin", "dashboard"] as const,
  list: (search: string) => ["admin", "applications", "list", search] as const,
  detail: (id: string) => ["admin", "applications", "detail", id] as const,
  notes: (applicantId: string) => ["admin", "applicants", applicantId, "notes"] as const,
};
