/**
 * API tests of the back office's codes (docs/product/back-office.md#codes-admin): who may use each route, creating,
 * editing, switching on and off and deleting codes with every rule, the list (search, filters,
 * sort, pages, CSV), version conflicts, audit entries, and the usage and revenue of a code after
 * an applicant paid with it.
 */
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SummerSchoolDto } from "../../../shared/catalogue";
import type { AdminCodeDetail, AdminCodeDto, AdminCodeList } from "../../../shared/codes-admin";
import { staleVersionBodySchema } from "../../../shared/schemas/catalogue-admin";
import {
  adminCodeDetailSchema,
  adminCodeListSchema,
  adminCodeSchema,
} from "../../../shared/schemas/codes-admin";
import { affiliates, codes } from "../../db/schema";
import { loginAsAffiliate } from "../../testing/accounts";
import {
  adminRoles,
  apiOf,
  auditEntries,
  expectCsvDownload,
  expectRouteStatuses,
  latestAuditEntry,
} from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, json, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";

const WEBHOOK_SECRET = "whsec_codes_admin_test_secret";
let t: TestApp;
const cookies = {} as Record<"owner" | "finance" | "admissions" | "student" | "affiliate", string>;
let openSchools: SummerSchoolDto[];
let affiliateId: string;
let counter = 0;
const uniqueCode = (prefix = "T") => `${prefix}${Date.now().toString(36).toUpperCase()}${++counter}`;

const api = apiOf(() => t.app);
const {
  newApplication,
  validate,
  sessionOf,
  payByWebhook: pay,
} = paymentFlow(() => t, {
  addressPrefix: "10.31",
  webhookSecret: WEBHOOK_SECRET,
});

beforeAll(async () => {
  t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
  Object.assign(cookies, await adminRoles(t.app));
  const partner = await loginAsAffiliate(t.app, { name: "Delft Study Partners" });
  cookies.affiliate = partner.cookie;
  affiliateId = partner.affiliate.id;
  const schools = json<SummerSchoolDto[]>(await api("GET", "/api/summer-schools"));
  openSchools = schools.filter((s) => s.status === "open");
  expect(openSchools.length).toBeGreaterThanOrEqual(2);
});
afterAll(async () => {
  await t?.close();
});

/** A valid percentage code body, with overrides. */
const body = (overrides: Record<string, unknown> = {}) => ({
  code: uniqueCode(),
  codeType: "discount",
  discountType: "percentage",
  discountValue: 15,
  description: "Spring campaign",
  ...overrides,
});

/** `POST /api/admin/codes` with a valid body and `overrides`: the created code, checked against its schema. */
async function create(overrides: Record<string, unknown> = {}, cookie = cookies.finance) {
  const res = await api("POST", "/api/admin/codes", cookie, body(overrides));
  expect(res.statusCode, res.body).toBe(201);
  expectParses(adminCodeSchema, json(res));
  return json<AdminCodeDto>(res);
}

/** `GET /api/admin/codes/:id` as finance, checked against its schema. */
async function detailOf(id: string): Promise<AdminCodeDetail> {
  const res = await api("GET", `/api/admin/codes/${id}`, cookies.finance);
  expect(res.statusCode, res.body).toBe(200);
  expectParses(adminCodeDetailSchema, json(res));
  return json<AdminCodeDetail>(res);
}

const auditOf = (entityId: string) => auditEntries(t.database.db, { entityType: "code", entityId });

describe("access to the codes API", () => {
  const UNKNOWN = "00000000-0000-4000-8000-000000000000";
  const routes: Array<[Parameters<typeof api>[0], string, unknown?]> = [
    ["GET", "/api/admin/codes"],
    ["GET", "/api/admin/codes.csv"],
    ["GET", `/api/admin/codes/${UNKNOWN}`],
    ["POST", "/api/admin/codes", {}],
    ["PUT", `/api/admin/codes/${UNKNOWN}`, {}],
    ["POST", `/api/admin/codes/${UNKNOWN}/activate`, { version: 1 }],
    ["POST", `/api/admin/codes/${UNKNOWN}/deactivate`, { version: 1 }],
    ["DELETE", `/api/admin/codes/${UNKNOWN}`],
  ];

  it("401 without an admin session (also with a student or affiliate session), 403 for admissions", async () => {
    await expectRouteStatuses(api, cookies, routes, { anonymous: 401, student: 401, affiliate: 401 });
    await expectRouteStatuses(api, cookies, routes, { admissions: 403 }, (refused, label) => {
      expect(json(refused).message, label).toBe("You do not have permission to do this.");
    });
  });

  it("opens the list to finance and owners, with no-store", async () => {
    for (const cookie of [cookies.finance, cookies.owner]) {
      const res = await api("GET", "/api/admin/codes", cookie);
      expect(res.statusCode).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
    }
  });

  it("404 for an unknown or malformed id on every route that takes one", async () => {
    for (const id of [UNKNOWN, "not-a-uuid", "1"]) {
      expect((await api("GET", `/api/admin/codes/${id}`, cookies.finance)).statusCode).toBe(404);
      expect(
        (await api("PUT", `/api/admin/codes/${id}`, cookies.finance, { ...body(), version: 1 })).statusCode,
      ).toBe(404);
      expect(
        (await api("POST", `/api/admin/codes/${id}/deactivate`, cookies.finance, { version: 1 })).statusCode,
      ).toBe(404);
      expect((await api("DELETE", `/api/admin/codes/${id}`, cookies.finance)).statusCode).toBe(404);
    }
  });
});

describe("POST /api/admin/codes", () => {
  it("creates a percentage code limited to one school, upper-cased, with an audit entry", async () => {
    const text = uniqueCode("summer");
    const school = openSchools[0]!;
    const res = await api(
      "POST",
      "/api/admin/codes",
      cookies.finance,
      body({
        code: `  ${text.toLowerCase()} `,
        summerSchoolIds: [school.id],
        validFrom: "2020-01-01T00:00:00.000Z",
        validTo: "2099-12-31T23:00:00+01:00",
        maxRedemptions: 20,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const code = json<AdminCodeDto>(res);
    expectParses(adminCodeSchema, code);
    expect(code).toMatchObject({
      code: text.toUpperCase(),
      codeType: "discount",
      discountType: "percentage",
      discountValue: 15,
      active: true,
      validFrom: "2020-01-01T00:00:00.000Z",
      validTo: "2099-12-31T22:00:00.000Z",
      expired: false,
      maxRedemptions: 20,
      summerSchools: [{ id: school.id, name: school.name }],
      affiliate: null,
      uses: 0,
      redeemed: 0,
      revenue: 0,
      version: 1,
    });
    const audit = await auditOf(code.id);
    expect(audit.map((a) => a.action)).toEqual(["code.create"]);
    expect(audit[0]!.after).toMatchObject({ code: text.toUpperCase(), discountValue: 15 });

    // The applicant side sees the new code at once, for that school only.
    const inSchool = await newApplication(school.id);
    expect(json(await validate(text.toLowerCase(), inSchool))).toMatchObject({
      isValid: true,
      discountType: "percentage",
      discountAmount: 45675,
    });
    const elsewhere = await newApplication(openSchools[1]!.id);
    expect(json(await validate(text, elsewhere))).toEqual({
      isValid: false,
      message: "This code does not apply to the programme you selected.",
    });
  });

  it("creates a fixed code in cents and a referral code with value 0 linked to its affiliate", async () => {
    const fixed = await create({ discountType: "fixed", discountValue: 12550 });
    expect(fixed).toMatchObject({ discountType: "fixed", discountValue: 12550 });
    const referral = await create({
      codeType: "referral",
      discountType: "percentage",
      discountValue: 30,
      affiliateId,
    });
    expect(referral).toMatchObject({
      codeType: "referral",
      discountType: null,
      discountValue: 0,
      affiliate: { id: affiliateId, name: "Delft Study Partners", status: "approved" },
    });
  });

  it("refuses each broken rule with 400 and the field's message", async () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ["code too short", { code: "AB" }, "code", "A code has 3 to 32 characters"],
      ["code with a space", { code: "TWO WORDS" }, "code", "A code has 3 to 32 characters"],
      ["code missing", { code: "" }, "code", "Please fill in all required fields."],
      ["percent 0", { discountValue: 0 }, "discountValue", "whole number from 1 to 100"],
      ["percent 101", { discountValue: 101 }, "discountValue", "whole number from 1 to 100"],
      ["percent 12.5", { discountValue: 12.5 }, "discountValue", ""],
      ["fixed 0", { discountType: "fixed", discountValue: 0 }, "discountValue", "above 0.00 EUR"],
      ["fixed negative", { discountType: "fixed", discountValue: -100 }, "discountValue", ""],
      ["no discount type", { discountType: null }, "discountType", "percentage or a fixed amount"],
      ["referral without affiliate", { codeType: "referral" }, "affiliateId", "needs the affiliate"],
      [
        "valid to before valid from",
        { validFrom: "2027-06-02T10:00:00.000Z", validTo: "2027-06-01T10:00:00.000Z" },
        "validTo",
        "must be after its start",
      ],
      [
        "valid to equal to valid from",
        { validFrom: "2027-06-02T10:00:00.000Z", validTo: "2027-06-02T10:00:00.000Z" },
        "validTo",
        "must be after its start",
      ],
      ["not a timestamp", { validFrom: "tomorrow" }, "validFrom", "valid date and time"],
      ["max redemptions 0", { maxRedemptions: 0 }, "maxRedemptions", "at least 1"],
      ["unknown type", { codeType: "gift" }, "codeType", ""],
      [
        "unknown school",
        { summerSchoolIds: ["00000000-0000-4000-8000-000000000000"] },
        "summerSchoolIds",
        "does not exist",
      ],
      ["malformed school", { summerSchoolIds: ["x"] }, "summerSchoolIds.0", ""],
      [
        "unknown affiliate",
        { affiliateId: "00000000-0000-4000-8000-000000000000" },
        "affiliateId",
        "does not exist",
      ],
      ["description too long", { description: "x".repeat(501) }, "description", ""],
    ];
    for (const [what, overrides, field, text] of cases) {
      const res = await api("POST", "/api/admin/codes", cookies.finance, body(overrides));
      expect(res.statusCode, what).toBe(400);
      const answer = json<{ message: string; fieldErrors: Record<string, string> }>(res);
      expect(Object.keys(answer.fieldErrors), what).toContain(field);
      expect(answer.message, what).toContain(text);
    }
    const malformed = await api("POST", "/api/admin/codes", cookies.finance, "{not json", {
      headers: { "content-type": "application/json" },
    });
    expect(malformed.statusCode).toBe(400);
  });

  it("409 when the code exists, whatever its case (the demo's WELCOME10)", async () => {
    const res = await api("POST", "/api/admin/codes", cookies.finance, body({ code: "welcome10" }));
    expect(res.statusCode).toBe(409);
    expect(json(res).message).toBe("This code already exists. Please choose another one.");
    expect(json<{ fieldErrors: Record<string, string> }>(res).fieldErrors.code).toBe(
      "This code already exists. Please choose another one.",
    );
  });

  it("answers in the admin's language", async () => {
    const res = await api(
      "POST",
      "/api/admin/codes",
      `${cookies.finance}; language=fr`,
      body({ discountValue: 0 }),
    );
    expect(json(res).message).toBe("Une remise en pourcentage doit être un nombre entier de 1 à 100.");
  });
});

describe("PUT /api/admin/codes/:id, activate, deactivate, delete", () => {
  it("edits with the version seen, bumps it and audits before → after; 409 with the current code when stale", async () => {
    const code = await create();
    const res = await api("PUT", `/api/admin/codes/${code.id}`, cookies.owner, {
      ...body({ code: code.code, discountValue: 25, description: "Raised" }),
      version: 1,
    });
    expect(res.statusCode, res.body).toBe(200);
    expectParses(adminCodeSchema, json(res));
    expect(json(res)).toMatchObject({ discountValue: 25, description: "Raised", version: 2 });

    const stale = await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, {
      ...body({ code: code.code, discountValue: 5 }),
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expectParses(staleVersionBodySchema(adminCodeSchema), json(stale));
    expect(json(stale).message).toContain("changed by someone else");
    expect(json<{ current: AdminCodeDto }>(stale).current).toMatchObject({ discountValue: 25, version: 2 });

    const audit = await auditOf(code.id);
    expect(audit.map((a) => a.action)).toEqual(["code.create", "code.update"]);
    expect(audit[1]!.before).toMatchObject({ discountValue: 15, version: 1 });
    expect(audit[1]!.after).toMatchObject({ discountValue: 25, version: 2 });
  });

  it("409 when renaming to an existing code; 400 for a broken rule", async () => {
    const code = await create();
    const taken = await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, {
      ...body({ code: "save200" }),
      version: 1,
    });
    expect(taken.statusCode).toBe(409);
    expect(json(taken).message).toBe("This code already exists. Please choose another one.");
    const broken = await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, {
      ...body({ code: code.code, discountType: "fixed", discountValue: 0 }),
      version: 1,
    });
    expect(broken.statusCode).toBe(400);
    expect((await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, body())).statusCode).toBe(400);
  });

  it("switches a code off (applicants are refused) and on again, audited; 409 when stale", async () => {
    const code = await create();
    expect(json(await validate(code.code)).isValid).toBe(true);
    const off = await api("POST", `/api/admin/codes/${code.id}/deactivate`, cookies.finance, { version: 1 });
    expect(off.statusCode).toBe(200);
    expectParses(adminCodeSchema, json(off));
    expect(json(off)).toMatchObject({ active: false, version: 2 });
    expect(json(await validate(code.code))).toEqual({
      isValid: false,
      message: "This code is no longer active.",
    });
    expect(
      (await api("POST", `/api/admin/codes/${code.id}/activate`, cookies.finance, { version: 1 })).statusCode,
    ).toBe(409);
    expect((await api("POST", `/api/admin/codes/${code.id}/activate`, cookies.finance, {})).statusCode).toBe(
      400,
    );
    const on = await api("POST", `/api/admin/codes/${code.id}/activate`, cookies.finance, { version: 2 });
    expectParses(adminCodeSchema, json(on));
    expect(json(on)).toMatchObject({ active: true, version: 3 });
    expect(json(await validate(code.code)).isValid).toBe(true);
    expect((await auditOf(code.id)).map((a) => a.action)).toEqual([
      "code.create",
      "code.deactivate",
      "code.activate",
    ]);
  });

  it("deletes an unused code (audited) but never one with redemptions", async () => {
    const unused = await create();
    const gone = await api("DELETE", `/api/admin/codes/${unused.id}`, cookies.finance);
    expect(gone.statusCode).toBe(204);
    expect(await t.database.db.select().from(codes).where(eq(codes.id, unused.id))).toHaveLength(0);
    expect((await auditOf(unused.id)).map((a) => a.action)).toEqual(["code.create", "code.delete"]);

    const used = await create({ summerSchoolIds: [openSchools[0]!.id] });
    const applied = await newApplication(openSchools[0]!.id);
    expect(json(await validate(used.code, applied)).isValid).toBe(true);
    const refused = await api("DELETE", `/api/admin/codes/${used.id}`, cookies.finance);
    expect(refused.statusCode).toBe(409);
    expect(json(refused).message).toContain("cannot be deleted");
    // The open checkout holds a use: the detail lists it with the end of its hold.
    await sessionOf(applied);
    const held = await detailOf(used.id);
    expect(held.redemptions).toHaveLength(1);
    expect(held.redemptions[0]).toMatchObject({ status: "held", holdExpiresAt: expect.any(String) });
    await pay(applied);
    expect((await api("DELETE", `/api/admin/codes/${used.id}`, cookies.finance)).statusCode).toBe(409);
    expect(await t.database.db.select().from(codes).where(eq(codes.id, used.id))).toHaveLength(1);
  });
});

describe("usage and revenue of a code", () => {
  it("counts the paid application's use and amount; the maximum cannot go below the uses made", async () => {
    const school = openSchools[0]!;
    const code = await create({ discountValue: 15, summerSchoolIds: [school.id], maxRedemptions: 5 });
    const applied = await newApplication(school.id);
    expect(json(await validate(code.code, applied)).isValid).toBe(true);
    await pay(applied);

    const detail = await detailOf(code.id);
    // 3,045.00 EUR − 15 % (456.75) = 2,588.25 EUR paid.
    expect(detail).toMatchObject({ uses: 1, redeemed: 1, revenue: 258825 });
    expect(detail.redemptions).toHaveLength(1);
    expect(detail.redemptions[0]).toMatchObject({
      status: "redeemed",
      application: {
        id: applied.applicationId,
        paymentStatus: "paid",
        discountAmount: 45675,
        amountPaid: 258825,
      },
      applicant: { firstName: "Amara", lastName: "Okafor" },
    });

    const listed = json<AdminCodeList>(
      await api("GET", `/api/admin/codes?q=${encodeURIComponent(code.code)}`, cookies.finance),
    );
    expectParses(adminCodeListSchema, listed);
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ uses: 1, redeemed: 1, revenue: 258825 });

    // One use made: a maximum of 1 is fine.
    const one = await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, {
      ...body({ code: code.code, summerSchoolIds: [school.id], maxRedemptions: 1 }),
      version: 1,
    });
    expect(one.statusCode, one.body).toBe(200);
    // Then room for a second applicant, who pays too: two uses, so a maximum of 1 is refused.
    await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, {
      ...body({ code: code.code, summerSchoolIds: [school.id], maxRedemptions: 2 }),
      version: 2,
    });
    const second = await newApplication(school.id);
    expect(json(await validate(code.code, second)).isValid).toBe(true);
    await pay(second);
    const refused = await api("PUT", `/api/admin/codes/${code.id}`, cookies.finance, {
      ...body({ code: code.code, summerSchoolIds: [school.id], maxRedemptions: 1 }),
      version: 3,
    });
    expect(refused.statusCode).toBe(400);
    expect(json(refused).message).toBe(
      "The maximum number of uses cannot be lower than the number of times the code is already used (2).",
    );
  });
});

describe("GET /api/admin/codes: search, filters, sort, pages, CSV", () => {
  let prefix: string;
  let made: Record<"a" | "b" | "c" | "d", AdminCodeDto>;

  beforeAll(async () => {
    prefix = uniqueCode("LST");
    made = {
      a: await create({ code: `${prefix}A`, description: "Alpha partners" }),
      b: await create({ code: `${prefix}B`, discountType: "fixed", discountValue: 5000 }),
      c: await create({ code: `${prefix}C`, codeType: "referral", affiliateId }),
      d: await create({
        code: `${prefix}D`,
        validFrom: "2020-01-01T00:00:00.000Z",
        validTo: "2021-01-01T00:00:00.000Z",
        summerSchoolIds: [openSchools[1]!.id],
      }),
    };
    await api("POST", `/api/admin/codes/${made.b.id}/deactivate`, cookies.finance, { version: 1 });
  });

  const list = async (query: string) => {
    const res = await api("GET", `/api/admin/codes?q=${prefix}&${query}`, cookies.finance);
    expect(res.statusCode, res.body).toBe(200);
    expectParses(adminCodeListSchema, json(res));
    return json<AdminCodeList>(res);
  };
  const codesOf = (l: AdminCodeList) => l.items.map((i) => i.code);

  it("searches code and description, any case, % and _ literally", async () => {
    expect(codesOf(await list("sort=code:asc"))).toEqual([
      `${prefix}A`,
      `${prefix}B`,
      `${prefix}C`,
      `${prefix}D`,
    ]);
    const byDescription = json<AdminCodeList>(
      await api("GET", "/api/admin/codes?q=alpha%20PARTNERS", cookies.finance),
    );
    expect(codesOf(byDescription)).toContain(`${prefix}A`);
    expect(json<AdminCodeList>(await api("GET", "/api/admin/codes?q=%25%25", cookies.finance)).total).toBe(0);
  });

  it("filters by type, active, expired, school and affiliate", async () => {
    expect(codesOf(await list("type=referral"))).toEqual([`${prefix}C`]);
    expect(codesOf(await list("active=false"))).toEqual([`${prefix}B`]);
    expect(codesOf(await list("expired=true"))).toEqual([`${prefix}D`]);
    expect(codesOf(await list("expired=false&sort=code:asc"))).toEqual([
      `${prefix}A`,
      `${prefix}B`,
      `${prefix}C`,
    ]);
    expect(codesOf(await list(`affiliateId=${affiliateId}`))).toEqual([`${prefix}C`]);
    // Codes for every school apply to the first school too; D is limited to the second.
    expect(codesOf(await list(`schoolId=${openSchools[0]!.id}&sort=code:asc`))).toEqual([
      `${prefix}A`,
      `${prefix}B`,
      `${prefix}C`,
    ]);
    expect(codesOf(await list(`schoolId=${openSchools[1]!.id}&sort=code:asc`))).toHaveLength(4);
    expect((await list("type=&active=")).total).toBe(4);
  });

  it("sorts and pages on the server", async () => {
    expect(codesOf(await list("sort=code:desc"))).toEqual([
      `${prefix}D`,
      `${prefix}C`,
      `${prefix}B`,
      `${prefix}A`,
    ]);
    const first = await list("sort=code:asc&pageSize=3");
    const second = await list("sort=code:asc&pageSize=3&page=2");
    expect(first).toMatchObject({ total: 4, page: 1, pageSize: 3 });
    expect(codesOf(first)).toHaveLength(3);
    expect(codesOf(second)).toEqual([`${prefix}D`]);
    expect((await list("sort=uses:desc")).total).toBe(4);
    expect((await list("sort=revenue:asc")).total).toBe(4);
  });

  it("400 for a malformed query", async () => {
    for (const query of [
      "sort=price:asc",
      "pageSize=101",
      "page=0",
      "type=gift",
      "active=yes",
      "schoolId=x",
    ]) {
      expect((await api("GET", `/api/admin/codes?${query}`, cookies.finance)).statusCode, query).toBe(400);
    }
  });

  it("exports the same selection as CSV (UTF-8 with BOM), audited", async () => {
    const res = await api("GET", `/api/admin/codes.csv?q=${prefix}&type=discount`, cookies.finance);
    const lines = expectCsvDownload(res, "codes");
    expect(lines[0]).toBe(
      "code,type,discount_type,discount,active,valid_from,valid_to,max_redemptions,uses,redeemed,revenue_eur,schools,affiliate,description,created_at",
    );
    expect(lines).toHaveLength(4);
    expect(lines.find((l) => l.startsWith(`${prefix}B,`))).toContain(",fixed,50.00,no,");
    expect(lines.find((l) => l.startsWith(`${prefix}A,`))).toContain(",percentage,15%,yes,");
    const entry = await latestAuditEntry(t.database.db, { action: "codes.export" });
    expect(entry.after).toMatchObject({ rows: 3 });
  });
});

describe("codes of a suspended affiliate", () => {
  it("cannot be created active or switched on (422)", async () => {
    const [suspended] = await t.database.db
      .insert(affiliates)
      .values({ name: "Paused Partner", email: `paused-${counter}@example.com`, status: "suspended" })
      .returning();
    const refused = await api(
      "POST",
      "/api/admin/codes",
      cookies.finance,
      body({ codeType: "referral", affiliateId: suspended!.id }),
    );
    expect(refused.statusCode).toBe(422);
    expect(json(refused).message).toContain("suspended");
    const off = await create({ codeType: "referral", affiliateId: suspended!.id, active: false });
    const on = await api("POST", `/api/admin/codes/${off.id}/activate`, cookies.finance, { version: 1 });
    expect(on.statusCode).toBe(422);
  });
});
