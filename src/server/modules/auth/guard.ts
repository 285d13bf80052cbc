import { and, eq, isNull } from "drizzle-orm";
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import type { Db } from "../../db/client";
import { type AdminRole, admins } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import type { SessionService } from "./sessions";

/** The signed-in admin of a request (set by `requireAdmin`). */
export interface AdminUser {
  id: string;
  email: string;
  name: string;
  role: AdminRole;
}

declare module "fastify" {
  interface FastifyRequest {
    admin: AdminUser | null;
  }
}

/**
 * What each admin role may do (issue "Admin roles"): owner everything; admissions applications,
 * applicants, students, notes and the public forms' inbox; finance finances, codes, refunds and payouts, and reading
 * applications (to refund them).
 */
export type Permission =
  | "applications:read"
  | "applications:write"
  | "applicants:read"
  | "notes:write"
  | "students:write"
  | "finance:read"
  | "finance:write"
  | "codes:write"
  | "catalogue:write"
  | "affiliates:write"
  | "translations:write"
  | "portal:write"
  | "webhooks:read"
  | "admins:write"
  | "audit:read"
  | "privacy:write"
  /** The inbox of the public forms (issue 13): partnership inquiries, messages, subscribers. */
  | "inbox:write";

const PERMISSIONS: Record<AdminRole, ReadonlySet<Permission> | "all"> = {
  owner: "all",
  admissions: new Set<Permission>([
    "applications:read",
    "applications:write",
    "applicants:read",
    "notes:write",
    "students:write",
    "portal:write",
    "inbox:write",
  ]),
  finance: new Set<Permission>([
    "applications:read",
    "applicants:read",
    "finance:read",
    "finance:write",
    "codes:write",
    "affiliates:write",
  ]),
};

/** True when an admin role holds a permission. */
export function can(role: AdminRole, permission: Permission): boolean {
  const granted = PERMISSIONS[role];
  return granted === "all" || granted.has(permission);
}

/**
 * Builds the admin guard: a preHandler that answers 401 without a live admin session (student
 * and affiliate sessions do not count: checklist S7), and 403 when the admin's role lacks
 * `permission`. Sets `request.admin`.
 */
export function adminGuard(db: Db, sessions: SessionService) {
  return (permission?: Permission): preHandlerAsyncHookHandler =>
    async function requireAdmin(request: FastifyRequest, reply: FastifyReply) {
      reply.header("cache-control", "no-store");
      const accountId = await sessions.current(request, "admin");
      if (!accountId) throw new HttpError(401, "errors.unauthorized");
      const [admin] = await db
        .select()
        .from(admins)
        .where(and(eq(admins.id, accountId), isNull(admins.disabledAt)));
      if (!admin?.passwordHash) throw new HttpError(401, "errors.unauthorized");
      if (permission && !can(admin.role, permission)) {
        request.log.warn({ adminId: admin.id, permission }, "admin permission refused");
        throw new HttpError(403, "errors.forbiddenRole");
      }
      request.admin = { id: admin.id, email: admin.email, name: admin.name, role: admin.role };
    };
}
