/**
 * API tests of the admin back office (docs/product/back-office.md#applications-admin):
 * permissions of every role on every route, the application list (filters, sort, search,
 * pagination), CSV export, detail, status workflow, notes, passport download, dashboard and the
 * append-only audit log.
 */
import { randomUUID } from "node:crypto";
import { and, asc, eq, like, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AdminApplicantDto,
  AdminApplicationDetail,
  AdminApplicationList,
  AdminDashboard,
  AdminNoteDto,
  AuditPage,
} from "../../../shared/admin";
import { auditPageSchema } from "../../../shared/schemas/audit";
import { adminDashboardSchema } from "../../../shared/schemas/dashboard";
import {
  affiliates,
  applicantNotes,
  applicants,
  applications,
  auditLog,
  codes,
  emailOutbox,
  housingOptions,
  packages,
  payments,
  summerSchools,
} from "../../db/schema";
import { hashToken, newToken } from "../../lib/tokens";
import { loginAsAdmin } from "../../testing/accounts";
import {
  apiOf,
  auditEntries,
  csvLines,
  expectRouteStatuses,
  loginRoles,
  type RoleSessions,
} from "../../testing/admin";
import { createPaidReadyApplication, createTestApp, PDF_BYTES, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";

let t: TestApp;
let cookies: RoleSessions["cookies"];
let adminIds: RoleSessions["adminIds"];
/** A second admissions admin (not the author of the first one's notes). */
let otherAdmissions: { cookie: string; id: string };
/** The application made through the wizard API (applicant with a passport and its capability cookie). */
let real: { applicantId: string; applicationId: string; cookie: string; schoolId: string };
let schools: Array<typeof summerSchools.$inferSelect>;

const db = () => t.database.db;

const api = apiOf(() => t.app);

/** A catalogue choice of a seeded school (index in start-date order). */
async function choiceOf(schoolIndex: number) {
  const school = schools[schoolIndex]!;
  const [pkg] = await db()
    .select()
    .from(packages)
    .where(eq(packages.summerSchoolId, school.id))
    .orderBy(asc(packages.sortOrder))
    .limit(1);
  const [housing] = await db()
    .select()
    .from(housingOptions)
    .where(and(eq(housingOptions.summerSchoolId, school.id), eq(housingOptions.priceAdjustmentCents, 0)));
  return { school, pkg: pkg!, housing: housing! };
}

interface Seed {
  firstName?: string;
  lastName?: string;
  email?: string;
  language?: string;
  status?: typeof applications.$inferInsert.status;
  paymentStatus?: typeof applications.$inferInsert.paymentStatus;
  createdAt?: Date;
  totalAmountCents?: number | null;
  amountPaidCents?: number;
  appliedCodeId?: string | null;
  affiliateId?: string | null;
  schoolIndex?: number;
  applicantId?: string;
}

/** Inserts an applicant (unless `applicantId`) and an application directly, for list and workflow tests. */
async function seedApplication(s: Seed = {}) {
  const { school, pkg, housing } = await choiceOf(s.schoolIndex ?? 2);
  let applicantId = s.applicantId;
  if (!applicantId) {
    const [a] = await db()
      .insert(applicants)
      .values({
        firstName: s.firstName ?? "Test",
        lastName: s.lastName ?? "Applicant",
        email: s.email ?? `applicant-${randomUUID()}@example.com`,
        phone: "+31 70 123 4567",
        address: "Lange Voorhout 1",
        city: "The Hague",
        postalCode: "2514 EA",
        countryOfResidence: "NL",
        nationality: "CN",
        dateOfBirth: "2001-03-04",
        passportNumber: "E12345678",
        university: "Leiden University",
        fieldOfStudy: "law",
        studentStatus: "undergraduate",
        language: s.language ?? "en",
        accessTokenHash: hashToken(newToken()),
      })
      .returning();
    applicantId = a!.id;
  }
  const [app] = await db()
    .insert(applications)
    .values({
      applicantId,
      summerSchoolId: school.id,
      packageId: pkg.id,
      housingOptionId: housing.id,
      status: s.status ?? "submitted",
      paymentStatus: s.paymentStatus ?? "paid",
      totalAmountCents: s.totalAmountCents === undefined ? 304500 : s.totalAmountCents,
      amountPaidCents: s.amountPaidCents ?? 0,
      appliedCodeId: s.appliedCodeId ?? null,
      affiliateId: s.affiliateId ?? null,
      createdAt: s.createdAt ?? new Date(),
      submittedAt: s.status === "pending_payment" ? null : (s.createdAt ?? new Date()),
    })
    .returning();
  return { applicantId, applicationId: app!.id, schoolId: school.id };
}

beforeAll(async () => {
  t = await createTestApp();
  schools = await db().select().from(summerSchools).orderBy(asc(summerSchools.startDate));
  ({ cookies, adminIds } = await loginRoles(t.app));
  const admissions2 = await loginAsAdmin(t.app, "admissions", { name: "Second Reviewer" });
  otherAdmissions = { cookie: admissions2.cookie, id: admissions2.admin.id };
  real = await createPaidReadyApplication(t.app, {}, { remoteAddress: "10.77.0.1" });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe("dashboard against the seeded data", () => {
  it("counts statuses, revenue and cohort fill (June 50 of 50 paid, July 46 of 50)", async () => {
    const res = await api("GET", "/api/admin/dashboard", cookies.finance);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const body = res.json() as AdminDashboard;
    expectParses(adminDashboardSchema, body);
    expect(body.byStatus).toEqual({
      pending_payment: 1,
      submitted: 96,
      under_review: 0,
      accepted: 0,
      rejected: 0,
      waitlisted: 0,
      withdrawn: 0,
      cancelled: 0,
    });
    expect(body.paidRevenue).toBe(96 * 304500);
    const june = body.cohorts.find((c) => c.name.includes("June"))!;
    const july = body.cohorts.find((c) => c.name.includes("July"))!;
    expect(june).toMatchObject({ capacity: 50, paid: 50, fillRate: 1 });
    expect(july).toMatchObject({ capacity: 50, paid: 46, fillRate: 0.92 });
    expect(body.cohorts.filter((c) => c.paid === 0)).toHaveLength(3);
    expect(body.cohorts.map((c) => c.startDate)).toEqual([...body.cohorts.map((c) => c.startDate)].sort());
  });

  it("shows application changes to every role and the whole log (passport downloads too) only to owners", async () => {
    const { applicationId } = await seedApplication({ lastName: "Dashboardrecent" });
    const change = await api("PATCH", `/api/admin/applications/${applicationId}/status`, cookies.admissions, {
      status: "under_review",
      version: 1,
    });
    expect(change.statusCode).toBe(200);
    expect(
      (await api("GET", `/api/admin/applicants/${real.applicantId}/passport`, cookies.owner)).statusCode,
    ).toBe(200);
    const forFinance = (await api("GET", "/api/admin/dashboard", cookies.finance)).json() as AdminDashboard;
    expectParses(adminDashboardSchema, forFinance);
    expect(forFinance.recent[0]).toMatchObject({
      action: "application.status",
      entityId: applicationId,
      actorId: adminIds.admissions,
    });
    expect(forFinance.recent.every((e) => e.entityType === "application")).toBe(true);
    const forOwner = (await api("GET", "/api/admin/dashboard", cookies.owner)).json() as AdminDashboard;
    expectParses(adminDashboardSchema, forOwner);
    expect(forOwner.recent[0]).toMatchObject({ action: "passport.download", entityId: real.applicantId });
    expect(forOwner.recent.length).toBeLessThanOrEqual(10);
  });
});

describe("permissions of every route", () => {
  const unknownId = "00000000-0000-4000-8000-000000000000";
  /** [method, url, body, who may: allowed status for the permitted roles]. */
  const routes = () =>
    [
      ["GET", "/api/admin/applications", undefined, ["owner", "admissions", "finance"], 200],
      ["GET", "/api/admin/applications.csv", undefined, ["owner", "admissions", "finance"], 200],
      [
        "GET",
        `/api/admin/applications/${real.applicationId}`,
        undefined,
        ["owner", "admissions", "finance"],
        200,
      ],
      ["PATCH", `/api/admin/applications/${real.applicationId}/status`, {}, ["owner", "admissions"], 400],
      [
        "GET",
        `/api/admin/applicants/${real.applicantId}`,
        undefined,
        ["owner", "admissions", "finance"],
        200,
      ],
      [
        "GET",
        `/api/admin/applicants/${real.applicantId}/applications`,
        undefined,
        ["owner", "admissions", "finance"],
        200,
      ],
      [
        "GET",
        `/api/admin/applicants/${real.applicantId}/passport`,
        undefined,
        ["owner", "admissions", "finance"],
        200,
      ],
      [
        "GET",
        `/api/admin/applicants/${real.applicantId}/notes`,
        undefined,
        ["owner", "admissions", "finance"],
        200,
      ],
      ["POST", `/api/admin/applicants/${real.applicantId}/notes`, {}, ["owner", "admissions"], 400],
      ["PATCH", `/api/admin/notes/${unknownId}`, { body: "x" }, ["owner", "admissions"], 404],
      ["DELETE", `/api/admin/notes/${unknownId}`, undefined, ["owner", "admissions"], 404],
      ["GET", "/api/admin/dashboard", undefined, ["owner", "admissions", "finance"], 200],
      ["GET", "/api/admin/audit", undefined, ["owner"], 200],
    ] as const;

  it("admin roles: allowed per the permission table, else 403", async () => {
    const allowedOrForbidden = ([, , , allowed, okStatus]: ReturnType<typeof routes>[number]) =>
      Object.fromEntries(
        (["owner", "admissions", "finance"] as const).map((role) => [
          role,
          (allowed as readonly string[]).includes(role) ? okStatus : 403,
        ]),
      );
    await expectRouteStatuses(api, cookies, routes(), allowedOrForbidden, (res, label) => {
      expect(res.headers["cache-control"], label).toBe("no-store");
    });
  });

  it("student and affiliate sessions and anonymous requests: 401 (each role checks its own session)", async () => {
    const refused = { student: 401, affiliate: 401, anonymous: 401 };
    await expectRouteStatuses(api, cookies, routes(), refused, (res, label) => {
      expect(res.json(), label).toEqual({ message: "Please log in to continue." });
    });
  });

  it("the applicant's own capability cookie opens no admin route (no passport bytes)", async () => {
    const res = await api("GET", `/api/admin/applicants/${real.applicantId}/passport`, real.cookie);
    expect(res.statusCode).toBe(401);
    expect(res.headers["content-type"]).not.toContain("pdf");
    expect(res.rawPayload.includes(PDF_BYTES)).toBe(false);
    const detail = await api("GET", `/api/admin/applications/${real.applicationId}`, real.cookie);
    expect(detail.statusCode).toBe(401);
  });

  it("a cross-site state change is refused before anything else", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: `/api/admin/applicants/${real.applicantId}/notes`,
      headers: { cookie: cookies.owner, origin: "https://evil.example" },
      payload: { body: "csrf" },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe("application list", () => {
  const marker = `Mk${randomUUID().slice(0, 8)}`;
  const ids: Record<string, string> = {};
  let codeId: string;
  let affiliateId: string;

  beforeAll(async () => {
    const [code] = await db()
      .insert(codes)
      .values({
        code: `LIST${marker.toUpperCase()}`,
        codeType: "discount",
        discountType: "percentage",
        discountValue: 10,
      })
      .returning();
    codeId = code!.id;
    const [affiliate] = await db()
      .insert(affiliates)
      .values({ name: "List Partner", email: `list-${marker.toLowerCase()}@partner.example` })
      .returning();
    affiliateId = affiliate!.id;
    const rows: Array<[string, Seed]> = [
      [
        "anna",
        {
          firstName: "Anna",
          lastName: `Bakker ${marker}`,
          email: `anna.${marker}@example.com`,
          status: "submitted",
          paymentStatus: "paid",
          createdAt: new Date("2025-01-10T12:00:00Z"),
          totalAmountCents: 300000,
          amountPaidCents: 300000,
        },
      ],
      [
        "li",
        {
          firstName: "Li",
          lastName: `Wei ${marker}`,
          email: `LI.WEI.${marker}@Example.com`,
          status: "under_review",
          paymentStatus: "paid",
          createdAt: new Date("2025-02-15T08:00:00Z"),
          totalAmountCents: 250000,
          amountPaidCents: 250000,
          appliedCodeId: codeId,
          schoolIndex: 3,
        },
      ],
      [
        "chloe",
        {
          firstName: "Chloé",
          lastName: `Dupont ${marker}`,
          email: `chloe.${marker}@example.fr`,
          status: "pending_payment",
          paymentStatus: "unpaid",
          createdAt: new Date("2025-03-01T23:59:00Z"),
          totalAmountCents: null,
          affiliateId: undefined,
        },
      ],
      [
        "empty",
        {
          firstName: "Zoe",
          lastName: "",
          email: `no.last.${marker}@example.com`,
          status: "submitted",
          paymentStatus: "paid",
          createdAt: new Date("2025-03-02T00:00:00Z"),
          totalAmountCents: 400000,
          amountPaidCents: 400000,
        },
      ],
      [
        "under",
        {
          firstName: "Under_Score",
          lastName: `Percent%${marker}`,
          email: `under.${marker}@example.com`,
          status: "accepted",
          paymentStatus: "paid",
          createdAt: new Date("2025-04-20T10:00:00Z"),
          totalAmountCents: 100000,
          amountPaidCents: 100000,
        },
      ],
    ];
    for (const [key, seed] of rows) {
      ids[key] = (
        await seedApplication(key === "chloe" ? { ...seed, affiliateId: affiliate!.id } : seed)
      ).applicationId;
    }
  });

  const list = async (query: string, role: keyof typeof cookies = "admissions") => {
    const res = await api("GET", `/api/admin/applications?${query}`, cookies[role]);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as AdminApplicationList;
  };

  it("returns the contract shape with defaults (page 1, 25 a page, newest first)", async () => {
    const all = await list("");
    expect(all).toMatchObject({ page: 1, pageSize: 25 });
    expect(all.total).toBeGreaterThanOrEqual(96 + 5);
    expect(all.items).toHaveLength(25);
    const first = (await list(`q=${marker}`)).items.find((i) => i.id === ids.li)!;
    expect(first).toEqual({
      id: ids.li,
      createdAt: "2025-02-15T08:00:00.000Z",
      submittedAt: "2025-02-15T08:00:00.000Z",
      status: "under_review",
      paymentStatus: "paid",
      balanceDue: 0,
      dueDate: null,
      applicant: {
        id: expect.any(String),
        firstName: "Li",
        lastName: `Wei ${marker}`,
        email: `LI.WEI.${marker}@Example.com`,
      },
      summerSchool: { id: schools[3]!.id, name: expect.stringContaining("September") },
      totalAmount: 250000,
      amountPaid: 250000,
      refunded: 0,
      code: `LIST${marker.toUpperCase()}`,
      flag: null,
      missingCriticalData: false,
    });
  });

  it("searches first name, last name, full name and e-mail, case-insensitively", async () => {
    expect((await list(`q=${marker}`)).total).toBe(5);
    expect((await list(`q=anna`)).items.map((i) => i.id)).toContain(ids.anna);
    expect((await list(`q=${encodeURIComponent(`li wei ${marker}`)}`)).items.map((i) => i.id)).toEqual([
      ids.li,
    ]);
    expect(
      (await list(`q=${encodeURIComponent(`li.wei.${marker.toLowerCase()}@example.COM`)}`)).items.map(
        (i) => i.id,
      ),
    ).toEqual([ids.li]);
    expect((await list(`q=${encodeURIComponent(`chloé dupont ${marker}`)}`)).total).toBe(1);
    expect((await list(`q=${encodeURIComponent(`  ${marker}  `)}`)).total).toBe(5);
  });

  it("treats % and _ in the search as literal characters (escaped wildcards)", async () => {
    const percent = await list(`q=${encodeURIComponent("%")}`);
    expect(percent.items.map((i) => i.id)).toEqual([ids.under]);
    const underscore = await list(`q=${encodeURIComponent("_")}`);
    expect(underscore.items.map((i) => i.id)).toEqual([ids.under]);
    expect((await list(`q=${encodeURIComponent("\\")}`)).total).toBe(0);
  });

  it("keeps SQL and script in the search as data", async () => {
    for (const q of [
      "' OR 1=1 --",
      "x'); DROP TABLE applicants; --",
      "<script>alert(1)</script>",
      "%' OR '%'='",
    ]) {
      const res = await list(`q=${encodeURIComponent(q)}`);
      expect(res.total, q).toBe(0);
    }
    const [{ n } = { n: 0 }] = await db().select({ n: sql<number>`count(*)::int` }).from(applicants);
    expect(Number(n)).toBeGreaterThan(96);
  });

  it("filters by status, payment status, school, code (any case), affiliate and creation dates", async () => {
    const q = `q=${marker}`;
    expect((await list(`${q}&status=submitted`)).items.map((i) => i.id).sort()).toEqual(
      [ids.anna, ids.empty].sort(),
    );
    expect((await list(`${q}&paymentStatus=unpaid`)).items.map((i) => i.id)).toEqual([ids.chloe]);
    expect((await list(`${q}&schoolId=${schools[3]!.id}`)).items.map((i) => i.id)).toEqual([ids.li]);
    expect((await list(`code=list${marker.toLowerCase()}`)).items.map((i) => i.id)).toEqual([ids.li]);
    expect((await list(`affiliateId=${affiliateId}`)).items.map((i) => i.id)).toEqual([ids.chloe]);
    // from/to are inclusive calendar days (UTC).
    expect((await list(`${q}&from=2025-02-15&to=2025-03-01`)).items.map((i) => i.id)).toEqual([
      ids.chloe,
      ids.li,
    ]);
    expect((await list(`${q}&from=2025-03-02`)).items.map((i) => i.id)).toEqual([ids.under, ids.empty]);
    expect((await list(`${q}&to=2025-01-10`)).items.map((i) => i.id)).toEqual([ids.anna]);
    expect((await list(`${q}&status=accepted&paymentStatus=paid&from=2025-04-01`)).total).toBe(1);
    // Empty values mean "no filter" (the form sends every field).
    expect((await list(`${q}&status=&paymentStatus=&schoolId=&code=&affiliateId=&from=&to=`)).total).toBe(5);
  });

  it("sorts by every key, both ways, nulls last", async () => {
    const q = `q=${marker}&pageSize=100`;
    expect((await list(`${q}&sort=createdAt:asc`)).items.map((i) => i.id)).toEqual([
      ids.anna,
      ids.li,
      ids.chloe,
      ids.empty,
      ids.under,
    ]);
    expect((await list(`${q}&sort=createdAt:desc`)).items.map((i) => i.id)).toEqual([
      ids.under,
      ids.empty,
      ids.chloe,
      ids.li,
      ids.anna,
    ]);
    expect((await list(`${q}&sort=lastName:asc`)).items.map((i) => i.applicant.lastName)).toEqual([
      "",
      `Bakker ${marker}`,
      `Dupont ${marker}`,
      `Percent%${marker}`,
      `Wei ${marker}`,
    ]);
    expect((await list(`${q}&sort=totalAmount:desc`)).items.map((i) => i.totalAmount)).toEqual([
      400000,
      300000,
      250000,
      100000,
      null,
    ]);
    expect((await list(`${q}&sort=totalAmount:asc`)).items.map((i) => i.totalAmount)).toEqual([
      100000,
      250000,
      300000,
      400000,
      null,
    ]);
    expect((await list(`${q}&sort=submittedAt:asc`)).items.at(-1)!.id).toBe(ids.chloe);
    expect((await list(`${q}&sort=status:asc`)).items.map((i) => i.status)).toEqual([
      "pending_payment",
      "submitted",
      "submitted",
      "under_review",
      "accepted",
    ]);
  });

  it("pages server-side without gaps or overlaps", async () => {
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const res = await list(`q=${marker}&pageSize=2&page=${page}&sort=lastName:asc`);
      expect(res).toMatchObject({ total: 5, page, pageSize: 2 });
      seen.push(...res.items.map((i) => i.id));
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(Object.values(ids)));
    expect((await list(`q=${marker}&pageSize=2&page=4`)).items).toEqual([]);
    // Stable order over the 96 seeded rows created in the same instant.
    const a = await list("pageSize=100&page=1&sort=createdAt:asc");
    const b = await list("pageSize=100&page=2&sort=createdAt:asc");
    const both = [...a.items, ...b.items].map((i) => i.id);
    expect(new Set(both).size).toBe(both.length);
  });

  it("flags missing critical data (empty first or last name, docs/product/back-office.md#lists)", async () => {
    const items = (await list(`q=${marker}`)).items;
    expect(items.filter((i) => i.missingCriticalData).map((i) => i.id)).toEqual([ids.empty]);
  });

  it("answers 400 with a plain message for malformed query values", async () => {
    for (const query of [
      "pageSize=101",
      "pageSize=0",
      "page=0",
      "page=-1",
      "page=abc",
      "page=1.5",
      "sort=email:asc",
      "sort=createdAt",
      "sort=createdAt:sideways",
      "status=paid",
      "paymentStatus=free",
      "schoolId=123",
      "affiliateId=' OR 1=1",
      "from=2025-13-01",
      "to=2025-02-30",
      "from=yesterday",
      "q=a&q=b",
      `q=${"x".repeat(201)}`,
    ]) {
      const res = await api("GET", `/api/admin/applications?${query}`, cookies.owner);
      expect(res.statusCode, query).toBe(400);
      const body = res.json() as { message: string };
      expect(typeof body.message).toBe("string");
      expect(body.message.toLowerCase()).not.toMatch(/select|syntax|stack|zod/);
    }
  });

  describe("CSV export", () => {
    it("exports every matching row as a UTF-8 CSV attachment with a BOM", async () => {
      const res = await api(
        "GET",
        `/api/admin/applications.csv?q=${marker}&sort=ignored:asc`,
        cookies.finance,
      );
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toMatch(
        /^attachment; filename="applications-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const lines = csvLines(res);
      expect(lines[0]).toBe(
        "Application ID,Created,Submitted,Status,Payment status,First name,Last name,E-mail,Programme,Total (EUR),Paid net of refunds (EUR),Refunded (EUR),Balance due (EUR),Balance due date,Code,Flag,Missing critical data",
      );
      expect(lines).toHaveLength(6);
      const li = lines.find((l) => l.startsWith(ids.li!))!;
      expect(li).toContain(`,Li,Wei ${marker},LI.WEI.${marker}@Example.com,`);
      expect(li).toContain(`,2500.00,2500.00,0.00,0.00,,LIST${marker.toUpperCase()},,no`);
      expect(lines.find((l) => l.startsWith(ids.chloe!))).toContain(",Chloé,");
      expect(lines.find((l) => l.startsWith(ids.empty!))).toMatch(/,yes$/);
      // The full list without filters has every application.
      const all = await api("GET", "/api/admin/applications.csv", cookies.owner);
      const total = (await list("")).total;
      expect(all.body.trimEnd().split("\r\n")).toHaveLength(total + 1);
    });

    it("guards against formula injection and quotes commas, quotes and line breaks", async () => {
      const m2 = `Fx${randomUUID().slice(0, 6)}`;
      const evil = [
        ['=HYPERLINK("http://evil.example","x")', `${m2} a`],
        ["+SUM(1,2)", `${m2} b`],
        ["-2+3", `${m2} c`],
        ["@cmd", `${m2} d`],
        ["Line\nbreak", `${m2}, "quoted"`],
      ];
      for (const [firstName, lastName] of evil) await seedApplication({ firstName, lastName });
      const res = await api("GET", `/api/admin/applications.csv?q=${m2}`, cookies.owner);
      const body = res.body;
      expect(body).toContain(`,"'=HYPERLINK(""http://evil.example"",""x"")",${m2} a,`);
      expect(body).toContain(`,"'+SUM(1,2)",${m2} b,`);
      expect(body).toContain(`,'-2+3,${m2} c,`);
      expect(body).toContain(`,'@cmd,${m2} d,`);
      expect(body).toContain(`,"Line\nbreak","${m2}, ""quoted""",`);
      expect(body).not.toMatch(/,=|,\+|,-2|,@/);
    });

    it("refuses malformed filters with 400 and records the export in the audit log", async () => {
      expect((await api("GET", "/api/admin/applications.csv?status=nope", cookies.owner)).statusCode).toBe(
        400,
      );
      const entries = await auditEntries(db(), { action: "applications.export" });
      expect(entries.length).toBeGreaterThanOrEqual(1);
      expect(entries.some((e) => (e.after as { filters: { q?: string } }).filters.q === marker)).toBe(true);
    });
  });
});

describe("application and applicant detail", () => {
  it("answers the full detail: applicant fields, programme, quote, payments, code, other applications", async () => {
    const second = await seedApplication({
      applicantId: real.applicantId,
      schoolIndex: 3,
      status: "withdrawn",
    });
    const res = await api("GET", `/api/admin/applications/${real.applicationId}`, cookies.finance);
    expect(res.statusCode).toBe(200);
    const d = res.json() as AdminApplicationDetail;
    expect(d).toMatchObject({
      id: real.applicationId,
      version: 1,
      status: "pending_payment",
      paymentStatus: "unpaid",
      allowedTransitions: ["cancelled"],
      flag: null,
      submittedAt: null,
      paidAt: null,
      missingCriticalData: false,
      code: null,
      payments: [],
      otherApplications: [
        { id: second.applicationId, programName: expect.stringContaining("September"), status: "withdrawn" },
      ],
    });
    expect(d.applicant).toMatchObject({
      id: real.applicantId,
      firstName: "Amara",
      lastName: "Okafor",
      email: "amara.okafor@example.com",
      passportNumber: "A12345678",
      dateOfBirth: expect.stringMatching(/^\d{4}-05-14$/),
      hasPassport: true,
      passportUrl: `/api/admin/applicants/${real.applicantId}/passport`,
    });
    expect(d.applicant).not.toHaveProperty("accessTokenHash");
    expect(d.applicant).not.toHaveProperty("passportFileId");
    expect(d.summerSchool.id).toBe(real.schoolId);
    expect(d.quote!.totalAmount).toBeGreaterThan(0);
    expect(d.quote!.lineItems[0]!.kind).toBe("package");
    expect(d.package.name).toBeTruthy();
  });

  it("lists the payments of a paid application", async () => {
    const [paid] = await db()
      .select({ id: applications.id })
      .from(applications)
      .innerJoin(payments, eq(payments.applicationId, applications.id))
      .limit(1);
    const d = (
      await api("GET", `/api/admin/applications/${paid!.id}`, cookies.owner)
    ).json() as AdminApplicationDetail;
    expect(d.paymentStatus).toBe("paid");
    expect(d.payments).toEqual([
      {
        id: expect.any(String),
        flag: null,
        amount: 304500,
        currency: "EUR",
        provider: "none",
        reference: expect.stringMatching(/^demo-/),
        paidAt: expect.any(String),
      },
    ]);
    expect(d.quote!.totalAmount).toBe(304500);
  });

  it("marks missing critical data when a first or last name is empty", async () => {
    const { applicationId, applicantId } = await seedApplication({ firstName: "", lastName: "Nameless" });
    const d = (
      await api("GET", `/api/admin/applications/${applicationId}`, cookies.owner)
    ).json() as AdminApplicationDetail;
    expect(d.missingCriticalData).toBe(true);
    expect(d.applicant.missingCriticalData).toBe(true);
    const a = (
      await api("GET", `/api/admin/applicants/${applicantId}`, cookies.owner)
    ).json() as AdminApplicantDto;
    expect(a).toMatchObject({
      firstName: "",
      missingCriticalData: true,
      hasPassport: false,
      passportUrl: null,
    });
  });

  it("still shows an application whose programme was archived (quote null)", async () => {
    const { applicationId } = await seedApplication({ schoolIndex: 4 });
    await db()
      .update(summerSchools)
      .set({ archivedAt: new Date() })
      .where(eq(summerSchools.id, schools[4]!.id));
    try {
      const res = await api("GET", `/api/admin/applications/${applicationId}`, cookies.owner);
      expect(res.statusCode).toBe(200);
      const d = res.json() as AdminApplicationDetail;
      expect(d.quote).toBeNull();
      expect(d.summerSchool.name).toContain("October");
    } finally {
      await db().update(summerSchools).set({ archivedAt: null }).where(eq(summerSchools.id, schools[4]!.id));
    }
  });

  it("answers 404 { error, message } for unknown and malformed ids (docs/product/api.md#not-found)", async () => {
    for (const id of [
      randomUUID(),
      "abc",
      "1' OR '1'='1",
      "..%2F..%2Fetc",
      "00000000-0000-0000-0000-00000000000g",
    ]) {
      for (const url of [
        `/api/admin/applications/${id}`,
        `/api/admin/applicants/${id}`,
        `/api/admin/applicants/${id}/applications`,
        `/api/admin/applicants/${id}/notes`,
        `/api/admin/applicants/${id}/passport`,
      ]) {
        const res = await api("GET", url, cookies.owner);
        expect(res.statusCode, url).toBe(404);
        expect(res.json(), url).toEqual({
          error: "not_found",
          message: "We could not find what you asked for.",
        });
      }
    }
    const fr = await api("GET", `/api/admin/applications/${randomUUID()}`, `${cookies.owner}; language=fr`);
    expect(fr.json()).toMatchObject({ error: "not_found" });
    expect(fr.json().message).not.toBe("We could not find what you asked for.");
  });

  it("lists an applicant's applications", async () => {
    const res = await api(
      "GET",
      `/api/admin/applicants/${real.applicantId}/applications`,
      cookies.admissions,
    );
    expect(res.statusCode).toBe(200);
    const rows = res.json() as Array<{ id: string; programName: string; startDate: string }>;
    expect(rows.map((r) => r.id)).toContain(real.applicationId);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows[0]).toMatchObject({
      programName: expect.any(String),
      startDate: expect.stringMatching(/^\d{4}-/),
    });
  });
});

describe("status workflow", () => {
  const change = (id: string, status: string, version: number, cookie = cookies.admissions) =>
    api("PATCH", `/api/admin/applications/${id}/status`, cookie, { status, version });
  const outboxOf = (id: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `status:${id}:%`))
      .orderBy(asc(emailOutbox.createdAt));
  const auditOf = (id: string) =>
    auditEntries(db(), { entityType: "application", entityId: id, action: "application.status" });

  it("walks submitted → under_review → waitlisted → accepted → withdrawn with one e-mail and one audit entry each", async () => {
    const { applicationId } = await seedApplication({ firstName: "Noor", email: "noor@example.com" });
    const steps = ["under_review", "waitlisted", "accepted", "withdrawn"];
    let version = 1;
    for (const status of steps) {
      const res = await change(applicationId, status, version);
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json() as AdminApplicationDetail;
      expect(d).toMatchObject({ status, version: version + 1 });
      version += 1;
    }
    expect(
      (await api("GET", `/api/admin/applications/${applicationId}`, cookies.owner)).json(),
    ).toMatchObject({
      status: "withdrawn",
      version: 5,
      allowedTransitions: [],
    });
    const mails = await outboxOf(applicationId);
    expect(mails.map((m) => m.dedupeKey)).toEqual([2, 3, 4, 5].map((v) => `status:${applicationId}:${v}`));
    expect(mails.every((m) => m.toAddress === "noor@example.com")).toBe(true);
    expect(mails[0]!.subject).toMatch(/^Update on your application: International Business Summer School/);
    expect(mails[0]!.textBody).toContain("Dear Noor,");
    expect(mails[0]!.textBody).toContain("started reviewing");
    expect(mails[2]!.textBody).toContain("Congratulations");
    const audit = await auditOf(applicationId);
    expect(audit.map((a) => [a.before, a.after])).toEqual([
      [
        { status: "submitted", version: 1 },
        { status: "under_review", version: 2 },
      ],
      [
        { status: "under_review", version: 2 },
        { status: "waitlisted", version: 3 },
      ],
      [
        { status: "waitlisted", version: 3 },
        { status: "accepted", version: 4 },
      ],
      [
        { status: "accepted", version: 4 },
        { status: "withdrawn", version: 5 },
      ],
    ]);
    expect(audit.every((a) => a.actorRole === "admin" && a.actorId === adminIds.admissions)).toBe(true);
  });

  it("refuses transitions the workflow does not allow with 422, changing nothing", async () => {
    const cases: Array<[Seed["status"], string]> = [
      ["submitted", "accepted"],
      ["submitted", "submitted"],
      ["submitted", "pending_payment"],
      ["pending_payment", "under_review"],
      ["pending_payment", "withdrawn"],
      ["under_review", "submitted"],
      ["waitlisted", "under_review"],
      ["rejected", "accepted"],
      ["withdrawn", "under_review"],
      ["cancelled", "submitted"],
      ["accepted", "rejected"],
    ];
    for (const [from, to] of cases) {
      const { applicationId } = await seedApplication({ status: from });
      const res = await change(applicationId, to, 1);
      expect(res.statusCode, `${from} → ${to}`).toBe(422);
      expect(res.json().message).toBe(
        "This status change is not allowed from the application's current status.",
      );
      const [row] = await db().select().from(applications).where(eq(applications.id, applicationId));
      expect(row).toMatchObject({ status: from, version: 1 });
      expect(await outboxOf(applicationId)).toEqual([]);
      expect(await auditOf(applicationId)).toEqual([]);
    }
  });

  it("allows every listed transition (pending_payment → cancelled, under_review → rejected, waitlisted → rejected, …)", async () => {
    const cases: Array<[Seed["status"], string]> = [
      ["pending_payment", "cancelled"],
      ["submitted", "withdrawn"],
      ["submitted", "cancelled"],
      ["under_review", "accepted"],
      ["under_review", "rejected"],
      ["under_review", "waitlisted"],
      ["waitlisted", "accepted"],
      ["waitlisted", "rejected"],
      ["accepted", "cancelled"],
    ];
    for (const [from, to] of cases) {
      const { applicationId } = await seedApplication({ status: from });
      const res = await change(applicationId, to, 1, cookies.owner);
      expect(res.statusCode, `${from} → ${to}`).toBe(200);
      expect(await outboxOf(applicationId)).toHaveLength(1);
    }
  });

  it("answers 409 with the current detail on a stale version (no silent overwrite)", async () => {
    const { applicationId } = await seedApplication();
    expect((await change(applicationId, "under_review", 1)).statusCode).toBe(200);
    const stale = await change(applicationId, "cancelled", 1, cookies.owner);
    expect(stale.statusCode).toBe(409);
    const body = stale.json() as { message: string; current: AdminApplicationDetail };
    expect(body.message).toMatch(/changed by someone else/);
    expect(body.current).toMatchObject({ id: applicationId, status: "under_review", version: 2 });
    expect(await outboxOf(applicationId)).toHaveLength(1);
    expect(await auditOf(applicationId)).toHaveLength(1);
    expect((await change(applicationId, "accepted", 2)).statusCode).toBe(200);
  });

  it("two simultaneous changes with the same version: one wins, the other gets 409", async () => {
    const { applicationId } = await seedApplication();
    const [a, b] = await Promise.all([
      change(applicationId, "under_review", 1),
      change(applicationId, "cancelled", 1, cookies.owner),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    expect(await outboxOf(applicationId)).toHaveLength(1);
    expect(await auditOf(applicationId)).toHaveLength(1);
  });

  it("writes the e-mail in the applicant's language (zh, fr)", async () => {
    const zh = await seedApplication({ firstName: "伟", language: "zh" });
    const fr = await seedApplication({
      firstName: "Chloé",
      language: "fr",
      paymentStatus: "paid",
      amountPaidCents: 304500,
    });
    expect((await change(zh.applicationId, "under_review", 1)).statusCode).toBe(200);
    expect((await change(fr.applicationId, "cancelled", 1)).statusCode).toBe(200);
    const [zhMail] = await outboxOf(zh.applicationId);
    expect(zhMail!.subject).toBe(`您的申请状态更新：${schools[2]!.name.zh}`);
    expect(zhMail!.textBody).toContain("伟同学，您好：");
    const [frMail] = await outboxOf(fr.applicationId);
    expect(frMail!.subject).toBe(`Mise à jour de votre candidature\u202f: ${schools[2]!.name.fr}`);
    expect(frMail!.textBody).toContain("a été annulée");
    expect(frMail!.textBody).toContain("Comme vous avez déjà payé");
  });

  it("escapes the applicant's name in the HTML e-mail", async () => {
    const { applicationId } = await seedApplication({ firstName: "<img src=x onerror=alert(1)>" });
    expect((await change(applicationId, "under_review", 1)).statusCode).toBe(200);
    const [mail] = await outboxOf(applicationId);
    expect(mail!.htmlBody).not.toContain("<img");
    expect(mail!.htmlBody).toContain("&#60;img");
  });

  it("answers 400 for a malformed body and 404 for an unknown application", async () => {
    const { applicationId } = await seedApplication();
    for (const payload of [
      {},
      { status: "under_review" },
      { status: "bogus", version: 1 },
      { status: "under_review", version: "1" },
      { status: "under_review", version: 0 },
    ]) {
      const res = await api(
        "PATCH",
        `/api/admin/applications/${applicationId}/status`,
        cookies.owner,
        payload,
      );
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
    }
    const bad = await api(
      "PATCH",
      `/api/admin/applications/${applicationId}/status`,
      cookies.owner,
      "{not json",
      {
        headers: { "content-type": "application/json" },
      },
    );
    expect(bad.statusCode).toBe(400);
    const unknown = await change(randomUUID(), "under_review", 1);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "not_found" });
  });
});

describe("notes", () => {
  let applicantId: string;
  const notesUrl = () => `/api/admin/applicants/${applicantId}/notes`;

  beforeAll(async () => {
    applicantId = (await seedApplication({ lastName: "Noted" })).applicantId;
  });

  it("creates, lists, edits and deletes a note (author), each with an audit entry", async () => {
    const created = await api("POST", notesUrl(), cookies.admissions, {
      body: "  Called the applicant; visa appointment on 3 May.  ",
    });
    expect(created.statusCode).toBe(201);
    const note = created.json() as AdminNoteDto;
    expect(note).toMatchObject({
      applicantId,
      body: "Called the applicant; visa appointment on 3 May.",
      author: { id: adminIds.admissions, name: "Test Admissions", email: expect.stringContaining("@") },
    });
    const listed = (await api("GET", notesUrl(), cookies.finance)).json() as AdminNoteDto[];
    expect(listed.map((n) => n.id)).toEqual([note.id]);
    const edited = await api("PATCH", `/api/admin/notes/${note.id}`, cookies.admissions, {
      body: "Visa appointment moved to 5 May.",
    });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: note.id, body: "Visa appointment moved to 5 May." });
    expect(new Date(edited.json().updatedAt).getTime()).toBeGreaterThanOrEqual(
      new Date(note.updatedAt).getTime(),
    );
    const deleted = await api("DELETE", `/api/admin/notes/${note.id}`, cookies.admissions);
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe("");
    expect((await api("GET", notesUrl(), cookies.owner)).json()).toEqual([]);
    const audit = await auditEntries(db(), { entityId: note.id });
    expect(audit.map((a) => a.action).sort()).toEqual(["note.create", "note.delete", "note.update"]);
    const update = audit.find((a) => a.action === "note.update")!;
    expect(update.before).toMatchObject({ body: "Called the applicant; visa appointment on 3 May." });
    expect(update.after).toMatchObject({ body: "Visa appointment moved to 5 May." });
    expect(audit.find((a) => a.action === "note.delete")!.after).toBeNull();
  });

  it("only the author or an owner edits or deletes a note (else 403)", async () => {
    const note = (
      await api("POST", notesUrl(), cookies.admissions, { body: "Author only" })
    ).json() as AdminNoteDto;
    const patch = await api("PATCH", `/api/admin/notes/${note.id}`, otherAdmissions.cookie, {
      body: "hijacked",
    });
    expect(patch.statusCode).toBe(403);
    expect(patch.json()).toEqual({ message: "You do not have permission to do this." });
    expect((await api("DELETE", `/api/admin/notes/${note.id}`, otherAdmissions.cookie)).statusCode).toBe(403);
    expect(
      (await api("PATCH", `/api/admin/notes/${note.id}`, cookies.finance, { body: "x" })).statusCode,
    ).toBe(403);
    const [row] = await db().select().from(applicantNotes).where(eq(applicantNotes.id, note.id));
    expect(row!.body).toBe("Author only");
    const byOwner = await api("PATCH", `/api/admin/notes/${note.id}`, cookies.owner, { body: "Owner edit" });
    expect(byOwner.statusCode).toBe(200);
    expect(byOwner.json().author.id).toBe(adminIds.admissions);
    expect((await api("DELETE", `/api/admin/notes/${note.id}`, cookies.owner)).statusCode).toBe(204);
    expect((await api("DELETE", `/api/admin/notes/${note.id}`, cookies.owner)).statusCode).toBe(404);
  });

  it("stores script and SQL in a note body as data and returns them unchanged", async () => {
    const bodies = [
      "<script>alert('x')</script>",
      "'); DELETE FROM applicant_notes; --",
      "Robert'); DROP TABLE audit_log;--",
      "emoji 🎓 and 中文 and « français »",
    ];
    for (const body of bodies) {
      const res = await api("POST", notesUrl(), cookies.owner, { body });
      expect(res.statusCode).toBe(201);
      expect(res.json().body).toBe(body);
    }
    const listed = (await api("GET", notesUrl(), cookies.owner)).json() as AdminNoteDto[];
    expect(listed.map((n) => n.body)).toEqual(bodies);
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n).toBeGreaterThan(0);
  });

  it("validates the body (1-5000 characters) and the applicant", async () => {
    for (const payload of [{}, { body: "" }, { body: "   " }, { body: 42 }, { body: "x".repeat(5001) }]) {
      const res = await api("POST", notesUrl(), cookies.owner, payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(typeof res.json().message).toBe("string");
    }
    expect((await api("POST", notesUrl(), cookies.owner, { body: "x".repeat(5000) })).statusCode).toBe(201);
    const unknown = await api("POST", `/api/admin/applicants/${randomUUID()}/notes`, cookies.owner, {
      body: "hi",
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ error: "not_found" });
    const nul = await api("POST", notesUrl(), cookies.owner, { body: "nul \u0000 byte" });
    expect(nul.statusCode).toBe(400);
  });
});

describe("passport download", () => {
  it("sends the decrypted PDF as an attachment with nosniff and no-store, and audits it", async () => {
    const downloads = () => auditEntries(db(), { action: "passport.download", entityId: real.applicantId });
    const before = await downloads();
    const res = await api("GET", `/api/admin/applicants/${real.applicantId}/passport`, cookies.admissions);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload).toEqual(PDF_BYTES);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="passport.pdf"');
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["cache-control"]).toBe("no-store");
    const after = await downloads();
    expect(after.length).toBe(before.length + 1);
    expect(after.some((a) => a.actorId === adminIds.admissions && a.entityType === "applicant")).toBe(true);
  });

  it("answers 404 for an applicant without a passport", async () => {
    const { applicantId } = await seedApplication();
    const res = await api("GET", `/api/admin/applicants/${applicantId}/passport`, cookies.owner);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: "not_found" });
  });
});

describe("audit log", () => {
  it("lists entries for the owner, filtered by entity, newest first, with the actor's e-mail", async () => {
    const { applicationId } = await seedApplication();
    await api("PATCH", `/api/admin/applications/${applicationId}/status`, cookies.admissions, {
      status: "under_review",
      version: 1,
    });
    await api("PATCH", `/api/admin/applications/${applicationId}/status`, cookies.owner, {
      status: "accepted",
      version: 2,
    });
    const res = await api(
      "GET",
      `/api/admin/audit?entityType=application&entityId=${applicationId}`,
      cookies.owner,
    );
    expect(res.statusCode).toBe(200);
    const page = res.json() as AuditPage;
    expectParses(auditPageSchema, page);
    expect(page.total).toBe(2);
    expect(page.items[0]).toMatchObject({
      actorRole: "admin",
      actorId: adminIds.owner,
      actorEmail: expect.stringContaining("admin-owner"),
      action: "application.status",
      entityType: "application",
      entityId: applicationId,
      before: { status: "under_review", version: 2 },
      after: { status: "accepted", version: 3 },
    });
    expect(page.items[1]).toMatchObject({ actorId: adminIds.admissions, after: { status: "under_review" } });
    const all = (await api("GET", "/api/admin/audit", cookies.owner)).json() as AuditPage;
    expectParses(auditPageSchema, all);
    expect(all.pageSize).toBe(50);
    expect(all.total).toBeGreaterThan(2);
    expect((await api("GET", "/api/admin/audit?page=0", cookies.owner)).statusCode).toBe(400);
    expect((await api("GET", "/api/admin/audit?page=9999", cookies.owner)).json().items).toEqual([]);
  });

  it("is append-only: no route updates or deletes audit entries", async () => {
    const [entry] = await db().select().from(auditLog).limit(1);
    const count = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(auditLog))[0]!.n;
    const before = await count();
    for (const method of ["POST", "PUT", "PATCH", "DELETE"] as const) {
      for (const url of ["/api/admin/audit", `/api/admin/audit/${entry!.id}`]) {
        const res = await api(method, url, cookies.owner, method === "DELETE" ? undefined : { action: "x" });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    expect(await count()).toBe(before);
    const [same] = await db().select().from(auditLog).where(eq(auditLog.id, entry!.id));
    expect(same).toEqual(entry);
  });
});
