import type { FastifyInstance } from "fastify";
import {
  checkPassContract,
  getStudentPassContract,
  listStudentPassesContract,
  reissueStudentPassContract,
} from "../../../shared/api/pass";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { requireStudent, studentApplication, studentApplications } from "../student";
import { activePass, checkPass, reissuePass, studentPassDto } from "./service";

/**
 * The student pass (docs/product/admissions.md#student-pass: "/student/qrcode, pass token + public check reasons"; docs/product/admissions.md#student-pass
 * /student-pass/{id}, /student/qrcode; decision 020): the public check a pass's QR code opens,
 * and the signed-in student's pass with its QR code and the reissue action. Student routes go
 * through src/server/modules/student/ownership.ts (401 without a student session, 403
 * `errors.verifyEmailFirst` before the e-mail is verified, 404 for another person's application).
 */
export async function passRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { db, env, now } = opts;
  const { sessions } = app.services;

  /**
   * GET /api/student-pass/:token → PassCheck `{ valid, reason, initials, cohort, checkedAt }`
   * (src/shared/schemas/pass.ts), always 200: an unknown or malformed token (an application id
   * included) is `reason: "unknown"`, a replaced one `revoked`. Only initials, cohort name and
   * dates, in the request's language. `no-store`, `noindex`; 30 checks a minute per client
   * address against scanning (the limit the check had before).
   */
  route(
    app,
    checkPassContract,
    { config: { rateLimit: { max: 30, timeWindow: "1 minute" } } },
    async ({ params, request, reply }) => {
      reply.header("cache-control", "no-store").header("x-robots-tag", "noindex");
      return checkPass(db, params.token, request.language, now());
    },
  );

  /**
   * GET /api/student/passes → StudentPass[] (src/shared/schemas/pass.ts `studentPassListSchema`):
   * the pass of each of the signed-in student's applications, newest first, each as
   * `GET /api/student/applications/:id/pass` gives it (made on first opening); one request for the
   * /student/qrcode page. 401 anonymous or another role's session, 403 unverified e-mail. `no-store`.
   */
  route(app, listStudentPassesContract, {}, async ({ request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    const at = now();
    const list = await db.transaction(async (tx) => {
      const rows = await studentApplications(tx, student);
      const passes = [];
      for (const row of rows) passes.push({ row, pass: await activePass(tx, row.application.id) });
      return passes;
    });
    const dtos = await Promise.all(
      list.map(({ row, pass }) =>
        studentPassDto(row, pass, { db, origin: env.APP_ORIGIN, language: request.language, now: at }),
      ),
    );
    reply.header("cache-control", "no-store");
    return dtos;
  });

  /**
   * GET /api/student/applications/:id/pass → StudentPass (src/shared/schemas/pass.ts): the pass of
   * one of the signed-in student's applications with the public check URL (APP_ORIGIN +
   * /student-pass/<token>), its QR code as SVG, and what a checker sees now. The first call makes
   * the application's pass. 401 anonymous or another role's session, 403 unverified e-mail, 404
   * an unknown id or another person's application. `no-store`.
   */
  route(app, getStudentPassContract, {}, async ({ params, request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    const dto = await db.transaction(async (tx) => {
      const row = await studentApplication(tx, student, params.id);
      const pass = await activePass(tx, row.application.id);
      return studentPassDto(row, pass, {
        db: tx,
        origin: env.APP_ORIGIN,
        language: request.language,
        now: now(),
      });
    });
    reply.header("cache-control", "no-store");
    return dto;
  });

  /**
   * POST /api/student/applications/:id/pass/reissue (no body) → StudentPass with a new token: the
   * previous token's check answers `revoked` from now on (a lost or shared phone). Same guards as
   * the GET; 10 a minute per client address.
   */
  route(
    app,
    reissueStudentPassContract,
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async ({ params, request, reply }) => {
      const student = await requireStudent(db, sessions, request);
      const row = await studentApplication(db, student, params.id);
      const at = now();
      const pass = await reissuePass(db, row.application.id, at);
      const dto = await studentPassDto(row, pass, {
        db,
        origin: env.APP_ORIGIN,
        language: request.language,
        now: at,
      });
      reply.header("cache-control", "no-store");
      return dto;
    },
  );
}
