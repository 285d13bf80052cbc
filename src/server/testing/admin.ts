import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent } from "./accounts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/**
 * A request helper for API tests: `api(method, url, cookie?, payload?)` injects into the app that
 * `app()` returns at call time (the test file's app is created in `beforeAll`), with the session
 * cookie when given and the payload as JSON.
 */
export function apiOf(app: () => FastifyInstance) {
  return (method: Method, url: string, cookie?: string, payload?: unknown): Promise<LightMyRequestResponse> =>
    app().inject({
      method,
      url,
      headers: cookie ? { cookie } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** Session cookies of each admin role, a student and an affiliate (the permission matrix's callers). */
export type RoleCookies = Record<"owner" | "admissions" | "finance" | "student" | "affiliate", string>;

/**
 * Logs in an owner, an admissions admin, a finance admin, a student and an affiliate (each a new
 * account) and returns their session cookies.
 */
export async function adminRoles(app: FastifyInstance): Promise<RoleCookies> {
  return {
    owner: (await loginAsAdmin(app, "owner")).cookie,
    admissions: (await loginAsAdmin(app, "admissions")).cookie,
    finance: (await loginAsAdmin(app, "finance")).cookie,
    student: (await loginAsStudent(app)).cookie,
    affiliate: (await loginAsAffiliate(app)).cookie,
  };
}
