import { can } from "../../../../../shared/permissions";
import type { AdminUser } from "../../../../lib/session";

/**
 * What the signed-in admin may do with students and the team, read from the permission table the
 * server's guard enforces (`can`, src/shared/permissions.ts) so the screens only offer actions that
 * will be accepted; the server still decides (403).
 */

/** Adding, editing, disabling students and sending them e-mails (students:write): owners and admissions. */
export const canWriteStudents = (admin: AdminUser) => can(admin.role, "students:write");

/** Query keys of these screens (under ["admin"], dropped at logout). */
export const peopleKeys = {
  students: (search: string) => ["admin", "students", "list", search] as const,
  student: (id: string) => ["admin", "students", "detail", id] as const,
  team: () => ["admin", "team"] as const,
  audit: (search: string) => ["admin", "audit", "list", search] as const,
  auditFacets: () => ["admin", "audit", "facets"] as const,
};
