/**
 * API tests of the back office's team list (`GET /api/admin/admins` and `.csv`): server-side
 * pagination, every sort, the role and status filters, search in e-mail and name, the CSV export
 * of the same selection with its audit entry, malformed query parameters (400 with a message,
 * never 500) and permissions (owners only: 403 for the other admin roles, 401 without an admin
 * session). The owner-lockout rules are tested in auth.test.ts and students-admin.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminTeamListSchema } from "../../../shared/schemas/students-admin";
import type { AdminTeamList } from "../../../shared/students-admin";
import { admins } from "../../db/schema";
import {
  adminRoles,
  apiOf,
  expectCsvDownload,
  expectRouteStatuses,
  latestAuditEntry,
  type RoleCookies,
} from "../../testing/admin";
import { createTestApp, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";

let t: TestApp;
let cookies: RoleCookies;
const api = apiOf(() => t.app);

/**
 * Five admins of their own domain (the searches below keep to it, so the admins the role helpers
 * create do not count): names sort differently from e-mails, one name is lower-case.
 */
const TEAM = [
  { local: "ada", name: "Mila Novak", role: "owner", status: "active", created: "2026-01-01" },
  { local: "bo", name: "Anna Berg", role: "admissions", status: "invited", created: "2026-01-03" },
  { local: "cy", name: "Chen Wei", role: "finance", status: "disabled", created: "2026-01-02" },
  { local: "di", name: "lars Olsen", role: "admissions", status: "active", created: "2026-01-04" },
  { local: "ed", name: "Bea Costa", role: "finance", status: "active", created: "2026-01-05" },
] as const;
const DOMAIN = "team.example";

/** `GET /api/admin/admins?<query>` as the owner: 200, checked against the list's shared schema. */
async function teamPage(query: string): Promise<AdminTeamList> {
  const res = await api("GET", `/api/admin/admins?${query}`, cookies.owner);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json();
  expectParses(adminTeamListSchema, body);
  return body as AdminTeamList;
}

/** The local parts of the e-mails of a list answer, in order. */
async function locals(query: string): Promise<string[]> {
  return (await teamPage(`q=${DOMAIN}&${query}`)).items.map((a) => a.email.split("@")[0]!);
}

beforeAll(async () => {
  t = await createTestApp();
  cookies = await adminRoles(t.app);
  await t.database.db.insert(admins).values(
    TEAM.map((a) => ({
      email: `${a.local}@${DOMAIN}`,
      name: a.name,
      role: a.role,
      passwordHash: a.status === "invited" ? null : "argon2-placeholder",
      disabledAt: a.status === "disabled" ? new Date("2026-02-01T00:00:00Z") : null,
      createdAt: new Date(`${a.created}T09:00:00Z`),
    })),
  );
});
afterAll(async () => {
  await t?.close();
});

describe("GET /api/admin/admins: pages, sort, filters, search", () => {
  it("answers one page with the total; page 2 holds the rest", async () => {
    const page1 = await teamPage(`q=${DOMAIN}&pageSize=3`);
    expect(page1).toMatchObject({ total: 5, page: 1, pageSize: 3 });
    expect(page1.items).toHaveLength(3);
    expect(page1.items[0]).toEqual({
      id: expect.any(String),
      email: `ada@${DOMAIN}`,
      name: "Mila Novak",
      role: "owner",
      status: "active",
      createdAt: "2026-01-01T09:00:00.000Z",
    });
    const page2 = await teamPage(`q=${DOMAIN}&pageSize=3&page=2`);
    expect(page2).toMatchObject({ total: 5, page: 2, pageSize: 3 });
    expect(page2.items).toHaveLength(2);
    const ids = [...page1.items, ...page2.items].map((a) => a.id);
    expect(new Set(ids).size).toBe(5);
    const beyond = await teamPage(`q=${DOMAIN}&pageSize=3&page=3`);
    expect(beyond).toMatchObject({ items: [], total: 5, page: 3 });
  });

  it("sorts by role by default (owner, admissions, finance; then e-mail)", async () => {
    expect(await locals("")).toEqual(["ada", "bo", "di", "cy", "ed"]);
    expect(await locals("sort=role:asc")).toEqual(["ada", "bo", "di", "cy", "ed"]);
    expect(await locals("sort=role:desc")).toEqual(["cy", "ed", "bo", "di", "ada"]);
  });

  it("sorts by e-mail, name (ignoring case), status and creation date, both ways", async () => {
    expect(await locals("sort=email:asc")).toEqual(["ada", "bo", "cy", "di", "ed"]);
    expect(await locals("sort=email:desc")).toEqual(["ed", "di", "cy", "bo", "ada"]);
    expect(await locals("sort=name:asc")).toEqual(["bo", "ed", "cy", "di", "ada"]);
    expect(await locals("sort=name:desc")).toEqual(["ada", "di", "cy", "ed", "bo"]);
    // active, invited, disabled; ties by role, then e-mail
    expect(await locals("sort=status:asc")).toEqual(["ada", "di", "ed", "bo", "cy"]);
    expect(await locals("sort=status:desc")).toEqual(["cy", "bo", "ada", "di", "ed"]);
    expect(await locals("sort=createdAt:asc")).toEqual(["ada", "cy", "bo", "di", "ed"]);
    expect(await locals("sort=createdAt:desc")).toEqual(["ed", "di", "bo", "cy", "ada"]);
  });

  it("filters by role and by status, alone and together", async () => {
    expect(await locals("role=finance")).toEqual(["cy", "ed"]);
    expect(await locals("role=owner")).toEqual(["ada"]);
    expect(await locals("status=invited")).toEqual(["bo"]);
    expect(await locals("status=disabled")).toEqual(["cy"]);
    expect(await locals("status=active")).toEqual(["ada", "di", "ed"]);
    expect(await locals("status=active&role=admissions")).toEqual(["di"]);
    // An empty value is no filter.
    expect(await locals("role=&status=")).toHaveLength(5);
  });

  it("searches in the e-mail address and the name, ignoring case", async () => {
    const search = async (q: string) =>
      (await teamPage(`q=${encodeURIComponent(q)}`)).items.map((a) => a.email);
    expect(await search("OLSEN")).toEqual([`di@${DOMAIN}`]);
    expect(await search("ED@TEAM")).toEqual([`ed@${DOMAIN}`]);
    expect(await search("Chen Wei")).toEqual([`cy@${DOMAIN}`]);
    // LIKE wildcards are searched as text.
    expect(await search("%")).toEqual([]);
    expect(await search("nobody-here")).toEqual([]);
  });

  it("answers 400 with a message for malformed parameters, never 500", async () => {
    for (const query of [
      "role=superuser",
      "status=gone",
      "sort=password:asc",
      "sort=email",
      "sort=email:up",
      "page=0",
      "page=abc",
      "pageSize=0",
      "pageSize=101",
      `q=${"x".repeat(201)}`,
    ]) {
      for (const path of ["/api/admin/admins", "/api/admin/admins.csv"]) {
        if (path.endsWith(".csv") && /^(sort|page)/.test(query)) continue;
        const res = await api("GET", `${path}?${query}`, cookies.owner);
        expect(res.statusCode, `${path}?${query}`).toBe(400);
        expect(typeof res.json().message, query).toBe("string");
        expect(res.json().message.length, query).toBeGreaterThan(0);
      }
    }
  });
});

describe("GET /api/admin/admins.csv", () => {
  it("exports the filtered team with the same header, and audits the export", async () => {
    const res = await api("GET", `/api/admin/admins.csv?role=finance&q=${DOMAIN}`, cookies.owner);
    const lines = expectCsvDownload(res, "team");
    expect(lines[0]).toBe("E-mail,Name,Role,Status,Created");
    expect(lines.slice(1)).toEqual([
      `cy@${DOMAIN},Chen Wei,finance,disabled,2026-01-02T09:00:00.000Z`,
      `ed@${DOMAIN},Bea Costa,finance,active,2026-01-05T09:00:00.000Z`,
    ]);
    const entry = await latestAuditEntry(t.database.db, { action: "admins.export" });
    expect(entry).toMatchObject({ actorRole: "admin", entityType: "admin", entityId: "*" });
    expect(entry.after).toEqual({ filters: { role: "finance", q: DOMAIN }, rows: 2 });

    const everyone = expectCsvDownload(await api("GET", "/api/admin/admins.csv", cookies.owner), "team");
    // The five above and the three admins of the role helpers.
    expect(everyone.length - 1).toBe(8);
    const invited = expectCsvDownload(
      await api("GET", "/api/admin/admins.csv?status=invited", cookies.owner),
      "team",
    );
    expect(invited.slice(1)).toEqual([`bo@${DOMAIN},Anna Berg,admissions,invited,2026-01-03T09:00:00.000Z`]);
  });
});

describe("team list permissions", () => {
  it("is owner only: 403 for admissions and finance, 401 without an admin session", async () => {
    await expectRouteStatuses(
      api,
      cookies,
      [
        ["GET", "/api/admin/admins"],
        ["GET", "/api/admin/admins.csv"],
        ["GET", "/api/admin/admins?role=owner&sort=email:asc"],
      ],
      { anonymous: 401, student: 401, affiliate: 401, admissions: 403, finance: 403, owner: 200 },
    );
  });
});
