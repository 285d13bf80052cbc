import { listPageSchema } from "./list";
import { line } from "./text";
import { z } from "./zod";

/**
 * Zod schemas of the answers of the audit log (docs/product/back-office.md#audit-log: "Every admin change writes an
 * audit_log row"; the viewer of the back office), parsed by the browser (`call` with the contract) so its types
 * come from the same source as the server's (src/shared/admin.ts and src/shared/students-admin.ts
 * derive them). The query's schema stays in ./admin.ts. A module of its own: ./admin.ts is loaded
 * by the public student pass page, which must not carry the back office's answers. Timestamps are
 * ISO 8601 strings.
 */

/** Who acts in an audit entry (db column `audit_log.actor_role`). */
export const AUDIT_ACTOR_ROLES = ["admin", "student", "affiliate", "system"] as const;

/** One audit entry (append-only). */
export const auditEntrySchema = z.object({
  id: z.uuid(),
  actorRole: z.enum(AUDIT_ACTOR_ROLES),
  /** The acting account's id; null for the system (or an actor not recorded). */
  actorId: z.uuid().nullable(),
  /** The acting admin's e-mail address; null for other actors or an admin no longer stored. */
  actorEmail: line().nullable(),
  /** What happened, `<entity>.<verb>`: "application.status", "note.create", "passport.download". */
  action: line(),
  entityType: line(),
  /** The record's id, or "*" for an action on many (an export). */
  entityId: line(),
  /** State before the change (JSON as stored; null for a creation or a read). */
  before: z.unknown(),
  /** State after the change (JSON as stored; null for a deletion). */
  after: z.unknown(),
  /** ISO 8601. */
  createdAt: line(),
});

/** `GET /api/admin/audit` answer (50 entries a page, newest first). */
export const auditPageSchema = listPageSchema(auditEntrySchema);

/** `GET /api/admin/audit/facets`: values that occur in the log, for the filters of the viewer. */
export const auditFacetsSchema = z.object({
  /** Alphabetical. */
  entityTypes: z.array(line()),
  /** Alphabetical. */
  actions: z.array(line()),
  /** Every admin, by e-mail (name "" when none was given). */
  actors: z.array(z.object({ id: z.uuid(), email: line(), name: line() })),
});
