import { and, asc, desc, eq, type SQL } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import type { Db } from "../db/client";
import { auditLog } from "../db/schema";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent } from "./accounts";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** Extra headers and the client address of one request (or, given to `apiOf`, of every request). */
export interface RequestOptions {
  headers?: Record<string, string>;
  remoteAddress?: string;
}

/** The request helper `apiOf` returns. */
export type Api = (
  method: Method,
  url: string,
  cookie?: string,
  payload?: unknown,
  options?: RequestOptions,
) => Promise<LightMyRequestResponse>;

/** The headers of a request from the site's own pages (the CSRF check's allowed origin). */
export const SAME_ORIGIN: RequestOptions = { headers: { origin: "http://localhost:3000" } };

/**
 * A request helper for API tests: `api(method, url, cookie?, payload?, options?)` injects into the
 * app that `app()` returns at call time (the test file's app is created in `beforeAll`), with the
 * session cookie when given and the payload as JSON. `defaults` apply to every request (e.g.
 * `SAME_ORIGIN`); `options` add headers (after the cookie, so they win) and a client address.
 */
export function apiOf(app: () => FastifyInstance, defaults: RequestOptions = {}): Api {
  return (method, url, cookie, payload, options = {}) => {
    const remoteAddress = options.remoteAddress ?? defaults.remoteAddress;
    return app().inject({
      method,
      url,
      headers: { ...defaults.headers, ...(cookie ? { cookie } : {}), ...options.headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  };
}

/** The three admin roles. */
export type AdminRoleName = "owner" | "admissions" | "finance";

/** Session cookies of each admin role, a student and an affiliate (the permission matrix's callers). */
export type RoleCookies = Record<AdminRoleName | "student" | "affiliate", string>;

/** The sessions `loginRoles` opens: every caller's cookie and the id of each admin. */
export interface RoleSessions {
  cookies: RoleCookies;
  adminIds: Record<AdminRoleName, string>;
}

/**
 * Logs in an owner, an admissions admin, a finance admin, a student and an affiliate (each a new
 * account, in that order) and returns their session cookies and the admins' ids.
 */
export async function loginRoles(app: FastifyInstance): Promise<RoleSessions> {
  const owner = await loginAsAdmin(app, "owner");
  const admissions = await loginAsAdmin(app, "admissions");
  const finance = await loginAsAdmin(app, "finance");
  return {
    cookies: {
      owner: owner.cookie,
      admissions: admissions.cookie,
      finance: finance.cookie,
      student: (await loginAsStudent(app)).cookie,
      affiliate: (await loginAsAffiliate(app)).cookie,
    },
    adminIds: { owner: owner.admin.id, admissions: admissions.admin.id, finance: finance.admin.id },
  };
}

/**
 * Logs in an owner, an admissions admin, a finance admin, a student and an affiliate (each a new
 * account) and returns their session cookies.
 */
export async function adminRoles(app: FastifyInstance): Promise<RoleCookies> {
  return (await loginRoles(app)).cookies;
}

/** Who calls a route in a permission check: nobody signed in, or one of the `RoleCookies`. */
export type Caller = "anonymous" | keyof RoleCookies;

/** A route of a permission check: `[method, url, JSON body?, …anything the test keeps with it]` or an object. */
export type RouteCase =
  | readonly [method: Method, url: string, body?: unknown, ...rest: readonly unknown[]]
  | { readonly method: Method; readonly url: string; readonly body?: unknown };

/** The status a caller must get: exactly this code, or (`{ not }`) any code but this one. */
export type ExpectedStatus = number | { not: number };

/** The expected status of each caller that is to call a route. */
export type Expectations = Partial<Record<Caller, ExpectedStatus>>;

/**
 * The permission matrix of a set of routes: sends every route (in order) once as each caller named
 * in `expected` (in the order of its keys) — `anonymous` without a cookie, the others with their
 * cookie from `cookies` — and asserts the status code: a number exactly, `{ not: n }` anything but
 * `n`. `expected` may be a function of the route for expectations that differ per route. Each
 * failure names the caller, method and URL; a caller without a cookie in `cookies` fails the test
 * rather than calling anonymously. `check`, when given, makes further assertions on each response.
 */
export async function expectRouteStatuses<R extends RouteCase>(
  api: Api,
  cookies: Partial<RoleCookies>,
  routes: readonly R[],
  expected: Expectations | ((route: R) => Expectations),
  check?: (res: LightMyRequestResponse, label: string) => void,
): Promise<void> {
  for (const route of routes) {
    const { method, url, body } = Array.isArray(route)
      ? { method: route[0] as Method, url: route[1] as string, body: route[2] }
      : (route as Exclude<RouteCase, readonly unknown[]>);
    const table = typeof expected === "function" ? expected(route) : expected;
    for (const [caller, status] of Object.entries(table) as Array<[Caller, ExpectedStatus]>) {
      const cookie = caller === "anonymous" ? undefined : cookies[caller];
      if (caller !== "anonymous" && !cookie) throw new Error(`no session cookie for ${caller}`);
      const res = await api(method, url, cookie, body);
      const label = `${caller} ${method} ${url}`;
      if (typeof status === "number") expect(res.statusCode, label).toBe(status);
      else expect(res.statusCode, label).not.toBe(status.not);
      check?.(res, label);
    }
  }
}

/** The lines of a CSV answer: the body without its byte-order mark and trailing line break, split at CRLF. */
export function csvLines(res: LightMyRequestResponse): string[] {
  return res.body
    .replace(/^\uFEFF/, "")
    .trimEnd()
    .split("\r\n");
}

/**
 * Asserts a CSV download: status 200, a `text/csv` content type and an attachment named
 * `<name>-YYYY-MM-DD.csv`. Returns the file's lines (`csvLines`).
 */
export function expectCsvDownload(res: LightMyRequestResponse, name: string): string[] {
  expect(res.statusCode).toBe(200);
  expect(res.headers["content-type"]).toContain("text/csv");
  expect(res.headers["content-disposition"]).toMatch(
    new RegExp(`attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.csv"`),
  );
  return csvLines(res);
}

/** Which audit entries to read: every given field must be equal. */
export interface AuditFilter {
  entityType?: string;
  entityId?: string;
  action?: string;
  actorId?: string;
}

/** The audit entries matching every field of `filter`, oldest first (or newest first). */
export function auditEntries(db: Db, filter: AuditFilter, order: "oldest" | "newest" = "oldest") {
  const conditions: SQL[] = [];
  if (filter.entityType !== undefined) conditions.push(eq(auditLog.entityType, filter.entityType));
  if (filter.entityId !== undefined) conditions.push(eq(auditLog.entityId, filter.entityId));
  if (filter.action !== undefined) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actorId !== undefined) conditions.push(eq(auditLog.actorId, filter.actorId));
  return db
    .select()
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(order === "oldest" ? asc(auditLog.createdAt) : desc(auditLog.createdAt));
}

/** The newest audit entry matching `filter`; asserts that there is one. */
export async function latestAuditEntry(db: Db, filter: AuditFilter) {
  const [entry] = await auditEntries(db, filter, "newest");
  expect(entry, `an audit entry ${JSON.stringify(filter)}`).toBeDefined();
  return entry!;
}
