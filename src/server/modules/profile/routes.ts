import type { FastifyInstance, FastifyRequest } from "fastify";
import { strToU8, zipSync } from "fflate";
import {
  cancelEmailChangeContract,
  changeStudentPasswordContract,
  completeErasureRequestContract,
  confirmEmailChangeContract,
  downloadStudentFileContract,
  exportStudentArchiveContract,
  exportStudentDataContract,
  getStudentProfileContract,
  listErasureRequestsContract,
  requestEmailChangeContract,
  requestErasureContract,
  updateStudentProfileContract,
} from "../../../shared/api/profile";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { adminOf } from "../../lib/params";
import { hashToken } from "../../lib/tokens";
import { AuthService, sessionCookieName } from "../auth";
import { SIGNATURES, sniff } from "../files";
import { requireStudent } from "../student";
import {
  completeErasure,
  exportOf,
  listErasureRequests,
  profileOf,
  requestErasure,
  studentFile,
  updateProfile,
} from "./service";

/** The rate-limit key of a student's own calls: their session (hashed), else the client address. */
function studentKey(prefix: string) {
  return (request: FastifyRequest) => {
    const token = request.cookies[sessionCookieName("student")];
    return `${prefix}|${token ? hashToken(token) : request.ip}`;
  };
}

/**
 * Rate limits of the sensitive calls (docs/product/portals.md#sign-in-limits; docs/product/security.md#s5-brute-force-and-rate-limits): a password change and an e-mail
 * change 5 per 15 minutes per session (each checks the current password: no guessing it through
 * them); the confirmation link 10 a minute per address; the data export 5 an hour; file downloads
 * 30 an hour; erasure requests 5 an hour.
 */
/** What the archive's `my-data.json` says it holds (the JSON export's `about`, for the archive). */
const ARCHIVE_ABOUT =
  "Your data at The Hague Summer School: your account, your applications with the details you gave (with the emergency contact and the billing details), your payments, refunds, invoices and documents, your consents, the files you gave us (in the folder files/ of this archive) and the e-mails we sent you.";

const LIMITS = {
  password: { max: 5, timeWindow: "15 minutes", keyGenerator: studentKey("profile-password") },
  email: { max: 5, timeWindow: "15 minutes", keyGenerator: studentKey("profile-email") },
  confirm: { max: 10, timeWindow: "1 minute" },
  export: { max: 5, timeWindow: "1 hour", keyGenerator: studentKey("profile-export") },
  file: { max: 30, timeWindow: "1 hour", keyGenerator: studentKey("profile-file") },
  erasure: { max: 5, timeWindow: "1 hour", keyGenerator: studentKey("profile-erasure") },
};

/**
 * The student's own account (docs/product/portals.md#student-profile; docs/product/portals.md#student-portal; decision 021):
 * profile, password, e-mail change with re-verification, data export with file downloads, erasure
 * request; and the back office's erasure requests. Student calls go through
 * modules/student/ownership.ts `requireStudent` (401 without a student session or for a disabled
 * account); the account calls work before the e-mail is verified (an address mistyped at
 * registration can be corrected), everything of applications only after. Every answer is
 * `cache-control: no-store`.
 */
export async function profileRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { db, env, now } = opts;
  const { sessions, mail, throttle, requireAdmin } = app.services;
  const auth = new AuthService({ db, env, mail, now, log: app.log, throttle });
  const student = (request: FastifyRequest) => requireStudent(db, sessions, request, { verified: false });

  app.addHook("onSend", async (_request, reply, payload) => {
    reply.header("cache-control", "no-store");
    return payload;
  });

  /**
   * GET /api/student/profile → StudentProfile `{ id, firstName, lastName, email, emailVerified,
   * pendingEmail, language, applicationPhone, createdAt, erasureRequestedAt }`. 401 without a
   * student session. An unverified account sees no application phone.
   */
  route(app, getStudentProfileContract, {}, async ({ request }) => profileOf(db, await student(request)));

  /**
   * PATCH /api/student/profile `{ firstName, lastName, language }` → StudentProfile. 400 with
   * field errors for a missing or too long name or an unknown language; 401 without a session.
   * Audit "student.profile.update".
   */
  route(app, updateStudentProfileContract, {}, async ({ body, request }) => {
    const me = await student(request);
    return updateProfile(db, me, body, now());
  });

  /**
   * POST /api/student/profile/password `{ currentPassword, newPassword }` → 200 `{ ok: true }`.
   * 400 errors.currentPasswordWrong, or the password policy's errors (docs/product/security.md#s4-password-storage-and-policy); every other
   * session of the account ends (this one stays) and the account's address gets a notice. 429
   * after 5 attempts in 15 minutes. Audit "student.password.change" (no secret in it).
   */
  route(
    app,
    changeStudentPasswordContract,
    { config: { rateLimit: LIMITS.password } },
    async ({ body, request }) => {
      const me = await student(request);
      const { currentPassword, newPassword } = body;
      await auth.changeStudentPassword(
        me,
        currentPassword,
        newPassword,
        request.cookies[sessionCookieName("student")],
      );
      await recordAudit(db, {
        actor: { actorRole: "student", actorId: me.id },
        action: "student.password.change",
        entityType: "student",
        entityId: me.id,
      });
      return { ok: true as const };
    },
  );

  /**
   * POST /api/student/profile/email `{ newEmail, currentPassword }` → 202 `{ ok: true }`: a
   * 24-hour link goes to the new address; the account keeps its address until the link is used.
   * 400 errors.currentPasswordWrong / errors.emailUnchanged / a malformed address; 409
   * errors.emailInUse for the address of another account; 429 after 5 in 15 minutes.
   */
  route(
    app,
    requestEmailChangeContract,
    { config: { rateLimit: LIMITS.email } },
    async ({ body, request }) => {
      const me = await student(request);
      await auth.requestStudentEmailChange(me, body.newEmail, body.currentPassword);
      return { ok: true as const };
    },
  );

  /** DELETE /api/student/profile/email → 200 `{ ok: true }`: the pending change is cancelled. 401 without a session. */
  route(app, cancelEmailChangeContract, {}, async ({ request }) => {
    await auth.cancelStudentEmailChange(await student(request));
    return { ok: true as const };
  });

  /**
   * POST /api/student/profile/email/confirm `{ token }` → 200 `{ email }` (no session needed: the
   * link proves the new address). The account's address becomes the new one, verified; its
   * applications stay attached (decision 021); the old address is told. 400 errors.invalidToken;
   * 409 errors.emailInUse when the address was taken meanwhile. Audit "student.email.change"
   * (before and after address).
   */
  route(
    app,
    confirmEmailChangeContract,
    { config: { rateLimit: LIMITS.confirm } },
    async ({ body: { token } }) => {
      const { before, after } = await auth.confirmStudentEmailChange(token);
      await recordAudit(db, {
        actor: { actorRole: "student", actorId: after.id },
        action: "student.email.change",
        entityType: "student",
        entityId: after.id,
        before: { email: before.email },
        after: { email: after.email },
      });
      return { email: after.email };
    },
  );

  /**
   * GET /api/student/profile/export → JSON attachment `my-data-<yyyy-mm-dd>.json` (see
   * `exportOf`): the account, its applications with applicant details, emergency contact, billing
   * details, payments, refunds, invoices and documents, the consents, the files' metadata with their
   * download addresses, the e-mails sent (by account and application, docs/product/privacy.md#data-export). 401 without a session; 429
   * after 5 an hour. Audit "student.export" (counts only).
   */
  route(
    app,
    exportStudentDataContract,
    { config: { rateLimit: LIMITS.export } },
    async ({ request, reply }) => {
      const me = await student(request);
      const at = now();
      const data = await exportOf(db, me, request.language, at);
      await recordAudit(db, {
        actor: { actorRole: "student", actorId: me.id },
        action: "student.export",
        entityType: "student",
        entityId: me.id,
        after: { applications: data.applications.length, files: data.files.length },
      });
      return reply
        .header("content-type", "application/json; charset=utf-8")
        .header("content-disposition", `attachment; filename="my-data-${at.toISOString().slice(0, 10)}.json"`)
        .header("x-content-type-options", "nosniff")
        .send(JSON.stringify(data, null, 2));
    },
  );

  /**
   * GET /api/student/profile/export.zip → one ZIP archive `my-data-<yyyy-mm-dd>.zip` (docs/product/privacy.md#data-export
   * "data export as one archive"; GDPR 15 and 20): `my-data.json` (what the JSON export gives, each
   * file with its `archivePath`) and every file the student gave (passport, proof of insurance)
   * under `files/`, decrypted, with its type from its content. Same limits and audit as the JSON
   * export (401, 429 after 5 an hour; "student.export"). A file that cannot be read is left out and
   * listed with `archivePath: null`; the rest of the archive is still given.
   */
  route(
    app,
    exportStudentArchiveContract,
    { config: { rateLimit: LIMITS.export } },
    async ({ request, reply }) => {
      const me = await student(request);
      const at = now();
      const data = await exportOf(db, me, request.language, at);
      const entries: Record<string, Uint8Array> = {};
      const counts = new Map<string, number>();
      const files = [];
      for (const file of data.files) {
        let archivePath: string | null = null;
        try {
          const content = await app.services.files.read(file.id);
          const type = sniff(content.subarray(0, 8)) ?? "pdf";
          const n = (counts.get(file.kind) ?? 0) + 1;
          counts.set(file.kind, n);
          archivePath = `files/${file.kind}-${n}.${type === "jpeg" ? "jpg" : type}`;
          entries[archivePath] = content;
        } catch (err) {
          request.log.error({ err, fileId: file.id }, "export: file unreadable");
        }
        files.push({ ...file, archivePath });
      }
      entries["my-data.json"] = strToU8(JSON.stringify({ ...data, about: ARCHIVE_ABOUT, files }, null, 2));
      const archive = zipSync(entries, { level: 6, mtime: at });
      await recordAudit(db, {
        actor: { actorRole: "student", actorId: me.id },
        action: "student.export",
        entityType: "student",
        entityId: me.id,
        after: { applications: data.applications.length, files: data.files.length, archive: true },
      });
      return reply
        .header("content-type", "application/zip")
        .header("content-disposition", `attachment; filename="my-data-${at.toISOString().slice(0, 10)}.zip"`)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "no-store")
        .send(Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength));
    },
  );

  /**
   * GET /api/student/profile/files/:id → the file (passport PDF, proof of insurance PDF/JPEG/PNG, its
   * type from its content) as an attachment
   * with nosniff, for its owner only (docs/product/security.md#i1-uploads, docs/product/security.md#s6-nobody-reads-what-is-not-theirs): 404 for an unknown id or another person's
   * file; 401 without a session; 403 errors.verifyEmailFirst before verification. 429 after 30 an hour.
   */
  route(
    app,
    downloadStudentFileContract,
    { config: { rateLimit: LIMITS.file } },
    async ({ params, request, reply }) => {
      const me = await requireStudent(db, sessions, request);
      const file = await studentFile(db, me, params.id);
      const content = await app.services.files.read(file.id);
      // A proof of insurance may be a JPEG or PNG: its type comes from its content (docs/product/security.md#i3-response-headers).
      const type = sniff(content.subarray(0, 8)) ?? "pdf";
      return reply
        .header("content-type", SIGNATURES[type].mime)
        .header(
          "content-disposition",
          `attachment; filename="${file.kind}.${type === "jpeg" ? "jpg" : type}"`,
        )
        .header("x-content-type-options", "nosniff")
        .send(content);
    },
  );

  /**
   * POST /api/student/profile/erasure `{ message? }` → 201 `{ requestedAt }`: the request goes to
   * the school's admins (GET /api/admin/erasure-requests). 409 errors.erasureAlreadyRequested
   * while one is open; 400 for a message over 1,000 characters; 429 after 5 an hour.
   */
  route(app, requestErasureContract, { config: { rateLimit: LIMITS.erasure } }, async ({ body, request }) =>
    requestErasure(db, await student(request), body.message, now()),
  );

  /**
   * GET /api/admin/erasure-requests?status=open|completed|all (owners: privacy:write; 401 without
   * an admin session, 403 for other roles) → `{ items }`, oldest first: the student, their message,
   * the applicants of their applications and whether each is erased yet (erase each with POST
   * /api/admin/applicants/:id/erase). 400 for another status.
   */
  route(app, listErasureRequestsContract, { preHandler: requireAdmin("privacy:write") }, async ({ query }) =>
    listErasureRequests(db, query.status),
  );

  /**
   * POST /api/admin/erasure-requests/:id/complete (privacy:write) → the request, completed: the
   * student account is erased once every applicant of it was (409
   * errors.erasureApplicantsNotErased before; 409 errors.erasureAlreadyCompleted; 404 unknown).
   */
  route(
    app,
    completeErasureRequestContract,
    { preHandler: requireAdmin("privacy:write") },
    async ({ params, request }) => completeErasure(db, adminOf(request), params.id, now()),
  );
}
