import { auditFiltersSchema, auditListQuerySchema } from "../schemas/admin";
import { auditFacetsSchema, auditPageSchema } from "../schemas/audit";
import { contract } from "./contract";

/** The audit log's viewer (owners: permission audit:read); read-only by design. */

/** `GET /api/admin/audit`: a page of 50 entries, newest first; 400 for a malformed filter. */
export const listAuditContract = contract({
  method: "GET",
  path: "/api/admin/audit",
  access: "admin",
  summary: "A page of the audit log, newest first",
  query: auditListQuerySchema,
  response: auditPageSchema,
});

/** `GET /api/admin/audit.csv`: the matching entries as CSV (the export is itself audited). */
export const exportAuditContract = contract({
  method: "GET",
  path: "/api/admin/audit.csv",
  access: "admin",
  summary: "The matching audit entries, as CSV",
  query: auditFiltersSchema,
  produces: "text/csv",
});

/** `GET /api/admin/audit/facets`: entity types, actions and admins for the viewer's filters. */
export const getAuditFacetsContract = contract({
  method: "GET",
  path: "/api/admin/audit/facets",
  access: "admin",
  summary: "The values the audit log's filters offer",
  response: auditFacetsSchema,
});

/** Every contract of this area. */
export const AUDIT_CONTRACTS = [listAuditContract, exportAuditContract, getAuditFacetsContract];
