import type { FastifyInstance } from "fastify";
import {
  activateCodeContract,
  createCodeContract,
  deactivateCodeContract,
  deleteCodeContract,
  exportCodesContract,
  getCodeContract,
  listCodesContract,
  updateCodeContract,
} from "../../../shared/api/codes-admin";
import type { Db } from "../../db/client";
import { recordAudit } from "../../lib/audit";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { adminOf } from "../../lib/params";
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
 * Back-office routes of discount and referral codes (docs/product/back-office.md#codes-admin; route /admin/codes). Every
 * route runs behind `requireAdmin("codes:write")` (owners and finance; admissions → 403; no admin
 * session → 401); answers are `no-store`. Unknown or malformed ids → 404; malformed query or body
 * → 400 with a plain message and `fieldErrors`; a stale `version` → 409 `{ message, current }`.
 * Every change writes an audit entry in its transaction. Validation and redemption by applicants
 * stay in modules/codes (docs/product/security.md#p3-the-last-use-of-a-code-goes-to-one-applicant, docs/product/security.md#p4-a-code-held-by-an-open-checkout).
 */
export async function adminCodeRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const guard = { preValidation: app.services.requireAdmin("codes:write") };

  /**
   * GET /api/admin/codes?page&pageSize&sort&type&active&schoolId&affiliateId&expired&q →
   * AdminCodeList `{ items, total, page, pageSize }`; sort keys code, createdAt, validTo, uses,
   * revenue (`<key>:<asc|desc>`, default createdAt:desc).
   */
  route(app, listCodesContract, guard, async ({ query, request }) =>
    listCodes(db, query, now(), request.language),
  );

  /** GET /api/admin/codes.csv?<same filters> → text/csv attachment of every matching code; audit "codes.export". */
  route(app, exportCodesContract, guard, async ({ query: filters, request, reply }) => {
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
  route(app, getCodeContract, guard, async ({ params, request }) =>
    db.transaction((tx) => codeDetail(tx, params.id, now(), request.language)),
  );

  /** POST /api/admin/codes (codeCreateSchema) → 201 AdminCodeDto; 400 per rule; 409 when the text exists. */
  route(app, createCodeContract, guard, async ({ body, request }) =>
    createCode(db, adminOf(request), body, now(), request.language),
  );

  /** PUT /api/admin/codes/:id (codeUpdateSchema, with `version`) → AdminCodeDto; 409 stale or text taken. */
  route(app, updateCodeContract, guard, async ({ body, params, request }) =>
    updateCode(db, adminOf(request), params.id, body, now(), request.language),
  );

  for (const [c, active] of [
    [activateCodeContract, true],
    [deactivateCodeContract, false],
  ] as const) {
    /** POST /api/admin/codes/:id/activate|deactivate `{ version }` → AdminCodeDto; 409 stale. */
    route(app, c, guard, async ({ body, params, request }) =>
      setCodeActive(db, adminOf(request), params.id, active, body.version, now(), request.language),
    );
  }

  /** DELETE /api/admin/codes/:id → 204; 409 errors.codes.hasRedemptions when the code was ever used. */
  route(app, deleteCodeContract, guard, async ({ params, request }) => {
    await deleteCode(db, adminOf(request), params.id);
    return undefined;
  });
}
