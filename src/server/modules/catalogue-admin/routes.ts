import type { FastifyInstance } from "fastify";
import { todayIso } from "../../../shared/age";
import {
  archiveAddOnContract,
  archiveHousingContract,
  archivePackageContract,
  archiveSummerSchoolContract,
  createAddOnContract,
  createHousingContract,
  createPackageContract,
  createSummerSchoolContract,
  exportAddOnsContract,
  exportHousingContract,
  exportPackagesContract,
  exportSummerSchoolsContract,
  getSummerSchoolContract,
  listAddOnsContract,
  listHousingContract,
  listPackagesContract,
  listSummerSchoolsContract,
  unarchiveAddOnContract,
  unarchiveHousingContract,
  unarchivePackageContract,
  unarchiveSummerSchoolContract,
  updateAddOnContract,
  updateHousingContract,
  updatePackageContract,
  updateSummerSchoolContract,
} from "../../../shared/api/catalogue-admin";
import type { Db } from "../../db/client";
import { route } from "../../lib/contract";
import { sendCsv } from "../../lib/csv";
import { adminOf } from "../../lib/params";
import {
  createAddOn,
  createHousing,
  createPackage,
  createSchool,
  exportAddOns,
  exportHousing,
  exportPackages,
  exportSchools,
  listAddOns,
  listHousing,
  listPackages,
  listSchools,
  schoolDetail,
  setAddOnArchived,
  setHousingArchived,
  setPackageArchived,
  setSchoolArchived,
  updateAddOn,
  updateHousing,
  updatePackage,
  updateSchool,
} from "./service";

/**
 * The catalogue of the back office (docs/product/back-office.md#catalogue-admin): summer schools,
 * packages, housing options and add-ons — lists (server-side pagination, sort, filters, search),
 * CSV exports, create, edit, archive and unarchive. Owners only: every route, reads included,
 * needs `catalogue:write` (401 without an admin session, student and affiliate sessions do not
 * count; 403 for admissions and finance). Bodies are checked with the shared schemas
 * (src/shared/schemas/catalogue-admin.ts → 400 `{ message, fieldErrors }`), amounts are cents,
 * changes carry the version the admin saw (409 `{ message, current }` when stale) and write one
 * audit entry. After every change the public catalogue cache is invalidated, which also bumps the
 * prerendered public pages' content version, so `/api/summer-schools` and the pages show the edit
 * at once.
 */
export async function catalogueAdminRoutes(app: FastifyInstance, opts: { db: Db; now: () => Date }) {
  const { db, now } = opts;
  const { requireAdmin, catalogue } = app.services;
  const guard = { preValidation: requireAdmin("catalogue:write") };
  const today = () => todayIso(now());

  /** Runs a change, then refreshes the public catalogue (and with it the prerendered pages). */
  const change = async <T>(work: Promise<T>): Promise<T> => {
    const result = await work;
    catalogue.invalidate();
    return result;
  };

  // --- Summer schools ------------------------------------------------------------------------

  /**
   * GET /api/admin/summer-schools?page&pageSize&sort&status&q → `{ items: AdminSummerSchoolDto[],
   * total, page, pageSize }`; sort `startDate|name|capacity|paid|fill:asc|desc` (default
   * startDate:asc); status open|fewSpotsLeft|full|openingSoon|closed|past|archived; q matches the
   * name in any language, the slug and the location.
   */
  route(app, listSummerSchoolsContract, guard, async ({ query }) => listSchools(db, query, today()));

  /** GET /api/admin/summer-schools.csv?status&q → text/csv of every matching school. */
  route(app, exportSummerSchoolsContract, guard, async ({ query, reply }) =>
    sendCsv(reply, "summer-schools", await exportSchools(db, query, today()), now()),
  );

  /** POST /api/admin/summer-schools SummerSchoolInput → 201 AdminSummerSchoolDto; 409 taken slug. */
  route(app, createSummerSchoolContract, guard, async ({ body, request }) =>
    change(createSchool(db, adminOf(request), body, now(), today())),
  );

  /** GET /api/admin/summer-schools/:id → AdminSummerSchoolDetail (school, packages, housing, add-ons). */
  route(app, getSummerSchoolContract, guard, async ({ params }) =>
    db.transaction((tx) => schoolDetail(tx, params.id, today())),
  );

  /** PATCH /api/admin/summer-schools/:id SummerSchoolUpdate → AdminSummerSchoolDto; 409 stale/slug, 400 capacity below paid. */
  route(app, updateSummerSchoolContract, guard, async ({ body, params, request }) =>
    change(updateSchool(db, adminOf(request), params.id, body, now(), today())),
  );

  for (const [c, archived] of [
    [archiveSummerSchoolContract, true],
    [unarchiveSummerSchoolContract, false],
  ] as const) {
    /** POST /api/admin/summer-schools/:id/(un)archive `{ version }` → AdminSummerSchoolDto. */
    route(app, c, guard, async ({ body, params, request }) =>
      change(setSchoolArchived(db, adminOf(request), params.id, body.version, archived, now(), today())),
    );
  }

  // --- Packages, housing options, add-ons -----------------------------------------------------

  /**
   * GET /api/admin/packages?page&pageSize&sort&schoolId&state&q → `{ items: AdminPackageDto[], … }`;
   * sort `school|name|price|sortOrder`; state active (default) | archived | all.
   */
  route(app, listPackagesContract, guard, async ({ query }) => listPackages(db, query));
  /** GET /api/admin/packages.csv?schoolId&state&q → text/csv (prices in euros). */
  route(app, exportPackagesContract, guard, async ({ query, reply }) =>
    sendCsv(reply, "packages", await exportPackages(db, query), now()),
  );
  /** POST /api/admin/packages PackageCreate → 201 AdminPackageDto (404 unknown school, 400 foreign or required included add-on). */
  route(app, createPackageContract, guard, async ({ body, request }) =>
    change(createPackage(db, adminOf(request), body)),
  );
  /** PATCH /api/admin/packages/:id PackageUpdate → AdminPackageDto; 409 stale version. */
  route(app, updatePackageContract, guard, async ({ body, params, request }) =>
    change(updatePackage(db, adminOf(request), params.id, body)),
  );

  /** GET /api/admin/housing?… → `{ items: AdminHousingDto[], … }` (same query as packages; price = adjustment). */
  route(app, listHousingContract, guard, async ({ query }) => listHousing(db, query));
  /** GET /api/admin/housing.csv → text/csv. */
  route(app, exportHousingContract, guard, async ({ query, reply }) =>
    sendCsv(reply, "housing", await exportHousing(db, query), now()),
  );
  /** POST /api/admin/housing HousingCreate → 201 AdminHousingDto (the adjustment may be negative). */
  route(app, createHousingContract, guard, async ({ body, request }) =>
    change(createHousing(db, adminOf(request), body)),
  );
  /** PATCH /api/admin/housing/:id HousingUpdate → AdminHousingDto; 409 stale version. */
  route(app, updateHousingContract, guard, async ({ body, params, request }) =>
    change(updateHousing(db, adminOf(request), params.id, body)),
  );

  /** GET /api/admin/add-ons?… → `{ items: AdminAddOnDto[], … }` (`schoolId` for one school's add-ons). */
  route(app, listAddOnsContract, guard, async ({ query }) => listAddOns(db, query));
  /** GET /api/admin/add-ons.csv → text/csv. */
  route(app, exportAddOnsContract, guard, async ({ query, reply }) =>
    sendCsv(reply, "add-ons", await exportAddOns(db, query), now()),
  );
  /** POST /api/admin/add-ons AddOnCreate → 201 AdminAddOnDto. */
  route(app, createAddOnContract, guard, async ({ body, request }) =>
    change(createAddOn(db, adminOf(request), body)),
  );
  /** PATCH /api/admin/add-ons/:id AddOnUpdate → AdminAddOnDto; 400 required while included; 409 stale version. */
  route(app, updateAddOnContract, guard, async ({ body, params, request }) =>
    change(updateAddOn(db, adminOf(request), params.id, body)),
  );

  /**
   * POST /api/admin/{packages|housing|add-ons}/:id/(un)archive `{ version }` → the item.
   * Applications that chose it keep it; an add-on included in a live package → 409.
   */
  const archiveRoutes = [
    [archivePackageContract, setPackageArchived, true],
    [unarchivePackageContract, setPackageArchived, false],
    [archiveHousingContract, setHousingArchived, true],
    [unarchiveHousingContract, setHousingArchived, false],
    [archiveAddOnContract, setAddOnArchived, true],
    [unarchiveAddOnContract, setAddOnArchived, false],
  ] as const;
  for (const [c, setArchived, archived] of archiveRoutes) {
    route(app, c as typeof archivePackageContract, guard, async ({ body, params, request }) =>
      change(
        (setArchived as typeof setPackageArchived)(
          db,
          adminOf(request),
          params.id,
          body.version,
          archived,
          now(),
        ),
      ),
    );
  }
}
