import type { AdminUser } from "../../lib/session";

/**
 * What the signed-in admin's role may change, mirrored from the server's table
 * (src/server/modules/auth/guard.ts) so the screens only offer actions that will be accepted.
 * The server still decides: a refused action answers 403.
 */
export const canChangeStatus = (admin: AdminUser) => admin.role === "owner" || admin.role === "admissions";
export const canWriteNotes = (admin: AdminUser) => admin.role === "owner" || admin.role === "admissions";
/** Export and erasure of an applicant's personal data (GDPR): owners only (privacy:write). */
export const canManagePersonalData = (admin: AdminUser) => admin.role === "owner";
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
