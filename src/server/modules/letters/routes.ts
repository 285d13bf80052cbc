import type { FastifyInstance, FastifyReply } from "fastify";
import {
  completeCohortContract,
  getApplicationDocumentsContract,
  getCertificateContract,
  getStudentCertificateContract,
  getStudentDocumentsContract,
  getStudentVisaLetterContract,
  getVisaLetterContract,
  setCompletionContract,
  verifyVisaLetterContract,
} from "../../../shared/api/letters";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { adminOf } from "../../lib/params";
import { warnOnceOfFontProblem } from "../../lib/pdf-fonts";
import { requireStudent, studentApplication } from "../student";
import {
  certificatePdf,
  completeCohort,
  documentsOf,
  letterRows,
  setCompletion,
  verifyVisaLetter,
  visaLetterPdf,
} from "./service";

/** A verification token: 32 random bytes in base64url (43 characters). */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Sends PDF bytes as a download that no cache keeps (docs/product/catalogue-and-pricing.md#catalogue-cache: `Cache-Control: no-store`). */
function sendPdf(reply: FastifyReply, filename: string, bytes: Buffer) {
  return reply
    .header("content-type", "application/pdf")
    .header("content-disposition", `attachment; filename="${filename}"`)
    .header("cache-control", "no-store")
    .header("x-content-type-options", "nosniff")
    .send(bytes);
}

/**
 * Routes of the letters module (docs/product/admissions.md#documents-and-letters; decision 018): the visa invitation letter
 * and the certificate of completion for the student (own applications only: `requireStudent` →
 * 401/403, `studentApplication` → 404 for anyone else's, docs/product/security.md#s6-nobody-reads-what-is-not-theirs) and for admins
 * (`applications:read` to download, `applications:write` to mark completion; 401/403 otherwise),
 * and the public check of a letter. PDFs and personal answers are `no-store`.
 */
export async function letterRoutes(app: FastifyInstance, opts: { db: Db; env: Env; now: () => Date }) {
  const { db, env, now } = opts;
  const { sessions, requireAdmin } = app.services;
  const today = () => schoolDate(now());
  /** Sends a rendered letter; says once in the log when a font file is missing (decision 033). */
  const send = (reply: FastifyReply, filename: string, bytes: Buffer) => {
    warnOnceOfFontProblem(reply.log, env.DOCUMENT_FONT);
    return sendPdf(reply, filename, bytes);
  };

  /** The student's own application id, or 401/403/404 (student/ownership.ts). */
  async function ownApplication(request: Parameters<typeof requireStudent>[2]): Promise<string> {
    const student = await requireStudent(db, sessions, request);
    const { id } = request.params as { id?: string };
    return (await studentApplication(db, student, String(id ?? ""))).application.id;
  }

  /**
   * GET /api/student/applications/:id/documents → ApplicationDocuments (schemas/letters.ts): the
   * visa letter's availability and why not, the visa window, the certificate's availability.
   * 401 without a student session, 403 unverified, 404 for an application not the student's.
   */
  route(app, getStudentDocumentsContract, {}, async ({ request, reply }) => {
    const id = await ownApplication(request);
    const rows = await letterRows(db, id);
    reply.header("cache-control", "no-store");
    return documentsOf(db, rows, today(), request.language);
  });

  /**
   * GET /api/student/applications/:id/visa-letter.pdf → the visa invitation letter (PDF, no-store).
   * 409 `{ message, reason }` while not available (deposit not paid, awaiting acceptance where the
   * school requires it, rejected/withdrawn/cancelled, refunded); 401/403/404 as above.
   */
  route(app, getStudentVisaLetterContract, {}, async ({ request, reply }) => {
    const id = await ownApplication(request);
    return send(reply, "visa-invitation-letter.pdf", await visaLetterPdf(db, env, id, now(), today()));
  });

  /**
   * GET /api/student/applications/:id/certificate.pdf → the certificate of completion (PDF,
   * no-store); 409 `errors.letters.notCompleted` until an admin marked the programme completed.
   */
  route(app, getStudentCertificateContract, {}, async ({ request, reply }) => {
    const id = await ownApplication(request);
    return send(reply, "certificate-of-completion.pdf", await certificatePdf(db, env, id, schoolDate));
  });

  /** GET /api/admin/applications/:id/documents → ApplicationDocuments (applications:read); 404 unknown. */
  route(
    app,
    getApplicationDocumentsContract,
    { preValidation: requireAdmin("applications:read") },
    async ({ params, request, reply }) => {
      const rows = await letterRows(db, params.id);
      reply.header("cache-control", "no-store");
      return documentsOf(db, rows, today(), request.language);
    },
  );

  /**
   * GET /api/admin/applications/:id/visa-letter.pdf → the letter (applications:read); 409 as the
   * student's. Audit "visaLetter.download" (it carries the passport number).
   */
  route(
    app,
    getVisaLetterContract,
    { preValidation: requireAdmin("applications:read") },
    async ({ params: { id }, request, reply }) => {
      const bytes = await visaLetterPdf(db, env, id, now(), today());
      await recordAudit(db, {
        actor: adminOf(request),
        action: "visaLetter.download",
        entityType: "application",
        entityId: id,
      });
      return send(reply, "visa-invitation-letter.pdf", bytes);
    },
  );

  /** GET /api/admin/applications/:id/certificate.pdf → the certificate (applications:read); 409 until completed. */
  route(
    app,
    getCertificateContract,
    { preValidation: requireAdmin("applications:read") },
    async ({ params: { id }, reply }) => {
      return send(reply, "certificate-of-completion.pdf", await certificatePdf(db, env, id, schoolDate));
    },
  );

  /**
   * POST /api/admin/applications/:id/completion `{ completed, version }` → ApplicationDocuments
   * (applications:write). 409 `{ message, current }` on a stale version; 422
   * `errors.letters.notAccepted` to mark an application that is not accepted; audited.
   */
  route(
    app,
    setCompletionContract,
    { preValidation: requireAdmin("applications:write") },
    async ({ body, params, request }) =>
      setCompletion(db, adminOf(request), params.id, body, now(), today(), request.language),
  );

  /**
   * POST /api/admin/summer-schools/:id/complete-cohort `{ version }` (the school's) →
   * CohortCompletionResult `{ marked, alreadyCompleted, notEligible }` (applications:write): marks
   * the cohort's accepted, paid-in-full applications completed. 404 unknown school, 409 stale.
   */
  route(
    app,
    completeCohortContract,
    { preValidation: requireAdmin("applications:write") },
    async ({ body, params, request }) =>
      completeCohort(db, adminOf(request), params.id, body.version, now(), today()),
  );

  /**
   * GET /api/visa-letters/:token (public) → VisaLetterVerification: genuine, revoked or unknown,
   * with initials, programme dates and the day of issue only. A malformed token is `unknown` too.
   * Rate-limited against scanning; no-store, noindex.
   */
  route(
    app,
    verifyVisaLetterContract,
    { config: { rateLimit: { max: 30, timeWindow: "1 minute" } } },
    async ({ params: { token }, reply }) => {
      reply.header("cache-control", "no-store").header("x-robots-tag", "noindex");
      return TOKEN.test(token)
        ? verifyVisaLetter(db, token, now(), schoolDate)
        : { state: "unknown" as const };
    },
  );
}
