/**
 * API tests of the catalogue in the back office (docs/product/back-office.md#catalogue-admin):
 * owners list, create, edit, archive and unarchive summer schools, packages, housing options and
 * add-ons; other roles and sessions are refused; every rule answers 400 with the field; stale
 * versions 409 with the current record; every change leaves one audit entry; and the public
 * catalogue (`/api/summer-schools` and friends) shows an edit at once.
 */
import { asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SummerSchoolDto } from "../../../shared/catalogue";
import type {
  AdminAddOnDto,
  AdminHousingDto,
  AdminPackageDto,
  AdminSummerSchoolDetail,
  AdminSummerSchoolDto,
  CataloguePage,
} from "../../../shared/catalogue-admin";
import {
  adminAddOnListSchema,
  adminAddOnSchema,
  adminHousingListSchema,
  adminHousingSchema,
  adminPackageListSchema,
  adminPackageSchema,
  adminSummerSchoolDetailSchema,
  adminSummerSchoolListSchema,
  adminSummerSchoolSchema,
  staleVersionBodySchema,
} from "../../../shared/schemas/catalogue-admin";
import { addOnOptions, applications, packages, summerSchools } from "../../db/schema";
import {
  apiOf,
  auditEntries,
  expectCsvDownload,
  expectRouteStatuses,
  loginRoles,
  type Method,
  type RoleCookies,
} from "../../testing/admin";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";

let t: TestApp;
let cookies: RoleCookies;
let ownerId = "";
/** Seeded schools by start date: June (full), July (46 paid), August, September, October. */
let schools: Array<typeof summerSchools.$inferSelect>;
const db = () => t.database.db;
const UNKNOWN = "00000000-0000-4000-8000-000000000000";

const api = apiOf(() => t.app);

const owner = (method: Method, url: string, payload?: unknown) => api(method, url, cookies.owner, payload);

/** A valid new school, with overrides. */
function schoolInput(overrides: Record<string, unknown> = {}) {
  const y = Number(schools[0]!.startDate.slice(0, 4)) + 1;
  return {
    slug: `winter-${y}`,
    name: { en: `Winter School ${y}`, zh: `${y}年冬季学校`, fr: "" },
    description: { en: "Two weeks of negotiation and trade law in The Hague." },
    location: "The Hague, Netherlands",
    startDate: `${y}-01-10`,
    endDate: `${y}-01-23`,
    applicationOpensAt: "",
    applicationDeadline: `${y}-01-01`,
    capacity: 30,
    depositPercent: 30,
    ...overrides,
  };
}

/** Body of an update from a DTO: its editable fields plus its version. */
const schoolUpdate = (s: AdminSummerSchoolDto, overrides: Record<string, unknown> = {}) => ({
  slug: s.slug,
  name: s.name,
  description: s.description,
  location: s.location,
  startDate: s.startDate,
  endDate: s.endDate,
  applicationOpensAt: s.applicationOpensAt,
  applicationDeadline: s.applicationDeadline,
  capacity: s.capacity,
  depositPercent: s.depositPercent,
  version: s.version,
  ...overrides,
});

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

/** `GET /api/admin/summer-schools/:id`, checked against its schema on every read. */
async function detailOf(id: string): Promise<AdminSummerSchoolDetail> {
  const body = (await owner("GET", `/api/admin/summer-schools/${id}`)).json();
  expectParses(adminSummerSchoolDetailSchema, body);
  return body as AdminSummerSchoolDetail;
}

/** Audit entries of an entity, oldest first. */
const auditOf = (entityType: string, entityId: string) => auditEntries(db(), { entityType, entityId });

const publicSchools = async () => (await api("GET", "/api/summer-schools")).json() as SummerSchoolDto[];

beforeAll(async () => {
  t = await createTestApp();
  schools = await db().select().from(summerSchools).orderBy(asc(summerSchools.startDate));
  const sessions = await loginRoles(t.app);
  cookies = sessions.cookies;
  ownerId = sessions.adminIds.owner;
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("who may use the catalogue screens", () => {
  const routes = (): Array<[method: Method, url: string, body?: unknown]> => [
    ["GET", "/api/admin/summer-schools"],
    ["GET", "/api/admin/summer-schools.csv"],
    ["POST", "/api/admin/summer-schools", schoolInput()],
    ["GET", `/api/admin/summer-schools/${schools[2]!.id}`],
    ["PATCH", `/api/admin/summer-schools/${schools[2]!.id}`, { version: 1 }],
    ["POST", `/api/admin/summer-schools/${schools[2]!.id}/archive`, { version: 1 }],
    ["POST", `/api/admin/summer-schools/${schools[2]!.id}/unarchive`, { version: 1 }],
    ...(["packages", "housing", "add-ons"] as const).flatMap(
      (path): Array<[method: Method, url: string, body?: unknown]> => [
        ["GET", `/api/admin/${path}`],
        ["GET", `/api/admin/${path}.csv`],
        ["POST", `/api/admin/${path}`, {}],
        ["PATCH", `/api/admin/${path}/${UNKNOWN}`, {}],
        ["POST", `/api/admin/${path}/${UNKNOWN}/archive`, { version: 1 }],
        ["POST", `/api/admin/${path}/${UNKNOWN}/unarchive`, { version: 1 }],
      ],
    ),
  ];

  it("answers 401 without an admin session (anonymous, student, affiliate) on every route", async () => {
    await expectRouteStatuses(api, cookies, routes(), { anonymous: 401, student: 401, affiliate: 401 });
  });

  it("answers 403 to admissions and finance admins on every route, reads included", async () => {
    await expectRouteStatuses(api, cookies, routes(), { admissions: 403, finance: 403 });
    expect(await db().select().from(summerSchools)).toHaveLength(5);
  });
});

describe("the summer school list", () => {
  it("lists every cohort by start date with its paid places, fill rate and status", async () => {
    const res = await owner("GET", "/api/admin/summer-schools");
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const page = res.json() as CataloguePage<AdminSummerSchoolDto>;
    expectParses(adminSummerSchoolListSchema, page);
    expect(page).toMatchObject({ total: 5, page: 1, pageSize: 25 });
    expect(page.items.map((s) => s.slug)).toEqual(schools.map((s) => s.slug));
    expect(page.items[0]).toMatchObject({ paidPlaces: 50, capacity: 50, fillRate: 1, status: "full" });
    expect(page.items[1]).toMatchObject({ paidPlaces: 46, status: "fewSpotsLeft" });
    expect(page.items[4]).toMatchObject({ status: "openingSoon" });
    expect(page.items[2]!.name).toMatchObject({
      en: expect.stringContaining("August"),
      zh: expect.any(String),
    });
  });

  it("filters by status, searches names in every language and sorts and pages on the server", async () => {
    const full = (await owner("GET", "/api/admin/summer-schools?status=full")).json();
    expect(full.items.map((s: AdminSummerSchoolDto) => s.slug)).toEqual([schools[0]!.slug]);
    const zh = (await owner("GET", `/api/admin/summer-schools?q=${encodeURIComponent("9月")}`)).json();
    expect(zh.items.map((s: AdminSummerSchoolDto) => s.slug)).toEqual([schools[3]!.slug]);
    const literal = (await owner("GET", "/api/admin/summer-schools?q=%25")).json();
    expect(literal.total).toBe(0);
    const byPaid = (await owner("GET", "/api/admin/summer-schools?sort=paid:desc&pageSize=2&page=1")).json();
    expectParses(adminSummerSchoolListSchema, byPaid);
    expect(byPaid.items.map((s: AdminSummerSchoolDto) => s.paidPlaces)).toEqual([50, 46]);
    expect(byPaid.total).toBe(5);
    const second = (
      await owner("GET", "/api/admin/summer-schools?sort=startDate:desc&pageSize=2&page=3")
    ).json();
    expect(second.items.map((s: AdminSummerSchoolDto) => s.slug)).toEqual([schools[0]!.slug]);
  });

  it("refuses a malformed query with 400", async () => {
    for (const query of ["sort=price:up", "status=busy", "pageSize=500", "page=0"]) {
      expect((await owner("GET", `/api/admin/summer-schools?${query}`)).statusCode, query).toBe(400);
    }
  });

  it("exports the selection as CSV", async () => {
    const res = await owner("GET", "/api/admin/summer-schools.csv?status=fewSpotsLeft");
    const lines = expectCsvDownload(res, "summer-schools");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain("Paid places");
    expect(lines[1]).toContain(schools[1]!.slug);
    expect(lines[1]).toContain(",46,92,");
  });
});

describe("creating a summer school", () => {
  it("creates it, writes the audit entry and shows it in the public catalogue at once", async () => {
    const before = t.app.services.catalogue.version;
    const res = await owner("POST", "/api/admin/summer-schools", schoolInput());
    expect(res.statusCode).toBe(201);
    const school = res.json() as AdminSummerSchoolDto;
    expectParses(adminSummerSchoolSchema, school);
    expect(school).toMatchObject({
      slug: schoolInput().slug,
      name: { en: schoolInput().name.en, zh: schoolInput().name.zh },
      applicationOpensAt: null,
      capacity: 30,
      depositPercent: 30,
      paidPlaces: 0,
      version: 1,
      archivedAt: null,
    });
    expect(school.name).not.toHaveProperty("fr");
    expect(t.app.services.catalogue.version).toBeGreaterThan(before);
    const listed = (await publicSchools()).find((s) => s.id === school.id);
    expect(listed).toMatchObject({ name: schoolInput().name.en, capacity: 30, depositPercent: 30 });
    const entries = await auditOf("summer_school", school.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "summerSchool.create", actorRole: "admin", actorId: ownerId });
    expect(entries[0]!.after).toMatchObject({ slug: school.slug, capacity: 30 });
  });

  it("refuses each broken rule with 400 and the field it concerns, in the admin's language", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ endDate: schoolInput().startDate }, "endDate"],
      [{ applicationDeadline: schoolInput().endDate }, "applicationDeadline"],
      [{ applicationOpensAt: "2000-01-02", applicationDeadline: "2000-01-01" }, "applicationOpensAt"],
      [{ capacity: 0 }, "capacity"],
      [{ capacity: 2.5 }, "capacity"],
      [{ depositPercent: 0 }, "depositPercent"],
      [{ depositPercent: 101 }, "depositPercent"],
      [{ slug: "Winter School" }, "slug"],
      [{ name: { en: "  ", zh: "冬季" } }, "name.en"],
      [{ startDate: "2027-02-30" }, "startDate"],
      [{ location: "x".repeat(500) }, "location"],
    ];
    for (const [overrides, field] of cases) {
      const res = await owner(
        "POST",
        "/api/admin/summer-schools",
        schoolInput({ slug: "rule-check", ...overrides }),
      );
      expect(res.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(Object.keys(res.json().fieldErrors), JSON.stringify(overrides)).toContain(field);
    }
    const zh = await api(
      "POST",
      "/api/admin/summer-schools",
      cookies.owner,
      schoolInput({ slug: "rule-check", endDate: schoolInput().startDate }),
      { headers: { "accept-language": "zh-CN" } },
    );
    expect(zh.json().message).toBe("结束日期必须晚于开始日期。");
    expect(zh.json().fieldErrors.endDate).toBe("结束日期必须晚于开始日期。");
    const notJson = await api("POST", "/api/admin/summer-schools", cookies.owner, "[1,2]", {
      headers: { "content-type": "application/json" },
    });
    expect(notJson.statusCode).toBe(400);
    expect(await db().select().from(summerSchools).where(eq(summerSchools.slug, "rule-check"))).toHaveLength(
      0,
    );
  });

  it("refuses a slug another school uses with 409", async () => {
    const res = await owner("POST", "/api/admin/summer-schools", schoolInput({ slug: schools[2]!.slug }));
    expect(res.statusCode).toBe(409);
    expect(res.json().fieldErrors.slug).toMatch(/already uses this short name/);
  });
});

describe("editing a summer school", () => {
  it("saves every field, bumps the version, audits before → after and updates /api/summer-schools", async () => {
    const { school } = await detailOf(schools[2]!.id);
    const res = await owner(
      "PATCH",
      `/api/admin/summer-schools/${school.id}`,
      schoolUpdate(school, {
        name: { ...school.name, en: "Business Summer School — August (renamed)" },
        capacity: 60,
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ version: school.version + 1, capacity: 60 });
    const listed = (await publicSchools()).find((s) => s.id === school.id)!;
    expect(listed.name).toBe("Business Summer School — August (renamed)");
    expect(listed.placesLeft).toBe(60);
    const [entry] = await auditOf("summer_school", school.id);
    expect(entry).toMatchObject({ action: "summerSchool.update" });
    expect(entry!.before).toMatchObject({ capacity: 50, version: school.version });
    expect(entry!.after).toMatchObject({ capacity: 60, version: school.version + 1 });
  });

  it("answers 409 with the current school when someone else saved first", async () => {
    const { school } = await detailOf(schools[3]!.id);
    const first = await owner(
      "PATCH",
      `/api/admin/summer-schools/${school.id}`,
      schoolUpdate(school, { capacity: 55 }),
    );
    expect(first.statusCode).toBe(200);
    const stale = await owner(
      "PATCH",
      `/api/admin/summer-schools/${school.id}`,
      schoolUpdate(school, { capacity: 70 }),
    );
    expect(stale.statusCode).toBe(409);
    expectParses(staleVersionBodySchema(adminSummerSchoolSchema), stale.json());
    expect(stale.json().message).toMatch(/Someone else changed this/);
    expect(stale.json().current).toMatchObject({ id: school.id, capacity: 55, version: school.version + 1 });
    expect((await detailOf(school.id)).school.capacity).toBe(55);
  });

  it("refuses a capacity below the places already paid (June: 50 paid)", async () => {
    const { school } = await detailOf(schools[0]!.id);
    const res = await owner(
      "PATCH",
      `/api/admin/summer-schools/${school.id}`,
      schoolUpdate(school, { capacity: 49 }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain("50 places already paid");
    expect(res.json().fieldErrors).toHaveProperty("capacity");
  });

  it("refuses another school's slug with 409, and validates like creation", async () => {
    const { school } = await detailOf(schools[4]!.id);
    const taken = await owner(
      "PATCH",
      `/api/admin/summer-schools/${school.id}`,
      schoolUpdate(school, { slug: schools[1]!.slug }),
    );
    expect(taken.statusCode).toBe(409);
    const invalid = await owner(
      "PATCH",
      `/api/admin/summer-schools/${school.id}`,
      schoolUpdate(school, { endDate: "2000-01-01" }),
    );
    expect(invalid.statusCode).toBe(400);
    const noVersion = await owner("PATCH", `/api/admin/summer-schools/${school.id}`, {
      ...schoolUpdate(school),
      version: undefined,
    });
    expect(noVersion.statusCode).toBe(400);
  });

  it("answers 404 for unknown and malformed ids", async () => {
    for (const id of [UNKNOWN, "not-a-uuid"]) {
      expect((await owner("GET", `/api/admin/summer-schools/${id}`)).statusCode).toBe(404);
      const res = await owner(
        "PATCH",
        `/api/admin/summer-schools/${id}`,
        schoolUpdate((await detailOf(schools[2]!.id)).school),
      );
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe("not_found");
      expect(
        (await owner("POST", `/api/admin/summer-schools/${id}/archive`, { version: 1 })).statusCode,
      ).toBe(404);
    }
  });
});

describe("archiving a summer school", () => {
  it("hides it from the public catalogue, keeps its applications, and unarchiving shows it again", async () => {
    const made = await createPaidReadyApplication(t.app, {}, { remoteAddress: "10.88.0.1" });
    const { school } = await detailOf(made.schoolId);
    const archived = await owner("POST", `/api/admin/summer-schools/${school.id}/archive`, {
      version: school.version,
    });
    expect(archived.statusCode).toBe(200);
    expectParses(adminSummerSchoolSchema, archived.json());
    expect(archived.json()).toMatchObject({ status: "archived", version: school.version + 1 });
    expect((await publicSchools()).some((s) => s.id === school.id)).toBe(false);
    expect((await api("GET", `/api/summer-schools/${school.id}/packages`)).statusCode).toBe(404);
    const [application] = await db()
      .select()
      .from(applications)
      .where(eq(applications.id, made.applicationId));
    expect(application).toMatchObject({ summerSchoolId: school.id, status: "pending_payment" });
    const adminView = await owner("GET", "/api/admin/summer-schools?status=archived");
    expectParses(adminSummerSchoolListSchema, adminView.json());
    expect(adminView.json().items.map((s: AdminSummerSchoolDto) => s.id)).toContain(school.id);

    const again = await owner("POST", `/api/admin/summer-schools/${school.id}/archive`, {
      version: school.version + 1,
    });
    expect(again.json().version).toBe(school.version + 1);
    const stale = await owner("POST", `/api/admin/summer-schools/${school.id}/unarchive`, {
      version: school.version,
    });
    expect(stale.statusCode).toBe(409);
    const back = await owner("POST", `/api/admin/summer-schools/${school.id}/unarchive`, {
      version: school.version + 1,
    });
    expect(back.statusCode).toBe(200);
    expect((await publicSchools()).some((s) => s.id === school.id)).toBe(true);
    const actions = (await auditOf("summer_school", school.id)).map((e) => e.action);
    expect(actions.slice(-2)).toEqual(["summerSchool.archive", "summerSchool.unarchive"]);
    expect((await owner("POST", `/api/admin/summer-schools/${school.id}/archive`, {})).statusCode).toBe(400);
  });
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
      t.app,
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
