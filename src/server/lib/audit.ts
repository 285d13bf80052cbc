import type { Tx } from "../db/client";
import { auditLog } from "../db/schema";
import type { AdminUser } from "./admin-user";

/**
 * The audit log's write side (contract: "Every admin change writes an audit_log row"): every
 * module records its changes here; the back office reads the log (modules/admin/audit.ts).
 */

/** Who made a change: a signed-in admin, or another actor (student, affiliate, the system itself). */
export type AuditActor =
  | AdminUser
  | { actorRole: "admin" | "student" | "affiliate" | "system"; actorId: string | null };

export interface AuditEntryInput {
  actor: AuditActor;
  /** What happened, `<entity>.<verb>`: "application.status", "note.create", "passport.download". */
  action: string;
  entityType: string;
  entityId: string;
  /** State before the change (null for a creation or a read). */
  before?: unknown;
  /** State after the change (null for a deletion). */
  after?: unknown;
}

/**
 * Appends one audit entry in the caller's transaction, so the entry exists exactly when the change
 * does (contract: "Every admin change writes an audit_log row"). The log is append-only: this
 * module only inserts, and no route updates or deletes audit rows.
 */
export async function recordAudit(tx: Tx, entry: AuditEntryInput): Promise<void> {
  const { actor } = entry;
  const [actorRole, actorId] =
    "actorRole" in actor ? [actor.actorRole, actor.actorId] : (["admin", actor.id] as const);
  await tx.insert(auditLog).values({
    actorRole,
    actorId,
    action: entry.action,
    entityType: entry.entityType,
    entityId: entry.entityId,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
