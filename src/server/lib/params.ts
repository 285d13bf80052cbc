import type { FastifyRequest } from "fastify";
import { z } from "zod";
import type { AdminUser } from "./admin-user";
import { adminNotFound } from "./errors";

const idParams = z.object({ id: z.uuid() });

/**
 * The `:id` of a back-office route as a UUID; anything else is an unknown id: 404
 * `{ error: "not_found", message }` (docs/product/api.md#not-found), the same answer as an id that does not exist.
 */
export function adminId(params: unknown): string {
  const parsed = idParams.safeParse(params);
  if (!parsed.success) throw adminNotFound();
  return parsed.data.id;
}

/** The admin set by `requireAdmin` (every back-office route runs behind it). */
export const adminOf = (request: FastifyRequest): AdminUser => request.admin!;
