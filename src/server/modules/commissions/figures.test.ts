import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailboxOf } from "../../../shared/email-address";
import { affiliates, applications, codes, commissionEntries, summerSchools } from "../../db/schema";
import { loginAsAffiliate, loginAsStudent } from "../../testing/accounts";
import { adminRoles, apiOf, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { completeOfflineSession } from "../payments/providers/offline";
import { mailboxSql } from "./figures";

/**
 * See docs/product/codes-and-partners.md#self-referral, docs/product/codes-and-partners.md#partner-figures (decision 036): one definition of an agent's clicks, paid enrolments and
 * earnings for the agent's dashboard and the back office's view of the agent. One scenario — a
 * paid student, a fully refunded one, a partly refunded one (a clawback), a self-referral by a
 * `+tag` address and one paid from the agent's own student account — and both screens must give
 * the same numbers: the refunded student and the self-referrals are no paid enrolments, and the
 * clawback is shown and deducted.
 */

const SECRET = "whsec_figures_tests";

describe("an agent's figures", () => {
  let t: TestApp;
  const flow = paymentFlow(() => t, { addressPrefix: "10.94", webhookSecret: SECRET });
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const db = () => t.database.db;
  let finance: string;
  let school: string;

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: SECRET });
    ({ finance } = await adminRoles(t.app));
    const open = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      status: string;
    }>;
    school = open.find((s) => s.status === "open")!.id;
    await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, school));
    t.app.services.catalogue.invalidate();
  });
  afterAll(async () => t?.close());

  /** Pays application `a` in full through the webhook. */
  async function pay(a: Awaited<ReturnType<typeof flow.newApplication>>) {
    const sessionId = await flow.sessionOf(a);
    await completeOfflineSession(db(), sessionId);
    expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
  }

  /** A new application of `email` with the agent's `code` applied. */
  async function referred(code: string, email: string) {
    const a = await flow.newApplication(school, { email });
    expect((await flow.validate(code, a)).json()).toMatchObject({ isValid: true });
    return a;
  }

  const refund = (applicationId: string, amountCents: number) =>
    api("POST", `/api/admin/applications/${applicationId}/refunds`, finance, {
      reason: "Cancelled by the applicant",
      idempotencyKey: randomUUID(),
      amountCents,
    });

  it("computes a mailbox in SQL exactly as mailboxOf does", async () => {
    const samples = [
      "Ann@Example.com",
      "ann+self@example.com",
      "a.n.n+x@gmail.com",
      "A.Nn@GoogleMail.com",
      "first.last@example.org",
      "+tag@example.com",
      "a++b@example.com",
      "odd@sub@example.com",
      "no-at-sign",
    ];
    for (const address of samples) {
      const result = await db().execute(sql`select ${mailboxSql(sql`${address}::text`)} as m`);
      const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Array<{
        m: string;
      }>;
      expect(rows[0]!.m, address).toBe(mailboxOf(address));
    }
  });

  it("the agent's dashboard and the admin's view of the agent give the same numbers, by one definition", async () => {
    const { cookie, affiliate } = await loginAsAffiliate(t.app, {
      email: `ann.${randomUUID().slice(0, 6)}@example.com`,
    });
    await db().update(affiliates).set({ commissionPercent: 10 }).where(eq(affiliates.id, affiliate.id));
    const code = `ANN${randomUUID().slice(0, 6).toUpperCase()}`;
    await db()
      .insert(codes)
      .values({ code, codeType: "referral", discountValue: 0, affiliateId: affiliate.id });
    const [local, domain] = affiliate.email.split("@");

    // A paid student.
    const paid = await referred(code, `paid-${randomUUID().slice(0, 6)}@example.org`);
    await pay(paid);
    // A student refunded in full.
    const refunded = await referred(code, `refunded-${randomUUID().slice(0, 6)}@example.org`);
    await pay(refunded);
    const [r] = await db().select().from(applications).where(eq(applications.id, refunded.applicationId));
    expect((await refund(refunded.applicationId, r!.amountPaidCents)).statusCode).toBe(201);
    // A student refunded in part: still enrolled; the clawback is deducted.
    const partly = await referred(code, `partly-${randomUUID().slice(0, 6)}@example.org`);
    await pay(partly);
    expect((await refund(partly.applicationId, 50_000)).statusCode).toBe(201);
    // Ann herself, with a +tag.
    const self = await referred(code, `${local}+self@${domain}`);
    await pay(self);
    // Ann paying from her own student account, for an applicant address of another.
    const byAccount = await referred(code, `cousin-${randomUUID().slice(0, 6)}@example.org`);
    const { student } = await loginAsStudent(t.app, { email: `${local}+pay@${domain}` });
    await db()
      .update(applications)
      .set({ studentId: student.id })
      .where(eq(applications.id, byAccount.applicationId));
    await pay(byAccount);
    // An application not paid.
    await referred(code, `later-${randomUUID().slice(0, 6)}@example.org`);

    // Self-referrals earn nothing, by address or by the paying account (docs/product/codes-and-partners.md#self-referral).
    for (const a of [self, byAccount]) {
      const entries = await db()
        .select()
        .from(commissionEntries)
        .where(eq(commissionEntries.applicationId, a.applicationId));
      expect(entries).toEqual([]);
    }

    const stats = await api("GET", "/api/affiliate/stats", cookie);
    expect(stats.statusCode, stats.body).toBe(200);
    const totals = stats.json().totals;
    const detail = await api("GET", `/api/admin/affiliates/${affiliate.id}`, finance);
    expect(detail.statusCode, detail.body).toBe(200);
    const admin = detail.json();
    const list = await api("GET", `/api/admin/affiliates?q=${encodeURIComponent(affiliate.email)}`, finance);
    const row = list.json().items[0];

    const entries = await db()
      .select()
      .from(commissionEntries)
      .where(eq(commissionEntries.affiliateId, affiliate.id));
    const earned = entries.filter((e) => e.amountCents > 0).reduce((s, e) => s + e.amountCents, 0);
    const clawedBack = entries.filter((e) => e.amountCents < 0).reduce((s, e) => s + e.amountCents, 0);
    expect(earned).toBeGreaterThan(0);
    expect(clawedBack).toBeLessThan(0);

    expect(totals).toMatchObject({
      applications: 6,
      paidEnrolments: 2,
      commissionEarned: earned,
      commissionClawedBack: clawedBack,
      commissionNet: earned + clawedBack,
    });
    for (const view of [admin, row]) {
      expect(view).toMatchObject({
        referredApplications: totals.applications,
        paidApplications: totals.paidEnrolments,
        clicks: totals.clicks,
        commissionEarned: totals.commissionEarned,
        commissionClawedBack: totals.commissionClawedBack,
        commissionNet: totals.commissionNet,
      });
    }
    // The days add up to the totals.
    const days = stats.json().buckets as Array<Record<string, number>>;
    for (const key of ["paidEnrolments", "commissionEarned", "commissionClawedBack", "commissionNet"])
      expect(
        days.reduce((s, b) => s + b[key]!, 0),
        key,
      ).toBe(totals[key]);
  });
});
