/**
 * API tests of the back office's affiliates (docs/product/back-office.md#partners-admin): who may use each route, the
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
import {
  adjustmentSchema,
  adminAffiliateDetailSchema,
  adminAffiliateListSchema,
  adminAffiliateSchema,
} from "../../../shared/schemas/affiliates-admin";
import { staleVersionBodySchema } from "../../../shared/schemas/catalogue-admin";
import { type CommissionLedgerDto, commissionEntrySchema } from "../../../shared/schemas/commissions";
import { affiliates, codeClicks, codes, commissionEntries, emailOutbox, sessions } from "../../db/schema";
import { loginAsAffiliate, TEST_PASSWORD } from "../../testing/accounts";
import {
  adminRoles,
  apiOf,
  auditEntries,
  expectCsvDownload,
  expectRouteStatuses,
  type RoleCookies,
  SAME_ORIGIN,
} from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, json, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";
import { hashPassword } from "../auth/passwords";
import { ledgerOf } from "../commissions/ledger";

const WEBHOOK_SECRET = "whsec_affiliates_admin_test_secret";
/** 10 % of 3,045.00 EUR excluding 21 % VAT: 10 % × (304,500 − 52,847) = 25,165.3 → 25,165 cents. */
const TEN_PERCENT_OF_TOTAL = 25_165;
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
  t = await createTestApp({
    offlineWebhookSecret: WEBHOOK_SECRET,
    env: { DEFAULT_COMMISSION_PERCENT: "12" },
  });
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

/** `GET /api/admin/affiliates?<query>` as finance, checked against its schema. */
async function listOf(query: string): Promise<AdminAffiliateList> {
  const res = await api("GET", `/api/admin/affiliates?${query}`, cookies.finance);
  expect(res.statusCode, res.body).toBe(200);
  expectParses(adminAffiliateListSchema, json(res));
  return json<AdminAffiliateList>(res);
}

describe("access to the affiliates API", () => {
  const UNKNOWN = "00000000-0000-4000-8000-000000000000";
  const routes: Array<[Parameters<typeof api>[0], string, unknown?]> = [
    ["GET", "/api/admin/affiliates"],
    ["GET", "/api/admin/affiliates.csv"],
    ["GET", `/api/admin/affiliates/${UNKNOWN}`],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/approve`, {}],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/suspend`, { version: 1 }],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/reactivate`, { version: 1 }],
    ["PATCH", `/api/admin/affiliates/${UNKNOWN}/commission`, { type: "percentage", percent: 10, version: 1 }],
    ["GET", `/api/admin/affiliates/${UNKNOWN}/commissions`],
    ["GET", `/api/admin/affiliates/${UNKNOWN}/commissions.csv`],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/adjustments`, { amountCents: 100, reason: "Bonus" }],
    ["POST", `/api/admin/affiliates/${UNKNOWN}/reject`, { reason: "Incomplete" }],
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
    // The answer is what the back office parses it with (one source of the shape).
    expectParses(adminAffiliateSchema, json(res));
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
    expectParses(staleVersionBodySchema(adminAffiliateSchema), json(res));
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
    expectParses(adminAffiliateSchema, json(res));
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
    expectParses(adminAffiliateSchema, json(back));
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
        type: "percentage",
        percent: value,
        version: 1,
      });
      expect(res.statusCode, String(value)).toBe(400);
    }
    const bad = await api("PATCH", `/api/admin/affiliates/${pending.id}/commission`, cookies.finance, {
      type: "percentage",
      percent: 101,
      version: 1,
    });
    expect(json(bad).message).toBe("The commission rate must be a whole number from 0 to 100.");
    const ok = await api("PATCH", `/api/admin/affiliates/${pending.id}/commission`, cookies.finance, {
      type: "percentage",
      percent: 0,
      version: 1,
    });
    expect(ok.statusCode).toBe(200);
    expectParses(adminAffiliateSchema, json(ok));
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
      type: "percentage",
      percent: 12,
      version: partner.version,
    });
    // Two clicks on its code, one on another affiliate's.
    const [code] = await t.database.db.select().from(codes).where(eq(codes.code, partner.referralCode!));
    await t.database.db.insert(codeClicks).values([
      { codeId: code!.id, code: code!.code },
      { codeId: code!.id, code: code!.code },
    ]);
  });

  it("shows clicks, referred and paid applications, and commission owed from the ledger", async () => {
    const list = await listOf("q=zanzibar");
    expect(list.total).toBe(1);
    expect(list.items[0]).toMatchObject({
      id: partner.id,
      commissionPercent: 12,
      clicks: 2,
      referredApplications: 2,
      paidApplications: 1,
      paidRevenue: 304500,
      // Earned at the rate of the day of payment (10 % of 3,045.00 EUR excluding 21 % VAT), not at today's 12 %.
      commissionOwed: TEN_PERCENT_OF_TOTAL,
      commissionPaid: 0,
      codes: [partner.referralCode],
    });
  });

  it("details the affiliate's codes with usage and its referred applications", async () => {
    const res = await api("GET", `/api/admin/affiliates/${partner.id}`, cookies.finance);
    expect(res.statusCode).toBe(200);
    expectParses(adminAffiliateDetailSchema, json(res));
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
    const names = async (query: string) => (await listOf(`q=zanzibar&${query}`)).items.map((a) => a.name);
    expect(await names("status=suspended")).toEqual(["Zanzibar Paused Agency"]);
    expect(await names("status=approved")).toEqual(["Zanzibar Referral Circle"]);
    expect(await names("sort=name:asc")).toEqual(["Zanzibar Paused Agency", "Zanzibar Referral Circle"]);
    expect(await names("sort=paidRevenue:desc")).toEqual([
      "Zanzibar Referral Circle",
      "Zanzibar Paused Agency",
    ]);
    expect(await names("sort=commissionOwed:asc")).toEqual([
      "Zanzibar Paused Agency",
      "Zanzibar Referral Circle",
    ]);
    expect(await names("sort=name:asc&pageSize=1&page=2")).toEqual(["Zanzibar Referral Circle"]);
    const byEmail = await listOf(`q=${encodeURIComponent(suspended.email.toUpperCase())}`);
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
      "name,email,status,country,website,commission_type,commission_percent,commission_fixed_eur,codes,clicks,referred_applications,paid_applications,paid_revenue_eur,commission_owed_eur,commission_paid_eur,created_at",
    );
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(
      `,approved,KE,https://partner.example,percentage,12,0.00,${partner.referralCode},2,2,1,3045.00,251.65,0.00,`,
    );
    const exports = await auditEntries(t.database.db, { action: "affiliates.export" });
    expect(exports).toHaveLength(1);
  });
});

/** An affiliate that can sign in (password TEST_PASSWORD), in `status`, with `language`. */
async function affiliateWithLogin(
  name: string,
  fields: Partial<typeof affiliates.$inferInsert> = {},
): Promise<typeof affiliates.$inferSelect> {
  const [row] = await t.database.db
    .insert(affiliates)
    .values({
      name,
      email: uniqueEmail("login"),
      passwordHash: await hashPassword(TEST_PASSWORD),
      emailVerifiedAt: new Date(),
      ...fields,
    })
    .returning();
  return row!;
}

let loginAddress = 0;
/** `POST /api/affiliate/login`, each from its own client address (the per-address limit stays out of the way). */
const affiliateLogin = (email: string, password: string, language = "en") =>
  api(
    "POST",
    "/api/affiliate/login",
    undefined,
    { email, password },
    { headers: { "accept-language": language }, remoteAddress: `10.33.0.${++loginAddress}` },
  );

const mailsTo = (address: string) =>
  t.database.db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, address));

describe("commission ledger in the back office (docs/product/codes-and-partners.md#commissions)", () => {
  let partner: AdminAffiliateDto;
  let applicationId: string;
  const owedOf = async (id: string) =>
    json<AdminAffiliateList>(
      await api("GET", `/api/admin/affiliates?q=${partner.email}`, cookies.finance),
    ).items.find((a) => a.id === id)!.commissionOwed;

  beforeAll(async () => {
    const row = await pendingAffiliate("Lagos Ledger Partners");
    partner = json<AdminAffiliateDto>(
      await api("POST", `/api/admin/affiliates/${row.id}/approve`, cookies.finance, {}),
    );
    const a = await newApplication();
    expect(json(await validate(partner.referralCode!, a)).isValid).toBe(true);
    await pay(a);
    applicationId = a.applicationId;
  });

  it("the list's commission owed follows the ledger: the commission after payment, less the clawback after a refund", async () => {
    expect(await owedOf(partner.id)).toBe(TEN_PERCENT_OF_TOTAL);
    const refund = await api(
      "POST",
      `/api/admin/applications/${applicationId}/refunds`,
      cookies.finance,
      { reason: "Cancelled by the applicant", idempotencyKey: crypto.randomUUID(), amountCents: 100_000 },
      SAME_ORIGIN,
    );
    expect(refund.statusCode, refund.body).toBe(201);
    const clawback = Math.round((TEN_PERCENT_OF_TOTAL * 100_000) / 304_500);
    expect(await owedOf(partner.id)).toBe(TEN_PERCENT_OF_TOTAL - clawback);
    const res = await api("GET", `/api/admin/affiliates/${partner.id}/commissions`, cookies.finance);
    expect(res.statusCode).toBe(200);
    const { ledger } = json<{ ledger: CommissionLedgerDto }>(res);
    expect(ledger.totals).toMatchObject({
      pending: TEN_PERCENT_OF_TOTAL - clawback,
      earned: TEN_PERCENT_OF_TOTAL,
      clawedBack: -clawback,
    });
    expect(ledger.entries.map((e) => e.kind)).toEqual(["refund", "payment"]);
  });

  it("an adjustment needs a non-zero bounded amount and a reason (400), is approved at once, audited, and shows in both ledgers", async () => {
    const url = `/api/admin/affiliates/${partner.id}/adjustments`;
    const before = await owedOf(partner.id);
    const cases: Array<[unknown, string]> = [
      [{ amountCents: 2500 }, "Please give a reason."],
      [{ amountCents: 2500, reason: "   " }, "Please give a reason."],
      [{ amountCents: 2500, reason: "x".repeat(501) }, "The reason can be at most 500 characters long."],
      [{ amountCents: 0, reason: "Nothing" }, "Enter an amount in euros other than zero"],
      [{ amountCents: 12.5, reason: "Half a cent" }, "Enter an amount in euros other than zero"],
      [{ amountCents: 1_000_001, reason: "Too much" }, "Enter an amount in euros other than zero"],
    ];
    for (const [body, message] of cases) {
      const res = await api("POST", url, cookies.finance, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(json(res).message).toContain(message);
    }
    const res = await api("POST", url, cookies.finance, {
      amountCents: -1500,
      reason: "Poster printing paid by the school",
    });
    expect(res.statusCode, res.body).toBe(201);
    const { ledger } = json<{ ledger: CommissionLedgerDto }>(res);
    expect(ledger.entries[0]).toMatchObject({
      kind: "adjustment",
      state: "approved",
      amount: -1500,
      reason: "Poster printing paid by the school",
      application: null,
    });
    expect(await owedOf(partner.id)).toBe(before - 1500);
    const [entry] = await t.database.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.affiliateId, partner.id), eq(commissionEntries.kind, "adjustment")));
    expect(entry!.createdByAdminId).not.toBeNull();
    const audit = await auditEntries(t.database.db, { action: "affiliate.adjust", entityId: partner.id });
    expect(audit).toHaveLength(1);
    expect(audit[0]!.after).toMatchObject({
      amountCents: -1500,
      reason: "Poster printing paid by the school",
    });
    // The affiliate's own ledger is the same function: same entries, same totals.
    const own = await ledgerOf(t.database.db, partner.id, {
      now: new Date(),
      language: "en",
      minimumPayout: 5000,
    });
    expect(own.totals).toEqual(ledger.totals);
    expect(own.entries.map((e) => e.id)).toEqual(ledger.entries.map((e) => e.id));
  });

  it("exports the ledger as CSV, audited", async () => {
    const res = await api("GET", `/api/admin/affiliates/${partner.id}/commissions.csv`, cookies.finance);
    const lines = expectCsvDownload(res, "commissions");
    expect(lines[0]).toBe(
      "created_at,kind,state,amount_eur,base_eur,rate,reason,application_id,student,cohort,available_at,payout_id",
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toContain(",adjustment,approved,-15.00,0.00,,Poster printing paid by the school,");
    expect(lines[3]).toContain(`,payment,pending,251.65,`);
    expect(lines[3]).toContain(`,10%,,${applicationId},Amara O.,`);
    const exports = await auditEntries(t.database.db, {
      action: "affiliate.commissions.export",
      entityId: partner.id,
    });
    expect(exports).toHaveLength(1);
  });

  it("docs/product/codes-and-partners.md#manual-adjustments: a reason written on two lines is saved once and answered with it; the ledger still answers", async () => {
    const url = `/api/admin/affiliates/${partner.id}/adjustments`;
    const reason = "Printing of posters\nfor the fair in Lagos";
    const before = await t.database.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.affiliateId, partner.id), eq(commissionEntries.kind, "adjustment")));
    const res = await api("POST", url, cookies.finance, { amountCents: 1200, reason });
    expect(res.statusCode, res.body).toBe(201);
    expect(json<{ ledger: CommissionLedgerDto }>(res).ledger.entries[0]).toMatchObject({
      amount: 1200,
      reason,
    });
    const after = await t.database.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.affiliateId, partner.id), eq(commissionEntries.kind, "adjustment")));
    expect(after).toHaveLength(before.length + 1);
    const ledger = await api("GET", `/api/admin/affiliates/${partner.id}/commissions`, cookies.finance);
    expect(ledger.statusCode, ledger.body).toBe(200);
    // What the input accepts, the answer accepts: the same reason field on both sides.
    for (const text of [reason, "One line", "Two\r\nlines", "Tab\tinside"]) {
      const input = adjustmentSchema.safeParse({ amountCents: 100, reason: text });
      if (!input.success) continue;
      const entry = {
        ...json<{ ledger: CommissionLedgerDto }>(res).ledger.entries[0],
        reason: input.data.reason,
      };
      expect(commissionEntrySchema.safeParse(entry).success, JSON.stringify(text)).toBe(true);
    }
  });

  it("docs/product/codes-and-partners.md#manual-adjustments: a repeated adjustment is listed as a likely duplicate and reversed by an audited compensating entry; the original stays", async () => {
    const base = `/api/admin/affiliates/${partner.id}/adjustments`;
    const adjustments = () =>
      t.database.db
        .select()
        .from(commissionEntries)
        .where(and(eq(commissionEntries.affiliateId, partner.id), eq(commissionEntries.kind, "adjustment")));
    const reason = "Bonus for the Lagos fair\r\nagreed by phone  ";
    const first = await api("POST", base, cookies.finance, { amountCents: 4321, reason });
    const repeat = await api("POST", base, cookies.finance, { amountCents: 4321, reason });
    const other = await api("POST", base, cookies.finance, { amountCents: 4322, reason });
    for (const res of [first, repeat, other]) expect(res.statusCode, res.body).toBe(201);
    // Stored as the input normalises it: LF line end, no trailing space.
    const firstId = json<{ ledger: CommissionLedgerDto }>(first).ledger.entries[0]!.id;
    const repeatId = json<{ ledger: CommissionLedgerDto }>(repeat).ledger.entries[0]!.id;
    const stored = (await adjustments()).find((e) => e.id === repeatId)!;
    expect(stored.reason).toBe("Bonus for the Lagos fair\nagreed by phone");

    const listed = await api("GET", `${base}/duplicates`, cookies.finance);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(json(listed)).toEqual({
      windowMinutes: 10,
      items: [expect.objectContaining({ id: repeatId, duplicateOfId: firstId, amount: 4321 })],
    });
    expect((await api("GET", `${base}/duplicates`, cookies.admissions)).statusCode).toBe(403);
    expect(
      (await api("POST", `${base}/${repeatId}/reverse`, cookies.admissions, { reason: "Duplicate" }))
        .statusCode,
    ).toBe(403);
    expect(
      (await api("POST", `${base}/${repeatId}/reverse`, cookies.finance, { reason: " " })).statusCode,
    ).toBe(400);

    const before = await adjustments();
    const reversed = await api("POST", `${base}/${repeatId}/reverse`, cookies.finance, {
      reason: "Saved twice by a retry",
    });
    expect(reversed.statusCode, reversed.body).toBe(201);
    expect(json<{ ledger: CommissionLedgerDto }>(reversed).ledger.entries[0]).toMatchObject({
      kind: "adjustment",
      amount: -4321,
      reason: "Saved twice by a retry",
      reversesEntryId: repeatId,
    });
    const after = await adjustments();
    expect(after).toHaveLength(before.length + 1);
    // Nothing deleted or changed: every entry before is still there as it was.
    for (const entry of before) expect(after).toContainEqual(entry);
    const audit = await auditEntries(t.database.db, {
      action: "affiliate.adjust.reverse",
      entityId: partner.id,
    });
    expect(audit[0]).toMatchObject({
      before: { entryId: repeatId, amountCents: 4321 },
      after: { reversesEntryId: repeatId, amountCents: -4321, reason: "Saved twice by a retry" },
    });
    expect(json(await api("GET", `${base}/duplicates`, cookies.finance))).toMatchObject({ items: [] });

    // Once only; a reversal or a payment's entry is not reversed here; an unknown entry is 404.
    expect(
      (await api("POST", `${base}/${repeatId}/reverse`, cookies.finance, { reason: "Again" })).statusCode,
    ).toBe(409);
    const reversalId = json<{ ledger: CommissionLedgerDto }>(reversed).ledger.entries[0]!.id;
    expect(
      (await api("POST", `${base}/${reversalId}/reverse`, cookies.finance, { reason: "Undo" })).statusCode,
    ).toBe(422);
    const [payment] = await t.database.db
      .select()
      .from(commissionEntries)
      .where(and(eq(commissionEntries.affiliateId, partner.id), eq(commissionEntries.kind, "payment")));
    expect(
      (await api("POST", `${base}/${payment!.id}/reverse`, cookies.finance, { reason: "No" })).statusCode,
    ).toBe(422);
    expect(
      (await api("POST", `${base}/${crypto.randomUUID()}/reverse`, cookies.finance, { reason: "No" }))
        .statusCode,
    ).toBe(404);
  });
});

describe("rate type", () => {
  it("a fixed amount per student applies to the next payment; 400 for a bad amount", async () => {
    const row = await pendingAffiliate("Accra Fixed Rate Agency");
    const approved = json<AdminAffiliateDto>(
      await api("POST", `/api/admin/affiliates/${row.id}/approve`, cookies.finance, {}),
    );
    const url = `/api/admin/affiliates/${row.id}/commission`;
    for (const fixedCents of [-1, 12.5, 1_000_001, "150"]) {
      const res = await api("PATCH", url, cookies.finance, { type: "fixed", fixedCents, version: 2 });
      expect(res.statusCode, String(fixedCents)).toBe(400);
    }
    expect((await api("PATCH", url, cookies.finance, { type: "weekly", version: 2 })).statusCode).toBe(400);
    const res = await api("PATCH", url, cookies.finance, {
      type: "fixed",
      fixedCents: 15_000,
      version: approved.version,
    });
    expect(res.statusCode, res.body).toBe(200);
    expectParses(adminAffiliateSchema, json(res));
    expect(json(res)).toMatchObject({ commissionType: "fixed", commissionFixedCents: 15_000 });
    const audit = await auditEntries(t.database.db, { action: "affiliate.commission", entityId: row.id });
    expect(audit[0]!.after).toMatchObject({ commissionType: "fixed", commissionFixedCents: 15_000 });

    const a = await newApplication();
    expect(json(await validate(approved.referralCode!, a)).isValid).toBe(true);
    await pay(a);
    const { ledger } = json<{ ledger: CommissionLedgerDto }>(
      await api("GET", `/api/admin/affiliates/${row.id}/commissions`, cookies.finance),
    );
    expect(ledger.rate).toEqual({ type: "fixed", fixedCents: 15_000 });
    expect(ledger.entries).toHaveLength(1);
    expect(ledger.entries[0]).toMatchObject({ kind: "payment", amount: 15_000 });
  });
});

describe("rejecting with a reason, and what an affiliate not approved sees at login", () => {
  it("a pending affiliate is told its application is being reviewed, only with the right password", async () => {
    const pending = await affiliateWithLogin("Kumasi Pending Partner");
    const unknown = await affiliateLogin("nobody-here@example.com", TEST_PASSWORD);
    const wrong = await affiliateLogin(pending.email, "not the password at all");
    expect(unknown.statusCode).toBe(401);
    expect(wrong.statusCode).toBe(401);
    expect(json(wrong).message).toBe("Invalid login credentials");
    expect(wrong.body).toBe(unknown.body);
    const right = await affiliateLogin(pending.email, TEST_PASSWORD);
    expect(right.statusCode).toBe(403);
    expect(json(right).message).toBe(
      "Your partner application is being reviewed. We will e-mail you as soon as it is approved.",
    );
    expect(right.cookies).toHaveLength(0);
    const zh = await affiliateLogin(pending.email, TEST_PASSWORD, "zh");
    expect(json(zh).message).toContain("正在审核中");
  });

  it("rejects a pending affiliate with a reason (400 without), e-mails it in its language, audits; login shows the reason as text", async () => {
    const row = await affiliateWithLogin("Dakar Rejected Partner", { language: "fr" });
    const url = `/api/admin/affiliates/${row.id}/reject`;
    for (const body of [{}, { reason: "" }, { reason: "x".repeat(501) }]) {
      expect((await api("POST", url, cookies.finance, body)).statusCode).toBe(400);
    }
    const reason = "Your <b>website</b> does not show an education business.";
    const res = await api("POST", url, cookies.finance, { reason, version: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expectParses(adminAffiliateSchema, json(res));
    expect(json(res)).toMatchObject({ status: "rejected", rejectionReason: reason, version: 2 });
    expect((await api("POST", url, cookies.finance, { reason })).statusCode).toBe(422);
    const audit = await auditOf(row.id);
    expect(audit.map((a) => a.action)).toEqual(["affiliate.reject"]);
    expect(audit[0]!.after).toMatchObject({ status: "rejected", rejectionReason: reason });
    const mails = await mailsTo(row.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("Votre candidature de partenaire");
    expect(mails[0]!.textBody).toContain(reason);
    expect(mails[0]!.htmlBody).not.toContain("<b>website</b>");

    const login = await affiliateLogin(row.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(403);
    expect(json(login).message).toBe(
      `Your partner application was not approved. Reason given by the school: ${reason}`,
    );
    const wrong = await affiliateLogin(row.email, "not the password at all");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain("website");
  });

  it("a suspended affiliate is told to contact the school, only with the right password", async () => {
    const row = await affiliateWithLogin("Abuja Suspended Partner", { status: "suspended" });
    const login = await affiliateLogin(row.email, TEST_PASSWORD);
    expect(login.statusCode).toBe(403);
    expect(json(login).message).toBe(
      "Your partner account is suspended. Please contact admissions@hague-summer-school.example.",
    );
    expect((await affiliateLogin(row.email, "not the password at all")).statusCode).toBe(401);
  });
});

describe("e-mails in the affiliate's language", () => {
  it("sends the approval e-mail in Chinese to an affiliate whose language is zh", async () => {
    const row = await affiliateWithLogin("Shenzhen Study Abroad", { language: "zh" });
    expect(
      (await api("POST", `/api/admin/affiliates/${row.id}/approve`, cookies.finance, {})).statusCode,
    ).toBe(200);
    const mails = await mailsTo(row.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toBe("您的合作伙伴账户已获批准");
    expect(mails[0]!.textBody).toContain("Shenzhen Study Abroad，您好：");
  });

  it("stores the registration's language and the default rate; writes the verification and reset e-mails in that language", async () => {
    const email = uniqueEmail("register");
    const register = await api(
      "POST",
      "/api/affiliate/register",
      undefined,
      { name: "Chengdu Education Consulting", email, password: TEST_PASSWORD },
      { headers: { "accept-language": "zh-CN" }, remoteAddress: "10.33.1.1" },
    );
    expect(register.statusCode, register.body).toBe(201);
    const [row] = await t.database.db.select().from(affiliates).where(eq(affiliates.email, email));
    expect(row!.language).toBe("zh");
    // A new affiliate gets the default rate of the settings.
    expect(row).toMatchObject({ commissionType: "percentage", commissionPercent: 12 });
    // A later request in English still gets the affiliate's language.
    const reset = await api(
      "POST",
      "/api/affiliate/password-reset",
      undefined,
      { email },
      { headers: { "accept-language": "en" }, remoteAddress: "10.33.1.2" },
    );
    expect(reset.statusCode, reset.body).toBeLessThan(300);
    // The reset e-mail is written after the answer (docs/product/portals.md#password-reset).
    await t.app.services.background.settled();
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(2);
    for (const mail of mails) expect(mail.textBody, mail.subject).toMatch(/[\u4e00-\u9fff]/);
  });
});
