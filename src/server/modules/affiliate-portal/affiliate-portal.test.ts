import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/dates";
import { affiliateStatsSchema, referralListSchema } from "../../../shared/schemas/affiliate-portal";
import { commissionLedgerSchema } from "../../../shared/schemas/commissions";
import { schoolDate } from "../../../shared/time";
import { affiliates, codeClicks, codes, emailOutbox, summerSchools } from "../../db/schema";
import { loginAsAffiliate, TEST_PASSWORD } from "../../testing/accounts";
import { apiOf, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { decodeQrPng, decodeQrSvg } from "../../testing/qr";
import { completeOfflineSession } from "../payments/providers/offline";

/**
 * See docs/product/portals.md#partner-area: an approved affiliate sees its clicks, applications, paid
 * enrolments and commission over a period, its referred applications (first name and initial
 * only), its ledger, QR codes of its link, and edits its profile and password. Checklist S6: an
 * affiliate never sees another's data.
 */

const SECRET = "whsec_affiliate_portal_tests";
/** 10 % of 3,045.00 EUR excluding 21 % VAT (see commissions.test.ts). */
const TEN_PERCENT_OF_TOTAL = 25_165;

describe("affiliate portal", () => {
  let t: TestApp;
  const flow = paymentFlow(() => t, { addressPrefix: "10.94", webhookSecret: SECRET });
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let school: string;
  let n = 0;

  /** An approved affiliate at 10 % with a referral code, logged in. */
  async function agent() {
    const { affiliate, cookie } = await loginAsAffiliate(t.app);
    await db().update(affiliates).set({ commissionPercent: 10 }).where(eq(affiliates.id, affiliate.id));
    n += 1;
    const code = `PORTAL${n}X${randomUUID().slice(0, 4).toUpperCase()}`;
    const [row] = await db()
      .insert(codes)
      .values({ code, codeType: "referral", discountValue: 0, affiliateId: affiliate.id })
      .returning();
    return { ...affiliate, cookie, code, codeId: row!.id };
  }

  /** A new application with `code` applied on the payment step, paid by webhook. */
  async function referredAndPaid(code: string, applicant: Record<string, unknown> = {}) {
    const a = await flow.newApplication(school, applicant);
    expect((await flow.validate(code, a)).json()).toMatchObject({ isValid: true });
    const sessionId = await flow.sessionOf(a);
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    return a;
  }

  /** A referred application left unpaid (the code applied, no payment). */
  async function referredUnpaid(code: string, applicant: Record<string, unknown> = {}) {
    const a = await flow.newApplication(school, applicant);
    expect((await flow.validate(code, a)).json()).toMatchObject({ isValid: true });
    await flow.sessionOf(a);
    return a;
  }

  /** A click on `codeId` at `at` with `campaign`. */
  const click = (codeId: string, code: string, at: Date, campaign = "") =>
    db().insert(codeClicks).values({ codeId, code, utmCampaign: campaign, createdAt: at });

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: SECRET });
    const open = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      status: string;
    }>;
    school = open.find((s) => s.status === "open")!.id;
    await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, school));
    t.app.services.catalogue.invalidate();
  });
  afterAll(async () => t?.close());

  it("counts clicks, applications, paid enrolments and commission in the period; the campaign filters clicks", async () => {
    const a = await agent();
    const now = new Date();
    const today = schoolDate(now);
    await click(a.codeId, a.code, now, "wechat-spring");
    await click(a.codeId, a.code, now, "wechat-spring");
    await click(a.codeId, a.code, now, "");
    await click(a.codeId, a.code, now, "lagos_fair");
    // 40 days ago: outside the default 30 days.
    await click(a.codeId, a.code, new Date(now.getTime() - 40 * 86_400_000), "old");
    await referredAndPaid(a.code);
    await referredUnpaid(a.code);

    const res = await api("GET", "/api/affiliate/stats", a.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const stats = affiliateStatsSchema.parse(res.json());
    expect(stats).toMatchObject({ to: today, from: addDays(today, -29), granularity: "day" });
    expect(stats.buckets).toHaveLength(30);
    expect(stats.totals).toEqual({
      clicks: 4,
      applications: 2,
      paidEnrolments: 1,
      commissionEarned: TEN_PERCENT_OF_TOTAL,
      commissionClawedBack: 0,
      commissionNet: TEN_PERCENT_OF_TOTAL,
      conversionBasisPoints: 2500,
    });
    expect(stats.buckets.at(-1)).toEqual({
      start: today,
      end: today,
      clicks: 4,
      applications: 2,
      paidEnrolments: 1,
      commissionEarned: TEN_PERCENT_OF_TOTAL,
      commissionClawedBack: 0,
      commissionNet: TEN_PERCENT_OF_TOTAL,
    });
    expect(stats.campaigns).toEqual(["lagos_fair", "old", "wechat-spring"]);

    const filtered = affiliateStatsSchema.parse(
      (await api("GET", "/api/affiliate/stats?campaign=wechat-spring", a.cookie)).json(),
    );
    expect(filtered.totals).toMatchObject({ clicks: 2, paidEnrolments: 1, conversionBasisPoints: 5000 });

    // A year: per week, and the old click counts.
    const year = affiliateStatsSchema.parse(
      (await api("GET", `/api/affiliate/stats?from=${addDays(today, -364)}&to=${today}`, a.cookie)).json(),
    );
    expect(year.granularity).toBe("week");
    expect(year.totals.clicks).toBe(5);
    expect(year.buckets.at(-1)!.end).toBe(today);

    // A period before everything: zeros, no conversion.
    const before = affiliateStatsSchema.parse(
      (await api("GET", "/api/affiliate/stats?from=2020-01-01&to=2020-01-31", a.cookie)).json(),
    );
    expect(before.totals).toEqual({
      clicks: 0,
      applications: 0,
      paidEnrolments: 0,
      commissionEarned: 0,
      commissionClawedBack: 0,
      commissionNet: 0,
      conversionBasisPoints: null,
    });
  });

  it("refuses a reversed or too long period and a malformed campaign with a plain message", async () => {
    const a = await agent();
    const reversed = await api("GET", "/api/affiliate/stats?from=2026-03-02&to=2026-03-01", a.cookie);
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().message).toBe("The start date of the period must not be after its end date.");
    const long = await api("GET", "/api/affiliate/stats?from=2025-01-01&to=2026-03-01", a.cookie);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe("Please choose a period of at most 366 days.");
    const badDate = await api("GET", "/api/affiliate/stats?from=2026-02-30", a.cookie);
    expect(badDate.statusCode).toBe(400);
    const badCampaign = await api("GET", "/api/affiliate/stats?campaign=%3Cscript%3E", a.cookie);
    expect(badCampaign.statusCode).toBe(400);
    expect(badCampaign.json().message).toMatch(/campaign name/);
    const zh = await api("GET", "/api/affiliate/qr.png?campaign=a%20b", a.cookie, undefined, {
      headers: { ...SAME_ORIGIN.headers, "accept-language": "zh" },
    });
    expect(zh.statusCode).toBe(400);
  });

  it("lists referred applications with the student's first name and initial only, never e-mails or surnames", async () => {
    const a = await agent();
    await referredAndPaid(a.code, {
      firstName: "Amara",
      lastName: "Okafor",
      email: "amara.okafor@example.org",
    });
    const res = await api("GET", "/api/affiliate/referrals", a.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain("Okafor");
    expect(res.body).not.toContain("amara.okafor");
    const { referrals } = referralListSchema.parse(res.json());
    expect(referrals).toEqual([
      expect.objectContaining({
        studentName: "Amara O.",
        paymentStatus: "paid",
        commission: { pending: TEN_PERCENT_OF_TOTAL, approved: 0, in_payout: 0, paid: 0 },
      }),
    ]);
    expect(referrals[0]!.cohortName).not.toBe("");
  });

  it("the QR codes (PNG and SVG) read back as the referral link with utm_source=qr and the campaign", async () => {
    const a = await agent();
    const png = await api("GET", "/api/affiliate/qr.png?campaign=lagos_fair", a.cookie);
    expect(png.statusCode).toBe(200);
    expect(png.headers["content-type"]).toBe("image/png");
    expect(png.headers["content-disposition"]).toBe('attachment; filename="referral-qr-lagos_fair.png"');
    expect(decodeQrPng(png.rawPayload)).toBe(
      `http://localhost:3000/partner/${a.code}?utm_source=qr&utm_campaign=lagos_fair`,
    );
    const svg = await api("GET", "/api/affiliate/qr.svg", a.cookie);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers["content-disposition"]).toBe('attachment; filename="referral-qr.svg"');
    expect(decodeQrSvg(svg.body)).toBe(`http://localhost:3000/partner/${a.code}?utm_source=qr`);
  });

  it("updates the profile and stores the e-mail language", async () => {
    const a = await agent();
    const res = await api("PATCH", "/api/affiliate/profile", a.cookie, {
      name: "Lagos Study Abroad",
      language: "fr",
      website: "https://study.example.ng",
      country: "ng",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ name: "Lagos Study Abroad", language: "fr", country: "NG" });
    const [row] = await db().select().from(affiliates).where(eq(affiliates.id, a.id));
    expect(row).toMatchObject({
      name: "Lagos Study Abroad",
      language: "fr",
      website: "https://study.example.ng",
    });
    const bad = await api("PATCH", "/api/affiliate/profile", a.cookie, { name: "", language: "de" });
    expect(bad.statusCode).toBe(400);
  });

  it("changes the password only with the right current one; other sessions end", async () => {
    const a = await agent();
    const other = await t.app.inject({
      method: "POST",
      url: "/api/affiliate/login",
      headers: SAME_ORIGIN.headers,
      payload: { email: a.email, password: TEST_PASSWORD },
      remoteAddress: "10.94.200.1",
    });
    expect(other.statusCode).toBe(200);
    const otherCookie = `sid_affiliate=${other.cookies.find((c) => c.name === "sid_affiliate")!.value}`;

    const wrong = await api("POST", "/api/affiliate/password", a.cookie, {
      currentPassword: "not my password",
      newPassword: "a brand new passphrase",
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().message).toBe("Your current password is not correct.");
    const weak = await api("POST", "/api/affiliate/password", a.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: "short",
    });
    expect(weak.statusCode).toBe(400);

    const ok = await api("POST", "/api/affiliate/password", a.cookie, {
      currentPassword: TEST_PASSWORD,
      newPassword: "a brand new passphrase",
    });
    expect(ok.statusCode, ok.body).toBe(204);
    const notices = await db().select().from(emailOutbox).where(eq(emailOutbox.toAddress, a.email));
    expect(notices.map((e) => e.subject)).toEqual(["Your password was changed"]);
    expect(notices[0]!.textBody).toContain("partner account");
    expect((await api("GET", "/api/affiliate/me", a.cookie)).statusCode).toBe(200);
    expect((await api("GET", "/api/affiliate/me", otherCookie)).statusCode).toBe(401);
    const login = await t.app.inject({
      method: "POST",
      url: "/api/affiliate/login",
      headers: SAME_ORIGIN.headers,
      payload: { email: a.email, password: "a brand new passphrase" },
      remoteAddress: "10.94.200.2",
    });
    expect(login.statusCode).toBe(200);
  });

  it("refuses callers without an approved affiliate session", async () => {
    const a = await agent();
    expect((await api("GET", "/api/affiliate/stats")).statusCode).toBe(401);
    await db().update(affiliates).set({ status: "suspended" }).where(eq(affiliates.id, a.id));
    for (const url of [
      "/api/affiliate/stats",
      "/api/affiliate/referrals",
      "/api/affiliate/commissions",
      "/api/affiliate/qr.png",
    ]) {
      expect((await api("GET", url, a.cookie)).statusCode, url).toBe(403);
    }
    await db().update(affiliates).set({ status: "pending" }).where(eq(affiliates.id, a.id));
    expect((await api("GET", "/api/affiliate/referrals", a.cookie)).statusCode).toBe(403);
  });

  it("S6: each affiliate sees only its own clicks, referrals and commission", async () => {
    const one = await agent();
    const two = await agent();
    await click(one.codeId, one.code, new Date(), "one-only");
    await referredAndPaid(one.code, { firstName: "Chen", lastName: "Wei" });
    await referredAndPaid(two.code, { firstName: "Fatou", lastName: "Diallo" });
    await referredAndPaid(two.code, { firstName: "Jean", lastName: "Dupont" });

    const referralsOf = async (cookie: string) =>
      referralListSchema.parse((await api("GET", "/api/affiliate/referrals", cookie)).json()).referrals;
    expect((await referralsOf(one.cookie)).map((r) => r.studentName)).toEqual(["Chen W."]);
    expect((await referralsOf(two.cookie)).map((r) => r.studentName).sort()).toEqual(["Fatou D.", "Jean D."]);

    const ledgerOf = async (cookie: string) =>
      commissionLedgerSchema.parse((await api("GET", "/api/affiliate/commissions", cookie)).json());
    expect((await ledgerOf(one.cookie)).entries.map((e) => e.application?.studentName)).toEqual(["Chen W."]);
    expect((await ledgerOf(two.cookie)).totals.pending).toBe(2 * TEN_PERCENT_OF_TOTAL);

    const statsOf = async (cookie: string) =>
      affiliateStatsSchema.parse((await api("GET", "/api/affiliate/stats", cookie)).json());
    const s1 = await statsOf(one.cookie);
    const s2 = await statsOf(two.cookie);
    expect(s1.totals).toMatchObject({ clicks: 1, applications: 1, paidEnrolments: 1 });
    expect(s2.totals).toMatchObject({ clicks: 0, applications: 2, paidEnrolments: 2 });
    expect(s2.campaigns).toEqual([]);
  });
});
