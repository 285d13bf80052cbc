/**
 * API tests of the catalogue in the back office (docs/product/back-office.md#catalogue-admin), the
 * summer schools: owners list, export, create, edit, archive and unarchive them; other roles and
 * sessions are refused on every catalogue route; every rule answers 400 with the field; stale
 * versions 409 with the current record; every change leaves one audit entry; and the public
 * catalogue (`/api/summer-schools` and friends) shows an edit at once. Packages, housing options
 * and add-ons: items.test.ts.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import type { AdminSummerSchoolDto, CataloguePage } from "../../../shared/catalogue-admin";
import {
  adminSummerSchoolListSchema,
  adminSummerSchoolSchema,
  staleVersionBodySchema,
} from "../../../shared/schemas/catalogue-admin";
import { applications, summerSchools } from "../../db/schema";
import { expectCsvDownload, expectRouteStatuses, type Method } from "../../testing/admin";
import { createPaidReadyApplication, createTestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";
import { catalogueAdminTestApp, UNKNOWN } from "./testing";

const { testApp, schools, cookies, ids, db, api, owner, detailOf, auditOf, publicSchools } =
  catalogueAdminTestApp(createTestApp);

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
    const before = testApp().app.services.catalogue.version;
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
    expect(testApp().app.services.catalogue.version).toBeGreaterThan(before);
    const listed = (await publicSchools()).find((s) => s.id === school.id);
    expect(listed).toMatchObject({ name: schoolInput().name.en, capacity: 30, depositPercent: 30 });
    const entries = await auditOf("summer_school", school.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      action: "summerSchool.create",
      actorRole: "admin",
      actorId: ids.owner,
    });
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
    const made = await createPaidReadyApplication(testApp().app, {}, { remoteAddress: "10.88.0.1" });
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
