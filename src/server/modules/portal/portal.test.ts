/**
 * API tests of student dashboard management (issue "Student dashboard management: announcements,
 * trip information, FAQ and partner entries shown in the student portal"): the back office's
 * create / list / edit / archive with versions and audit (owners and admissions), and what a
 * student reads: published, not archived, for every cohort or their paid cohorts, in their language.
 */
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminPortalEntryDto, AdminPortalEntryList, StudentPortal } from "../../../shared/portal";
import { applications, auditLog, portalEntries } from "../../db/schema";
import { loginAsAdmin, loginAsStudent } from "../../testing/accounts";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";

let t: TestApp;
let owner: string;
let admissions: string;
let finance: string;
let schools: Array<{ id: string; status: string }>;

function api(
  method: "GET" | "POST" | "PATCH",
  url: string,
  cookie?: string,
  payload?: unknown,
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method,
    url,
    payload: payload as Record<string, unknown> | undefined,
    headers: { origin: "http://localhost:3000", ...(cookie ? { cookie } : {}) },
  });
}

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
  owner = (await loginAsAdmin(t.app, "owner")).cookie;
  admissions = (await loginAsAdmin(t.app, "admissions")).cookie;
  finance = (await loginAsAdmin(t.app, "finance")).cookie;
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

    const stranger = await loginAsStudent(t.app);
    const theirs = (
      await t.app.inject({ url: "/api/student/portal", headers: { cookie: stranger.cookie } })
    ).json() as StudentPortal;
    expect(theirs.entries.map((e) => e.title)).toEqual(["Welcome", "Leiden University"]);
  });

  it("shows an unverified student only the entries for every cohort", async () => {
    const { student, cookie } = await loginAsStudent(t.app, { emailVerified: false });
    const school = schools.find((s) => s.status === "open")!;
    const app = await createPaidReadyApplication(
      t.app,
      { email: student.email },
      { schoolId: school.id, remoteAddress: "10.66.0.3" },
    );
    await t.database.db
      .update(applications)
      .set({ paymentStatus: "paid" })
      .where(eq(applications.id, app.applicationId));
    const portal = (
      await t.app.inject({ url: "/api/student/portal", headers: { cookie } })
    ).json() as StudentPortal;
    expect(portal.entries.every((e) => e.summerSchoolName === null)).toBe(true);
  });

  it("answers 401 without a student session (an admin's does not count)", async () => {
    expect((await t.app.inject({ url: "/api/student/portal" })).statusCode).toBe(401);
    expect((await t.app.inject({ url: "/api/student/portal", headers: { cookie: owner } })).statusCode).toBe(
      401,
    );
  });
});
