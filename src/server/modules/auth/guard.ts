import { and, eq, isNull } from "drizzle-orm";
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from "fastify";
import { can, type Permission } from "../../../shared/permissions";
import type { Db } from "../../db/client";
import { admins } from "../../db/schema";
import { HttpError } from "../../lib/errors";
import type { SessionService } from "./sessions";

/**
 * Builds the admin guard: a preHandler that answers 401 without a live admin session (student
 * and affiliate sessions do not count: docs/product/security.md#s7-sessions-of-one-kind-do-not-open-another), and 403 when the admin's role lacks
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
