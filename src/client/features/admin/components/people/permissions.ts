import type { AdminUser } from "../../../../lib/session";

/**
 * What the signed-in admin may do with students and the team, mirrored from the server's table
 * (src/server/modules/auth/guard.ts) so the screens only offer actions that will be accepted; the
 * server still decides (403).
 */

/** Adding, editing, disabling students and sending them e-mails (students:write): owners and admissions. */
export const canWriteStudents = (admin: AdminUser) => admin.role === "owner" || admin.role === "admissions";

/** Query keys of these screens (under ["admin"], dropped at logout). */
export const peopleKeys = {
  students: (search: string) => ["admin", "students", "list", search] as const,
  student: (id: string) => ["admin", "students", "detail", id] as const,
  team: () => ["admin", "team"] as const,
  audit: (search: string) => ["admin", "audit", "list", search] as const,
  auditFacets: () => ["admin", "audit", "facets"] as const,
};
