/**
 * API tests of student dashboard management (docs/product/back-office.md#portal-entries: "Student dashboard management: announcements,
 * trip information, FAQ and partner entries shown in the student portal"): the back office's
 * create / list / edit / archive with versions and audit (owners and admissions), and what a
 * student reads: published, not archived, for every cohort or their paid cohorts, in their language.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminPortalEntryDto, AdminPortalEntryList, StudentPortal } from "../../../shared/api/portal";
import { applications, auditLog, portalEntries } from "../../db/schema";
import { loginAsStudent } from "../../testing/accounts";
import {
  adminRoles,
  apiOf,
  expectCsvDownload,
  expectRouteStatuses,
  latestAuditEntry,
  type RoleCookies,
  SAME_ORIGIN,
} from "../../testing/admin";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
let cookies: RoleCookies;
let owner: string;
let admissions: string;
let finance: string;
let schools: Array<{ id: string; status: string }>;

const api = apiOf(() => t.app, SAME_ORIGIN);

const past = new Date(Date.now() - 60_000).toISOString();
const entry = (overrides: Record<string, unknown> = {}) => ({
  kind: "announcement",
  summerSchoolId: null,
  title: { en: "Welcome to The Hague", zh: "欢迎来到海牙", fr: "" },
  body: { en: "Your first day starts at 9:00 at the Peace Palace.", zh: "", fr: "" },
  url: "",
  sortOrder: 0,
  publishedAt: past,
  ...overrides,
});

async function create(payload: unknown, cookie = owner): Promise<AdminPortalEntryDto> {
  const res = await api("POST", "/api/admin/portal-entries", cookie, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as AdminPortalEntryDto;
}

beforeAll(async () => {
  t = await createTestApp();
  cookies = await adminRoles(t.app);
  ({ owner, admissions, finance } = cookies);
  schools = (await t.app.inject({ url: "/api/summer-schools" })).json();
});
afterAll(async () => {
  await t?.close();
});

describe("portal entries in the back office", () => {
  it("answers 401 without an admin session (a student's does not count) and 403 to finance", async () => {
    const student = (await loginAsStudent(t.app)).cookie;
    const id = "00000000-0000-4000-8000-000000000000";
    const calls = [
      ["GET", "/api/admin/portal-entries", undefined],
      ["GET", `/api/admin/portal-entries/${id}`, undefined],
      ["POST", "/api/admin/portal-entries", entry()],
      ["PATCH", `/api/admin/portal-entries/${id}`, { version: 1, archived: true }],
    ] as const;
    for (const [method, url, payload] of calls) {
      expect((await api(method, url, undefined, payload)).statusCode, `${method} ${url}`).toBe(401);
      expect((await api(method, url, student, payload)).statusCode, `${method} ${url}`).toBe(401);
      expect((await api(method, url, finance, payload)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect(await t.database.db.select().from(portalEntries)).toEqual([]);
  });

  it("lets admissions create an entry for one cohort, with the cohort's name and an audit entry", async () => {
    const school = schools[0]!;
    const created = await create(
      entry({ kind: "trip_info", summerSchoolId: school.id, sortOrder: 2 }),
      admissions,
    );
    expect(created).toMatchObject({
      kind: "trip_info",
      summerSchool: { id: school.id, name: expect.any(String) },
      title: { en: "Welcome to The Hague", zh: "欢迎来到海牙", fr: "" },
      version: 1,
      archivedAt: null,
      publishedAt: past,
    });
    const audit = await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, created.id));
    expect(audit).toMatchObject([{ action: "portal_entry.create", entityType: "portal_entry" }]);

    const detail = await api("GET", `/api/admin/portal-entries/${created.id}`, owner);
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toEqual(created);
  });

  it("refuses an entry without an English title, a partner without a web address, a javascript: address and an unknown cohort", async () => {
    const noTitle = await api("POST", "/api/admin/portal-entries", owner, entry({ title: { en: " " } }));
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fieldErrors).toHaveProperty(["title.en"]);
    const partner = await api(
      "POST",
      "/api/admin/portal-entries",
      owner,
      entry({ kind: "partner", url: "" }),
    );
    expect(partner.statusCode).toBe(400);
    expect(partner.json().fieldErrors).toHaveProperty("url");
    const script = await api(
      "POST",
      "/api/admin/portal-entries",
      owner,
      entry({ kind: "partner", url: "javascript:alert(1)" }),
    );
    expect(script.statusCode).toBe(400);
    expect(script.json().message).toBe("Please enter a full web address starting with https:// or http://.");
    const unknown = await api(
      "POST",
      "/api/admin/portal-entries",
      owner,
      entry({ summerSchoolId: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toMatch(/summer school does not exist/);
    const badKind = await api("POST", "/api/admin/portal-entries", owner, entry({ kind: "poll" }));
    expect(badKind.statusCode).toBe(400);
  });

  it("edits with the current version, answers 409 with the current entry on a stale one, archives and restores", async () => {
    const created = await create(entry({ title: { en: "Visa letters are on their way" } }));
    const edited = await api("PATCH", `/api/admin/portal-entries/${created.id}`, owner, {
      version: 1,
      entry: entry({ title: { en: "Visa letters were sent", fr: "Les lettres de visa sont parties" } }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      version: 2,
      title: { en: "Visa letters were sent", fr: "Les lettres de visa sont parties", zh: "" },
    });

    const stale = await api("PATCH", `/api/admin/portal-entries/${created.id}`, owner, {
      version: 1,
      archived: true,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ current: { version: 2, archivedAt: null } });
    expect(stale.json().message).toMatch(/changed by someone else/);

    const archived = await api("PATCH", `/api/admin/portal-entries/${created.id}`, owner, {
      version: 2,
      archived: true,
    });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ version: 3, archivedAt: expect.any(String) });
    const listed = (await api("GET", "/api/admin/portal-entries", owner)).json() as AdminPortalEntryList;
    expect(listed.items.some((e) => e.id === created.id)).toBe(false);
    const withArchived = (
      await api("GET", "/api/admin/portal-entries?archived=1", owner)
    ).json() as AdminPortalEntryList;
    expect(withArchived.items.some((e) => e.id === created.id)).toBe(true);

    const restored = await api("PATCH", `/api/admin/portal-entries/${created.id}`, admissions, {
      version: 3,
      archived: false,
    });
    expect(restored.json()).toMatchObject({ version: 4, archivedAt: null });
    const actions = (
      await t.database.db.select().from(auditLog).where(eq(auditLog.entityId, created.id))
    ).map((a) => a.action);
    expect(actions.sort()).toEqual([
      "portal_entry.archive",
      "portal_entry.create",
      "portal_entry.restore",
      "portal_entry.update",
    ]);

    expect(
      (
        await api("PATCH", "/api/admin/portal-entries/00000000-0000-4000-8000-000000000000", owner, {
          version: 1,
        })
      ).statusCode,
    ).toBe(404);
    expect((await api("GET", "/api/admin/portal-entries/not-a-uuid", owner)).statusCode).toBe(404);
  });

  it("lists entries by kind (announcements first) with filters, search and pages", async () => {
    await create(entry({ kind: "faq", title: { en: "Do I need a bike?" } }));
    const all = (await api("GET", "/api/admin/portal-entries", owner)).json() as AdminPortalEntryList;
    const kinds = all.items.map((e) => e.kind);
    expect(kinds.indexOf("announcement")).toBeLessThan(kinds.indexOf("faq"));
    const faq = (
      await api("GET", "/api/admin/portal-entries?kind=faq", owner)
    ).json() as AdminPortalEntryList;
    expect(faq.items.every((e) => e.kind === "faq")).toBe(true);
    const search = (
      await api("GET", "/api/admin/portal-entries?q=bike", owner)
    ).json() as AdminPortalEntryList;
    expect(search.items.map((e) => e.title.en)).toEqual(["Do I need a bike?"]);
    const page = (
      await api("GET", "/api/admin/portal-entries?pageSize=1", owner)
    ).json() as AdminPortalEntryList;
    expect(page.items).toHaveLength(1);
    expect(page.total).toBeGreaterThan(1);
    expect((await api("GET", "/api/admin/portal-entries?kind=poll", owner)).statusCode).toBe(400);
  });
});

describe("GET /api/admin/portal-entries: pages, sort, filters, search and CSV", () => {
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  /** Entries by a short name; created in this order (A first). */
  const seeded: Record<string, AdminPortalEntryDto> = {};
  let school1: string;
  let school2: string;

  /** The short names of the entries a list query answers, in order. */
  async function names(query: string): Promise<string[]> {
    const res = await api("GET", `/api/admin/portal-entries?${query}`, owner);
    expect(res.statusCode, res.body).toBe(200);
    const byId = new Map(Object.entries(seeded).map(([name, e]) => [e.id, name]));
    return (res.json() as AdminPortalEntryList).items.map((e) => byId.get(e.id) ?? e.id);
  }

  beforeAll(async () => {
    await t.database.db.delete(portalEntries);
    [school1, school2] = schools.map((s) => s.id) as [string, string];
    seeded.A = await create(
      entry({
        title: { en: "Airport pickup times" },
        body: { en: "Buses leave every hour from Schiphol." },
        sortOrder: 2,
        publishedAt: hoursAgo(3),
      }),
    );
    seeded.B = await create(
      entry({
        kind: "trip_info",
        summerSchoolId: school1,
        title: { en: "Hotel address", zh: "酒店地址" },
        body: { en: "Stay at the Mercure on the Spui." },
        sortOrder: 1,
        publishedAt: null,
      }),
    );
    seeded.C = await create(
      entry({
        kind: "faq",
        title: { en: "Do I need a bike?" },
        body: { en: "Trams go everywhere.", fr: "Apportez un vélo si vous le souhaitez." },
        sortOrder: 3,
        publishedAt: hoursAgo(2),
      }),
    );
    seeded.D = await create(
      entry({
        kind: "partner",
        summerSchoolId: school2,
        title: { en: "Leiden University" },
        body: { en: "Our academic partner, 100% committed." },
        url: "https://www.universiteitleiden.nl",
        sortOrder: 0,
        publishedAt: hoursAgo(1),
      }),
    );
    seeded.E = await create(
      entry({
        summerSchoolId: school1,
        title: { en: "Canal tour" },
        body: { en: "A boat tour on the first Saturday." },
        sortOrder: 0,
        publishedAt: new Date(Date.now() + 86_400_000).toISOString(),
      }),
    );
    const old = await create(entry({ title: { en: "Old news" }, body: { en: "Gone." }, sortOrder: 5 }));
    const archived = await api("PATCH", `/api/admin/portal-entries/${old.id}`, owner, {
      version: 1,
      archived: true,
    });
    expect(archived.statusCode).toBe(200);
    seeded.F = archived.json() as AdminPortalEntryDto;
  });

  it("answers one page with the total; page 2 holds the rest", async () => {
    const first = (
      await api("GET", "/api/admin/portal-entries?pageSize=3", owner)
    ).json() as AdminPortalEntryList;
    expect(first).toMatchObject({ total: 5, page: 1, pageSize: 3 });
    expect(first.items).toHaveLength(3);
    const second = (
      await api("GET", "/api/admin/portal-entries?pageSize=3&page=2", owner)
    ).json() as AdminPortalEntryList;
    expect(second).toMatchObject({ total: 5, page: 2, pageSize: 3 });
    expect(second.items).toHaveLength(2);
    const ids = [...first.items, ...second.items].map((e) => e.id);
    expect(new Set(ids)).toEqual(new Set(["A", "B", "C", "D", "E"].map((n) => seeded[n]!.id)));
    expect(await names("pageSize=3&page=3")).toEqual([]);
    // The default page size is 25.
    expect((await api("GET", "/api/admin/portal-entries", owner)).json()).toMatchObject({ pageSize: 25 });
  });

  it("sorts by kind by default (announcements, trip information, FAQ, partners; then order)", async () => {
    expect(await names("")).toEqual(["E", "A", "B", "C", "D"]);
    expect(await names("sort=kind:asc")).toEqual(["E", "A", "B", "C", "D"]);
    expect(await names("sort=kind:desc")).toEqual(["D", "C", "B", "E", "A"]);
  });

  it("sorts by title, order, publication and last change, both ways", async () => {
    expect(await names("sort=title:asc")).toEqual(["A", "E", "C", "B", "D"]);
    expect(await names("sort=title:desc")).toEqual(["D", "B", "C", "E", "A"]);
    // Ties (order 0) by kind.
    expect(await names("sort=sortOrder:asc")).toEqual(["E", "D", "B", "A", "C"]);
    expect(await names("sort=sortOrder:desc")).toEqual(["C", "A", "B", "E", "D"]);
    // Drafts (no publication time) come last either way.
    expect(await names("sort=publishedAt:asc")).toEqual(["A", "C", "D", "E", "B"]);
    expect(await names("sort=publishedAt:desc")).toEqual(["E", "D", "C", "A", "B"]);
    expect(await names("sort=updatedAt:asc")).toEqual(["A", "B", "C", "D", "E"]);
    const edited = await api("PATCH", `/api/admin/portal-entries/${seeded.B!.id}`, owner, {
      version: seeded.B!.version,
      entry: entry({
        kind: "trip_info",
        summerSchoolId: school1,
        title: { en: "Hotel address", zh: "酒店地址" },
        body: { en: "Stay at the Mercure on the Spui." },
        sortOrder: 1,
        publishedAt: null,
      }),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    seeded.B = edited.json() as AdminPortalEntryDto;
    expect(await names("sort=updatedAt:desc")).toEqual(["B", "E", "D", "C", "A"]);
  });

  it("filters by kind, by cohort (or entries for every cohort) and shows archived entries on request", async () => {
    expect(await names("kind=faq")).toEqual(["C"]);
    expect(await names("kind=announcement")).toEqual(["E", "A"]);
    expect(await names(`schoolId=${school1}`)).toEqual(["E", "B"]);
    expect(await names(`schoolId=${school2}`)).toEqual(["D"]);
    expect(await names("schoolId=all")).toEqual(["A", "C"]);
    expect(await names("archived=1")).toEqual(["E", "A", "F", "B", "C", "D"]);
    expect(await names("archived=1&kind=announcement&schoolId=all")).toEqual(["A", "F"]);
    expect(await names(`kind=partner&schoolId=${school1}`)).toEqual([]);
    // Empty values are no filter.
    expect(await names("kind=&schoolId=&archived=&q=")).toHaveLength(5);
  });

  it("searches titles and texts in English, Chinese and French, ignoring case", async () => {
    expect(await names("q=airport")).toEqual(["A"]);
    expect(await names("q=SCHIPHOL")).toEqual(["A"]);
    expect(await names(`q=${encodeURIComponent("酒店")}`)).toEqual(["B"]);
    expect(await names(`q=${encodeURIComponent("vélo")}`)).toEqual(["C"]);
    // LIKE wildcards are searched as text.
    expect(await names("q=100%25")).toEqual(["D"]);
    expect(await names("q=_")).toEqual([]);
    expect(await names("q=gone")).toEqual([]);
    expect(await names("q=gone&archived=1")).toEqual(["F"]);
  });

  it("exports the filtered entries as CSV and audits the export", async () => {
    const res = await api("GET", "/api/admin/portal-entries.csv?kind=announcement", admissions);
    const lines = expectCsvDownload(res, "portal-entries");
    expect(lines[0]).toBe(
      "kind,cohort,state,title_en,title_zh,title_fr,body_en,body_zh,body_fr,url,sort_order,published_at,archived_at,updated_at,created_at",
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^announcement,[^,]+,scheduled,Canal tour,/);
    expect(lines[2]).toMatch(/^announcement,,published,Airport pickup times,/);
    const entryAudit = await latestAuditEntry(t.database.db, { action: "portal.export" });
    expect(entryAudit).toMatchObject({ actorRole: "admin", entityType: "portal_entry", entityId: "*" });
    expect(entryAudit.after).toEqual({ filters: { kind: "announcement", archived: false }, rows: 2 });

    const all = expectCsvDownload(
      await api("GET", "/api/admin/portal-entries.csv?archived=1", owner),
      "portal-entries",
    );
    expect(all).toHaveLength(7);
    expect(all.some((l) => l.includes(",archived,Old news,"))).toBe(true);
    expect(all.some((l) => l.startsWith("trip_info,") && l.includes(",draft,Hotel address,酒店地址,"))).toBe(
      true,
    );
    const searched = expectCsvDownload(
      await api("GET", `/api/admin/portal-entries.csv?q=${encodeURIComponent("vélo")}`, owner),
      "portal-entries",
    );
    expect(searched.slice(1).map((l) => l.split(",")[3])).toEqual(["Do I need a bike?"]);
  });

  it("answers 400 with a message for malformed parameters, never 500", async () => {
    for (const query of [
      "kind=poll",
      "schoolId=not-a-uuid",
      "archived=yes",
      "sort=votes:asc",
      "sort=title",
      "sort=title:up",
      "page=0",
      "page=-1",
      "pageSize=0",
      "pageSize=101",
      `q=${"x".repeat(201)}`,
    ]) {
      for (const path of ["/api/admin/portal-entries", "/api/admin/portal-entries.csv"]) {
        if (path.endsWith(".csv") && /^(sort|page)/.test(query)) continue;
        const res = await api("GET", `${path}?${query}`, owner);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(typeof res.json().message, query).toBe("string");
        expect(res.json().message.length, query).toBeGreaterThan(0);
      }
    }
  });

  it("lets owners and admissions list and export; 403 for finance, 401 without an admin session", async () => {
    await expectRouteStatuses(
      api,
      cookies,
      [
        ["GET", "/api/admin/portal-entries?kind=faq&sort=title:asc"],
        ["GET", "/api/admin/portal-entries.csv"],
      ],
      { anonymous: 401, student: 401, affiliate: 401, finance: 403, admissions: 200, owner: 200 },
    );
  });
});

describe("the student portal", () => {
  it("shows a student the published entries for every cohort and for their paid cohorts only, in their language", async () => {
    await t.database.db.delete(portalEntries);
    const [mine, other] = schools.filter((s) => s.status === "open");
    const { student, cookie } = await loginAsStudent(t.app, { email: "portal.student@example.com" });
    const app = await createPaidReadyApplication(
      t.app,
      { email: student.email },
      { schoolId: mine!.id, remoteAddress: "10.66.0.1" },
    );
    await t.database.db
      .update(applications)
      .set({ status: "submitted", paymentStatus: "paid" })
      .where(eq(applications.id, app.applicationId));
    // An unpaid application to another cohort does not make the student part of it.
    await createPaidReadyApplication(
      t.app,
      { email: student.email },
      { schoolId: other!.id, remoteAddress: "10.66.0.2" },
    );

    const everyone = await create(entry({ title: { en: "Welcome", fr: "Bienvenue" } }));
    const forMine = await create(
      entry({ kind: "trip_info", summerSchoolId: mine!.id, title: { en: "Your hotel" } }),
    );
    await create(entry({ summerSchoolId: other!.id, title: { en: "Other cohort" } }));
    await create(entry({ title: { en: "Draft" }, publishedAt: null }));
    await create(
      entry({ title: { en: "Tomorrow" }, publishedAt: new Date(Date.now() + 86_400_000).toISOString() }),
    );
    const archived = await create(entry({ title: { en: "Old news" } }));
    await api("PATCH", `/api/admin/portal-entries/${archived.id}`, owner, { version: 1, archived: true });
    const partner = await create(
      entry({
        kind: "partner",
        title: { en: "Leiden University" },
        url: "https://www.universiteitleiden.nl",
      }),
    );

    const res = await t.app.inject({
      url: "/api/student/portal",
      headers: { cookie: `${cookie}; language=fr` },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const portal = res.json() as StudentPortal;
    expect(portal.language).toBe("fr");
    expect(portal.entries.map((e) => e.id)).toEqual([everyone.id, forMine.id, partner.id]);
    expect(portal.entries[0]).toMatchObject({ title: "Bienvenue", body: everyone.body.en });
    expect(portal.entries[1]).toMatchObject({ title: "Your hotel", summerSchoolName: expect.any(String) });
    expect(portal.entries[2]).toMatchObject({ kind: "partner", url: "https://www.universiteitleiden.nl" });

    // A verified student with no application belongs to no cohort: nothing, not even the entries for every cohort.
    const stranger = await loginAsStudent(t.app);
    const theirs = await t.app.inject({ url: "/api/student/portal", headers: { cookie: stranger.cookie } });
    expect(theirs.statusCode).toBe(200);
    expect((theirs.json() as StudentPortal).entries).toEqual([]);
  });

  it("shows a freshly registered, unverified account nothing of any cohort (docs/product/portals.md#email-verification): 403 until the e-mail is verified", async () => {
    await t.database.db.delete(portalEntries);
    const school = schools.find((s) => s.status === "open")!;
    await create(entry({ kind: "trip_info", title: { en: "Hotel address for every cohort" } }));
    await create(entry({ kind: "trip_info", summerSchoolId: school.id, title: { en: "Your hotel" } }));
    const email = `fresh-${Date.now()}@example.com`;
    const app = await createPaidReadyApplication(
      t.app,
      { email },
      { schoolId: school.id, remoteAddress: "10.66.0.3" },
    );
    await t.database.db
      .update(applications)
      .set({ paymentStatus: "paid", amountPaidCents: 304500, totalAmountCents: 304500 })
      .where(eq(applications.id, app.applicationId));
    const registered = await t.app.inject({
      method: "POST",
      url: "/api/student/register",
      headers: SAME_ORIGIN.headers,
      payload: { firstName: "Fresh", lastName: "Account", email, password: "a long enough passphrase" },
      remoteAddress: "10.66.0.4",
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const res = await t.app.inject({
      url: "/api/student/portal",
      headers: { cookie: registered.cookies.map((c) => `${c.name}=${c.value}`).join("; ") },
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).not.toContain("hotel");
    expect(res.body).not.toContain("Hotel");
  });

  it("answers 401 without a student session (an admin's does not count)", async () => {
    expect((await t.app.inject({ url: "/api/student/portal" })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/student/portal", headers: { cookie: owner } })).statusCode).toBe(
      401,
    );
  });
});
