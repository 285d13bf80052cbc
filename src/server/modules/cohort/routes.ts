import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  getApplicationInsuranceContract,
  getApplicationTripContract,
  getCohortGuideContract,
  getStudentInsuranceContract,
  getStudentProgramContract,
  getStudentTripContract,
  listCohortEntriesContract,
  saveCohortGuideContract,
  saveEmergencyContactContract,
  uploadInsuranceContract,
} from "../../../shared/api/cohort";
import { INSURANCE_MAX_BYTES, type INSURANCE_TYPES } from "../../../shared/schemas/cohort";
import type { Db } from "../../db/client";
import { applicationTrips } from "../../db/schema";
import type { Env } from "../../env";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { adminNotFound, HttpError } from "../../lib/errors";
import { adminOf } from "../../lib/params";
import { idParam } from "../applications";
import {
  checkedContent,
  type FileStorage,
  SIGNATURES,
  type StagedFile,
  sniff,
  UPLOAD_OVERHEAD_BYTES,
  UploadSlots,
} from "../files";
import { requireStudent } from "../student";
import {
  adminApplicationTrip,
  cohortApplication,
  cohortEntries,
  getGuide,
  insuranceUrlOf,
  saveEmergencyContact,
  saveGuide,
  studentProgram,
  studentTrip,
} from "./service";

/**
 * The cohort's pages of the student portal (docs/product/portals.md#cohort-pages: /student/program, /student/trip,
 * /student/faq, /student/partners) and the programme editor of /admin/summer-schools/{id}.
 *
 * Student routes: a verified student (ownership.ts `requireStudent`: 401 without a student session,
 * 403 `errors.verifyEmailFirst` for an unverified account; an admin's or affiliate's session is no
 * student session) reads only the cohorts of their own applications that count
 * (`isCohortMember`: at least the deposit paid, not rejected, withdrawn, cancelled or fully
 * refunded); another person's application, or one that does not count, is 404 (docs/product/security.md#s6-nobody-reads-what-is-not-theirs).
 * Answers carry `Cache-Control: no-store` (personal data, docs/product/security.md#i3-response-headers).
 *
 * Admin routes: `catalogue:write` (owners, like the rest of /admin/summer-schools/{id}; 401 without
 * an admin session, 403 for admissions and finance), version-checked (409) and audited.
 */
export async function cohortRoutes(
  app: FastifyInstance,
  opts: { db: Db; env: Env; files: FileStorage; now: () => Date },
) {
  const { db, env, files, now } = opts;
  const { requireAdmin, sessions } = app.services;
  const guard = { preValidation: requireAdmin("catalogue:write") };
  const uploadSlots = new UploadSlots(env.UPLOAD_CONCURRENCY);
  /** Checks the student session before the query or body is validated: 401/403 come before a 400, as they always did. */
  const studentFirst = async (request: FastifyRequest) => {
    await requireStudent(db, sessions, request);
  };

  /**
   * GET /api/student/program → StudentProgram `{ cohorts: [{ applicationId, summerSchoolId, name,
   * location, startDate, endDate, ects, days: [{ day, date, title, details }], whatToBring }] }` in
   * the request's language; `cohorts` is empty for a student without a paid place.
   */
  route(app, getStudentProgramContract, {}, async ({ request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    reply.header("cache-control", "no-store");
    return studentProgram(db, student, request.language, now());
  });

  /**
   * GET /api/student/trip → StudentTrip `{ trips: [{ …cohort, arrival, housing, airportPickup,
   * insurance, emergencyContact }] }`, one per application that counts, in the request's language.
   */
  route(app, getStudentTripContract, {}, async ({ request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    reply.header("cache-control", "no-store");
    return studentTrip(db, student, request.language, now());
  });

  /**
   * PUT /api/student/applications/:id/emergency-contact `{ name, relationship, phone }` →
   * EmergencyContact as saved. 400 with `fieldErrors` for a missing or too long field or a phone
   * number that is not one; 404 for an application that is not the student's or does not count.
   */
  route(
    app,
    saveEmergencyContactContract,
    { preValidation: studentFirst },
    async ({ body, request, reply }) => {
      const student = await requireStudent(db, sessions, request);
      const { application } = await cohortApplication(db, student, idParam(request.params), now());
      reply.header("cache-control", "no-store");
      return saveEmergencyContact(db, application.id, body, now());
    },
  );

  /**
   * POST /api/student/applications/:id/insurance — multipart with one file `document`: proof of
   * travel and health insurance (docs/product/admissions.md#insurance-proof) → 201 `{ uploadedAt, type, sizeBytes, url }`. In this
   * order, before a byte of the body is read (docs/product/security.md#i1-uploads, decision 012): 429 beyond 20 uploads a
   * minute from the address; 401/403/404 as every route here; 413 when the declared length is over
   * 5 MB plus the multipart framing; 503 with Retry-After when UPLOAD_CONCURRENCY uploads run in
   * this process. Then the file streams into the storage, encrypted as it arrives exactly like a
   * passport: 415 `errors.uploadNotDocument` unless its first bytes are a PDF, JPEG or PNG
   * signature (by content, never by name), 413 once it passes 5 MB, 400 without a file. The new
   * proof replaces the previous one (its content removed) in the transaction that records it.
   */
  route(
    app,
    uploadInsuranceContract,
    {
      config: { rateLimit: { max: 20, timeWindow: "1 minute" } },
    },
    async ({ request, reply }) => {
      const student = await requireStudent(db, sessions, request);
      const { application, applicant } = await cohortApplication(db, student, idParam(request.params), now());
      if (!request.isMultipart()) throw new HttpError(415, "errors.unsupportedMediaType");
      const declared = Number(request.headers["content-length"] ?? 0);
      if (declared > INSURANCE_MAX_BYTES + UPLOAD_OVERHEAD_BYTES)
        throw new HttpError(413, "errors.uploadTooLarge");
      const release = uploadSlots.tryAcquire();
      if (!release) {
        reply.header("retry-after", "5");
        throw new HttpError(503, "errors.serverBusy");
      }
      let staged: StagedFile | null = null;
      let type: "pdf" | "jpeg" | "png" | null = null;
      const at = now();
      try {
        for await (const part of request.parts({
          limits: { fileSize: INSURANCE_MAX_BYTES, files: 1, fields: 3, fieldSize: 200, parts: 6 },
        })) {
          if (part.type !== "file") continue;
          if (part.fieldname !== "document" || staged) {
            part.file.resume();
            continue;
          }
          const content = checkedContent(part.file, {
            maxBytes: INSURANCE_MAX_BYTES,
            allowed: ["pdf", "jpeg", "png"],
            notAllowed: new HttpError(415, "errors.uploadNotDocument"),
          });
          staged = await files.stage(
            (async function* () {
              for await (const chunk of content) {
                type ??= sniff(chunk);
                yield chunk;
              }
            })(),
          );
        }
        if (!staged || staged.sizeBytes === 0 || !type)
          throw new HttpError(400, "errors.uploadMissingDocument");
        const fileType = type;
        const removeReplaced = await staged.commit(
          { applicantId: applicant.id, kind: "insurance" },
          async (tx, fileId) => {
            const [current] = await tx
              .select({ fileId: applicationTrips.insuranceFileId })
              .from(applicationTrips)
              .where(eq(applicationTrips.applicationId, application.id))
              .for("update");
            const values = {
              insuranceFileId: fileId,
              insuranceType: fileType,
              insuranceUploadedAt: at,
              updatedAt: at,
            };
            await tx
              .insert(applicationTrips)
              .values({ applicationId: application.id, ...values })
              .onConflictDoUpdate({ target: applicationTrips.applicationId, set: values });
            return files.removeContent(tx, current?.fileId ? [current.fileId] : []);
          },
        );
        await removeReplaced().catch((err) =>
          request.log.warn({ err }, "replaced insurance file not removed"),
        );
      } finally {
        await staged?.discard();
        release();
      }
      reply.header("cache-control", "no-store");
      return {
        uploadedAt: at.toISOString(),
        type: type as (typeof INSURANCE_TYPES)[number],
        sizeBytes: (staged as StagedFile | null)?.sizeBytes ?? 0,
        url: insuranceUrlOf(application.id),
      };
    },
  );

  /**
   * GET /api/student/applications/:id/insurance → the student's proof of insurance, decrypted, as
   * an attachment (`insurance.pdf|jpg|png`, its type from the stored content) with nosniff and
   * no-store (docs/product/security.md#i1-uploads, docs/product/security.md#i3-response-headers). 404 when none was uploaded or the application is not theirs.
   */
  route(app, getStudentInsuranceContract, {}, async ({ request, reply }) => {
    const student = await requireStudent(db, sessions, request);
    const { application } = await cohortApplication(db, student, idParam(request.params), now());
    const [trip] = await db
      .select()
      .from(applicationTrips)
      .where(eq(applicationTrips.applicationId, application.id));
    if (!trip?.insuranceFileId) throw new HttpError(404, "errors.notFound");
    const content = await files.read(trip.insuranceFileId);
    const type = sniff(content.subarray(0, 8)) ?? "pdf";
    const extension = type === "jpeg" ? "jpg" : type;
    return reply
      .header("content-type", SIGNATURES[type].mime)
      .header("content-disposition", `attachment; filename="insurance.${extension}"`)
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "no-store")
      .send(content);
  });

  /**
   * GET /api/admin/applications/:id/trip → AdminApplicationTrip: the emergency contact and the
   * proof of insurance the student entered (applicants:read, like the passport). 404 unknown id.
   */
  route(
    app,
    getApplicationTripContract,
    { preValidation: requireAdmin("applicants:read") },
    async ({ params, reply }) => {
      reply.header("cache-control", "no-store");
      return adminApplicationTrip(db, params.id);
    },
  );

  /**
   * GET /api/admin/applications/:id/insurance → the proof of insurance, decrypted, as an attachment
   * (type from the stored content) with nosniff and no-store (applicants:read; docs/product/security.md#i1-uploads, docs/product/security.md#i3-response-headers).
   * Audit "insurance.download" before the bytes leave. 404 when none is on file.
   */
  route(
    app,
    getApplicationInsuranceContract,
    { preValidation: requireAdmin("applicants:read") },
    async ({ params, request, reply }) => {
      const applicationId = params.id;
      const [trip] = await db
        .select()
        .from(applicationTrips)
        .where(eq(applicationTrips.applicationId, applicationId));
      if (!trip?.insuranceFileId) throw adminNotFound();
      let content: Buffer;
      try {
        content = await files.read(trip.insuranceFileId);
      } catch (err) {
        request.log.error({ err, applicationId }, "insurance file unreadable");
        throw adminNotFound();
      }
      await recordAudit(db, {
        actor: adminOf(request),
        action: "insurance.download",
        entityType: "application",
        entityId: applicationId,
        after: { fileId: trip.insuranceFileId },
      });
      const type = sniff(content.subarray(0, 8)) ?? "pdf";
      return reply
        .header("content-type", SIGNATURES[type].mime)
        .header("content-disposition", `attachment; filename="insurance.${type === "jpeg" ? "jpg" : type}"`)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "no-store")
        .send(content);
    },
  );

  /**
   * GET /api/student/cohort-entries?kind=faq|partner → CohortEntries `{ cohorts, entries }`: the
   * published FAQ or partner entries for every cohort and the student's cohorts; nothing for a
   * student without a paid place. 400 for another kind.
   */
  route(
    app,
    listCohortEntriesContract,
    { preValidation: studentFirst },
    async ({ query, request, reply }) => {
      const student = await requireStudent(db, sessions, request);
      const { kind } = query;
      reply.header("cache-control", "no-store");
      return cohortEntries(db, student, kind, request.language, now());
    },
  );

  /** GET /api/admin/summer-schools/:id/guide → AdminCohortGuide (version 0 before the first save); 404 unknown school. */
  route(app, getCohortGuideContract, guard, async ({ params }) => getGuide(db, params.id));

  /**
   * PUT /api/admin/summer-schools/:id/guide CohortGuideInput → AdminCohortGuide. 400 with
   * `fieldErrors` (English title of a day missing, a day twice or after the last day, too long a
   * text, an add-on of another school); 404 unknown school; 409 `{ message, current }` on a stale
   * version. Audit "cohortGuide.update".
   */
  route(app, saveCohortGuideContract, guard, async ({ body, params, request }) => {
    const saved = await saveGuide(db, adminOf(request), params.id, body, now());
    // The guide names the add-on that sells the school's insurance, which the public pages state.
    app.services.catalogue.invalidate();
    return saved;
  });
}
