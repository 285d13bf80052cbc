/**
 * API tests of the catalogue in the back office (docs/product/back-office.md#catalogue-admin), the
 * items of a school: owners list, export, create, edit, archive and unarchive packages, housing
 * options and add-ons; every rule answers 400 with the field; stale versions 409 with the current
 * record; every change leaves one audit entry; and the public catalogue shows an edit at once.
 * Summer schools and who may use the screens: catalogue-admin.test.ts.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type {
  AdminAddOnDto,
  AdminHousingDto,
  AdminPackageDto,
  CataloguePage,
} from "../../../shared/catalogue-admin";
import {
  adminAddOnListSchema,
  adminAddOnSchema,
  adminHousingListSchema,
  adminHousingSchema,
  adminPackageListSchema,
  adminPackageSchema,
  staleVersionBodySchema,
} from "../../../shared/schemas/catalogue-admin";
import { addOnOptions, applications, packages } from "../../db/schema";
import { createPaidReadyApplication, createTestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";
import { catalogueAdminTestApp, UNKNOWN } from "./testing";

const { testApp, schools, db, api, owner, detailOf, auditOf, publicSchools } =
  catalogueAdminTestApp(createTestApp);

const packageUpdate = (p: AdminPackageDto, overrides: Record<string, unknown> = {}) => ({
  name: p.name,
  description: p.description,
  priceCents: p.priceCents,
  includes: p.includes,
  includedAddOnIds: p.includedAddOnIds,
  urgencyText: p.urgencyText,
  urgencyColor: p.urgencyColor,
  sortOrder: p.sortOrder,
  version: p.version,
  ...overrides,
});

describe("packages", () => {
  it("an edited price reaches the public packages and the 'from' price at once", async () => {
    const detail = await detailOf(schools[2]!.id);
    const standard = detail.packages.find((p) => p.name.en === "Standard")!;
    expect(standard).toMatchObject({ priceCents: 295000, urgencyColor: "green", archivedAt: null });
    const res = await owner(
      "PATCH",
      `/api/admin/packages/${standard.id}`,
      packageUpdate(standard, { priceCents: 279900 }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ priceCents: 279900, version: standard.version + 1 });
    const pub = (await api("GET", `/api/summer-schools/${schools[2]!.id}/packages`)).json() as Array<{
      id: string;
      price: number;
    }>;
    expect(pub.find((p) => p.id === standard.id)!.price).toBe(279900);
    expect((await publicSchools()).find((s) => s.id === schools[2]!.id)!.fromPrice).toBe(279900);
    const summary = (await api("GET", "/api/catalogue/summary")).json();
    expect(summary.fromPrice).toBe(279900);
    const [entry] = (await auditOf("package", standard.id)).slice(-1);
    expect(entry).toMatchObject({ action: "package.update" });
    expect(entry!.before).toMatchObject({ priceCents: 295000 });
    expect(entry!.after).toMatchObject({ priceCents: 279900 });
  });

  it("creates a package with included add-ons of its school and an urgency label", async () => {
    const detail = await detailOf(schools[3]!.id);
    const pickup = detail.addOns.find((a) => a.name.en === "Airport pickup")!;
    const res = await owner("POST", "/api/admin/packages", {
      summerSchoolId: schools[3]!.id,
      name: { en: "Essentials", zh: "基础套餐" },
      description: { en: "Courses and visits, without housing extras." },
      priceCents: 249900,
      includes: [{ en: "All courses", fr: "Tous les cours" }],
      includedAddOnIds: [pickup.id, pickup.id],
      urgencyText: { en: "New", zh: "", fr: "" },
      urgencyColor: "red",
      sortOrder: 5,
    });
    expect(res.statusCode).toBe(201);
    const created = res.json() as AdminPackageDto;
    expectParses(adminPackageSchema, created);
    expect(created).toMatchObject({
      priceCents: 249900,
      includedAddOnIds: [pickup.id],
      urgencyText: { en: "New" },
      urgencyColor: "red",
      includes: [{ en: "All courses", fr: "Tous les cours" }],
      school: { id: schools[3]!.id },
    });
    const pub = await api("GET", `/api/packages/${created.id}`);
    expect(pub.json()).toMatchObject({ price: 249900, includedAddOnNames: ["Airport pickup"] });
    expect(await auditOf("package", created.id)).toHaveLength(1);
  });

  it("refuses add-ons of another school, required add-ons, a bad colour, a half urgency label and bad prices", async () => {
    const here = await detailOf(schools[3]!.id);
    const elsewhere = await detailOf(schools[2]!.id);
    const base = {
      summerSchoolId: schools[3]!.id,
      name: { en: "Broken" },
      description: { en: "Should never be stored." },
      priceCents: 100000,
      includes: [],
      includedAddOnIds: [],
      urgencyText: null,
      urgencyColor: null,
      sortOrder: 0,
    };
    const insurance = here.addOns.find((a) => a.isRequired)!;
    const cases: Array<[Record<string, unknown>, string, RegExp]> = [
      [{ includedAddOnIds: [elsewhere.addOns[0]!.id] }, "includedAddOnIds", /same summer school/],
      [{ includedAddOnIds: [UNKNOWN] }, "includedAddOnIds", /same summer school/],
      [{ includedAddOnIds: [insurance.id] }, "includedAddOnIds", /required add-on/],
      [{ urgencyText: { en: "Hot" }, urgencyColor: "purple" }, "urgencyColor", /choose one of the options/],
      [{ urgencyText: { en: "Hot" }, urgencyColor: null }, "urgencyColor", /needs both/],
      [{ urgencyText: { en: "", zh: "热门" }, urgencyColor: "red" }, "urgencyText.en", /English text first/],
      [{ priceCents: -1 }, "priceCents", /0 or more/],
      [{ priceCents: 12.5 }, "priceCents", /euros/],
      [{ priceCents: "2950.00" }, "priceCents", /euros/],
    ];
    for (const [overrides, field, message] of cases) {
      const res = await owner("POST", "/api/admin/packages", { ...base, ...overrides });
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(res.json().fieldErrors[field], JSON.stringify(overrides)).toMatch(message);
    }
    expect(
      (await owner("POST", "/api/admin/packages", { ...base, summerSchoolId: UNKNOWN })).statusCode,
    ).toBe(404);
    expect(await db().select().from(packages).where(eq(packages.priceCents, 100000))).toHaveLength(0);
  });

  it("answers 409 on a stale version and 404 on an unknown package", async () => {
    const [pkg] = (await detailOf(schools[4]!.id)).packages;
    expect(
      (await owner("PATCH", `/api/admin/packages/${pkg!.id}`, packageUpdate(pkg!, { sortOrder: 3 })))
        .statusCode,
    ).toBe(200);
    const stale = await owner(
      "PATCH",
      `/api/admin/packages/${pkg!.id}`,
      packageUpdate(pkg!, { priceCents: 1 }),
    );
    expect(stale.statusCode).toBe(409);
    expectParses(staleVersionBodySchema(adminPackageSchema), stale.json());
    expect(stale.json().current).toMatchObject({ id: pkg!.id, sortOrder: 3, priceCents: pkg!.priceCents });
    expect((await owner("PATCH", `/api/admin/packages/${UNKNOWN}`, packageUpdate(pkg!))).statusCode).toBe(
      404,
    );
  });

  it("archiving hides a package from applicants while the applications that chose it keep it", async () => {
    const made = await createPaidReadyApplication(
      testApp().app,
      {},
      { remoteAddress: "10.88.0.2", schoolId: schools[3]!.id },
    );
    const [application] = await db()
      .select()
      .from(applications)
      .where(eq(applications.id, made.applicationId));
    const pkg = (await detailOf(schools[3]!.id)).packages.find((p) => p.id === application!.packageId)!;
    expect(pkg.applications).toBe(1);
    const res = await owner("POST", `/api/admin/packages/${pkg.id}/archive`, { version: pkg.version });
    expect(res.statusCode).toBe(200);
    expect(res.json().archivedAt).not.toBeNull();
    const pub = (await api("GET", `/api/summer-schools/${schools[3]!.id}/packages`)).json() as Array<{
      id: string;
    }>;
    expect(pub.some((p) => p.id === pkg.id)).toBe(false);
    const [still] = await db().select().from(applications).where(eq(applications.id, made.applicationId));
    expect(still!.packageId).toBe(pkg.id);
    const archivedList = (
      await owner("GET", `/api/admin/packages?state=archived&schoolId=${schools[3]!.id}`)
    ).json();
    expectParses(adminPackageListSchema, archivedList);
    expect(archivedList.items.map((p: AdminPackageDto) => p.id)).toEqual([pkg.id]);
    const back = await owner("POST", `/api/admin/packages/${pkg.id}/unarchive`, { version: pkg.version + 1 });
    expect(back.statusCode).toBe(200);
    expect((await auditOf("package", pkg.id)).map((e) => e.action)).toEqual([
      "package.archive",
      "package.unarchive",
    ]);
  });

  it("lists packages across schools with a school filter, search, sort and CSV", async () => {
    const all = (
      await owner("GET", "/api/admin/packages?pageSize=100")
    ).json() as CataloguePage<AdminPackageDto>;
    expectParses(adminPackageListSchema, all);
    expect(all.total).toBeGreaterThanOrEqual(10);
    expect(all.items[0]!.school.id).toBe(schools[0]!.id);
    const premium = (await owner("GET", `/api/admin/packages?q=${encodeURIComponent("尊享")}`)).json();
    expect(premium.items.every((p: AdminPackageDto) => p.name.en === "Premium")).toBe(true);
    expect(premium.total).toBe(5);
    const cheapest = (await owner("GET", "/api/admin/packages?sort=price:asc&pageSize=1")).json();
    const prices = all.items.map((p) => p.priceCents);
    expect(cheapest.items[0].priceCents).toBe(Math.min(...prices));
    const one = (await owner("GET", `/api/admin/packages?schoolId=${schools[1]!.id}`)).json();
    expect(one.items.every((p: AdminPackageDto) => p.summerSchoolId === schools[1]!.id)).toBe(true);
    expect((await owner("GET", "/api/admin/packages?schoolId=nope")).statusCode).toBe(400);
    const csv = await owner("GET", `/api/admin/packages.csv?schoolId=${schools[1]!.id}`);
    expect(csv.statusCode).toBe(200);
    const lines = csv.body.trim().split("\r\n");
    expect(lines).toHaveLength(3);
    expect(csv.body).toContain(",2950.00,");
  });
});

describe("housing options", () => {
  it("creates a discount option (negative adjustment), edits it and archives it", async () => {
    const res = await owner("POST", "/api/admin/housing", {
      summerSchoolId: schools[2]!.id,
      name: { en: "Dormitory (6)", zh: "六人间", fr: "Dortoir (6)" },
      description: { en: "A bed in a six-person dormitory." },
      priceAdjustmentCents: -45000,
      sortOrder: 9,
    });
    expect(res.statusCode).toBe(201);
    const dorm = res.json() as AdminHousingDto;
    expectParses(adminHousingSchema, dorm);
    expect(dorm.priceAdjustmentCents).toBe(-45000);
    let pub = (await api("GET", `/api/summer-schools/${schools[2]!.id}/housing-options`)).json();
    expect(pub.find((h: { id: string }) => h.id === dorm.id).priceAdjustment).toBe(-45000);
    const edit = await owner("PATCH", `/api/admin/housing/${dorm.id}`, {
      name: dorm.name,
      description: dorm.description,
      priceAdjustmentCents: -40000,
      sortOrder: 9,
      version: dorm.version,
    });
    expect(edit.statusCode).toBe(200);
    const stale = await owner("PATCH", `/api/admin/housing/${dorm.id}`, {
      name: dorm.name,
      description: dorm.description,
      priceAdjustmentCents: 0,
      sortOrder: 9,
      version: dorm.version,
    });
    expect(stale.statusCode).toBe(409);
    expectParses(staleVersionBodySchema(adminHousingSchema), stale.json());
    expect(stale.json().current.priceAdjustmentCents).toBe(-40000);
    const archived = await owner("POST", `/api/admin/housing/${dorm.id}/archive`, {
      version: dorm.version + 1,
    });
    expect(archived.statusCode).toBe(200);
    pub = (await api("GET", `/api/summer-schools/${schools[2]!.id}/housing-options`)).json();
    expect(pub.some((h: { id: string }) => h.id === dorm.id)).toBe(false);
    expect((await auditOf("housing_option", dorm.id)).map((e) => e.action)).toEqual([
      "housing.create",
      "housing.update",
      "housing.archive",
    ]);
  });

  it("refuses a non-whole amount, a missing name and an unknown option", async () => {
    const base = {
      summerSchoolId: schools[2]!.id,
      name: { en: "Tent" },
      description: { en: "Camping." },
      priceAdjustmentCents: 0,
      sortOrder: 0,
    };
    expect(
      (await owner("POST", "/api/admin/housing", { ...base, priceAdjustmentCents: 10.5 })).statusCode,
    ).toBe(400);
    expect(
      (await owner("POST", "/api/admin/housing", { ...base, name: {} })).json().fieldErrors,
    ).toHaveProperty("name.en");
    expect((await owner("POST", `/api/admin/housing/${UNKNOWN}/archive`, { version: 1 })).statusCode).toBe(
      404,
    );
    const list = (await owner("GET", `/api/admin/housing?schoolId=${schools[0]!.id}&sort=price:desc`)).json();
    expectParses(adminHousingListSchema, list);
    expect(list.items.map((h: AdminHousingDto) => h.priceAdjustmentCents)).toEqual([80000, 0, -30000]);
    const csv = await owner("GET", `/api/admin/housing.csv?schoolId=${schools[0]!.id}`);
    // A negative amount stays a number (not guarded like a formula), so the column adds up.
    expect(csv.body).toContain(",-300.00,");
  });
});

describe("add-ons", () => {
  it("lists one school's add-ons with the packages that include them", async () => {
    const res = await owner("GET", `/api/admin/add-ons?schoolId=${schools[1]!.id}&sort=price:asc`);
    expect(res.statusCode).toBe(200);
    expectParses(adminAddOnListSchema, res.json());
    const items = (res.json() as CataloguePage<AdminAddOnDto>).items;
    expect(items.map((a) => a.name.en)).toEqual([
      "Airport pickup",
      "Public transport card",
      "Travel and health insurance",
    ]);
    expect(items[1]!.includedInPackageIds).toHaveLength(2);
    expect(items[2]).toMatchObject({ isRequired: true, includedInPackageIds: [] });
    const csv = await owner("GET", `/api/admin/add-ons.csv?schoolId=${schools[1]!.id}`);
    expect(csv.body).toContain(",95.00,yes,");
  });

  it("creates, edits and archives an optional add-on; the public add-ons follow", async () => {
    const res = await owner("POST", "/api/admin/add-ons", {
      summerSchoolId: schools[2]!.id,
      name: { en: "Museum pass", zh: "博物馆通票", fr: "Pass musées" },
      description: { en: "Entry to the museums of The Hague." },
      priceCents: 6000,
      isRequired: false,
      sortOrder: 4,
    });
    expect(res.statusCode).toBe(201);
    const pass = res.json() as AdminAddOnDto;
    expectParses(adminAddOnSchema, pass);
    const edit = await owner("PATCH", `/api/admin/add-ons/${pass.id}`, {
      name: pass.name,
      description: pass.description,
      priceCents: 6500,
      isRequired: false,
      sortOrder: 4,
      version: pass.version,
    });
    expect(edit.statusCode).toBe(200);
    expect((await api("GET", `/api/add-on-options/${pass.id}`)).json()).toMatchObject({ price: 6500 });
    expect(
      (
        await owner("PATCH", `/api/admin/add-ons/${pass.id}`, {
          name: pass.name,
          description: pass.description,
          priceCents: 1,
          isRequired: false,
          sortOrder: 4,
          version: pass.version,
        })
      ).statusCode,
    ).toBe(409);
    const archived = await owner("POST", `/api/admin/add-ons/${pass.id}/archive`, {
      version: pass.version + 1,
    });
    expect(archived.statusCode).toBe(200);
    expect((await api("GET", `/api/add-on-options/${pass.id}`)).statusCode).toBe(404);
    expect((await auditOf("add_on", pass.id)).map((e) => e.action)).toEqual([
      "addOn.create",
      "addOn.update",
      "addOn.archive",
    ]);
  });

  it("keeps included add-ons optional and live while a package includes them", async () => {
    const transport = (await detailOf(schools[4]!.id)).addOns.find(
      (a) => a.name.en === "Public transport card",
    )!;
    const required = await owner("PATCH", `/api/admin/add-ons/${transport.id}`, {
      name: transport.name,
      description: transport.description,
      priceCents: transport.priceCents,
      isRequired: true,
      sortOrder: transport.sortOrder,
      version: transport.version,
    });
    expect(required.statusCode).toBe(400);
    expect(required.json().fieldErrors.isRequired).toMatch(/included in a package/);
    const archive = await owner("POST", `/api/admin/add-ons/${transport.id}/archive`, {
      version: transport.version,
    });
    expect(archive.statusCode).toBe(409);
    expect(archive.json().message).toMatch(/Remove it from the package/);
    const [row] = await db().select().from(addOnOptions).where(eq(addOnOptions.id, transport.id));
    expect(row).toMatchObject({ isRequired: false, archivedAt: null, version: transport.version });
    expect((await owner("POST", "/api/admin/add-ons", { summerSchoolId: schools[4]!.id })).statusCode).toBe(
      400,
    );
  });

  it("lets an owner archive a required add-on that no package includes; applicants no longer see it", async () => {
    const insurance = (await detailOf(schools[3]!.id)).addOns.find((a) => a.isRequired)!;
    const res = await owner("POST", `/api/admin/add-ons/${insurance.id}/archive`, {
      version: insurance.version,
    });
    expect(res.statusCode).toBe(200);
    const pub = (await api("GET", `/api/summer-schools/${schools[3]!.id}/add-on-options`)).json();
    expect(pub.some((a: { id: string }) => a.id === insurance.id)).toBe(false);
  });
});
