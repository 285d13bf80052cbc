/**
 * API tests of the back office's affiliates (issue 3 "Affiliates"): who may use each route, the
 * list (figures, filters, search, sort, pages, CSV), detail, approval (referral code and e-mail),
 * suspension (sessions ended, referral codes stop working for new applicants), reactivation,
 * commission rate, version conflicts and audit entries.
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type {
  AdminAffiliateDetail,
  AdminAffiliateDto,
  AdminAffiliateList,
} from "../../../shared/affiliates-admin";
import { commissionCents } from "../../../shared/schemas/affiliates-admin";
import { affiliates, codes, emailOutbox, sessions } from "../../db/schema";
import { loginAsAffiliate } from "../../testing/accounts";
import {
  adminRoles,
  apiOf,
  auditEntries,
  expectCsvDownload,
  expectRouteStatuses,
  type RoleCookies,
} from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, json, type TestApp } from "../../testing/harness";

const WEBHOOK_SECRET = "whsec_affiliates_admin_test_secret";
let t: TestApp;
let cookies: RoleCookies;
let counter = 0;
const uniqueEmail = (label: string) => `${label}-${Date.now().toString(36)}${++counter}@example.com`;

const api = apiOf(() => t.app);
const {
  validate,
  payByWebhook: pay,
  newApplication,
} = paymentFlow(() => t, {
  addressPrefix: "10.32",
  webhookSecret: WEBHOOK_SECRET,
});

beforeAll(async () => {
  t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
  cookies = await adminRoles(t.app);
});
afterAll(async () => {
  await t?.close();
});

/** A pending affiliate, as registration leaves it. */
async function pendingAffiliate(name: string) {
  const [row] = await t.database.db
    .insert(affiliates)
    .values({ name, email: uniqueEmail("partner"), website: "https://partner.example", country: "KE" })
    .returning();
  return row!;
}

const auditOf = (entityId: string) => auditEntries(t.database.db, { entityType: "affiliate", entityId });

describe("access to the affiliates API", () => {
  const UNKNOWN = "00000000-0000-4000-8000-000000000000";
  const routes: Array<[Parameters<typeof api>[0], string, unknown?]> = [
    ["GET", "/api/admin/affiliates"],
    ["GET", "/api/admin/affiliates.csv"],
    ["GET", `/api/admin/affiliates/${UNKNOWN}`],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/approve`, {}],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/suspend`, { version: 1 }],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/reactivate`, { version: 1 }],
    ["PATCH", `/api/admin/affiliates/${UNKNOWN}/commission`, { commissionPercent: 10, version: 1 }],
  ];

  it("401 without an admin session (also with a student or affiliate session), 403 for admissions", async () => {
    await expectRouteStatuses(api, cookies, routes, {
      anonymous: 401,
      student: 401,
      affiliate: 401,
      admissions: 403,
    });
  });

  it("404 for unknown or malformed ids; finance and owners get the list", async () => {
    for (const id of [UNKNOWN, "nope"]) {
      for (const [method, url, payload] of routes.slice(2)) {
        const res = await api(method, url.replace(UNKNOWN, id), cookies.finance, payload);
        expect(res.statusCode, `${method} ${url} ${id}`).toBe(404);
      }
    }
    expect((await api("GET", "/api/admin/affiliates", cookies.owner)).statusCode).toBe(200);
    expect((await api("GET", "/api/admin/affiliates", cookies.finance)).statusCode).toBe(200);
  });
});

describe("approving an affiliate", () => {
  it("approves a pending affiliate: referral code from the name, e-mail once, audit; idempotent", async () => {
    const pending = await pendingAffiliate("Nairobi Scholars Network");
    const res = await api("POST", `/api/admin/affiliates/${pending.id}/approve`, cookies.finance, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      id: pending.id,
      status: "approved",
      referralCode: "NAIROBISCHOL",
      referralLink: "http://localhost:3000/partner/NAIROBISCHOL",
      codes: ["NAIROBISCHOL"],
      version: 2,
    });
    const again = await api("POST", `/api/admin/affiliates/${pending.id}/approve`, cookies.owner, {});
    expect(json(again)).toMatchObject({ referralCode: "NAIROBISCHOL", version: 2 });
    const mails = await t.database.db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.toAddress, pending.email));
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Your partner account is approved");
    expect(mails[0]!.textBody).toContain("NAIROBISCHOL");
    expect(mails[0]!.textBody).toContain("http://localhost:3000/partner/NAIROBISCHOL");
    expect((await auditOf(pending.id)).map((a) => a.action)).toEqual([
      "affiliate.approve",
      "affiliate.approve",
    ]);
    // The new referral code works for applicants straight away.
    expect(json(await validate("nairobischol"))).toMatchObject({ isValid: true, codeType: "referral" });
  });

  it("409 with the current affiliate when the version sent is stale", async () => {
    const pending = await pendingAffiliate("Stale Partner");
    const res = await api("POST", `/api/admin/affiliates/${pending.id}/approve`, cookies.finance, {
      version: 7,
    });
    expect(res.statusCode).toBe(409);
    expect(json<{ current: AdminAffiliateDto }>(res).current).toMatchObject({
      status: "pending",
      version: 1,
    });
    expect(
      (await api("POST", `/api/admin/affiliates/${pending.id}/approve`, cookies.finance, { version: "1" }))
        .statusCode,
    ).toBe(400);
  });
});

describe("suspending and reactivating an affiliate", () => {
  it("ends its sessions and its referral code stops applying to new applications; reactivation brings it back", async () => {
    const { affiliate, cookie } = await loginAsAffiliate(t.app, { name: "Accra Study Link" });
    const approved = json<AdminAffiliateDto>(
      await api("POST", `/api/admin/affiliates/${affiliate.id}/approve`, cookies.finance, {}),
    );
    const code = approved.referralCode!;
    // A code the school switched off before the suspension stays off afterwards.
    const [manual] = await t.database.db
      .insert(codes)
      .values({
        code: `OFF${counter}${Date.now().toString(36)}`.toUpperCase(),
        codeType: "referral",
        affiliateId: affiliate.id,
        active: false,
      })
      .returning();
    expect((await api("GET", "/api/affiliate/me", cookie)).statusCode).toBe(200);

    const stale = await api("POST", `/api/admin/affiliates/${affiliate.id}/suspend`, cookies.finance, {
      version: approved.version + 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(
      (await api("POST", `/api/admin/affiliates/${affiliate.id}/suspend`, cookies.finance, {})).statusCode,
    ).toBe(400);

    const res = await api("POST", `/api/admin/affiliates/${affiliate.id}/suspend`, cookies.finance, {
      version: approved.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(json(res)).toMatchObject({
      status: "suspended",
      referralCode: null,
      version: approved.version + 1,
    });
    expect((await api("GET", "/api/affiliate/me", cookie)).statusCode).toBe(401);
    expect(
      await t.database.db
        .select()
        .from(sessions)
        .where(and(eq(sessions.role, "affiliate"), eq(sessions.accountId, affiliate.id))),
    ).toHaveLength(0);

    const applicant = await newApplication();
    expect(json(await validate(code, applicant))).toEqual({
      isValid: false,
      message: "This code is no longer active.",
    });
    expect(json(await validate(code)).isValid).toBe(false);
    const twice = await api("POST", `/api/admin/affiliates/${affiliate.id}/suspend`, cookies.finance, {
      version: approved.version + 1,
    });
    expect(twice.statusCode).toBe(422);

    const audit = await auditOf(affiliate.id);
    expect(audit.map((a) => a.action)).toEqual(["affiliate.approve", "affiliate.suspend"]);
    expect(audit[1]!.after).toMatchObject({ status: "suspended" });
    expect((audit[1]!.after as { deactivatedCodeIds: string[] }).deactivatedCodeIds).toHaveLength(1);

    const staleReactivation = await api(
      "POST",
      `/api/admin/affiliates/${approved.id}/reactivate`,
      cookies.finance,
      {
        version: 1,
      },
    );
    expect(staleReactivation.statusCode).toBe(409);
    const back = await api("POST", `/api/admin/affiliates/${affiliate.id}/reactivate`, cookies.finance, {
      version: approved.version + 1,
    });
    expect(back.statusCode, back.body).toBe(200);
    expect(json(back)).toMatchObject({
      status: "approved",
      referralCode: code,
      version: approved.version + 2,
    });
    expect(json(await validate(code, applicant))).toMatchObject({ isValid: true, codeType: "referral" });
    const [still] = await t.database.db.select().from(codes).where(eq(codes.id, manual!.id));
    expect(still!.active).toBe(false);
    expect((await auditOf(affiliate.id)).map((a) => a.action)).toEqual([
      "affiliate.approve",
      "affiliate.suspend",
      "affiliate.reactivate",
    ]);
    const again = await api("POST", `/api/admin/affiliates/${affiliate.id}/reactivate`, cookies.finance, {
      version: approved.version + 2,
    });
    expect(again.statusCode).toBe(422);
    expect(json(again).message).toBe("Only a suspended affiliate can be reactivated.");
  });
});

describe("commission rate", () => {
  it("changes the rate with the version seen (audited); 400 outside 0-100 or not whole; 409 when stale", async () => {
    const pending = await pendingAffiliate("Rate Partner");
    for (const value of [-1, 101, 12.5, "10", null]) {
      const res = await api("PATCH", `/api/admin/affiliates/${pending.id}/commission`, cookies.finance, {
        commissionPercent: value,
        version: 1,
      });
      expect(res.statusCode, String(value)).toBe(400);
    }
    const bad = await api("PATCH", `/api/admin/affiliates/${pending.id}/commission`, cookies.finance, {
      commissionPercent: 101,
      version: 1,
    });
    expect(json(bad).message).toBe("The commission rate must be a whole number from 0 to 100.");
    const ok = await api("PATCH", `/api/admin/affiliates/${pending.id}/commission`, cookies.finance, {
      commissionPercent: 0,
      version: 1,
    });
    expect(ok.statusCode).toBe(200);
    expect(json(ok)).toMatchObject({ commissionPercent: 0, version: 2 });
    const stale = await api("PATCH", `/api/admin/affiliates/${pending.id}/commission`, cookies.finance, {
      commissionPercent: 15,
      version: 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(json(stale).message).toContain("changed by someone else");
    const audit = await auditOf(pending.id);
    expect(audit.map((a) => a.action)).toEqual(["affiliate.commission"]);
    expect(audit[0]!.before).toMatchObject({ commissionPercent: 10 });
    expect(audit[0]!.after).toMatchObject({ commissionPercent: 0 });
  });

  it("rounds commission half up to the cent", () => {
    expect(commissionCents(12345, 10)).toBe(1235);
    expect(commissionCents(12344, 10)).toBe(1234);
    expect(commissionCents(304500, 12)).toBe(36540);
    expect(commissionCents(0, 50)).toBe(0);
    expect(commissionCents(999, 100)).toBe(999);
  });
});

describe("list, figures, detail and CSV", () => {
  let partner: AdminAffiliateDto;
  let paidApplicationId: string;

  beforeAll(async () => {
    const row = await pendingAffiliate("Zanzibar Referral Circle");
    partner = json<AdminAffiliateDto>(
      await api("POST", `/api/admin/affiliates/${row.id}/approve`, cookies.finance, {}),
    );
    // One referred application paid (3,045.00 EUR), one left unpaid.
    const paid = await newApplication();
    expect(json(await validate(partner.referralCode!, paid)).isValid).toBe(true);
    await pay(paid);
    paidApplicationId = paid.applicationId;
    const unpaid = await newApplication();
    expect(json(await validate(partner.referralCode!, unpaid)).isValid).toBe(true);
    await api("PATCH", `/api/admin/affiliates/${row.id}/commission`, cookies.finance, {
      commissionPercent: 12,
      version: partner.version,
    });
  });

  it("shows referred applications, paid revenue and commission earned", async () => {
    const list = json<AdminAffiliateList>(
      await api("GET", "/api/admin/affiliates?q=zanzibar", cookies.finance),
    );
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: partner.id,
      commissionPercent: 12,
      referredApplications: 2,
      paidApplications: 1,
      paidRevenue: 304500,
      commission: 36540,
      codes: [partner.referralCode],
    });
  });

  it("details the affiliate's codes with usage and its referred applications", async () => {
    const res = await api("GET", `/api/admin/affiliates/${partner.id}`, cookies.finance);
    expect(res.statusCode).toBe(200);
    const detail = json<AdminAffiliateDetail>(res);
    expect(detail.codeDetails).toHaveLength(1);
    expect(detail.codeDetails[0]).toMatchObject({
      code: partner.referralCode,
      uses: 1,
      redeemed: 1,
      revenue: 304500,
    });
    expect(detail.applications).toHaveLength(2);
    expect(detail.applications.find((a) => a.id === paidApplicationId)).toMatchObject({
      paymentStatus: "paid",
      amountPaid: 304500,
      code: partner.referralCode,
      applicant: { firstName: "Amara", lastName: "Okafor" },
    });
  });

  it("filters by status, searches name and e-mail, sorts and pages", async () => {
    const suspended = await pendingAffiliate("Zanzibar Paused Agency");
    await api("POST", `/api/admin/affiliates/${suspended.id}/suspend`, cookies.finance, { version: 1 });
    const names = async (query: string) =>
      json<AdminAffiliateList>(
        await api("GET", `/api/admin/affiliates?q=zanzibar&${query}`, cookies.finance),
      ).items.map((a) => a.name);
    expect(await names("status=suspended")).toEqual(["Zanzibar Paused Agency"]);
    expect(await names("status=approved")).toEqual(["Zanzibar Referral Circle"]);
    expect(await names("sort=name:asc")).toEqual(["Zanzibar Paused Agency", "Zanzibar Referral Circle"]);
    expect(await names("sort=paidRevenue:desc")).toEqual([
      "Zanzibar Referral Circle",
      "Zanzibar Paused Agency",
    ]);
    expect(await names("sort=commission:asc")).toEqual([
      "Zanzibar Paused Agency",
      "Zanzibar Referral Circle",
    ]);
    expect(await names("sort=name:asc&pageSize=1&page=2")).toEqual(["Zanzibar Referral Circle"]);
    const byEmail = json<AdminAffiliateList>(
      await api(
        "GET",
        `/api/admin/affiliates?q=${encodeURIComponent(suspended.email.toUpperCase())}`,
        cookies.finance,
      ),
    );
    expect(byEmail.items.map((a) => a.id)).toEqual([suspended.id]);
    for (const query of ["status=gone", "sort=email:asc", "pageSize=0"]) {
      expect((await api("GET", `/api/admin/affiliates?${query}`, cookies.finance)).statusCode, query).toBe(
        400,
      );
    }
  });

  it("exports CSV with amounts in euros, audited", async () => {
    const res = await api("GET", "/api/admin/affiliates.csv?q=zanzibar%20referral", cookies.finance);
    const lines = expectCsvDownload(res, "affiliates");
    expect(lines[0]).toBe(
      "name,email,status,country,website,commission_percent,codes,referred_applications,paid_applications,paid_revenue_eur,commission_eur,created_at",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `,approved,KE,https://partner.example,12,${partner.referralCode},2,1,3045.00,365.40,`,
    );
    const exports = await auditEntries(t.database.db, { action: "affiliates.export" });
    expect(exports).toHaveLength(1);
  });
});
