import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { and, eq, inArray, ne } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SummerSchoolDto } from "../../../shared/catalogue";
import { applications, checkoutSessions, codeClicks, codeRedemptions, codes } from "../../db/schema";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { createTestApp, json, type TestApp } from "../../testing/harness";

const fr = JSON.parse(
  readFileSync(new URL("../../../shared/i18n/locales/fr/common.json", import.meta.url), "utf8"),
) as { validation: Record<string, string>; errors: Record<string, string> };

const WEBHOOK_SECRET = "whsec_codes_test_secret";
const MSG = {
  notFound: "This code is not valid",
  inactive: "This code is no longer active.",
  notYetValid: "This code is not valid yet.",
  expired: "This code has expired.",
  usedUp: "This code has already been used the maximum number of times.",
  notForSchool: "This code does not apply to the programme you selected.",
  valid: "Code applied.",
  referral: "This code will be automatically applied when you apply.",
};

let t: TestApp;
/** Added to the real time: the app's clock (code windows, holds, checkout expiry). */
let clockOffsetMs = 0;
const {
  nextAddress,
  newApplication,
  validate,
  checkout,
  deliverSessionEvent: deliverWebhook,
} = paymentFlow(() => t, { addressPrefix: "10.2", webhookSecret: WEBHOOK_SECRET });

beforeAll(async () => {
  t = await createTestApp({
    now: () => new Date(Date.now() + clockOffsetMs),
    offlineWebhookSecret: WEBHOOK_SECRET,
  });
});
afterAll(async () => {
  await t?.close();
});

async function addCode(values: Partial<typeof codes.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(codes)
    .values({
      code: `T${randomUUID().replace(/-/g, "").slice(0, 10).toUpperCase()}`,
      codeType: "discount",
      discountType: "fixed",
      discountValue: 5000,
      ...values,
    })
    .returning();
  return row!;
}

/** Live uses of a code: redeemed, or held with an unexpired hold (app clock). */
async function liveUses(codeId: string) {
  const rows = await t.database.db
    .select()
    .from(codeRedemptions)
    .where(and(eq(codeRedemptions.codeId, codeId), ne(codeRedemptions.status, "released")));
  const now = Date.now() + clockOffsetMs;
  return rows.filter((r) => r.status === "redeemed" || (r.holdExpiresAt && r.holdExpiresAt.getTime() > now))
    .length;
}

describe("POST /api/validate-code without an application (referral tracking)", () => {
  it("accepts the demo discount codes with their type", async () => {
    const cases: Array<[string, "percentage" | "fixed"]> = [
      ["WELCOME10", "percentage"],
      ["SAVE200", "fixed"],
      ["FULLSCHOLAR", "percentage"],
    ];
    for (const [code, discountType] of cases) {
      const res = await validate(code);
      expect(res.statusCode, code).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      expect(json(res), code).toMatchObject({
        isValid: true,
        message: MSG.valid,
        codeType: "discount",
        discountType,
        affiliateId: null,
        expiryDays: 30,
      });
      expect(json(res).codeId).toMatch(/^[0-9a-f-]{36}$/);
    }
    // Typed in lower case with spaces: the same code.
    expect(json(await validate("  welcome10 "))).toMatchObject({ isValid: true, discountType: "percentage" });
  });

  it("accepts a referral code with expiryDays 30 and its affiliate, without an applicationId", async () => {
    const res = await validate("LINDA2027");
    expect(res.statusCode).toBe(200);
    expect(json(res)).toMatchObject({
      isValid: true,
      message: MSG.referral,
      codeType: "referral",
      expiryDays: 30,
    });
    expect(json(res).affiliateId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("refuses unknown, expired, used-up, inactive and not-yet-valid codes with the reason", async () => {
    const inactive = await addCode({ active: false });
    const later = await addCode({ validFrom: new Date(Date.now() + 7 * 86_400_000) });
    const cases: Array<[string, string]> = [
      ["NOSUCHCODE", MSG.notFound],
      ["' OR 1=1 --", MSG.notFound],
      ["<script>alert(1)</script>", MSG.notFound],
      ["SUMMER2024", MSG.expired],
      ["ONCEONLY", MSG.usedUp],
      [inactive.code, MSG.inactive],
      [later.code, MSG.notYetValid],
    ];
    for (const [code, message] of cases) {
      const res = await validate(code);
      expect(res.statusCode, code).toBe(200);
      expect(json(res), code).toEqual({ isValid: false, message });
    }
    // Deactivating an existing code takes effect at once.
    await t.database.db.update(codes).set({ active: false }).where(eq(codes.code, "SAVE200"));
    try {
      expect(json(await validate("SAVE200"))).toEqual({ isValid: false, message: MSG.inactive });
    } finally {
      await t.database.db.update(codes).set({ active: true }).where(eq(codes.code, "SAVE200"));
    }
  });

  it("answers in the visitor's language", async () => {
    expect(json(await validate("NOSUCHCODE", undefined, { "accept-language": "fr" })).message).toBe(
      fr.errors.codeNotFound,
    );
    expect(json(await validate("SUMMER2024", undefined, { cookie: "language=fr" })).message).toBe(
      fr.errors.codeExpired,
    );
    expect(fr.errors.codeExpired).not.toBe(MSG.expired);
  });

  it("requires a code: 'Please enter a code' (docs/product/catalogue-and-pricing.md#code-discounts), and refuses wrong types with 400", async () => {
    for (const code of ["", "   ", undefined]) {
      const res = await validate(code);
      expect(res.statusCode).toBe(400);
      expect(json(res).message).toBe("Please enter a code");
    }
    expect(json(await validate("", undefined, { "accept-language": "fr" })).message).toBe(
      fr.validation.enterCode,
    );
    expect((await validate(42)).statusCode).toBe(400);
    expect((await validate({ $gt: "" })).statusCode).toBe(400);
    const badId = await t.app.inject({
      method: "POST",
      url: "/api/validate-code",
      payload: { code: "WELCOME10", applicationId: "1 OR 1=1" },
      remoteAddress: nextAddress(),
    });
    expect(badId.statusCode).toBe(400);
  });
});

describe("POST /api/validate-code with an application", () => {
  it("attaches the code and answers the server's quote (10% of 3,045.00 = 304.50)", async () => {
    const a = await newApplication();
    const res = await validate("WELCOME10", a);
    expect(res.statusCode).toBe(200);
    const body = json(res);
    expect(body).toMatchObject({
      isValid: true,
      message: MSG.valid,
      discountType: "percentage",
      discountAmount: 30450,
    });
    expect(body.quote).toMatchObject({
      originalAmount: 304500,
      discountAmount: 30450,
      totalAmount: 274050,
      depositAmount: 274050,
    });
    expect(body.quote.appliedCode).toMatchObject({ code: "WELCOME10", codeId: body.codeId });

    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, a.applicationId));
    expect(row!.appliedCodeId).toBe(body.codeId);
    const dto = await t.app.inject({
      url: `/api/applications/${a.applicationId}`,
      headers: { cookie: a.cookie },
    });
    expect(dto.json().quote).toMatchObject({
      discountAmount: 30450,
      totalAmount: 274050,
      appliedCode: { code: "WELCOME10" },
    });

    // An invalid code does not replace the applied one.
    expect(json(await validate("NOSUCHCODE", a)).isValid).toBe(false);
    expect(
      (await t.database.db.select().from(applications).where(eq(applications.id, a.applicationId)))[0]!
        .appliedCodeId,
    ).toBe(body.codeId);
  });

  it("prices fixed, 100% and referral codes on the server", async () => {
    const a = await newApplication();
    expect(json(await validate("SAVE200", a)).quote).toMatchObject({
      discountAmount: 20000,
      totalAmount: 284500,
    });
    expect(json(await validate("FULLSCHOLAR", a)).quote).toMatchObject({
      discountAmount: 304500,
      totalAmount: 0,
      depositAmount: 0,
    });
    const referral = json(await validate("LINDA2027", a));
    expect(referral).toMatchObject({ isValid: true, codeType: "referral", discountAmount: 0 });
    expect(referral.quote).toMatchObject({ discountAmount: 0, totalAmount: 304500 });
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, a.applicationId));
    expect(row!.affiliateId).toBe(referral.affiliateId);
  });

  it("DELETE /api/applications/:id/code restores the quote", async () => {
    const a = await newApplication();
    await validate("WELCOME10", a);
    const res = await t.app.inject({
      method: "DELETE",
      url: `/api/applications/${a.applicationId}/code`,
      headers: { cookie: a.cookie },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    expect(json(res).quote).toMatchObject({
      originalAmount: 304500,
      discountAmount: 0,
      totalAmount: 304500,
      appliedCode: null,
    });
    const dto = await t.app.inject({
      url: `/api/applications/${a.applicationId}`,
      headers: { cookie: a.cookie },
    });
    expect(dto.json().quote).toMatchObject({ discountAmount: 0, totalAmount: 304500, appliedCode: null });
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, a.applicationId));
    expect(row!.appliedCodeId).toBeNull();
  });

  it("refuses a code limited to other schools, and acts only for the application's owner", async () => {
    const a = await newApplication();
    const b = await newApplication();
    const schools = (await t.app.inject({ url: "/api/summer-schools" })).json() as SummerSchoolDto[];
    const june = schools.find((s) => s.status === "full")!;
    const juneOnly = await addCode({ summerSchoolIds: [june.id] });
    expect(json(await validate(juneOnly.code, a))).toEqual({ isValid: false, message: MSG.notForSchool });
    const mine = await addCode({ summerSchoolIds: [a.schoolId] });
    expect(json(await validate(mine.code, a)).isValid).toBe(true);

    // B cannot price, attach or remove codes on A's application.
    const foreign = await t.app.inject({
      method: "POST",
      url: "/api/validate-code",
      headers: { cookie: b.cookie },
      payload: { code: "WELCOME10", applicationId: a.applicationId },
      remoteAddress: b.address,
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).not.toContain("quote");
    const remove = await t.app.inject({
      method: "DELETE",
      url: `/api/applications/${a.applicationId}/code`,
      headers: { cookie: b.cookie },
    });
    expect(remove.statusCode).toBe(404);
    const [row] = await t.database.db.select().from(applications).where(eq(applications.id, a.applicationId));
    expect(row!.appliedCodeId).toBe(mine.id);
  });
});

describe("redeeming a code with one use left", () => {
  it("P3: of 20 concurrent checkouts of 20 applications, exactly one takes the last use", async () => {
    const code = await addCode({ maxRedemptions: 1 });
    const apps: Applied[] = [];
    for (let i = 0; i < 20; i++) apps.push(await newApplication());
    for (const a of apps) expect(json(await validate(code.code, a)).isValid).toBe(true);

    const results = await Promise.all(apps.map((a) => checkout(a)));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(1);
    expect(json(ok[0]!).sessionId).toMatch(/^cs_offline_/);
    expect(refused).toHaveLength(19);
    for (const r of refused) {
      expect(r.statusCode).toBe(422);
      expect(json(r).message).toBe(MSG.usedUp);
    }
    expect(await liveUses(code.id)).toBe(1);
    const sessions = await t.database.db
      .select()
      .from(checkoutSessions)
      .where(
        inArray(
          checkoutSessions.applicationId,
          apps.map((a) => a.applicationId),
        ),
      );
    expect(sessions.filter((s) => s.url !== "")).toHaveLength(1);
  });

  it("P4: a live checkout holds the last use; it is released when the session expires", async () => {
    const code = await addCode({ maxRedemptions: 1 });
    const a = await newApplication();
    const b = await newApplication();
    // B applied the code first, but A reaches checkout first.
    expect(json(await validate(code.code, b)).isValid).toBe(true);
    expect(json(await validate(code.code, a)).isValid).toBe(true);
    const held = await checkout(a);
    expect(held.statusCode).toBe(200);
    expect(await liveUses(code.id)).toBe(1);

    const blocked = await checkout(b);
    expect(blocked.statusCode).toBe(422);
    expect(json(blocked).message).toBe(MSG.usedUp);
    expect(json(await validate(code.code, b))).toEqual({ isValid: false, message: MSG.usedUp });
    expect(json(await validate(code.code))).toEqual({ isValid: false, message: MSG.usedUp });
    // A re-opening its own checkout does not compete with itself (same session, P13).
    const again = await checkout(a);
    expect(again.statusCode).toBe(200);
    expect(json(again).sessionId).toBe(json(held).sessionId);

    // The provider reports A's session expired: the hold is released.
    await t.app.services.provider.expireCheckoutSession(json(held).sessionId);
    const expired = await deliverWebhook("checkout.session.expired", json(held).sessionId);
    expect(expired.statusCode).toBe(200);
    expect(await liveUses(code.id)).toBe(0);

    expect(json(await validate(code.code, b)).isValid).toBe(true);
    const taken = await checkout(b);
    expect(taken.statusCode).toBe(200);
    expect(await liveUses(code.id)).toBe(1);
    // Now A is the one refused.
    expect(json(await validate(code.code, a))).toEqual({ isValid: false, message: MSG.usedUp });
  });

  it("P4: the hold ends with its time limit, and when the holder removes the code", async () => {
    const code = await addCode({ maxRedemptions: 1 });
    const c = await newApplication();
    const d = await newApplication();
    const e = await newApplication();
    expect(json(await validate(code.code, c)).isValid).toBe(true);
    expect((await checkout(c)).statusCode).toBe(200);
    expect(json(await validate(code.code, d))).toEqual({ isValid: false, message: MSG.usedUp });

    // No event at all: 36 minutes later the hold has lapsed (sessions live 30 minutes).
    clockOffsetMs += 36 * 60_000;
    try {
      expect(json(await validate(code.code, d)).isValid).toBe(true);
      expect((await checkout(d)).statusCode).toBe(200);
      expect(json(await validate(code.code, e))).toEqual({ isValid: false, message: MSG.usedUp });

      // D cancels by removing the code: E can take it.
      const removed = await t.app.inject({
        method: "DELETE",
        url: `/api/applications/${d.applicationId}/code`,
        headers: { cookie: d.cookie },
      });
      expect(removed.statusCode).toBe(200);
      expect(json(await validate(code.code, e)).isValid).toBe(true);
      expect((await checkout(e)).statusCode).toBe(200);
      expect(await liveUses(code.id)).toBe(1);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe("POST /api/record-code-click", () => {
  it("counts one click per code, visitor and day, with or without consent (docs/product/codes-and-partners.md#partner-figures, decision 036)", async () => {
    const clicksOf = async () =>
      (await t.database.db.select().from(codeClicks).where(eq(codeClicks.utmCampaign, "once-a-day"))).length;
    const visit = (userAgent: string, hasCookieConsent: boolean, remoteAddress = "198.51.100.23") =>
      t.app.inject({
        method: "POST",
        url: "/api/record-code-click",
        headers: { "user-agent": userAgent },
        payload: { code: "LINDA2027", utmCampaign: "once-a-day", hasCookieConsent },
        remoteAddress,
      });
    try {
      // One browser that consented, three visits: one click; the same without consent: one click.
      const first = await visit("Consenting/1.0", true);
      expect(first.statusCode).toBe(201);
      expect(json(first)).toEqual({ recorded: true });
      for (let i = 0; i < 2; i++)
        expect(json(await visit("Consenting/1.0", true))).toEqual({ recorded: false });
      for (let i = 0; i < 3; i++) await visit("NoConsent/1.0", false);
      expect(await clicksOf()).toBe(2);
      // Another visitor counts; the key stored says nothing of the address.
      expect((await visit("NoConsent/1.0", false, "198.51.100.24")).statusCode).toBe(201);
      expect(await clicksOf()).toBe(3);
      const stored = await t.database.db
        .select()
        .from(codeClicks)
        .where(eq(codeClicks.utmCampaign, "once-a-day"));
      expect(JSON.stringify(stored)).not.toContain("198.51.100");
      // The next day, the same browser counts again.
      clockOffsetMs += 86_400_000;
      expect((await visit("Consenting/1.0", true)).statusCode).toBe(201);
      expect(await clicksOf()).toBe(4);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("records a click on a known code (201) and refuses an unknown one (404)", async () => {
    // The demo data holds earlier clicks on the demo affiliate's link: count the new ones.
    const before = (await t.database.db.select().from(codeClicks)).length;
    const res = await t.app.inject({
      method: "POST",
      url: "/api/record-code-click",
      payload: {
        code: "linda2027",
        sourceUrl: "https://partner.example/blog?ref=LINDA2027",
        utmSource: "blog",
        utmCampaign: "summer",
        userAgent: "Mozilla/5.0",
        hasCookieConsent: true,
      },
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode).toBe(201);
    expect(json(res)).toEqual({ recorded: true });
    const clicks = await t.database.db
      .select()
      .from(codeClicks)
      .where(and(eq(codeClicks.code, "LINDA2027"), eq(codeClicks.utmCampaign, "summer")));
    expect(clicks).toHaveLength(1);
    expect(clicks[0]).toMatchObject({ utmSource: "blog", hasCookieConsent: true });
    expect(clicks[0]!.codeId).toMatch(/^[0-9a-f-]{36}$/);

    const unknown = await t.app.inject({
      method: "POST",
      url: "/api/record-code-click",
      payload: { code: "NOSUCHCODE" },
      remoteAddress: nextAddress(),
    });
    expect(unknown.statusCode).toBe(404);
    expect(json(unknown)).toEqual({ message: MSG.notFound });
    const wrong = await t.app.inject({
      method: "POST",
      url: "/api/record-code-click",
      payload: { code: "LINDA2027", hasCookieConsent: "yes" },
      remoteAddress: nextAddress(),
    });
    expect(wrong.statusCode).toBe(400);
    expect(await t.database.db.select().from(codeClicks)).toHaveLength(before + 1);
  });
});
