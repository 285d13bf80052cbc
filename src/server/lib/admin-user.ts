import type { AdminRole } from "../db/schema";

/**
 * The signed-in admin of a request: set on `request.admin` by the admin guard (`requireAdmin`,
 * modules/auth), read by every back-office route and recorded as the actor of its audit entries.
 */
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
