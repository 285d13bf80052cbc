import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { includedVat } from "../../../shared/pricing";
import {
  affiliates,
  applications,
  codes,
  commissionEntries,
  payoutRuns,
  payouts,
  summerSchools,
} from "../../db/schema";
import { loginAsAffiliate, loginAsStudent } from "../../testing/accounts";
import { adminRoles, apiOf, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { completeOfflineSession } from "../payments/providers/offline";
import { ledgerOf, releaseAt } from "./ledger";

/**
 * See docs/product/codes-and-partners.md#commissions: "Commissions: one ledger, tied to the school's payments and refunds" (decision 022):
 * each accepted payment of a referred application earns a held commission on its amount excluding
 * VAT; refunds claw it back in proportion, to the cent, also after a payout; a redelivered webhook
 * writes nothing twice; self-referrals and affiliates not approved earn nothing.
 */

const SECRET = "whsec_commission_tests";
/** Standard package, shared room, required insurance: 2,950.00 + 95.00 EUR. */
const TOTAL = 304_500;
/** 10 % of the total excluding 21 % VAT: 10 % × (304,500 − 52,847) = 25,165.3 → 25,165. */
const TEN_PERCENT_OF_TOTAL = 25_165;

describe("commission ledger", () => {
  let t: TestApp;
  const flow = paymentFlow(() => t, { addressPrefix: "10.93", webhookSecret: SECRET });
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let finance: string;
  let fullSchool: string;
  let depositSchool: string;
  let n = 0;

  /** An approved affiliate (10 % unless told) with an active referral code. */
  async function agent(rate: Partial<typeof affiliates.$inferInsert> = { commissionPercent: 10 }) {
    const { affiliate } = await loginAsAffiliate(t.app);
    await db().update(affiliates).set(rate).where(eq(affiliates.id, affiliate.id));
    n += 1;
    const code = `AGENT${n}X${randomUUID().slice(0, 4).toUpperCase()}`;
    await db()
      .insert(codes)
      .values({ code, codeType: "referral", discountValue: 0, affiliateId: affiliate.id });
    return { ...affiliate, code };
  }

  /** A new application in `schoolId` with `code` applied on the payment step, paid by webhook. */
  async function referredAndPaid(schoolId: string, code: string, applicant: Record<string, unknown> = {}) {
    const a = await flow.newApplication(schoolId, applicant);
    const validated = await flow.validate(code, a);
    expect(validated.json(), validated.body).toMatchObject({ isValid: true });
    const sessionId = await flow.sessionOf(a);
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    return { ...a, sessionId };
  }

  const entriesOf = (applicationId: string) =>
    db().select().from(commissionEntries).where(eq(commissionEntries.applicationId, applicationId));
  const ledger = (affiliateId: string, now = new Date()) =>
    ledgerOf(db(), affiliateId, { now, language: "en", minimumPayout: 5000 });
  const refund = (applicationId: string, amountCents: number) =>
    api("POST", `/api/admin/applications/${applicationId}/refunds`, finance, {
      reason: "Cancelled by the applicant",
      idempotencyKey: randomUUID(),
      amountCents,
    });

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: SECRET });
    ({ finance } = await adminRoles(t.app));
    const open = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      status: string;
    }>;
    const ids = open.filter((s) => s.status === "open").map((s) => s.id);
    fullSchool = ids[0]!;
    depositSchool = ids[1] ?? ids[0]!;
    await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, fullSchool));
    if (depositSchool !== fullSchool)
      await db().update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, depositSchool));
    t.app.services.catalogue.invalidate();
  });
  afterAll(async () => t?.close());

  it("a paid referred application earns 10 % of what was paid excluding VAT, held until the refund policy gives nothing back; a redelivery adds nothing", async () => {
    const affiliate = await agent({ commissionPercent: 10 });
    const a = await referredAndPaid(fullSchool, affiliate.code);
    // The webhook again, twice (P6).
    for (let i = 0; i < 2; i++)
      expect((await flow.deliverSessionEvent("checkout.session.completed", a.sessionId)).statusCode).toBe(
        200,
      );

    const entries = await entriesOf(a.applicationId);
    expect(TOTAL - includedVat(TOTAL)).toBe(251_653);
    expect(entries).toEqual([
      expect.objectContaining({
        affiliateId: affiliate.id,
        kind: "payment",
        amountCents: TEN_PERCENT_OF_TOTAL,
        baseCents: 251_653,
        rate: { type: "percentage", percent: 10 },
        payoutId: null,
      }),
    ]);
    const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, fullSchool));
    const release = releaseAt(school!.startDate, 29);
    expect(entries[0]!.availableAt.toISOString()).toBe(release.toISOString());

    // Pending now; approved from the release on, to the second.
    const now = await ledger(affiliate.id);
    expect(now.totals).toMatchObject({
      pending: TEN_PERCENT_OF_TOTAL,
      approved: 0,
      earned: TEN_PERCENT_OF_TOTAL,
    });
    expect(now.entries[0]).toMatchObject({
      state: "pending",
      application: { studentName: expect.stringMatching(/^\S+ [A-Z]\.$/) },
    });
    const justBefore = await ledger(affiliate.id, new Date(release.getTime() - 1000));
    expect(justBefore.totals.pending).toBe(TEN_PERCENT_OF_TOTAL);
    const after = await ledger(affiliate.id, release);
    expect(after.totals).toMatchObject({ pending: 0, approved: TEN_PERCENT_OF_TOTAL });
  });

  it("the release is midnight in The Hague on the 29th day before the start, in summer and in winter time", () => {
    expect(releaseAt("2027-07-31", 29).toISOString()).toBe("2027-07-01T22:00:00.000Z");
    expect(releaseAt("2027-01-30", 29).toISOString()).toBe("2026-12-31T23:00:00.000Z");
  });

  it("deposit and balance each earn their share; a fixed rate adds up to exactly the fixed amount", async () => {
    const percent = await agent({ commissionPercent: 12 });
    const fixed = await agent({ commissionType: "fixed", commissionFixedCents: 40_001 });
    for (const affiliate of [percent, fixed]) {
      const email = `commission-${randomUUID().slice(0, 8)}@example.org`;
      const a = await referredAndPaid(depositSchool, affiliate.code, { email });
      const { cookie } = await loginAsStudent(t.app, { email });
      const opened = await t.app.inject({
        method: "POST",
        url: `/api/student/applications/${a.applicationId}/balance-checkout`,
        headers: { cookie },
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const { sessionId } = opened.json() as { sessionId: string };
      await completeOfflineSession(db(), sessionId);
      expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
      const [application] = await db()
        .select()
        .from(applications)
        .where(eq(applications.id, a.applicationId));
      expect(application).toMatchObject({ paymentStatus: "paid", amountPaidCents: TOTAL });

      const entries = await entriesOf(a.applicationId);
      expect(entries).toHaveLength(2);
      const sum = entries.reduce((s, e) => s + e.amountCents, 0);
      if (affiliate === fixed) expect(sum).toBe(40_001);
      else {
        // 12 % of each payment's amount excluding VAT, each rounded.
        const expected = entries.map((e) => Math.round((e.baseCents * 12) / 100));
        expect(entries.map((e) => e.amountCents)).toEqual(expected);
        expect(entries.reduce((s, e) => s + e.baseCents, 0)).toBe(
          TOTAL - includedVat(91_350) - includedVat(TOTAL - 91_350),
        );
      }
    }
  });

  it("refunds claw back in proportion and a full refund, in parts, takes back exactly what was earned", async () => {
    const affiliate = await agent({ commissionPercent: 10 });
    const a = await referredAndPaid(fullSchool, affiliate.code);
    expect((await refund(a.applicationId, 100_001)).statusCode).toBe(201);
    let entries = await entriesOf(a.applicationId);
    const first = entries.find((e) => e.kind === "refund")!;
    expect(first.amountCents).toBe(-Math.round((TEN_PERCENT_OF_TOTAL * 100_001) / TOTAL));
    // While the commission is still held, its clawback is held with it: they net out as pending.
    const held = await ledger(affiliate.id);
    expect(held.totals).toMatchObject({ pending: TEN_PERCENT_OF_TOTAL + first.amountCents, approved: 0 });

    expect((await refund(a.applicationId, 3)).statusCode).toBe(201);
    expect((await refund(a.applicationId, TOTAL - 100_004)).statusCode).toBe(201);
    entries = await entriesOf(a.applicationId);
    expect(entries.filter((e) => e.kind === "refund")).toHaveLength(3);
    expect(entries.reduce((s, e) => s + e.amountCents, 0)).toBe(0);
    const done = await ledger(affiliate.id);
    expect(done.totals).toMatchObject({
      pending: 0,
      approved: 0,
      earned: TEN_PERCENT_OF_TOTAL,
      clawedBack: -TEN_PERCENT_OF_TOTAL,
    });
  });

  it("a refund after the commission was paid out is clawed back at once, to be netted in the next payout", async () => {
    const affiliate = await agent({ commissionPercent: 10 });
    const a = await referredAndPaid(fullSchool, affiliate.code);
    const [earned] = await entriesOf(a.applicationId);
    // Paid out (as a payout run and "mark paid" would leave it).
    const [run] = await db()
      .insert(payoutRuns)
      .values({ idempotencyKey: randomUUID(), minimumCents: 5000 })
      .returning();
    const [payout] = await db()
      .insert(payouts)
      .values({
        runId: run!.id,
        affiliateId: affiliate.id,
        amountCents: earned!.amountCents,
        method: "paypal",
        detailsSealed: "x",
        status: "paid",
        paidAt: new Date(),
      })
      .returning();
    await db()
      .update(commissionEntries)
      .set({ payoutId: payout!.id, availableAt: new Date(Date.now() - 60_000) })
      .where(eq(commissionEntries.id, earned!.id));

    expect((await refund(a.applicationId, TOTAL)).statusCode).toBe(201);
    const result = await ledger(affiliate.id);
    expect(result.totals).toMatchObject({
      paid: TEN_PERCENT_OF_TOTAL,
      approved: -TEN_PERCENT_OF_TOTAL,
      pending: 0,
    });
    expect(result.entries.find((e) => e.kind === "refund")).toMatchObject({
      state: "approved",
      payoutId: null,
      amount: -TEN_PERCENT_OF_TOTAL,
    });
  });

  it("no commission for a self-referral, for a suspended affiliate or a pending one", async () => {
    const self = await agent();
    const own = await referredAndPaid(fullSchool, self.code, { email: self.email });
    expect(await entriesOf(own.applicationId)).toEqual([]);
    // The same mailbox written with a +tag (docs/product/codes-and-partners.md#self-referral): still the agent's own application.
    const [name, domain] = self.email.split("@");
    const tagged = await referredAndPaid(fullSchool, self.code, { email: `${name}+self@${domain}` });
    expect(await entriesOf(tagged.applicationId)).toEqual([]);

    for (const status of ["suspended", "pending"] as const) {
      const other = await agent();
      const a = await flow.newApplication(fullSchool);
      expect((await flow.validate(other.code, a)).json()).toMatchObject({ isValid: true });
      // The affiliate's status changes between the code being applied and the payment.
      await db().update(affiliates).set({ status }).where(eq(affiliates.id, other.id));
      const sessionId = await flow.sessionOf(a);
      await completeOfflineSession(db(), sessionId);
      expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
      const [application] = await db()
        .select()
        .from(applications)
        .where(eq(applications.id, a.applicationId));
      expect(application!.paymentStatus).toBe("paid");
      expect(await entriesOf(a.applicationId)).toEqual([]);
    }
  });

  it("docs/product/codes-and-partners.md#suspended-partners: a student credited to an agent suspended since (codes switched off) still pays; the agent earns nothing", async () => {
    const suspended = await agent();
    const a = await flow.newApplication(fullSchool);
    expect((await flow.validate(suspended.code, a)).json()).toMatchObject({ isValid: true });
    // The suspension switches the agent's codes off.
    await db().update(affiliates).set({ status: "suspended" }).where(eq(affiliates.id, suspended.id));
    await db().update(codes).set({ active: false }).where(eq(codes.code, suspended.code));
    const res = await flow.checkout(a);
    expect(res.statusCode, res.body).toBe(200);
    const sessionId = res.json().sessionId as string;
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    const [application] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    expect(application).toMatchObject({ paymentStatus: "paid", appliedCodeId: null });
    expect(await entriesOf(a.applicationId)).toEqual([]);
  });

  it("an application nobody referred earns no one anything", async () => {
    const a = await flow.newApplication(fullSchool);
    await flow.payByWebhook(a);
    expect(await entriesOf(a.applicationId)).toEqual([]);
    const [any] = await db()
      .select()
      .from(commissionEntries)
      .where(
        and(eq(commissionEntries.applicationId, a.applicationId), eq(commissionEntries.kind, "payment")),
      );
    expect(any).toBeUndefined();
  });
});
