import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schoolDate } from "../../../shared/time";
import {
  affiliates,
  applications,
  codes,
  commissionEntries,
  emailOutbox,
  invoices,
  payments,
  summerSchools,
} from "../../db/schema";
import { loginAsAffiliate } from "../../testing/accounts";
import { adminRoles, apiOf, auditEntries, expectRouteStatuses, SAME_ORIGIN } from "../../testing/admin";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { completeOfflineSession } from "../payments/providers/offline";

/**
 * See docs/product/catalogue-and-pricing.md#pricing-rules (docs/product/catalogue-and-pricing.md#pricing-rules, decision 030): owners and finance admins set a
 * school's early application discount (audited); the one pricing function applies it, the larger
 * of it and a discount code, with a referral code still crediting its agent; a checkout session
 * keeps the quote it was opened for when the rule changes; the public pages follow the rule.
 */

const SECRET = "whsec_pricing_rule_tests";
/** Standard package, shared room, required insurance: 2,950.00 + 95.00 EUR. */
const TOTAL = 304_500;
const TEN_PERCENT = 30_450;
/** Today in The Hague when the tests start, and the rule's end: 60 days later. */
const TODAY = schoolDate(new Date());
const ENDS_ON = new Date(Date.parse(`${TODAY}T00:00:00Z`) + 60 * 86_400_000).toISOString().slice(0, 10);
/** ENDS_ON as the English invoice and e-mail write it ("15 March 2027"). */
const ENDS_ON_TEXT = new Intl.DateTimeFormat("en-GB", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
}).format(new Date(`${ENDS_ON}T00:00:00Z`));
/** The first minute of ENDS_ON in The Hague (its midnight is 22:00 or 23:00 UTC the day before). */
function midnightOf(day: string): Date {
  const before = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
  for (const hour of [22, 23]) {
    const at = new Date(before + hour * 3_600_000);
    if (schoolDate(at) === day && schoolDate(new Date(at.getTime() - 60_000)) !== day) return at;
  }
  throw new Error(`no midnight found for ${day}`);
}

describe("pricing rules", () => {
  /**
   * The test's clock: the real time (the payment provider, like Stripe, checks a checkout
   * session's expiry against it), moved by the test of the rule's last day.
   */
  let clock = new Date();
  let t: TestApp;
  const flow = paymentFlow(() => t, { addressPrefix: "10.96", webhookSecret: SECRET });
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let roles: Awaited<ReturnType<typeof adminRoles>>;
  let school: string;
  let version: number | undefined;

  const ruleUrl = () => `/api/admin/summer-schools/${school}/pricing-rules/early-application`;
  /** Saves the school's early rule as finance, asserting 200; returns the rule. */
  async function saveRule(rule: { percent: number; endsOn: string; active: boolean }) {
    const res = await api("PUT", ruleUrl(), roles.finance, { ...rule, version });
    expect(res.statusCode, res.body).toBe(200);
    version = res.json().version;
    return res.json();
  }
  const quoteOf = async (a: Applied) => {
    const res = await t.app.inject({
      url: `/api/applications/${a.applicationId}`,
      headers: { cookie: a.cookie },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().quote;
  };

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: SECRET, now: () => clock });
    roles = await adminRoles(t.app);
    const open = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      status: string;
    }>;
    school = open.find((s) => s.status === "open")!.id;
    await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, school));
    t.app.services.catalogue.invalidate();
  });
  afterAll(async () => t?.close());

  it("owners and finance admins change a school's rule; admissions, students, partners and visitors cannot", async () => {
    const body = { percent: 10, endsOn: ENDS_ON, active: false };
    await expectRouteStatuses(
      api,
      roles,
      [["PUT", `/api/admin/summer-schools/${randomUUID()}/pricing-rules/early-application`, body]],
      {
        anonymous: 401,
        student: 401,
        affiliate: 401,
        admissions: 403,
        finance: 404,
        owner: 404,
      },
    );
    // Everyone in the back office may read the rule.
    const read = await api("GET", `/api/admin/summer-schools/${school}/pricing-rules`, roles.admissions);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual({ earlyApplication: null, today: TODAY });
  });

  it("refuses a percentage outside 1-100 or a date that does not exist, in the admin's language, and a stale version", async () => {
    const bad = await api(
      "PUT",
      ruleUrl(),
      roles.finance,
      { percent: 0, endsOn: "2027-02-30", active: true },
      {
        headers: { "accept-language": "fr" },
      },
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toMatchObject({
      percent: "Saisissez une réduction comprise entre 1 et 100\u202f%.",
      endsOn: "Saisissez le jour où la réduction prend fin (une date qui existe).",
    });
    const saved = await saveRule({ percent: 10, endsOn: ENDS_ON, active: true });
    expect(saved).toMatchObject({
      percent: 10,
      endsOn: ENDS_ON,
      active: true,
      inEffect: true,
      version: 1,
    });
    const stale = await api("PUT", ruleUrl(), roles.owner, {
      percent: 50,
      endsOn: ENDS_ON,
      active: true,
      version: 7,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().current).toMatchObject({ percent: 10, version: 1 });
    const [entry] = await auditEntries(db(), { action: "pricing_rule.save", entityId: school });
    expect(entry).toMatchObject({ before: null, after: { percent: 10, endsOn: ENDS_ON, active: true } });
  });

  it("applies the rule to a new application's quote and the public pages promise it, until midnight in The Hague", async () => {
    const a = await flow.newApplication(school);
    expect(await quoteOf(a)).toMatchObject({
      originalAmount: TOTAL,
      discountAmount: TEN_PERCENT,
      discountSource: "automatic",
      totalAmount: TOTAL - TEN_PERCENT,
      automaticDiscount: { percent: 10, endsOn: ENDS_ON, amount: TEN_PERCENT },
    });
    const summary = (await t.app.inject({ url: "/api/catalogue/summary" })).json();
    expect(summary.schools.find((s: { id: string }) => s.id === school).earlyDiscount).toEqual({
      percent: 10,
      endsOn: ENDS_ON,
    });

    // 23:59 on the day before ENDS_ON in The Hague: still in effect; one minute later, no longer.
    const midnight = midnightOf(ENDS_ON);
    clock = new Date(midnight.getTime() - 60_000);
    expect((await quoteOf(a)).discountSource).toBe("automatic");
    clock = midnight;
    expect(schoolDate(clock)).toBe(ENDS_ON);
    expect(await quoteOf(a)).toMatchObject({ discountAmount: 0, discountSource: null, totalAmount: TOTAL });
    t.app.services.catalogue.invalidate();
    const after = (await t.app.inject({ url: "/api/catalogue/summary" })).json();
    expect(after.schools.find((s: { id: string }) => s.id === school).earlyDiscount).toBeNull();
    expect(after.earlyDiscount).toBeNull();
    clock = new Date();
    t.app.services.catalogue.invalidate();
  });

  it("does not add up with a discount code: a smaller code leaves the early discount and says so, a larger one replaces it", async () => {
    const small = `SMALL${randomUUID().slice(0, 6)}`.toUpperCase();
    const large = `LARGE${randomUUID().slice(0, 6)}`.toUpperCase();
    await db()
      .insert(codes)
      .values([
        { code: small, codeType: "discount", discountType: "percentage", discountValue: 5 },
        { code: large, codeType: "discount", discountType: "fixed", discountValue: 50_000 },
      ]);
    const a = await flow.newApplication(school);
    const smaller = await flow.validate(small, a);
    expect(smaller.json()).toMatchObject({ isValid: true, discountAmount: TEN_PERCENT });
    expect(smaller.json().message).toContain("early application discount of €304.50 is larger");
    expect(smaller.json().quote).toMatchObject({
      discountSource: "automatic",
      totalAmount: TOTAL - TEN_PERCENT,
    });

    const larger = await flow.validate(large, a);
    expect(larger.json().quote).toMatchObject({
      discountSource: "code",
      discountAmount: 50_000,
      totalAmount: TOTAL - 50_000,
      appliedCode: { code: large },
    });
  });

  it("combines with a referral code: the early discount is paid and the agent is credited on what was paid", async () => {
    const { affiliate } = await loginAsAffiliate(t.app);
    await db().update(affiliates).set({ commissionPercent: 10 }).where(eq(affiliates.id, affiliate.id));
    const code = `AGENT${randomUUID().slice(0, 6)}`.toUpperCase();
    await db()
      .insert(codes)
      .values({ code, codeType: "referral", discountValue: 0, affiliateId: affiliate.id });
    const a = await flow.newApplication(school);
    const validated = await flow.validate(code, a);
    expect(validated.json().message).toBe(
      "Referral code applied. Your early application discount still applies.",
    );
    expect(validated.json().quote).toMatchObject({
      discountSource: "automatic",
      totalAmount: TOTAL - TEN_PERCENT,
      appliedCode: { code, codeType: "referral" },
    });
    // The hosted checkout names the early discount, not the agent's code (docs/product/catalogue-and-pricing.md#pricing-rules).
    const sessionId = await flow.sessionOf(a);
    const page = await t.app.inject({ url: `/test-payment?session_id=${sessionId}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain("Early application discount");
    expect(page.body).not.toContain(`Code ${code}`);
    await flow.payByWebhook(a);
    const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.applicationId));
    expect(payment).toMatchObject({ amountCents: TOTAL - TEN_PERCENT, flag: null });
    const [entry] = await db()
      .select()
      .from(commissionEntries)
      .where(eq(commissionEntries.applicationId, a.applicationId));
    // 10 % of 2,740.50 excluding 21 % VAT (2,264.88) = 226.49 EUR.
    expect(entry).toMatchObject({ affiliateId: affiliate.id, baseCents: 226_488, amountCents: 22_649 });
  });

  it("a checkout session opened with the rule is paid at its quote after the rule is switched off; the invoice, e-mail and application show the early discount", async () => {
    const a = await flow.newApplication(school);
    const sessionId = await flow.sessionOf(a);
    const [rule] = [await saveRule({ percent: 10, endsOn: ENDS_ON, active: false })];
    expect(rule).toMatchObject({ active: false, inEffect: false });
    // A new applicant no longer gets it …
    const other = await flow.newApplication(school);
    expect((await quoteOf(other)).totalAmount).toBe(TOTAL);
    // … but the session already open charges what its applicant was shown (docs/product/portals.md#sessions).
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    const [application] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    expect(application).toMatchObject({
      paymentStatus: "paid",
      totalAmountCents: TOTAL - TEN_PERCENT,
      discountAmountCents: TEN_PERCENT,
    });
    const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.applicationId));
    expect(payment).toMatchObject({ amountCents: TOTAL - TEN_PERCENT, flag: null });

    const [invoice] = await db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, payment!.id), eq(invoices.kind, "invoice")));
    expect(invoice!.snapshot.lines).toContainEqual(
      expect.objectContaining({
        description: `Early application discount: 10% for applications before ${ENDS_ON_TEXT}`,
        amount: -TEN_PERCENT,
      }),
    );
    const quote = await quoteOf(a);
    expect(quote).toMatchObject({ discountSource: "automatic", totalAmount: TOTAL - TEN_PERCENT });
    const mails = await db().select().from(emailOutbox);
    const confirmation = mails.find(
      (m) => m.subject.includes("confirmed") || m.textBody.includes(a.applicationId),
    );
    expect(confirmation?.textBody).toContain(
      `Early application discount (10% before ${ENDS_ON_TEXT}): − €304.50`,
    );
  });

  it("docs/product/catalogue-and-pricing.md#pricing-rules: a rule raised to 15 % while a checkout is open: the confirmation e-mail states the 10 % charged", async () => {
    await saveRule({ percent: 10, endsOn: ENDS_ON, active: true });
    const a = await flow.newApplication(school);
    const sessionId = await flow.sessionOf(a);
    await saveRule({ percent: 15, endsOn: ENDS_ON, active: true });
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.applicationId));
    expect(payment).toMatchObject({ amountCents: TOTAL - TEN_PERCENT });
    const [confirmation] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `confirmation:${a.applicationId}`));
    expect(confirmation!.textBody).toContain(
      `Early application discount (10% before ${ENDS_ON_TEXT}): − €304.50`,
    );
    expect(confirmation!.textBody).not.toContain("15%");
  });
});
