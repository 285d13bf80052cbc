import type { FastifyInstance } from "fastify";
import { todayIso } from "../../../shared/age";
import {
  addOnCreateSchema,
  addOnUpdateSchema,
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
} from "../../../shared/schemas/catalogue-admin";
import type { Db } from "../../db/client";
import { sendCsv } from "../../lib/csv";
import { parseOrThrow } from "../../lib/errors";
import { adminId, adminOf } from "../../lib/params";
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
 * The catalogue of the back office (issue 3 "Courses, packages, housing, add-ons"): summer schools,
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
  const guard = { preHandler: requireAdmin("catalogue:write") };
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
  app.get("/api/admin/summer-schools", guard, async (request) =>
    listSchools(db, parseOrThrow(schoolListQuerySchema, request.query), today()),
  );

  /** GET /api/admin/summer-schools.csv?status&q → text/csv of every matching school. */
  app.get("/api/admin/summer-schools.csv", guard, async (request, reply) => {
    const filters = parseOrThrow(schoolFiltersSchema, request.query);
    return sendCsv(reply, "summer-schools", await exportSchools(db, filters, today()), now());
  });

  /** POST /api/admin/summer-schools SummerSchoolInput → 201 AdminSummerSchoolDto; 409 taken slug. */
  app.post("/api/admin/summer-schools", guard, async (request, reply) => {
    const input = parseOrThrow(summerSchoolInputSchema, request.body);
    const school = await change(createSchool(db, adminOf(request), input, now(), today()));
    return reply.status(201).send(school);
  });

  /** GET /api/admin/summer-schools/:id → AdminSummerSchoolDetail (school, packages, housing, add-ons). */
  app.get("/api/admin/summer-schools/:id", guard, async (request) => {
    const id = adminId(request.params);
    return db.transaction((tx) => schoolDetail(tx, id, today()));
  });

  /** PATCH /api/admin/summer-schools/:id SummerSchoolUpdate → AdminSummerSchoolDto; 409 stale/slug, 400 capacity below paid. */
  app.patch("/api/admin/summer-schools/:id", guard, async (request) => {
    const id = adminId(request.params);
    const input = parseOrThrow(summerSchoolUpdateSchema, request.body);
    return change(updateSchool(db, adminOf(request), id, input, now(), today()));
  });

  for (const [verb, archived] of [
    ["archive", true],
    ["unarchive", false],
  ] as const) {
    /** POST /api/admin/summer-schools/:id/(un)archive `{ version }` → AdminSummerSchoolDto. */
    app.post(`/api/admin/summer-schools/:id/${verb}`, guard, async (request) => {
      const id = adminId(request.params);
      const { version } = parseOrThrow(versionBodySchema, request.body);
      return change(setSchoolArchived(db, adminOf(request), id, version, archived, now(), today()));
    });
  }

  // --- Packages, housing options, add-ons -----------------------------------------------------

  /**
   * GET /api/admin/packages?page&pageSize&sort&schoolId&state&q → `{ items: AdminPackageDto[], … }`;
   * sort `school|name|price|sortOrder`; state active (default) | archived | all.
   */
  app.get("/api/admin/packages", guard, async (request) =>
    listPackages(db, parseOrThrow(itemListQuerySchema, request.query)),
  );
  /** GET /api/admin/packages.csv?schoolId&state&q → text/csv (prices in euros). */
  app.get("/api/admin/packages.csv", guard, async (request, reply) =>
    sendCsv(
      reply,
      "packages",
      await exportPackages(db, parseOrThrow(itemFiltersSchema, request.query)),
      now(),
    ),
  );
  /** POST /api/admin/packages PackageCreate → 201 AdminPackageDto (404 unknown school, 400 foreign or required included add-on). */
  app.post("/api/admin/packages", guard, async (request, reply) => {
    const input = parseOrThrow(packageCreateSchema, request.body);
    return reply.status(201).send(await change(createPackage(db, adminOf(request), input)));
  });
  /** PATCH /api/admin/packages/:id PackageUpdate → AdminPackageDto; 409 stale version. */
  app.patch("/api/admin/packages/:id", guard, async (request) => {
    const id = adminId(request.params);
    const input = parseOrThrow(packageUpdateSchema, request.body);
    return change(updatePackage(db, adminOf(request), id, input));
  });

  /** GET /api/admin/housing?… → `{ items: AdminHousingDto[], … }` (same query as packages; price = adjustment). */
  app.get("/api/admin/housing", guard, async (request) =>
    listHousing(db, parseOrThrow(itemListQuerySchema, request.query)),
  );
  /** GET /api/admin/housing.csv → text/csv. */
  app.get("/api/admin/housing.csv", guard, async (request, reply) =>
    sendCsv(reply, "housing", await exportHousing(db, parseOrThrow(itemFiltersSchema, request.query)), now()),
  );
  /** POST /api/admin/housing HousingCreate → 201 AdminHousingDto (the adjustment may be negative). */
  app.post("/api/admin/housing", guard, async (request, reply) => {
    const input = parseOrThrow(housingCreateSchema, request.body);
    return reply.status(201).send(await change(createHousing(db, adminOf(request), input)));
  });
  /** PATCH /api/admin/housing/:id HousingUpdate → AdminHousingDto; 409 stale version. */
  app.patch("/api/admin/housing/:id", guard, async (request) => {
    const id = adminId(request.params);
    const input = parseOrThrow(housingUpdateSchema, request.body);
    return change(updateHousing(db, adminOf(request), id, input));
  });

  /** GET /api/admin/add-ons?… → `{ items: AdminAddOnDto[], … }` (`schoolId` for one school's add-ons). */
  app.get("/api/admin/add-ons", guard, async (request) =>
    listAddOns(db, parseOrThrow(itemListQuerySchema, request.query)),
  );
  /** GET /api/admin/add-ons.csv → text/csv. */
  app.get("/api/admin/add-ons.csv", guard, async (request, reply) =>
    sendCsv(reply, "add-ons", await exportAddOns(db, parseOrThrow(itemFiltersSchema, request.query)), now()),
  );
  /** POST /api/admin/add-ons AddOnCreate → 201 AdminAddOnDto. */
  app.post("/api/admin/add-ons", guard, async (request, reply) => {
    const input = parseOrThrow(addOnCreateSchema, request.body);
    return reply.status(201).send(await change(createAddOn(db, adminOf(request), input)));
  });
  /** PATCH /api/admin/add-ons/:id AddOnUpdate → AdminAddOnDto; 400 required while included; 409 stale version. */
  app.patch("/api/admin/add-ons/:id", guard, async (request) => {
    const id = adminId(request.params);
    const input = parseOrThrow(addOnUpdateSchema, request.body);
    return change(updateAddOn(db, adminOf(request), id, input));
  });

  const archiveRoutes = [
    ["packages", setPackageArchived],
    ["housing", setHousingArchived],
    ["add-ons", setAddOnArchived],
  ] as const;
  for (const [path, setArchived] of archiveRoutes) {
    for (const [verb, archived] of [
      ["archive", true],
      ["unarchive", false],
    ] as const) {
      /**
       * POST /api/admin/{packages|housing|add-ons}/:id/(un)archive `{ version }` → the item.
       * Applications that chose it keep it; an add-on included in a live package → 409.
       */
      app.post(`/api/admin/${path}/:id/${verb}`, guard, async (request) => {
        const id = adminId(request.params);
        const { version } = parseOrThrow(versionBodySchema, request.body);
        return change(
          (setArchived as typeof setPackageArchived)(db, adminOf(request), id, version, archived, now()),
        );
      });
    }
  }
}
