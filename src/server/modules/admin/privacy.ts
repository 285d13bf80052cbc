import { asc, eq, inArray } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { eraseApplicantContract, exportApplicantContract } from "../../../shared/api/privacy";
import { schoolDate } from "../../../shared/time";
import type { Db } from "../../db/client";
import {
  applicants,
  applications,
  applicationTrips,
  codeRedemptions,
  codes,
  storedFiles,
} from "../../db/schema";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { adminNotFound } from "../../lib/errors";
import { adminOf } from "../../lib/params";
import { eraseApplicant } from "../retention";
import { applicantDtoOf, applicationDetail, findApplicant, listNotes } from "./applications.service";

/**
 * Data-subject rights of applicants (docs/product/security.md#d3-export-and-erasure; GDPR 15, 17, 20), owner only (privacy:write):
 * export of everything the school holds on an applicant, and erasure of the personal data while
 * the financial record (applications, amounts, payments) stays, pseudonymised.
 */
export async function privacyRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const { requireAdmin, files } = app.services;

  /**
   * GET /api/admin/applicants/:id/export → JSON attachment `{ exportedAt, applicant, applications
   * (detail with quote and payments), trips (emergency contact, insurance proof's id),
   * insuranceProofs ({ applicationId, contentBase64 }), notes, codeRedemptions, files, passport: { filename,
   * contentBase64 } | null }`. no-store; audit "applicant.export" (ids only).
   */
  route(
    app,
    exportApplicantContract,
    { preHandler: requireAdmin("privacy:write") },
    async ({ params: { id }, request, reply }) => {
      const data = await db.transaction(async (tx) => {
        const applicant = await findApplicant(tx, id);
        const applicationRows = await tx
          .select()
          .from(applications)
          .where(eq(applications.applicantId, id))
          .orderBy(asc(applications.createdAt), asc(applications.id));
        const details = [];
        for (const row of applicationRows)
          details.push(await applicationDetail(tx, row, request.language, schoolDate(now())));
        const redemptions = applicationRows.length
          ? await tx
              .select({
                id: codeRedemptions.id,
                applicationId: codeRedemptions.applicationId,
                code: codes.code,
                status: codeRedemptions.status,
                createdAt: codeRedemptions.createdAt,
                updatedAt: codeRedemptions.updatedAt,
              })
              .from(codeRedemptions)
              .innerJoin(codes, eq(codes.id, codeRedemptions.codeId))
              .where(
                inArray(
                  codeRedemptions.applicationId,
                  applicationRows.map((a) => a.id),
                ),
              )
              .orderBy(asc(codeRedemptions.createdAt))
          : [];
        const fileRows = await tx
          .select()
          .from(storedFiles)
          .where(eq(storedFiles.applicantId, id))
          .orderBy(asc(storedFiles.createdAt));
        const trips = applicationRows.length
          ? await tx
              .select()
              .from(applicationTrips)
              .where(
                inArray(
                  applicationTrips.applicationId,
                  applicationRows.map((a) => a.id),
                ),
              )
          : [];
        return {
          applicant,
          applications: details,
          trips: trips.map((trip) => ({
            applicationId: trip.applicationId,
            emergencyContact: {
              name: trip.emergencyName,
              relationship: trip.emergencyRelationship,
              phone: trip.emergencyPhone,
            },
            insuranceFileId: trip.insuranceFileId,
            insuranceUploadedAt: trip.insuranceUploadedAt?.toISOString() ?? null,
          })),
          notes: await listNotes(tx, id),
          codeRedemptions: redemptions.map((r) => ({
            ...r,
            createdAt: r.createdAt.toISOString(),
            updatedAt: r.updatedAt.toISOString(),
          })),
          files: fileRows.map((f) => ({
            id: f.id,
            kind: f.kind,
            sizeBytes: f.sizeBytes,
            sha256: f.sha256,
            createdAt: f.createdAt.toISOString(),
            current: f.id === applicant.passportFileId,
          })),
        };
      });
      let passport: { filename: string; contentBase64: string } | null = null;
      if (data.applicant.passportFileId) {
        try {
          const content = await files.read(data.applicant.passportFileId);
          passport = { filename: "passport.pdf", contentBase64: content.toString("base64") };
        } catch (err) {
          request.log.error({ err, applicantId: id }, "passport file unreadable for export");
        }
      }
      // The proofs of insurance uploaded in the student portal (docs/product/admissions.md#insurance-proof), like the passport.
      const insuranceProofs: Array<{ applicationId: string; contentBase64: string }> = [];
      for (const trip of data.trips) {
        if (!trip.insuranceFileId) continue;
        try {
          const content = await files.read(trip.insuranceFileId);
          insuranceProofs.push({
            applicationId: trip.applicationId,
            contentBase64: content.toString("base64"),
          });
        } catch (err) {
          request.log.error({ err, applicantId: id }, "insurance file unreadable for export");
        }
      }
      await recordAudit(db, {
        actor: adminOf(request),
        action: "applicant.export",
        entityType: "applicant",
        entityId: id,
        after: {
          applications: data.applications.length,
          files: data.files.length,
          passport: Boolean(passport),
        },
      });
      const body = {
        exportedAt: now().toISOString(),
        applicant: applicantDtoOf(data.applicant),
        applications: data.applications,
        trips: data.trips,
        insuranceProofs,
        notes: data.notes,
        codeRedemptions: data.codeRedemptions,
        files: data.files,
        passport,
      };
      return reply
        .header("content-type", "application/json; charset=utf-8")
        .header("content-disposition", `attachment; filename="applicant-${id}.json"`)
        .header("x-content-type-options", "nosniff")
        .header("cache-control", "no-store")
        .send(JSON.stringify(body, null, 2));
    },
  );

  /**
   * POST /api/admin/applicants/:id/erase `{ confirm: "ERASE" }` → 200 `{ erased: true, id }`.
   * One transaction: personal fields neutralised, capability hash replaced, notes, stored-file
   * rows and their encrypted chunks (database storage) deleted, unsent outbox e-mails to the
   * address deleted, audit "applicant.erase" (field names only). Files on disk are removed after
   * the commit (if that fails, the sweeper removes them: no row references them; decision 012).
   * Applications and payments stay. Backups are not reached: they age out (decision 012).
   * 400 without the confirmation, 404 unknown, 409 already erased.
   */
  route(
    app,
    eraseApplicantContract,
    { preHandler: requireAdmin("privacy:write") },
    async ({ params: { id }, request }) => {
      const { removeFromDisk } = await db.transaction(async (tx) => {
        const [applicant] = await tx
          .select({ id: applicants.id })
          .from(applicants)
          .where(eq(applicants.id, id));
        if (!applicant) throw adminNotFound();
        return eraseApplicant(tx, { id, files, now: now(), actor: adminOf(request), reason: "request" });
      });
      await removeFromDisk().catch((err) =>
        request.log.error({ err, applicantId: id }, "erased files not removed from disk: the sweeper will"),
      );
      return { erased: true as const, id };
    },
  );
}
