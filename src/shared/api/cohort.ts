import {
  adminApplicationTripSchema,
  adminCohortGuideSchema,
  cohortEntriesQuerySchema,
  cohortEntriesSchema,
  cohortGuideInputSchema,
  emergencyContactSchema,
  insuranceUploadResultSchema,
  studentProgramSchema,
  studentTripSchema,
} from "../schemas/cohort";
import { z } from "../schemas/zod";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The cohort's pages of the student portal (programme, trip, FAQ and partners, the emergency
 * contact and the proof of insurance) and the programme editor of the back office. Student
 * endpoints: 401 without a student session, 403 unverified, 404 for an application that is not the
 * student's or does not count. Admin endpoints: `applicants:read` for the trip and the insurance,
 * `catalogue:write` for the guide. The answers' schemas are those of `src/shared/schemas/cohort.ts`.
 */

/** A student's application id: any text, checked by the handler after the session (404 for anyone else's). */
const studentApplicationParams = z.object({ id: z.string() });

/** `GET /api/student/program`: the programme of each of the student's cohorts. */
export const getStudentProgramContract = contract({
  method: "GET",
  path: "/api/student/program",
  access: "student",
  summary: "The programme of each of the student's cohorts",
  response: studentProgramSchema,
});

/** `GET /api/student/trip`: arrival, housing, pickup, insurance and emergency contact of each cohort. */
export const getStudentTripContract = contract({
  method: "GET",
  path: "/api/student/trip",
  access: "student",
  summary: "The trip of each of the student's cohorts",
  response: studentTripSchema,
});

/** `PUT /api/student/applications/:id/emergency-contact`: saves the emergency contact → as saved; 400 fieldErrors. */
export const saveEmergencyContactContract = contract({
  method: "PUT",
  path: "/api/student/applications/:id/emergency-contact",
  access: "student",
  summary: "Save the emergency contact of one of the student's applications",
  params: studentApplicationParams,
  body: emergencyContactSchema,
  response: emergencyContactSchema,
});

/**
 * `POST /api/student/applications/:id/insurance` (multipart, one file `document`: PDF, JPEG or
 * PNG ≤ 5 MB) → 201 the proof on file; 413 too large, 415 not such a file, 429/503 when busy.
 */
export const uploadInsuranceContract = contract({
  method: "POST",
  path: "/api/student/applications/:id/insurance",
  access: "student",
  summary: "Upload the proof of travel and health insurance (PDF, JPEG or PNG, at most 5 MB)",
  params: studentApplicationParams,
  multipart: true,
  status: 201,
  response: insuranceUploadResultSchema,
});

/** What a proof of insurance is sent as: the type of the file the student uploaded. */
const INSURANCE_MEDIA_TYPES = ["application/pdf", "image/jpeg", "image/png"] as const;

/** `GET /api/student/applications/:id/insurance`: the student's proof of insurance (PDF, JPEG or PNG); 404 none. */
export const getStudentInsuranceContract = contract({
  method: "GET",
  path: "/api/student/applications/:id/insurance",
  access: "student",
  summary: "The student's proof of insurance (PDF, JPEG or PNG)",
  params: studentApplicationParams,
  produces: INSURANCE_MEDIA_TYPES,
});

/** `GET /api/admin/applications/:id/trip`: the emergency contact and the proof of insurance; 404 unknown. */
export const getApplicationTripContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/trip",
  access: "admin",
  summary: "The emergency contact and the proof of insurance of an application",
  params: idParams,
  response: adminApplicationTripSchema,
});

/** `GET /api/admin/applications/:id/insurance`: the proof of insurance (PDF, JPEG or PNG; audited); 404 none. */
export const getApplicationInsuranceContract = contract({
  method: "GET",
  path: "/api/admin/applications/:id/insurance",
  access: "admin",
  summary: "The proof of insurance of an application (PDF, JPEG or PNG)",
  params: idParams,
  produces: INSURANCE_MEDIA_TYPES,
});

/** `GET /api/student/cohort-entries?kind=faq|partner`: the published entries for the student's cohorts; 400 another kind. */
export const listCohortEntriesContract = contract({
  method: "GET",
  path: "/api/student/cohort-entries",
  access: "student",
  summary: "The FAQ or partner entries for the student's cohorts",
  query: cohortEntriesQuerySchema,
  response: cohortEntriesSchema,
});

/** `GET /api/admin/summer-schools/:id/guide`: the school's guide (version 0 before the first save); 404 unknown. */
export const getCohortGuideContract = contract({
  method: "GET",
  path: "/api/admin/summer-schools/:id/guide",
  access: "admin",
  summary: "The programme and trip guide of a summer school",
  params: idParams,
  response: adminCohortGuideSchema,
});

/** `PUT /api/admin/summer-schools/:id/guide`: saves the guide; 400 fieldErrors, 404 unknown school, 409 stale. */
export const saveCohortGuideContract = contract({
  method: "PUT",
  path: "/api/admin/summer-schools/:id/guide",
  access: "admin",
  summary: "Save the programme and trip guide of a summer school",
  params: idParams,
  body: cohortGuideInputSchema,
  response: adminCohortGuideSchema,
});

/** Every contract of this area. */
export const COHORT_CONTRACTS = [
  getStudentProgramContract,
  getStudentTripContract,
  saveEmergencyContactContract,
  uploadInsuranceContract,
  getStudentInsuranceContract,
  getApplicationTripContract,
  getApplicationInsuranceContract,
  listCohortEntriesContract,
  getCohortGuideContract,
  saveCohortGuideContract,
];
