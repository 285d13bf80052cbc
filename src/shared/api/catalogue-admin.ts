import {
  addOnCreateSchema,
  addOnUpdateSchema,
  adminAddOnListSchema,
  adminAddOnSchema,
  adminHousingListSchema,
  adminHousingSchema,
  adminPackageListSchema,
  adminPackageSchema,
  adminSummerSchoolDetailSchema,
  adminSummerSchoolListSchema,
  adminSummerSchoolSchema,
  housingCreateSchema,
  housingUpdateSchema,
  itemFiltersSchema,
  itemListQuerySchema,
  packageCreateSchema,
  packageUpdateSchema,
  schoolFiltersSchema,
  schoolListQuerySchema,
  summerSchoolInputSchema,
  summerSchoolUpdateSchema,
  versionBodySchema,
} from "../schemas/catalogue-admin";
import { idParams } from "./common";
import { contract } from "./contract";

/**
 * The back office's catalogue (docs/product/back-office.md#catalogue-admin): summer schools,
 * packages, housing options and add-ons — lists, CSV exports, create, edit, archive, unarchive.
 * Every endpoint needs `catalogue:write` (401 without an admin session, 403 for admissions and
 * finance). Amounts are integer euro cents. Changes carry the version the admin saw: 409
 * `{ message, current }` when stale. The answers' schemas are those of
 * `src/shared/schemas/catalogue-admin.ts` ("Responses"), which the types of
 * `src/shared/catalogue-admin.ts` derive from.
 */

// --- Summer schools ------------------------------------------------------------------------------

/** `GET /api/admin/summer-schools`: a page of summer schools (sort, status, q). */
export const listSummerSchoolsContract = contract({
  method: "GET",
  path: "/api/admin/summer-schools",
  access: "admin",
  summary: "A page of summer schools (sort, status filter, search)",
  query: schoolListQuerySchema,
  response: adminSummerSchoolListSchema,
});

/** `GET /api/admin/summer-schools.csv`: every matching summer school as CSV. */
export const exportSummerSchoolsContract = contract({
  method: "GET",
  path: "/api/admin/summer-schools.csv",
  access: "admin",
  summary: "The matching summer schools as CSV",
  query: schoolFiltersSchema,
  produces: "text/csv",
});

/** `POST /api/admin/summer-schools`: creates a summer school → 201 the school; 409 when the slug is taken. */
export const createSummerSchoolContract = contract({
  method: "POST",
  path: "/api/admin/summer-schools",
  access: "admin",
  summary: "Create a summer school",
  body: summerSchoolInputSchema,
  status: 201,
  response: adminSummerSchoolSchema,
});

/** `GET /api/admin/summer-schools/:id`: the school with its packages, housing and add-ons (archived included). 404 unknown. */
export const getSummerSchoolContract = contract({
  method: "GET",
  path: "/api/admin/summer-schools/:id",
  access: "admin",
  summary: "A summer school with all its packages, housing options and add-ons",
  params: idParams,
  response: adminSummerSchoolDetailSchema,
});

/** `PATCH /api/admin/summer-schools/:id`: edits a school; 409 stale version or taken slug, 400 capacity below the paid places. */
export const updateSummerSchoolContract = contract({
  method: "PATCH",
  path: "/api/admin/summer-schools/:id",
  access: "admin",
  summary: "Edit a summer school",
  params: idParams,
  body: summerSchoolUpdateSchema,
  response: adminSummerSchoolSchema,
});

/** `POST /api/admin/summer-schools/:id/archive` `{ version }`: archives a school; 409 stale version. */
export const archiveSummerSchoolContract = contract({
  method: "POST",
  path: "/api/admin/summer-schools/:id/archive",
  access: "admin",
  summary: "Archive a summer school",
  params: idParams,
  body: versionBodySchema,
  response: adminSummerSchoolSchema,
});

/** `POST /api/admin/summer-schools/:id/unarchive` `{ version }`: brings an archived school back; 409 stale version. */
export const unarchiveSummerSchoolContract = contract({
  method: "POST",
  path: "/api/admin/summer-schools/:id/unarchive",
  access: "admin",
  summary: "Unarchive a summer school",
  params: idParams,
  body: versionBodySchema,
  response: adminSummerSchoolSchema,
});

// --- Packages --------------------------------------------------------------------------------------

/** `GET /api/admin/packages`: a page of packages (schoolId, state, q, sort). */
export const listPackagesContract = contract({
  method: "GET",
  path: "/api/admin/packages",
  access: "admin",
  summary: "A page of packages (school, archive state, search, sort)",
  query: itemListQuerySchema,
  response: adminPackageListSchema,
});

/** `GET /api/admin/packages.csv`: the matching packages as CSV (prices in euros). */
export const exportPackagesContract = contract({
  method: "GET",
  path: "/api/admin/packages.csv",
  access: "admin",
  summary: "The matching packages as CSV",
  query: itemFiltersSchema,
  produces: "text/csv",
});

/** `POST /api/admin/packages`: creates a package → 201; 404 unknown school, 400 a foreign or required included add-on. */
export const createPackageContract = contract({
  method: "POST",
  path: "/api/admin/packages",
  access: "admin",
  summary: "Create a package",
  body: packageCreateSchema,
  status: 201,
  response: adminPackageSchema,
});

/** `PATCH /api/admin/packages/:id`: edits a package; 409 stale version. */
export const updatePackageContract = contract({
  method: "PATCH",
  path: "/api/admin/packages/:id",
  access: "admin",
  summary: "Edit a package",
  params: idParams,
  body: packageUpdateSchema,
  response: adminPackageSchema,
});

/** `POST /api/admin/packages/:id/archive` `{ version }`: archives a package (applications keep it); 409 stale. */
export const archivePackageContract = contract({
  method: "POST",
  path: "/api/admin/packages/:id/archive",
  access: "admin",
  summary: "Archive a package",
  params: idParams,
  body: versionBodySchema,
  response: adminPackageSchema,
});

/** `POST /api/admin/packages/:id/unarchive` `{ version }`: brings a package back; 409 stale. */
export const unarchivePackageContract = contract({
  method: "POST",
  path: "/api/admin/packages/:id/unarchive",
  access: "admin",
  summary: "Unarchive a package",
  params: idParams,
  body: versionBodySchema,
  response: adminPackageSchema,
});

// --- Housing options -------------------------------------------------------------------------------

/** `GET /api/admin/housing`: a page of housing options (same query as packages; price = adjustment). */
export const listHousingContract = contract({
  method: "GET",
  path: "/api/admin/housing",
  access: "admin",
  summary: "A page of housing options (school, archive state, search, sort)",
  query: itemListQuerySchema,
  response: adminHousingListSchema,
});

/** `GET /api/admin/housing.csv`: the matching housing options as CSV. */
export const exportHousingContract = contract({
  method: "GET",
  path: "/api/admin/housing.csv",
  access: "admin",
  summary: "The matching housing options as CSV",
  query: itemFiltersSchema,
  produces: "text/csv",
});

/** `POST /api/admin/housing`: creates a housing option (the adjustment may be negative) → 201. */
export const createHousingContract = contract({
  method: "POST",
  path: "/api/admin/housing",
  access: "admin",
  summary: "Create a housing option",
  body: housingCreateSchema,
  status: 201,
  response: adminHousingSchema,
});

/** `PATCH /api/admin/housing/:id`: edits a housing option; 409 stale version. */
export const updateHousingContract = contract({
  method: "PATCH",
  path: "/api/admin/housing/:id",
  access: "admin",
  summary: "Edit a housing option",
  params: idParams,
  body: housingUpdateSchema,
  response: adminHousingSchema,
});

/** `POST /api/admin/housing/:id/archive` `{ version }`: archives a housing option; 409 stale. */
export const archiveHousingContract = contract({
  method: "POST",
  path: "/api/admin/housing/:id/archive",
  access: "admin",
  summary: "Archive a housing option",
  params: idParams,
  body: versionBodySchema,
  response: adminHousingSchema,
});

/** `POST /api/admin/housing/:id/unarchive` `{ version }`: brings a housing option back; 409 stale. */
export const unarchiveHousingContract = contract({
  method: "POST",
  path: "/api/admin/housing/:id/unarchive",
  access: "admin",
  summary: "Unarchive a housing option",
  params: idParams,
  body: versionBodySchema,
  response: adminHousingSchema,
});

// --- Add-ons -----------------------------------------------------------------------------------------

/** `GET /api/admin/add-ons`: a page of add-ons (`schoolId` for one school's). */
export const listAddOnsContract = contract({
  method: "GET",
  path: "/api/admin/add-ons",
  access: "admin",
  summary: "A page of add-ons (school, archive state, search, sort)",
  query: itemListQuerySchema,
  response: adminAddOnListSchema,
});

/** `GET /api/admin/add-ons.csv`: the matching add-ons as CSV. */
export const exportAddOnsContract = contract({
  method: "GET",
  path: "/api/admin/add-ons.csv",
  access: "admin",
  summary: "The matching add-ons as CSV",
  query: itemFiltersSchema,
  produces: "text/csv",
});

/** `POST /api/admin/add-ons`: creates an add-on → 201. */
export const createAddOnContract = contract({
  method: "POST",
  path: "/api/admin/add-ons",
  access: "admin",
  summary: "Create an add-on",
  body: addOnCreateSchema,
  status: 201,
  response: adminAddOnSchema,
});

/** `PATCH /api/admin/add-ons/:id`: edits an add-on; 400 required while included in a package, 409 stale. */
export const updateAddOnContract = contract({
  method: "PATCH",
  path: "/api/admin/add-ons/:id",
  access: "admin",
  summary: "Edit an add-on",
  params: idParams,
  body: addOnUpdateSchema,
  response: adminAddOnSchema,
});

/** `POST /api/admin/add-ons/:id/archive` `{ version }`: archives an add-on; 409 stale or included in a live package. */
export const archiveAddOnContract = contract({
  method: "POST",
  path: "/api/admin/add-ons/:id/archive",
  access: "admin",
  summary: "Archive an add-on",
  params: idParams,
  body: versionBodySchema,
  response: adminAddOnSchema,
});

/** `POST /api/admin/add-ons/:id/unarchive` `{ version }`: brings an add-on back; 409 stale. */
export const unarchiveAddOnContract = contract({
  method: "POST",
  path: "/api/admin/add-ons/:id/unarchive",
  access: "admin",
  summary: "Unarchive an add-on",
  params: idParams,
  body: versionBodySchema,
  response: adminAddOnSchema,
});

/** The catalogue items' contracts by the list's path segment (`packages`, `housing`, `add-ons`). */
export const CATALOGUE_ITEM_CONTRACTS = {
  packages: {
    list: listPackagesContract,
    export: exportPackagesContract,
    create: createPackageContract,
    update: updatePackageContract,
    archive: archivePackageContract,
    unarchive: unarchivePackageContract,
  },
  housing: {
    list: listHousingContract,
    export: exportHousingContract,
    create: createHousingContract,
    update: updateHousingContract,
    archive: archiveHousingContract,
    unarchive: unarchiveHousingContract,
  },
  "add-ons": {
    list: listAddOnsContract,
    export: exportAddOnsContract,
    create: createAddOnContract,
    update: updateAddOnContract,
    archive: archiveAddOnContract,
    unarchive: unarchiveAddOnContract,
  },
} as const;

/** Every contract of this area. */
export const CATALOGUE_ADMIN_CONTRACTS = [
  listSummerSchoolsContract,
  exportSummerSchoolsContract,
  createSummerSchoolContract,
  getSummerSchoolContract,
  updateSummerSchoolContract,
  archiveSummerSchoolContract,
  unarchiveSummerSchoolContract,
  ...Object.values(CATALOGUE_ITEM_CONTRACTS).flatMap((c) => Object.values(c)),
];
