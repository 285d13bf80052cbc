import type { FastifyInstance } from "fastify";
import {
  createStudentContract,
  exportStudentsContract,
  getStudentContract,
  listStudentsContract,
  resendStudentVerificationContract,
  sendStudentPasswordResetContract,
  updateStudentContract,
} from "../../../shared/api/students-admin";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { adminOf } from "../../lib/params";
import { AuthService } from "../auth";
import {
  createStudent,
  exportStudents,
  findStudent,
  listStudents,
  type StudentAdminDeps,
  sendStudentLink,
  studentDetail,
  updateStudent,
} from "./service";

/**
 * Back-office routes of student accounts (docs/product/back-office.md#students-admin; docs/product/portals.md#public-site
 * /admin/students, /admin/students/add, /admin/students/{id}). Reading needs `applicants:read`
 * (owner, admissions, and finance: finance reads applicants to handle refunds and payments, so it
 * may look a student up, but not change one); every change needs `students:write` (owner,
 * admissions). 401 without an admin session (student and affiliate sessions do not count), 403
 * without the permission; unknown or malformed ids → 404; malformed query or body → 400. Every
 * change writes an audit entry in its transaction. Answers are `no-store` (the guard).
 */
export async function studentAdminRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { db, now } = opts;
  const { requireAdmin, mail, throttle } = app.services;
  const auth = new AuthService({ db, env: opts.env, mail, now, log: app.log, throttle });
  const deps: StudentAdminDeps = { db, auth, now };

  /**
   * GET /api/admin/students?page&pageSize&sort&q&verified&disabled&paid&schoolId → AdminStudentList
   * `{ items, total, page, pageSize }` (applicants:read). `q` is ILIKE on first, last and full name
   * and e-mail with `%`/`_` escaped; sort keys createdAt, lastName, email, applications, amountPaid.
   */
  route(app, listStudentsContract, { preHandler: requireAdmin("applicants:read") }, async ({ query }) =>
    listStudents(db, query),
  );

  /**
   * GET /api/admin/students.csv?<same filters> → text/csv attachment of every matching account
   * (applicants:read); audit "students.export" with the filters and the number of rows.
   */
  route(
    app,
    exportStudentsContract,
    { preHandler: requireAdmin("applicants:read") },
    async ({ query: filters, request, reply }) => {
      const { csv, rows } = await exportStudents(db, filters);
      await recordAudit(db, {
        actor: adminOf(request),
        action: "students.export",
        entityType: "student",
        entityId: "*",
        after: { filters, rows },
      });
      return sendCsv(reply, "students", csv, now());
    },
  );

  /**
   * POST /api/admin/students `{ email, firstName, lastName, language }` (students:write) → 201
   * AdminStudentDetail; the student is e-mailed a link to choose a password. 409
   * `{ message, existingId }` when the address already has a student account.
   */
  route(
    app,
    createStudentContract,
    { preHandler: requireAdmin("students:write") },
    async ({ body, request }) => createStudent(deps, adminOf(request), body, request.language),
  );

  /** GET /api/admin/students/:id → AdminStudentDetail (applicants:read); 404 `{ error, message }`. */
  route(
    app,
    getStudentContract,
    { preHandler: requireAdmin("applicants:read") },
    async ({ params: { id }, request }) =>
      db.transaction(async (tx) =>
        studentDetail(tx, await findStudent(tx, id), request.language, schoolDate(now())),
      ),
  );

  /**
   * PATCH /api/admin/students/:id `{ firstName?, lastName?, language?, disabled?, version }`
   * (students:write) → AdminStudentDetail. 409 `{ message, current }` on a stale version; disabling
   * ends the student's sessions.
   */
  route(
    app,
    updateStudentContract,
    { preHandler: requireAdmin("students:write") },
    async ({ params: { id }, body, request }) =>
      updateStudent(deps, adminOf(request), id, body, request.language),
  );

  /**
   * POST /api/admin/students/:id/resend-verification (students:write) → 202 StudentLinkSent
   * `{ sent, email }`. 409 when the address is already verified or the account is disabled.
   */
  route(
    app,
    resendStudentVerificationContract,
    { preHandler: requireAdmin("students:write") },
    async ({ params: { id }, request }) => sendStudentLink(deps, adminOf(request), id, "verification"),
  );

  /**
   * POST /api/admin/students/:id/send-password-reset (students:write) → 202 StudentLinkSent: the
   * 1-hour reset link, or the choose-your-password link when the account has no password yet.
   * 409 when the account is disabled.
   */
  route(
    app,
    sendStudentPasswordResetContract,
    { preHandler: requireAdmin("students:write") },
    async ({ params: { id }, request }) => sendStudentLink(deps, adminOf(request), id, "passwordReset"),
  );
}
