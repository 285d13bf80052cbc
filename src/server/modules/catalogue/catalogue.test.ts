import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type {
  AddOnOptionDto,
  HousingOptionDto,
  PackageDto,
  SummerSchoolDto,
} from "../../../shared/catalogue";
import { addOnOptions, cohortGuides, packages, summerSchools } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing/harness";

const fr = JSON.parse(
  readFileSync(new URL("../../../shared/i18n/locales/fr/common.json", import.meta.url), "utf8"),
) as { errors: Record<string, string> };

// A fixed clock in the January before the demo summer: every cohort is upcoming and October's
// applications open on 1 May, so the statuses below do not depend on the day the suite runs.
const YEAR = new Date().getUTCFullYear() + 1;
let clock = new Date(Date.UTC(YEAR, 0, 15, 10));

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ now: () => clock });
});
afterAll(async () => {
  await t?.close();
});

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ url, headers });
const schoolsOf = async (headers: Record<string, string> = {}) =>
  (await get("/api/summer-schools", headers)).json() as SummerSchoolDto[];
const bySlugMonth = (schools: SummerSchoolDto[], month: string) =>
  schools.find((s) => s.name.includes(`${month} ${YEAR}`))!;

describe("catalogue API", () => {
  it("lists the upcoming schools earliest first with computed status, places left and from-price", async () => {
    const res = await get("/api/summer-schools");
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    const schools = res.json() as SummerSchoolDto[];
    expect(schools.map((s) => [s.name, s.status, s.placesLeft])).toEqual([
      [`International Business Summer School — June ${YEAR}`, "full", 0],
      [`International Business Summer School — July ${YEAR}`, "fewSpotsLeft", 4],
      [`International Business Summer School — August ${YEAR}`, "open", 50],
      [`International Business Summer School — September ${YEAR}`, "open", 50],
      [`International Business Summer School — October ${YEAR}`, "openingSoon", 50],
    ]);
    for (const s of schools) {
      expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(s.fromPrice).toBe(295000);
      expect(s.lengthDays).toBe(14);
      expect(s.capacity).toBe(50);
      // The demo's September cohort takes a 30 % deposit (README, decision 016).
      expect(s.depositPercent).toBe(s.name.includes("September") ? 30 : 100);
      expect(s.location).toBe("The Hague, Netherlands");
    }
    expect(bySlugMonth(schools, "July")).toMatchObject({
      startDate: `${YEAR}-07-20`,
      endDate: `${YEAR}-08-02`,
    });
    expect(bySlugMonth(schools, "October").applicationOpensAt).toBe(`${YEAR}-05-01`);
  });

  it("answers the landing page summary: lowest open price and the usual length", async () => {
    const res = await get("/api/catalogue/summary");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ fromPrice: 295000, lengthDays: 14 });
    expect(res.json().schools).toHaveLength(5);
  });

  it("lists a school's packages with the names of the add-ons they include", async () => {
    const august = bySlugMonth(await schoolsOf(), "August");
    const res = await get(`/api/summer-schools/${august.id}/packages`);
    expect(res.statusCode).toBe(200);
    const pkgs = res.json() as PackageDto[];
    expect(pkgs.map((p) => [p.name, p.price, p.includedAddOnNames, p.urgencyColor])).toEqual([
      ["Standard", 295000, ["Public transport card"], "green"],
      ["Premium", 345000, ["Public transport card", "Airport pickup"], "orange"],
    ]);
    const standard = pkgs[0]!;
    expect(standard.summerSchoolId).toBe(august.id);
    expect(standard.includes).toContain("Breakfast and lunch every day");
    expect(standard.urgencyText).toBe("Most popular");
    expect(standard.includedAddOns).toHaveLength(1);

    const addOns = (await get(`/api/summer-schools/${august.id}/add-on-options`)).json() as AddOnOptionDto[];
    const transport = addOns.find((a) => a.name === "Public transport card")!;
    expect(standard.includedAddOns).toEqual([transport.id]);

    const one = await get(`/api/packages/${standard.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(standard);
  });

  it("lists housing options with their price adjustments", async () => {
    const august = bySlugMonth(await schoolsOf(), "August");
    const res = await get(`/api/summer-schools/${august.id}/housing-options`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as HousingOptionDto[]).map((h) => [h.name, h.priceAdjustment])).toEqual([
      ["Shared room (2 people)", 0],
      ["Private room", 80000],
      ["Group room (3-4 people)", -30000],
    ]);
  });

  it("lists add-ons (required flag, price) and answers one add-on by id", async () => {
    const august = bySlugMonth(await schoolsOf(), "August");
    const res = await get(`/api/summer-schools/${august.id}/add-on-options`);
    expect(res.statusCode).toBe(200);
    const addOns = res.json() as AddOnOptionDto[];
    expect(addOns.map((a) => [a.name, a.price, a.isRequired])).toEqual([
      ["Airport pickup", 3000, false],
      ["Travel and health insurance", 9500, true],
      ["Public transport card", 4500, false],
    ]);
    const one = await get(`/api/add-on-options/${addOns[1]!.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toEqual(addOns[1]);
  });

  it("answers 404 JSON with a message for unknown and malformed ids", async () => {
    const unknown = randomUUID();
    const urls = [
      `/api/summer-schools/${unknown}/packages`,
      `/api/summer-schools/${unknown}/housing-options`,
      `/api/summer-schools/${unknown}/add-on-options`,
      `/api/packages/${unknown}`,
      `/api/add-on-options/${unknown}`,
      "/api/summer-schools/123/packages",
      "/api/summer-schools/not-a-uuid/housing-options",
      `/api/summer-schools/${encodeURIComponent("' OR 1=1 --")}/add-on-options`,
      "/api/packages/1",
      `/api/packages/${encodeURIComponent("<script>alert(1)</script>")}`,
      "/api/add-on-options/%00",
      "/api/no-such-endpoint",
    ];
    for (const url of urls) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers["content-type"], url).toMatch(/application\/json/);
      // An id the contract refuses and one that does not exist answer alike (`error: "not_found"`).
      expect(res.json(), url).toMatchObject({ message: "We could not find what you asked for." });
    }
  });

  it("answers in the language of the `language` cookie, else of Accept-Language", async () => {
    const zh = await schoolsOf({ cookie: "language=zh" });
    expect(zh[0]!.name).toBe(`国际商务暑期学校 — ${YEAR}年6月`);
    expect(zh[0]!.description).toMatch(/^在海牙的两周/);

    const frSchools = await schoolsOf({ "accept-language": "fr-FR,fr;q=0.9,en;q=0.8" });
    expect(frSchools[0]!.name).toBe(`Université d’été de commerce international — Juin ${YEAR}`);

    // The stored choice wins over the browser's language; an invalid cookie falls back to the header.
    expect((await schoolsOf({ cookie: "language=zh", "accept-language": "fr" }))[0]!.name).toMatch(
      /^国际商务/,
    );
    expect((await schoolsOf({ cookie: "language=de", "accept-language": "fr" }))[0]!.name).toMatch(
      /^Université/,
    );
    expect((await schoolsOf({ "accept-language": "de, en" }))[0]!.name).toMatch(/^International/);

    const august = bySlugMonth(await schoolsOf(), "August");
    const pkgs = (
      await get(`/api/summer-schools/${august.id}/packages`, { cookie: "language=zh" })
    ).json() as PackageDto[];
    expect(pkgs[1]!.name).toBe("尊享套餐");
    expect(pkgs[1]!.includedAddOnNames).toEqual(["公共交通卡", "机场接机"]);
    const housing = (
      await get(`/api/summer-schools/${august.id}/housing-options`, { "accept-language": "fr" })
    ).json();
    expect(housing[1].name).toBe("Chambre individuelle");

    const notFound = await get(`/api/packages/${randomUUID()}`, { "accept-language": "fr" });
    expect(notFound.statusCode).toBe(404);
    expect(notFound.json().message).toBe(fr.errors.notFound);
    expect(fr.errors.notFound).not.toBe("We could not find what you asked for.");
  });

  it("computes the status on the current day: a school that has started is hidden", async () => {
    const saved = clock;
    try {
      clock = new Date(Date.UTC(YEAR, 5, 15, 10)); // June's first day
      const schools = await schoolsOf();
      expect(schools).toHaveLength(4);
      expect(schools[0]!.name).toMatch(/July/);
      // 1 May has passed: October is open now.
      expect(bySlugMonth(schools, "October").status).toBe("open");
    } finally {
      clock = saved;
    }
  });
});

describe("catalogue cache", () => {
  it("serves repeated reads from memory without a database query, until invalidated", async () => {
    const { db } = t.database;
    await get("/api/summer-schools"); // warm
    const august = bySlugMonth(await schoolsOf(), "August");

    const client = (db as unknown as { $client: { query: (...args: unknown[]) => unknown } }).$client;
    const selects = vi.spyOn(db, "select");
    const transactions = vi.spyOn(db, "transaction");
    const queries = vi.spyOn(client, "query");
    try {
      for (const url of [
        "/api/summer-schools",
        "/api/catalogue/summary",
        `/api/summer-schools/${august.id}/packages`,
        `/api/summer-schools/${august.id}/housing-options`,
        `/api/summer-schools/${august.id}/add-on-options`,
      ]) {
        expect((await get(url)).statusCode, url).toBe(200);
      }
      expect(selects).not.toHaveBeenCalled();
      expect(transactions).not.toHaveBeenCalled();
      expect(queries).not.toHaveBeenCalled();
    } finally {
      vi.restoreAllMocks();
    }

    // A change in the database is not seen until the catalogue is invalidated.
    const standard = ((await get(`/api/summer-schools/${august.id}/packages`)).json() as PackageDto[])[0]!;
    await db.update(packages).set({ priceCents: 289900 }).where(eq(packages.id, standard.id));
    await db.update(summerSchools).set({ capacity: 60 }).where(like(summerSchools.slug, "september-%"));
    expect(bySlugMonth(await schoolsOf(), "August").fromPrice).toBe(295000);

    const version = t.app.services.catalogue.version;
    const reads = vi.spyOn(db, "select");
    const readQueries = vi.spyOn(client, "query");
    try {
      t.app.services.catalogue.invalidate();
      const schools = await schoolsOf();
      expect(reads).toHaveBeenCalled();
      expect(readQueries).toHaveBeenCalled();
      expect(t.app.services.catalogue.version).toBeGreaterThan(version);
      expect(bySlugMonth(schools, "August").fromPrice).toBe(289900);
      expect(bySlugMonth(schools, "September").placesLeft).toBe(60);
      const pkgs = (await get(`/api/summer-schools/${august.id}/packages`)).json() as PackageDto[];
      expect(pkgs.find((p) => p.id === standard.id)!.price).toBe(289900);
    } finally {
      vi.restoreAllMocks();
    }
  });
});

describe("the catalogue's lists as browsers revalidate them", () => {
  it("answers the same list with the same ETag, 304 to a browser that holds it, and a new one after a change", async () => {
    for (const url of ["/api/summer-schools", "/api/catalogue/summary"]) {
      const first = await get(url, { "accept-language": "fr" });
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^"[\w-]+"$/);
      expect(first.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(first.headers["cache-control"]).toBe("public, max-age=30");
      const again = await get(url, { "accept-language": "fr" });
      expect(again.headers.etag).toBe(etag);
      expect(again.body).toBe(first.body);
      const held = await get(url, { "accept-language": "fr", "if-none-match": etag });
      expect(held.statusCode, url).toBe(304);
      expect(held.body).toBe("");
      // Another language is another answer.
      const english = await get(url, { "accept-language": "en" });
      expect(english.headers.etag).not.toBe(etag);
      expect(english.json()).not.toEqual(first.json());
    }
    const before = await get("/api/summer-schools");
    await t.database.db
      .update(summerSchools)
      .set({ capacity: 61 })
      .where(like(summerSchools.slug, "october-%"));
    t.app.services.catalogue.invalidate();
    const after = await get("/api/summer-schools", { "if-none-match": String(before.headers.etag) });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    expect(bySlugMonth(after.json() as SummerSchoolDto[], "October").capacity).toBe(61);
  });
});

describe("what the pages say of insurance follows the catalogue (docs/product/admissions.md#insurance-proof)", () => {
  const isInsurance = sql`${addOnOptions.name}->>'en' like '%insurance%'`;
  const summaryInsurance = async () => (await get("/api/catalogue/summary")).json().insurance;
  const insuranceAddOns = () => t.database.db.select().from(addOnOptions).where(isInsurance);

  it("the demo cohorts include the school's insurance in every application: required, at its price", async () => {
    expect(await summaryInsurance()).toEqual({ kind: "required", priceCents: 9500 });
  });

  it("an optional add-on in every open cohort, then none, then cohorts that differ", async () => {
    const rows = await insuranceAddOns();
    expect(rows.length).toBeGreaterThan(1);
    await t.database.db.update(addOnOptions).set({ isRequired: false }).where(isInsurance);
    t.app.services.catalogue.invalidate();
    expect(await summaryInsurance()).toEqual({ kind: "optional", priceCents: 9500 });

    await t.database.db.update(cohortGuides).set({ insuranceAddOnId: null });
    t.app.services.catalogue.invalidate();
    expect(await summaryInsurance()).toEqual({ kind: "own" });

    const open = (await schoolsOf()).find((s) => s.status === "open")!;
    const one = rows.find((r) => r.summerSchoolId === open.id)!;
    await t.database.db
      .update(cohortGuides)
      .set({ insuranceAddOnId: one.id })
      .where(eq(cohortGuides.summerSchoolId, one.summerSchoolId));
    t.app.services.catalogue.invalidate();
    expect(await summaryInsurance()).toEqual({ kind: "varies" });

    // Back as the demo has it.
    await t.database.db.update(addOnOptions).set({ isRequired: true }).where(isInsurance);
    for (const row of rows)
      await t.database.db
        .update(cohortGuides)
        .set({ insuranceAddOnId: row.id })
        .where(eq(cohortGuides.summerSchoolId, row.summerSchoolId));
    t.app.services.catalogue.invalidate();
    expect(await summaryInsurance()).toEqual({ kind: "required", priceCents: 9500 });
  });
});
