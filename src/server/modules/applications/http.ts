import type { FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { Env } from "../../env";
import { HttpError } from "../../lib/errors";
import { APPLICANT_COOKIE } from "./service";

/**
 * What an applicant's requests carry (docs/product/portals.md#sessions: the capability cookie, an application's id
 * in the URL) and where an applicant's passport is served: shared by this module's routes and
 * other modules' (payments, resume, cohort) through the module's index.
 */

const idParams = z.object({ id: z.uuid() });

/** Reads `:id` as a UUID; anything else is 404 (unknown id), never a database error. */
export function idParam(params: unknown): string {
  const parsed = idParams.safeParse(params);
  if (!parsed.success) throw new HttpError(404, "errors.applicationNotFound");
  return parsed.data.id;
}

/** The capability token the applicant's browser holds, from its httpOnly cookie. */
export const applicantToken = (request: FastifyRequest) => request.cookies[APPLICANT_COOKIE];

/**
 * Gives the browser the applicant's capability (docs/product/portals.md#sessions): an httpOnly, SameSite=Lax cookie
 * on /api, Secure in production, for 30 days. Set when the applicant is created and when a resume
 * link is used (decision 028).
 */
export function setCapability(reply: FastifyReply, env: Env, token: string) {
  return reply.setCookie(APPLICANT_COOKIE, token, {
    path: "/api",
    httpOnly: true,
    sameSite: "lax",
    secure: env.isProduction,
    maxAge: 30 * 24 * 3600,
  });
}

/** URL at which an applicant's passport is served (owner and admins only). */
export const passportUrlOf = (applicantId: string) => `/api/applicants/${applicantId}/passport`;
