import type { FastifyInstance } from "fastify";
import {
  codeCreateSchema,
  codeFiltersSchema,
  codeListQuerySchema,
  codeUpdateSchema,
  versionBodySchema,
} from "../../../shared/schemas/codes-admin";
import type { Db } from "../../db/client";
import { recordAudit } from "../../lib/audit";
import { sendCsv } from "../../lib/csv";
import { parseOrThrow } from "../../lib/errors";
import { adminId, adminOf } from "../../lib/params";
import {
  codeDetail,
  createCode,
  deleteCode,
  exportCodes,
  listCodes,
  setCodeActive,
  updateCode,
} from "./service";

/**
 * Back-office routes of discount and referral codes (issue 3 "Codes"; route /admin/codes). Every
 * route runs behind `requireAdmin("codes:write")` (owners and finance; admissions → 403; no admin
 * session → 401); answers are `no-store`. Unknown or malformed ids → 404; malformed query or body
 * → 400 with a plain message and `fieldErrors`; a stale `version` → 409 `{ message, current }`.
 * Every change writes an audit entry in its transaction. Validation and redemption by applicants
 * stay in modules/codes (checklist P3/P4).
 */
export async function adminCodeRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const guard = { preHandler: app.services.requireAdmin("codes:write") };

  /**
   * GET /api/admin/codes?page&pageSize&sort&type&active&schoolId&affiliateId&expired&q →
   * AdminCodeList `{ items, total, page, pageSize }`; sort keys code, createdAt, validTo, uses,
   * revenue (`<key>:<asc|desc>`, default createdAt:desc).
   */
  app.get("/api/admin/codes", guard, async (request) => {
    const query = parseOrThrow(codeListQuerySchema, request.query);
    return listCodes(db, query, now(), request.language);
  });

  /** GET /api/admin/codes.csv?<same filters> → text/csv attachment of every matching code; audit "codes.export". */
  app.get("/api/admin/codes.csv", guard, async (request, reply) => {
    const filters = parseOrThrow(codeFiltersSchema, request.query);
    const { csv, rows } = await exportCodes(db, filters, now(), request.language);
    await recordAudit(db, {
      actor: adminOf(request),
      action: "codes.export",
      entityType: "code",
      entityId: "*",
      after: { filters, rows },
    });
    return sendCsv(reply, "codes", csv, now());
  });

  /** GET /api/admin/codes/:id → AdminCodeDetail (the code with its redemptions); 404 when unknown. */
  app.get("/api/admin/codes/:id", guard, async (request) => {
    const id = adminId(request.params);
    return db.transaction((tx) => codeDetail(tx, id, now(), request.language));
  });

  /** POST /api/admin/codes (codeCreateSchema) → 201 AdminCodeDto; 400 per rule; 409 when the text exists. */
  app.post("/api/admin/codes", guard, async (request, reply) => {
    const input = parseOrThrow(codeCreateSchema, request.body);
    return reply.status(201).send(await createCode(db, adminOf(request), input, now(), request.language));
  });

  /** PUT /api/admin/codes/:id (codeUpdateSchema, with `version`) → AdminCodeDto; 409 stale or text taken. */
  app.put("/api/admin/codes/:id", guard, async (request) => {
    const id = adminId(request.params);
    const input = parseOrThrow(codeUpdateSchema, request.body);
    return updateCode(db, adminOf(request), id, input, now(), request.language);
  });

  for (const [action, active] of [
    ["activate", true],
    ["deactivate", false],
  ] as const) {
    /** POST /api/admin/codes/:id/activate|deactivate `{ version }` → AdminCodeDto; 409 stale. */
    app.post(`/api/admin/codes/:id/${action}`, guard, async (request) => {
      const id = adminId(request.params);
      const { version } = parseOrThrow(versionBodySchema, request.body);
      return setCodeActive(db, adminOf(request), id, active, version, now(), request.language);
    });
  }

  /** DELETE /api/admin/codes/:id → 204; 409 errors.codes.hasRedemptions when the code was ever used. */
  app.delete("/api/admin/codes/:id", guard, async (request, reply) => {
    await deleteCode(db, adminOf(request), adminId(request.params));
    return reply.status(204).send();
  });
}
