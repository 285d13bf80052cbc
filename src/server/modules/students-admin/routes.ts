import type { FastifyInstance } from "fastify";
import {
  studentCreateSchema,
  studentFiltersSchema,
  studentListQuerySchema,
  studentUpdateSchema,
} from "../../../shared/schemas/students-admin";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { sendCsv } from "../../lib/csv";
import { parseOrThrow } from "../../lib/errors";
import { adminId, adminOf } from "../../lib/params";
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
 * Back-office routes of student accounts (issue "Students: list, add, detail"; spec §2 routes
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
  app.get("/api/admin/students", { preHandler: requireAdmin("applicants:read") }, async (request) =>
    listStudents(db, parseOrThrow(studentListQuerySchema, request.query)),
  );

  /**
   * GET /api/admin/students.csv?<same filters> → text/csv attachment of every matching account
   * (applicants:read); audit "students.export" with the filters and the number of rows.
   */
  app.get(
    "/api/admin/students.csv",
    { preHandler: requireAdmin("applicants:read") },
    async (request, reply) => {
      const filters = parseOrThrow(studentFiltersSchema, request.query);
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
  app.post("/api/admin/students", { preHandler: requireAdmin("students:write") }, async (request, reply) => {
    const input = parseOrThrow(studentCreateSchema, request.body);
    return reply.status(201).send(await createStudent(deps, adminOf(request), input, request.language));
  });

  /** GET /api/admin/students/:id → AdminStudentDetail (applicants:read); 404 `{ error, message }`. */
  app.get("/api/admin/students/:id", { preHandler: requireAdmin("applicants:read") }, async (request) => {
    const id = adminId(request.params);
    return db.transaction(async (tx) =>
      studentDetail(tx, await findStudent(tx, id), request.language, schoolDate(now())),
    );
  });

  /**
   * PATCH /api/admin/students/:id `{ firstName?, lastName?, language?, disabled?, version }`
   * (students:write) → AdminStudentDetail. 409 `{ message, current }` on a stale version; disabling
   * ends the student's sessions.
   */
  app.patch("/api/admin/students/:id", { preHandler: requireAdmin("students:write") }, async (request) => {
    const id = adminId(request.params);
    const input = parseOrThrow(studentUpdateSchema, request.body);
    return updateStudent(deps, adminOf(request), id, input, request.language);
  });

  /**
   * POST /api/admin/students/:id/resend-verification (students:write) → 202 StudentLinkSent
   * `{ sent, email }`. 409 when the address is already verified or the account is disabled.
   */
  app.post(
    "/api/admin/students/:id/resend-verification",
    { preHandler: requireAdmin("students:write") },
    async (request, reply) =>
      reply
        .status(202)
        .send(await sendStudentLink(deps, adminOf(request), adminId(request.params), "verification")),
  );

  /**
   * POST /api/admin/students/:id/send-password-reset (students:write) → 202 StudentLinkSent: the
   * 1-hour reset link, or the choose-your-password link when the account has no password yet.
   * 409 when the account is disabled.
   */
  app.post(
    "/api/admin/students/:id/send-password-reset",
    { preHandler: requireAdmin("students:write") },
    async (request, reply) =>
      reply
        .status(202)
        .send(await sendStudentLink(deps, adminOf(request), adminId(request.params), "passwordReset")),
  );
}
