import { eraseApplicantSchema } from "../schemas/admin";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/** The applicant's data rights in the back office (permission privacy:write): export and erasure. */

/** `GET /api/admin/applicants/:id/export`: every stored datum of the applicant as a JSON attachment (audited). */
export const exportApplicantContract = contract({
  method: "GET",
  path: "/api/admin/applicants/:id/export",
  access: "admin",
  summary: "Download everything stored about an applicant (JSON attachment)",
  params: idParams,
  produces: "application/json",
});

/**
 * `POST /api/admin/applicants/:id/erase` `{ confirm: "ERASE" }` → `{ erased: true, id }`: the
 * personal data is erased, the financial record stays. 400 without the confirmation, 409 when
 * already erased.
 */
export const eraseApplicantContract = contract({
  method: "POST",
  path: "/api/admin/applicants/:id/erase",
  access: "admin",
  summary: "Erase an applicant's personal data",
  params: idParams,
  body: eraseApplicantSchema,
  response: z.object({ erased: z.literal(true), id: z.string() }),
});

/** Every contract of this area. */
export const PRIVACY_CONTRACTS = [exportApplicantContract, eraseApplicantContract];
