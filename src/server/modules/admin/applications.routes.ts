import type { FastifyInstance } from "fastify";
import {
  changeApplicationStatusContract,
  createNoteContract,
  deleteNoteContract,
  downloadPassportContract,
  exportApplicationsContract,
  getAdminApplicationContract,
  getApplicantContract,
  getDashboardContract,
  listApplicantApplicationsContract,
  listApplicationsContract,
  listNotesContract,
  updateNoteContract,
} from "../../../shared/api/admin-applications";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { adminNotFound } from "../../lib/errors";
import { adminOf } from "../../lib/params";
import {
  applicantApplications,
  applicantDtoOf,
  applicationDetail,
  changeStatus,
  createNote,
  dashboard,
  deleteNote,
  exportApplications,
  findApplicant,
  findApplication,
  listApplications,
  listNotes,
  updateNote,
} from "./applications.service";

/**
 * Back-office routes of applications, applicants, notes and the dashboard (docs/product/portals.md#sign-in-limits
 * "Admin back office, applications"). Every route runs behind `requireAdmin(permission)`: 401
 * without an admin session (student and affiliate sessions do not count, docs/product/security.md#s7-sessions-of-one-kind-do-not-open-another), 403
 * without the permission (table in auth/guard.ts); answers are `no-store`. Unknown or malformed
 * ids → 404 `{ error, message }`; malformed query or body → 400 with a plain message (I2).
 * Every change writes an audit entry in its transaction.
 */
export async function adminApplicationRoutes(
  app: FastifyInstance,
  opts: { db: Db; now: () => Date; supportEmail: string; appOrigin: string },
) {
  const { db, now } = opts;
  const { requireAdmin, mail, files } = app.services;

  /**
   * GET /api/admin/applications?page&pageSize&sort&status&paymentStatus&schoolId&code&affiliateId&from&to&q
   * → AdminApplicationList `{ items, total, page, pageSize }` (applications:read). Search `q` is
   * ILIKE on first name, last name, full name and e-mail with `%`/`_` escaped.
   */
  route(
    app,
    listApplicationsContract,
    { preHandler: requireAdmin("applications:read") },
    async ({ query, request }) => listApplications(db, query, request.language, schoolDate(now())),
  );

  /**
   * GET /api/admin/applications.csv?<same filters> → text/csv attachment of every matching row
   * (UTF-8 with BOM, formula injection guarded): payment status, paid net of refunds, refunded and
   * balance by the one rule (`balanceOf`, docs/product/payments.md#payment-status, decision 035). applications:read; audit
   * "applications.export".
   */
  route(
    app,
    exportApplicationsContract,
    { preHandler: requireAdmin("applications:read") },
    async ({ query: filters, request, reply }) => {
      const { csv, rows } = await exportApplications(db, filters, request.language, schoolDate(now()));
      await recordAudit(db, {
        actor: adminOf(request),
        action: "applications.export",
        entityType: "application",
        entityId: "*",
        after: { filters, rows },
      });
      return sendCsv(reply, "applications", csv, now());
    },
  );

  /** GET /api/admin/applications/:id → AdminApplicationDetail (applications:read); 404 `{ error, message }`. */
  route(
    app,
    getAdminApplicationContract,
    { preHandler: requireAdmin("applications:read") },
    async ({ params: { id }, request }) =>
      db.transaction(async (tx) =>
        applicationDetail(tx, await findApplication(tx, id), request.language, schoolDate(now())),
      ),
  );

  /**
   * PATCH /api/admin/applications/:id/status `{ status, version }` → 200 AdminApplicationDetail
   * (applications:write). 409 `{ message, current }` on a stale version, 422 for a transition the
   * workflow refuses, 404 for an unknown id. One audit entry and one e-mail per change.
   */
  route(
    app,
    changeApplicationStatusContract,
    { preHandler: requireAdmin("applications:write") },
    async ({ params: { id }, body: input, request }) => {
      const detail = await changeStatus(
        db,
        {
          mail,
          supportEmail: opts.supportEmail,
          now,
          letters: { APP_ORIGIN: opts.appOrigin, SUPPORT_EMAIL: opts.supportEmail },
        },
        adminOf(request),
        id,
        input,
        request.language,
      );
      void mail.flush().catch((err) => request.log.error({ err }, "mail flush failed"));
      // A withdrawn, cancelled or rejected application's checkout holds no place any more: the
      // waiting list may offer it (docs/product/admissions.md#waiting-list).
      if (["withdrawn", "cancelled", "rejected"].includes(input.status)) app.services.waitingList.runSoon();
      return detail;
    },
  );

  /** GET /api/admin/applicants/:id → AdminApplicantDto (applicants:read); 404 `{ error, message }`. */
  route(
    app,
    getApplicantContract,
    { preHandler: requireAdmin("applicants:read") },
    async ({ params: { id } }) => applicantDtoOf(await findApplicant(db, id)),
  );

  /** GET /api/admin/applicants/:id/applications → AdminApplicantApplication[] (applicants:read). */
  route(
    app,
    listApplicantApplicationsContract,
    { preHandler: requireAdmin("applicants:read") },
    async ({ params: { id }, request }) => applicantApplications(db, id, request.language, schoolDate(now())),
  );

  /**
   * GET /api/admin/applicants/:id/passport → the decrypted PDF as an attachment with nosniff and
   * no-store (applicants:read; docs/product/security.md#i1-uploads). Audit "passport.download" before the bytes leave.
   * 404 when the applicant is unknown or has no passport.
   */
  route(
    app,
    downloadPassportContract,
    { preHandler: requireAdmin("applicants:read") },
    async ({ params: { id }, request, reply }) => {
      const applicant = await findApplicant(db, id);
      if (!applicant.passportFileId) throw adminNotFound();
      let content: Buffer;
      try {
        content = await files.read(applicant.passportFileId);
      } catch (err) {
        request.log.error({ err, applicantId: applicant.id }, "passport file unreadable");
        throw adminNotFound();
      }
      await recordAudit(db, {
        actor: adminOf(request),
        action: "passport.download",
        entityType: "applicant",
        entityId: applicant.id,
        after: { fileId: applicant.passportFileId },
      });
      return reply
        .header("content-type", "application/pdf")
        .header("content-disposition", 'attachment; filename="passport.pdf"')
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "no-store")
        .send(content);
    },
  );

  /** GET /api/admin/applicants/:id/notes → AdminNoteDto[] oldest first (applicants:read). */
  route(app, listNotesContract, { preHandler: requireAdmin("applicants:read") }, async ({ params: { id } }) =>
    listNotes(db, id),
  );

  /** POST /api/admin/applicants/:id/notes `{ body }` (1-5000 characters) → 201 AdminNoteDto (notes:write). */
  route(
    app,
    createNoteContract,
    { preHandler: requireAdmin("notes:write") },
    async ({ params: { id }, body: { body }, request }) => createNote(db, adminOf(request), id, body, now()),
  );

  /** PATCH /api/admin/notes/:id `{ body }` → AdminNoteDto (notes:write; author or owner, else 403). */
  route(
    app,
    updateNoteContract,
    { preHandler: requireAdmin("notes:write") },
    async ({ params: { id }, body: { body }, request }) => updateNote(db, adminOf(request), id, body, now()),
  );

  /** DELETE /api/admin/notes/:id → 204 (notes:write; author or owner, else 403). */
  route(
    app,
    deleteNoteContract,
    { preHandler: requireAdmin("notes:write") },
    async ({ params: { id }, request }) => {
      await deleteNote(db, adminOf(request), id);
      return undefined;
    },
  );

  /** GET /api/admin/dashboard → AdminDashboard (applications:read). */
  route(app, getDashboardContract, { preHandler: requireAdmin("applications:read") }, async ({ request }) =>
    dashboard(db, adminOf(request), request.language),
  );
}
