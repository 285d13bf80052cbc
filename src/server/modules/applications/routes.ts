import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { z } from "zod";
import type { StudentPassDto } from "../../../shared/application";
import {
  applicantInputSchema,
  applicantPatchSchema,
  PASSPORT_MAX_BYTES,
  PDF_MAGIC,
} from "../../../shared/schemas/applicant";
import { createApplicationSchema } from "../../../shared/schemas/application";
import type { Db } from "../../db/client";
import { applicants, applications, storedFiles, summerSchools } from "../../db/schema";
import type { Env } from "../../env";
import { HttpError, parseOrThrow } from "../../lib/errors";
import { localize } from "../catalogue/service";
import type { FileStorage } from "../files/storage";
import type { PaymentsService } from "../payments/service";
import {
  APPLICANT_COOKIE,
  applicantForOwner,
  applicationDto,
  applicationForOwner,
  createApplicant,
  saveApplication,
} from "./service";

const idParams = z.object({ id: z.uuid() });

/** Reads `:id` as a UUID; anything else is 404 (unknown id), never a database error. */
export function idParam(params: unknown): string {
  const parsed = idParams.safeParse(params);
  if (!parsed.success) throw new HttpError(404, "errors.applicationNotFound");
  return parsed.data.id;
}

/** The capability token the applicant's browser holds, from its httpOnly cookie. */
export const applicantToken = (request: FastifyRequest) => request.cookies[APPLICANT_COOKIE];

/** URL at which an applicant's passport is served (owner and admins only). */
export const passportUrlOf = (applicantId: string) => `/api/applicants/${applicantId}/passport`;

/**
 * Applicant and application calls of spec §7 used by the wizard, guarded by the applicant's
 * capability cookie (decisions.md §3). Rate limits: applicant creation 10/min per address.
 */
export async function applicationRoutes(
  app: FastifyInstance,
  opts: { db: Db; env: Env; files: FileStorage; today: () => string; payments: PaymentsService },
) {
  const { db, env, files } = opts;

  const setCapability = (reply: FastifyReply, token: string) =>
    reply.setCookie(APPLICANT_COOKIE, token, {
      path: "/api",
      httpOnly: true,
      sameSite: "lax",
      secure: env.isProduction,
      maxAge: 30 * 24 * 3600,
    });

  /** POST /api/applicants — body: applicant fields (shared schema) → 201 { id }; sets the capability cookie. */
  app.post(
    "/api/applicants",
    { config: { rateLimit: { max: 10, timeWindow: "1 minute" } } },
    async (request, reply) => {
      const input = parseOrThrow(applicantInputSchema, request.body);
      const { id, token } = await createApplicant(db, input, request.language);
      setCapability(reply, token);
      return reply.status(201).header("cache-control", "no-store").send({ id });
    },
  );

  /**
   * PATCH /api/applicants/:id — either the full applicant fields (going back to step 2 and
   * changing them) or `{ passportUrl }` confirming the uploaded passport (spec §4). Owner only.
   */
  app.patch("/api/applicants/:id", async (request) => {
    const id = idParam(request.params);
    const token = applicantToken(request);
    const body = (request.body ?? {}) as Record<string, unknown>;
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
  app.get("/api/applicants/:id", async (request, reply) => {
    const id = idParam(request.params);
    const applicant = await applicantForOwner(db, id, applicantToken(request));
    const { accessTokenHash: _hash, passportFileId, createdAt: _c, updatedAt: _u, ...fields } = applicant;
    return reply
      .header("cache-control", "no-store")
      .send({ ...fields, passportUrl: passportFileId ? passportUrlOf(id) : null });
  });

  /**
   * POST /api/upload-passport — multipart: `applicantId`, `type` = passport, `document` (the file).
   * PDF only, checked by content (`%PDF-`), at most 5 MB: 413 is raised by the parser as soon as
   * the limit is passed, without buffering the rest (checklist I1); 415 when not a PDF. The file
   * is stored encrypted under a random id; answer `{ url }`.
   */
  app.post("/api/upload-passport", { bodyLimit: PASSPORT_MAX_BYTES + 64 * 1024 }, async (request, reply) => {
    if (!request.isMultipart()) throw new HttpError(415, "errors.unsupportedMediaType");
    const fields: Record<string, string> = {};
    let content: Buffer | null = null;
    for await (const part of request.parts({
      limits: { fileSize: PASSPORT_MAX_BYTES, files: 1, fields: 5, fieldSize: 200 },
    })) {
      if (part.type === "file") {
        if (part.fieldname !== "document") {
          part.file.resume();
          continue;
        }
        content = await part.toBuffer();
      } else {
        fields[part.fieldname] = String(part.value);
      }
    }
    const applicantId = idParams.safeParse({ id: fields.applicantId });
    if (!applicantId.success) throw new HttpError(404, "errors.applicationNotFound");
    if (fields.type !== undefined && fields.type !== "passport")
      throw new HttpError(400, "errors.badRequest");
    if (!content || content.length === 0) throw new HttpError(400, "errors.uploadMissing");
    if (content.subarray(0, PDF_MAGIC.length).toString("latin1") !== PDF_MAGIC)
      throw new HttpError(415, "errors.uploadNotPdf");
    const id = applicantId.data.id;
    const applicant = await applicantForOwner(db, id, applicantToken(request));
    const fileId = await files.save(content);
    try {
      await db.transaction(async (tx) => {
        await tx.insert(storedFiles).values({
          id: fileId,
          applicantId: id,
          kind: "passport",
          sizeBytes: content.length,
          sha256: createHash("sha256").update(content).digest("hex"),
        });
        await tx
          .update(applicants)
          .set({ passportFileId: fileId, updatedAt: new Date() })
          .where(eq(applicants.id, id));
      });
    } catch (err) {
      await files.remove(fileId);
      throw err;
    }
    if (applicant.passportFileId) await files.remove(applicant.passportFileId).catch(() => undefined);
    return reply
      .status(201)
      .header("cache-control", "no-store")
      .send({ url: passportUrlOf(id) });
  });

  /** GET /api/applicants/:id/passport — the owner's passport, as an attachment with nosniff (I1). */
  app.get("/api/applicants/:id/passport", async (request, reply) => {
    const id = idParam(request.params);
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

  /** POST /api/create-application-from-info — { applicantId, summerSchoolId, packageId, housingOptionId, selectedAddOns } → { id }. */
  app.post("/api/create-application-from-info", async (request, reply) => {
    const input = parseOrThrow(createApplicationSchema, request.body);
    const { applicantId, ...selection } = input;
    const applicant = await applicantForOwner(db, applicantId, applicantToken(request));
    if (!applicant.passportFileId) throw new HttpError(422, "validation.passportRequired");
    const id = await saveApplication(
      db,
      applicantId,
      applicantToken(request),
      selection,
      opts.today(),
      opts.payments,
    );
    return reply.status(201).header("cache-control", "no-store").send({ id });
  });

  /**
   * GET /api/student-pass/:id — the public check of a student pass (spec §2 /student-pass/{id}):
   * the pass is the application's unguessable id; valid while the application is paid and not
   * rejected, withdrawn or cancelled. Shows only the first name, the last name's initial and the
   * programme. Unknown id: 404. Rate-limited against scanning.
   */
  app.get(
    "/api/student-pass/:id",
    { config: { rateLimit: { max: 30, timeWindow: "1 minute" } } },
    async (request, reply) => {
      const id = idParam(request.params);
      const dto = await db.transaction(async (tx) => {
        const [application] = await tx.select().from(applications).where(eq(applications.id, id));
        if (!application) throw new HttpError(404, "errors.notFound");
        const [applicant] = await tx
          .select()
          .from(applicants)
          .where(eq(applicants.id, application.applicantId));
        const [school] = await tx
          .select()
          .from(summerSchools)
          .where(eq(summerSchools.id, application.summerSchoolId));
        const valid =
          ["paid", "partially_refunded"].includes(application.paymentStatus) &&
          ["submitted", "under_review", "accepted"].includes(application.status);
        return {
          valid,
          firstName: applicant?.firstName ?? "",
          lastInitial: (applicant?.lastName ?? "").slice(0, 1).toUpperCase(),
          programName: school ? localize(school.name, request.language) : "",
          startDate: school?.startDate ?? "",
          endDate: school?.endDate ?? "",
        } satisfies StudentPassDto;
      });
      return reply.header("cache-control", "no-store").header("x-robots-tag", "noindex").send(dto);
    },
  );

  /** GET /api/applications/:id — the owner's application with its current quote (ApplicationDto). */
  app.get("/api/applications/:id", async (request, reply) => {
    const id = idParam(request.params);
    const dto = await db.transaction(async (tx) => {
      const { application, applicant } = await applicationForOwner(tx, id, applicantToken(request));
      return applicationDto(tx, application, applicant, request.language);
    });
    return reply.header("cache-control", "no-store").send(dto);
  });
}
