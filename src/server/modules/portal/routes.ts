import type { FastifyInstance } from "fastify";
import {
  createPortalEntryContract,
  exportPortalEntriesContract,
  getPortalEntryContract,
  getStudentNextStepsContract,
  getStudentPortalContract,
  listPortalEntriesContract,
  updatePortalEntryContract,
} from "../../../shared/api/portal";
import type { Db } from "../../db/client";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { requireStudent } from "../student";
import { studentNextSteps } from "./next-steps";
import { createEntry, exportEntries, getEntry, listEntries, studentPortal, updateEntry } from "./service";

/**
 * Student dashboard management (docs/product/back-office.md#portal-entries: announcements, trip
 * information, FAQ and partner entries). Admin routes need `portal:write` (owners and admissions;
 * 401 without an admin session, 403 for finance); every change is audited and version-checked
 * (409 `{ message, current }`). The student route needs a student session.
 */
export async function portalRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const { requireAdmin, sessions } = app.services;

  /**
   * GET /api/admin/portal-entries?page&pageSize&sort&kind&schoolId&archived&q → AdminPortalEntryList
   * `{ items, total, page, pageSize }` (portal:write: owners and admissions; 401 without an admin
   * session, 403 for finance). page from 1, pageSize 1-100 (default 25); sort `<key>:<asc|desc>`
   * over kind, title, sortOrder, publishedAt, updatedAt (default kind:asc: announcements, trip
   * information, FAQ, partners, then sort order, then newest); kind; schoolId (a summer school's id,
   * or `all` for the entries shown to every cohort); archived=1 includes archived entries; q
   * searches titles and texts in en/zh/fr. Times are ISO 8601 UTC. A malformed parameter → 400
   * with a message and `fieldErrors`.
   */
  route(
    app,
    listPortalEntriesContract,
    { preHandler: requireAdmin("portal:write") },
    async ({ query, request }) => listEntries(db, query, request.language),
  );

  /**
   * GET /api/admin/portal-entries.csv?kind&schoolId&archived&q (the list's filters; portal:write,
   * 401/403 as the list) → text/csv attachment `portal-entries-<yyyy-mm-dd>.csv` of every matching
   * entry: kind, cohort, state, titles and texts in en/zh/fr, web address, order, times (UTC ISO
   * 8601). Audit "portal.export" with the filters and the number of rows. 400 for a malformed filter.
   */
  route(
    app,
    exportPortalEntriesContract,
    { preHandler: requireAdmin("portal:write") },
    async ({ query: filters, request, reply }) => {
      const at = now();
      const { csv, rows } = await exportEntries(db, filters, at, request.language);
      await recordAudit(db, {
        actor: request.admin!,
        action: "portal.export",
        entityType: "portal_entry",
        entityId: "*",
        after: { filters, rows },
      });
      return sendCsv(reply, "portal-entries", csv, at);
    },
  );

  /** GET /api/admin/portal-entries/:id → AdminPortalEntryDto; 404 for an unknown id. */
  route(
    app,
    getPortalEntryContract,
    { preHandler: requireAdmin("portal:write") },
    async ({ params, request }) => getEntry(db, params.id, request.language),
  );

  /**
   * POST /api/admin/portal-entries PortalEntryInput → 201 AdminPortalEntryDto. 400 for a missing
   * English title or body, a partner without an http(s) address, or an unknown cohort.
   */
  route(
    app,
    createPortalEntryContract,
    { preHandler: requireAdmin("portal:write") },
    async ({ body, request }) => createEntry(db, request.admin!, body, request.language),
  );

  /**
   * PATCH /api/admin/portal-entries/:id `{ version, entry?, archived? }` → AdminPortalEntryDto.
   * 404 unknown id; 409 `{ message, current }` on a stale version; 400 as for a creation.
   */
  route(
    app,
    updatePortalEntryContract,
    { preHandler: requireAdmin("portal:write") },
    async ({ body, params, request }) =>
      updateEntry(db, request.admin!, params.id, body, now(), request.language),
  );

  /**
   * GET /api/student/portal → StudentPortal `{ language, entries }`: the published entries of the
   * cohorts the student belongs to (and those for every cohort, once they belong to one), in the
   * request's language (the portal's UI language) with English fallback. 401 without a student
   * session; 403 errors.verifyEmailFirst for an unverified account (docs/product/catalogue-and-pricing.md#cohorts: nothing of a cohort
   * before the e-mail is verified; modules/student/ownership.ts `requireStudent`).
   */
  route(app, getStudentPortalContract, {}, async ({ request, reply }) => {
    reply.header("cache-control", "no-store");
    const student = await requireStudent(db, sessions, request);
    return studentPortal(db, student, request.language, now());
  });

  /**
   * GET /api/student/next-steps → StudentNextSteps `{ steps: [{ kind, applicationId, programName,
   * href, amount, date }] }` (src/shared/portal.ts): everything the student has to do, one list,
   * computed by `studentNextSteps` (docs/product/admissions.md#next-steps, decision 038), names in the request's
   * language. 401 without a student session; 403 errors.verifyEmailFirst for an unverified account.
   */
  route(app, getStudentNextStepsContract, {}, async ({ request, reply }) => {
    reply.header("cache-control", "no-store");
    const student = await requireStudent(db, sessions, request);
    return studentNextSteps(db, student, request.language, now());
  });
}
