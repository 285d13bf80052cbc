import { eq } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import {
  createApplicantContract,
  createApplicationContract,
  getApplicantContract,
  getApplicationContract,
  getPassportContract,
  updateApplicantContract,
  uploadPassportContract,
} from "../../../shared/api/apply";
import {
  applicantInputSchema,
  applicantPatchSchema,
  PASSPORT_MAX_BYTES,
} from "../../../shared/schemas/applicant";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import { applicants } from "../../db/schema";
import type { Env } from "../../env";
import { route } from "../../lib/contract";
import { HttpError, parseOrThrow } from "../../lib/errors";
import { hashToken } from "../../lib/tokens";
import { AFFILIATE_COOKIE } from "../codes";
import {
  checkedContent,
  type FileStorage,
  type StagedFile,
  UPLOAD_OVERHEAD_BYTES,
  UploadSlots,
} from "../files";
import { OFFER_COOKIE } from "../waiting-list";
import { applicantToken, passportUrlOf, setCapability } from "./http";
import {
  applicantByToken,
  applicantForOwner,
  applicationDto,
  applicationForOwner,
  createApplicant,
  type QuoteChanger,
  saveApplication,
} from "./service";

/**
 * Applicant and application calls of docs/product/admissions.md#applicant-capability used by the wizard, guarded by the applicant's
 * capability cookie (docs/product/portals.md#sessions). Rate limits: applicant creation 10/min per address;
 * passport uploads 30/min per address and 10 per 10 minutes per applicant, at most
 * `env.UPLOAD_CONCURRENCY` at a time per process (docs/product/security.md#i1-uploads).
 */
export async function applicationRoutes(
  app: FastifyInstance,
  opts: {
    db: Db;
    env: Env;
    files: FileStorage;
    today: () => string;
    now: () => Date;
    payments: QuoteChanger;
  },
) {
  const { db, env, files } = opts;
  const uploadSlots = new UploadSlots(env.UPLOAD_CONCURRENCY);
  /**
   * Passport uploads per applicant, keyed by the hash of the capability cookie (docs/product/security.md#i1-uploads): 10
   * in 10 minutes. A limiter of its own, as the plugin runs one limiter hook per request.
   */
  const perApplicantUploads = app.createRateLimit({
    max: 10,
    timeWindow: "10 minutes",
    keyGenerator: (request) => `upload-passport|${hashToken(applicantToken(request) ?? "")}`,
  });

  /** POST /api/applicants — body: applicant fields (shared schema) → 201 { id }; sets the capability cookie. */
  route(
    app,
    createApplicantContract,
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async ({ body, request, reply }) => {
      const { id, token } = await createApplicant(db, body, request.language);
      setCapability(reply, env, token);
      reply.header("cache-control", "no-store");
      return { id };
    },
  );

  /**
   * PATCH /api/applicants/:id — either the full applicant fields (going back to step 2 and
   * changing them) or `{ passportUrl }` confirming the uploaded passport (docs/product/admissions.md#passport-upload). Owner only.
   */
  route(app, updateApplicantContract, {}, async ({ params, body, request }) => {
    const { id } = params;
    const token = applicantToken(request);
    return db.transaction(async (tx) => {
      const applicant = await applicantForOwner(tx, id, token);
      if ("firstName" in body) {
        const input = parseOrThrow(applicantInputSchema, body);
        await tx
          .update(applicants)
          .set({ ...input, updatedAt: new Date() })
          .where(eq(applicants.id, id));
        return { id, passportUrl: applicant.passportFileId ? passportUrlOf(id) : null };
      }
      const { passportUrl } = parseOrThrow(applicantPatchSchema, body);
      if (passportUrl !== undefined && (passportUrl !== passportUrlOf(id) || !applicant.passportFileId)) {
        throw new HttpError(400, "errors.passportMissing");
      }
      return { id, passportUrl: applicant.passportFileId ? passportUrlOf(id) : null };
    });
  });

  /** GET /api/applicants/:id — the owner's own fields (to refill step 2 after a reload). */
  route(app, getApplicantContract, {}, async ({ params, request, reply }) => {
    const { id } = params;
    const applicant = await applicantForOwner(db, id, applicantToken(request));
    const {
      accessTokenHash: _hash,
      reminderOptOutHash: _optOut,
      resumeReminderSentAt: _reminded,
      passportFileId,
      createdAt: _c,
      updatedAt: _u,
      ...fields
    } = applicant;
    reply.header("cache-control", "no-store");
    return { ...fields, passportUrl: passportFileId ? passportUrlOf(id) : null };
  });

  /**
   * POST /api/upload-passport — multipart: `applicantId` (optional; must be the cookie's
   * applicant), `type` = passport, `document` (the file) → 201 `{ url }`. Checklist I1, in this
   * order, each before a byte of the body is read: 429 beyond 30 uploads a minute from the
   * address; 404 unless the capability cookie names an applicant (docs/product/portals.md#sign-in-limits); 429 beyond 10
   * uploads in 10 minutes by the applicant; 413 when the declared Content-Length is over 5 MB plus
   * UPLOAD_OVERHEAD_BYTES; 503 with Retry-After when UPLOAD_CONCURRENCY uploads are running in
   * this process. Then the file streams into the storage, encrypted as it arrives (decision 012):
   * 415 unless its first bytes are `%PDF-`, 413 as soon as it passes 5 MB. An answer given before
   * the whole body arrived closes the connection after a bounded lingering read
   * (src/server/lib/lingering-close.ts), so the rest is never stored and the client reads the answer. The new file replaces
   * the applicant's passport in the same transaction that records it.
   */
  route(
    app,
    uploadPassportContract,
    {
      config: { rateLimit: { max: 30, timeWindow: "1 minute" } },
    },
    async ({ request, reply }) => {
      if (!request.isMultipart()) throw new HttpError(415, "errors.unsupportedMediaType");
      const applicant = await applicantByToken(db, applicantToken(request));
      if (!applicant) throw new HttpError(404, "errors.applicationNotFound");
      const limit = await perApplicantUploads(request);
      if (!limit.isAllowed && limit.isExceeded) {
        reply.header("retry-after", String(limit.ttlInSeconds));
        throw new HttpError(429, "errors.tooManyRequests", { retryAfterSeconds: limit.ttlInSeconds });
      }
      const declared = Number(request.headers["content-length"] ?? 0);
      if (declared > PASSPORT_MAX_BYTES + UPLOAD_OVERHEAD_BYTES)
        throw new HttpError(413, "errors.uploadTooLarge");
      const release = uploadSlots.tryAcquire();
      if (!release) {
        reply.header("retry-after", "5");
        throw new HttpError(503, "errors.serverBusy");
      }
      let staged: StagedFile | null = null;
      try {
        for await (const part of request.parts({
          limits: { fileSize: PASSPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 200, parts: 8 },
        })) {
          if (part.type === "file") {
            if (part.fieldname !== "document" || staged) {
              part.file.resume();
              continue;
            }
            staged = await files.stage(
              checkedContent(part.file, {
                maxBytes: PASSPORT_MAX_BYTES,
                allowed: ["pdf"],
                notAllowed: new HttpError(415, "errors.uploadNotPdf"),
              }),
            );
          } else if (part.fieldname === "applicantId" && String(part.value) !== applicant.id) {
            throw new HttpError(404, "errors.applicationNotFound");
          } else if (part.fieldname === "type" && String(part.value) !== "passport") {
            throw new HttpError(400, "errors.badRequest");
          }
        }
        if (!staged || staged.sizeBytes === 0) throw new HttpError(400, "errors.uploadMissing");
        const removeReplaced = await staged.commit(
          { applicantId: applicant.id, kind: "passport" },
          async (tx, fileId) => {
            const [current] = await tx
              .select({ passportFileId: applicants.passportFileId })
              .from(applicants)
              .where(eq(applicants.id, applicant.id))
              .for("update");
            await tx
              .update(applicants)
              .set({ passportFileId: fileId, updatedAt: new Date() })
              .where(eq(applicants.id, applicant.id));
            return files.removeContent(tx, current?.passportFileId ? [current.passportFileId] : []);
          },
        );
        await removeReplaced().catch((err) =>
          request.log.warn({ err }, "replaced passport file not removed"),
        );
      } finally {
        await staged?.discard();
        release();
      }
      reply.header("cache-control", "no-store");
      return { url: passportUrlOf(applicant.id) };
    },
  );

  /** GET /api/applicants/:id/passport — the owner's passport, as an attachment with nosniff (I1). */
  route(app, getPassportContract, {}, async ({ params, request, reply }) => {
    const { id } = params;
    const applicant = await applicantForOwner(db, id, applicantToken(request));
    if (!applicant.passportFileId) throw new HttpError(404, "errors.notFound");
    const content = await files.read(applicant.passportFileId);
    return reply
      .header("content-type", "application/pdf")
      .header("content-disposition", 'attachment; filename="passport.pdf"')
      .header("x-content-type-options", "nosniff")
      .header("cache-control", "no-store")
      .send(content);
  });

  /**
   * POST /api/create-application-from-info — { applicantId, summerSchoolId, packageId, housingOptionId, selectedAddOns } → { id }.
   * 409 `errors.schoolFull` for a full cohort, unless the `waiting_list_offer` cookie holds an open
   * offer of that cohort (docs/product/admissions.md#waiting-list).
   */
  route(app, createApplicationContract, {}, async ({ body, request, reply }) => {
    const { applicantId, ...selection } = body;
    const applicant = await applicantForOwner(db, applicantId, applicantToken(request));
    if (!applicant.passportFileId) throw new HttpError(422, "validation.passportRequired");
    const id = await saveApplication(
      db,
      applicantId,
      applicantToken(request),
      selection,
      opts.today(),
      opts.payments,
      {
        cookie: request.cookies[AFFILIATE_COOKIE],
        now: opts.now(),
        // See docs/product/admissions.md#waiting-list: an opened waiting-list offer lets its holder apply for the full cohort.
        offerToken: request.cookies[OFFER_COOKIE],
      },
    );
    reply.header("cache-control", "no-store");
    return { id };
  });

  /** GET /api/applications/:id — the owner's application with its current quote (ApplicationDto). */
  route(app, getApplicationContract, {}, async ({ params, request, reply }) => {
    const { id } = params;
    const dto = await db.transaction(async (tx) => {
      const { application, applicant } = await applicationForOwner(tx, id, applicantToken(request));
      return applicationDto(tx, application, applicant, request.language, schoolDate(opts.now()));
    });
    reply.header("cache-control", "no-store");
    return dto;
  });
}
