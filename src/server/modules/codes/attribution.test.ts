import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { affiliates, applications, codeClicks, codes, commissionEntries } from "../../db/schema";
import { loginAsAffiliate } from "../../testing/accounts";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { attribute } from "./attribution";

/**
 * See docs/product/codes-and-partners.md#attribution: an application is credited when it is created, from the consented
 * `affiliate_code` cookie; a referral code typed or auto-applied on the payment step replaces it
 * (last click wins); the attribution is frozen at the first payment; suspended and pending
 * affiliates are credited nothing. And "Clicks": the country from the proxy's header, never the IP.
 */

const SECRET = "whsec_attribution_tests";

describe("attribution of an application to an affiliate", () => {
  let t: TestApp;
  const flow = paymentFlow(() => t, { addressPrefix: "10.94", webhookSecret: SECRET });
  const db = () => t.database.db;
  let n = 0;

  /** An approved affiliate with an active referral code. */
  async function agent(status: "approved" | "suspended" | "pending" = "approved") {
    const { affiliate } = await loginAsAffiliate(t.app);
    await db()
      .update(affiliates)
      .set({ status, commissionPercent: 10 })
      .where(eq(affiliates.id, affiliate.id));
    n += 1;
    const code = `REF${n}X${randomUUID().slice(0, 4).toUpperCase()}`;
    const [row] = await db()
      .insert(codes)
      .values({ code, codeType: "referral", discountValue: 0, affiliateId: affiliate.id })
      .returning();
    return { ...affiliate, code, codeId: row!.id };
  }

  const attributionOf = async (applicationId: string) => {
    const [row] = await db().select().from(applications).where(eq(applications.id, applicationId));
    return {
      affiliateId: row!.affiliateId,
      attributionCodeId: row!.attributionCodeId,
      attributionSource: row!.attributionSource,
      frozen: row!.attributionFrozenAt !== null,
    };
  };

  /** Step 2 again (the applicant went back to step 1 and on), with the browser's referral cookie. */
  async function saveAgain(a: Applied, referralCookie?: string) {
    const [row] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    const res = await t.app.inject({
      method: "POST",
      url: "/api/create-application-from-info",
      headers: {
        cookie: referralCookie ? `${a.cookie}; affiliate_code=${referralCookie}` : a.cookie,
      },
      remoteAddress: a.address,
      payload: {
        applicantId: a.applicantId,
        summerSchoolId: row!.summerSchoolId,
        packageId: row!.packageId,
        housingOptionId: row!.housingOptionId,
        selectedAddOns: row!.addOnIds,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().id).toBe(a.applicationId);
  }

  beforeAll(async () => {
    t = await createTestApp({
      offlineWebhookSecret: SECRET,
      env: { CLICK_COUNTRY_HEADER: "X-Country-Code" },
    });
  });
  afterAll(async () => t?.close());

  it("the consented cookie credits the application when it is created, and its first payment earns the commission", async () => {
    const linda = await agent();
    const a = await flow.newApplication(undefined, {}, { referralCookie: linda.code });
    expect(await attributionOf(a.applicationId)).toEqual({
      affiliateId: linda.id,
      attributionCodeId: linda.codeId,
      attributionSource: "link",
      frozen: false,
    });
    // No code typed on the payment step: the link alone credits the agent.
    await flow.payByWebhook(a);
    expect((await attributionOf(a.applicationId)).frozen).toBe(true);
    const entries = await db()
      .select()
      .from(commissionEntries)
      .where(eq(commissionEntries.applicationId, a.applicationId));
    expect(entries.map((e) => e.affiliateId)).toEqual([linda.id]);
  });

  it("last click wins until the first payment: a later link, then a typed referral code, replace it", async () => {
    const first = await agent();
    const second = await agent();
    const third = await agent();
    const a = await flow.newApplication(undefined, {}, { referralCookie: first.code });
    await saveAgain(a, second.code);
    expect(await attributionOf(a.applicationId)).toMatchObject({
      affiliateId: second.id,
      attributionSource: "link",
    });
    // Back without a cookie (it expired, or consent was withdrawn): the attribution stays.
    await saveAgain(a);
    expect((await attributionOf(a.applicationId)).affiliateId).toBe(second.id);

    const typed = await flow.validate(third.code, a);
    expect(typed.json()).toMatchObject({ isValid: true });
    expect(await attributionOf(a.applicationId)).toEqual({
      affiliateId: third.id,
      attributionCodeId: third.codeId,
      attributionSource: "code",
      frozen: false,
    });

    // Frozen at the first payment: nothing moves it afterwards.
    await flow.payByWebhook(a);
    const [paid] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    const [firstCode] = await db().select().from(codes).where(eq(codes.id, first.codeId));
    expect(await attribute(db(), paid!, firstCode!, "link", new Date())).toBe(false);
    expect(await attributionOf(a.applicationId)).toMatchObject({ affiliateId: third.id, frozen: true });
    const entries = await db()
      .select()
      .from(commissionEntries)
      .where(eq(commissionEntries.applicationId, a.applicationId));
    expect(entries.map((e) => e.affiliateId)).toEqual([third.id]);
  });

  it("a code auto-applied from the link is recorded as the link's; a plain discount code keeps the agent; removing the referral code withdraws it", async () => {
    const linda = await agent();
    const a = await flow.newApplication();
    const auto = await t.app.inject({
      method: "POST",
      url: "/api/validate-code",
      headers: { cookie: a.cookie },
      payload: { code: linda.code, applicationId: a.applicationId, source: "link" },
      remoteAddress: a.address,
    });
    expect(auto.json(), auto.body).toMatchObject({ isValid: true });
    expect(await attributionOf(a.applicationId)).toMatchObject({
      affiliateId: linda.id,
      attributionSource: "link",
    });

    // A discount code without an agent replaces the applied code but not the agent.
    const discount = `SAVE${randomUUID().slice(0, 6).toUpperCase()}`;
    await db().insert(codes).values({
      code: discount,
      codeType: "discount",
      discountType: "percentage",
      discountValue: 5,
    });
    expect((await flow.validate(discount, a)).json()).toMatchObject({ isValid: true });
    expect((await attributionOf(a.applicationId)).affiliateId).toBe(linda.id);

    // The referral code typed again, then removed by the applicant: nobody is credited.
    expect((await flow.validate(linda.code, a)).json()).toMatchObject({ isValid: true });
    const removed = await t.app.inject({
      method: "DELETE",
      url: `/api/applications/${a.applicationId}/code`,
      headers: { cookie: a.cookie },
      remoteAddress: a.address,
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await attributionOf(a.applicationId)).toEqual({
      affiliateId: null,
      attributionCodeId: null,
      attributionSource: null,
      frozen: false,
    });
  });

  it("a suspended or pending affiliate's link credits nobody, and an unknown cookie never blocks the application", async () => {
    const suspended = await agent("suspended");
    const pending = await agent("pending");
    for (const cookie of [suspended.code, pending.code, "NOSUCHCODE", "x".repeat(80)]) {
      const a = await flow.newApplication(undefined, {}, { referralCookie: cookie });
      expect(await attributionOf(a.applicationId)).toMatchObject({
        affiliateId: null,
        attributionCodeId: null,
      });
    }
  });

  it("a click records the country the proxy gives, never the IP address", async () => {
    const linda = await agent();
    let visitor = 0;
    // Three visitors from one network (one visitor counts once a day: decision 036).
    const click = (headers: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/record-code-click",
        headers: { ...headers, "user-agent": `Browser/${++visitor}` },
        payload: { code: linda.code, utmSource: "wechat", utmCampaign: "spring" },
        remoteAddress: "203.0.113.77",
      });
    expect((await click({ "x-country-code": "ng" })).statusCode).toBe(201);
    expect((await click({ "x-country-code": "not a country" })).statusCode).toBe(201);
    expect((await click({})).statusCode).toBe(201);
    const rows = await db().select().from(codeClicks).where(eq(codeClicks.codeId, linda.codeId));
    expect(rows.map((r) => r.country).sort()).toEqual(["", "", "NG"]);
    expect(JSON.stringify(rows)).not.toContain("203.0.113.77");
  });
});
