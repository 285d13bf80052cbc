import { and, asc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/dates";
import { remainingDueDate } from "../../../shared/pricing";
import { studentPaymentSchema } from "../../../shared/schemas/student-payment";
import { schoolDate } from "../../../shared/time";
import { applications, emailOutbox, payments, summerSchools } from "../../db/schema";
import { loginAsAdmin, loginAsAffiliate, loginAsStudent } from "../../testing/accounts";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { type FakeStripe, startFakeStripe, stripeSessionEvent } from "../../testing/fake-stripe";
import { createTestApp, type TestApp } from "../../testing/harness";
import { completeOfflineSession } from "../payments/providers/offline";
import { createStripeProvider } from "../payments/providers/stripe";

/**
 * See docs/product/payments.md#deposit-and-balance (decision 016; docs/product/security.md#p6-an-event-delivered-twice-counts-once, docs/product/security.md#p10-amount-or-currency-mismatch, docs/product/security.md#p12-the-webhook-never-arrives, docs/product/security.md#s6-nobody-reads-what-is-not-theirs): a cohort
 * with a 30 % deposit takes the deposit at checkout, shows the rest as owed, and the student pays
 * it from the portal through the same provider and the one fulfilment function, exactly once.
 */

const WEBHOOK_SECRET = "whsec_balance_test";
/** Standard 2,950.00 + required insurance 95.00, shared room. */
const TOTAL = 304_500;
const DEPOSIT = 91_350;
const BALANCE = TOTAL - DEPOSIT;

function scenario(get: () => TestApp) {
  const flow = paymentFlow(get, { addressPrefix: "10.91", webhookSecret: WEBHOOK_SECRET });
  const app = () => get().app;
  const db = () => get().database.db;
  let n = 0;

  /** The first open cohort, set to a 30 % deposit. */
  async function depositSchool(): Promise<string> {
    const [school] = await db().select().from(summerSchools).orderBy(summerSchools.startDate);
    const open = (await app().inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      status: string;
    }>;
    const id = open.find((s) => s.status === "open")?.id ?? school!.id;
    await db().update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, id));
    app().services.catalogue.invalidate();
    return id;
  }

  /** An application of a new applicant in the deposit cohort, and their verified student account. */
  async function applicantWithAccount(schoolId: string) {
    n += 1;
    const email = `balance-${n}-${Date.now()}@example.org`;
    const applied = await flow.newApplication(schoolId, { email });
    const { cookie } = await loginAsStudent(app(), { email });
    return { applied, cookie, email };
  }

  const paymentPage = (cookie: string, id: string) =>
    app().inject({ url: `/api/student/applications/${id}/payment`, headers: { cookie } });
  const openBalance = (cookie: string, id: string) =>
    app().inject({
      method: "POST",
      url: `/api/student/applications/${id}/balance-checkout`,
      headers: { cookie },
    });
  const verify = (cookie: string, sessionId: string) =>
    app().inject({
      url: `/api/student/checkout/verify?session_id=${encodeURIComponent(sessionId)}`,
      headers: { cookie },
    });

  async function row(id: string) {
    const [application] = await db().select().from(applications).where(eq(applications.id, id));
    const paid = await db()
      .select()
      .from(payments)
      .where(eq(payments.applicationId, id))
      .orderBy(asc(payments.createdAt), asc(payments.paidAt));
    return { application: application!, payments: paid };
  }

  return { flow, app, db, depositSchool, applicantWithAccount, paymentPage, openBalance, verify, row };
}

describe("balance of a deposit cohort (offline provider)", () => {
  let t: TestApp;
  const s = scenario(() => t);
  let schoolId: string;
  let start: string;

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
    schoolId = await s.depositSchool();
    const [school] = await s.db().select().from(summerSchools).where(eq(summerSchools.id, schoolId));
    start = school!.startDate;
  });
  afterAll(async () => t?.close());

  it("takes the 30 % deposit, says what is still owed and by when, and never says paid in full", async () => {
    const { applied, cookie } = await s.applicantWithAccount(schoolId);
    const sessionId = await s.flow.sessionOf(applied);
    const [opened] = (await s.row(applied.applicationId)).payments;
    expect(opened).toBeUndefined();
    await completeOfflineSession(s.db(), sessionId);
    expect((await s.flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);

    // The applicant's own success page shows the confirmation with the deposit paid.
    const verified = await s.app().inject({
      url: `/api/checkout-sessions/${sessionId}/verify`,
      headers: { cookie: applied.cookie },
    });
    expect(verified.json()).toMatchObject({
      state: "confirmed",
      application: { paymentStatus: "deposit_paid", quote: { totalAmount: TOTAL, depositAmount: DEPOSIT } },
    });
    const { application, payments: paid } = await s.row(applied.applicationId);
    expect(application).toMatchObject({
      status: "submitted",
      paymentStatus: "deposit_paid",
      totalAmountCents: TOTAL,
      amountPaidCents: DEPOSIT,
    });
    expect(paid).toEqual([expect.objectContaining({ amountCents: DEPOSIT, kind: "deposit", flag: null })]);

    const page = studentPaymentSchema.parse((await s.paymentPage(cookie, applied.applicationId)).json());
    expect(page).toMatchObject({
      state: "deposit_paid",
      total: TOTAL,
      paid: DEPOSIT,
      balanceDue: BALANCE,
      dueDate: remainingDueDate(start),
      depositPercent: 30,
      overdue: false,
    });
    expect(page.entries).toEqual([
      expect.objectContaining({ type: "payment", paid: "deposit", amount: DEPOSIT }),
    ]);

    // The confirmation e-mail tells the balance and its date in words, with the portal's address.
    const [mail] = await s
      .db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `confirmation:${applied.applicationId}`));
    expect(mail!.textBody).toContain("Balance to pay: €2,131.50");
    expect(mail!.textBody).toMatch(/Balance due by: \d{1,2} [A-Z][a-z]+ \d{4}/);
    expect(mail!.textBody).toContain("/student/payment");

    // The applicant cannot buy the application a second time through the wizard.
    expect((await s.flow.checkout(applied)).statusCode).toBe(409);
  });

  it("the student pays the balance once, whether the webhook, the success page or reconciliation sees it first", async () => {
    const { applied, cookie } = await s.applicantWithAccount(schoolId);
    await s.flow.payByWebhook(applied);

    const first = await s.openBalance(cookie, applied.applicationId);
    expect(first.statusCode, first.body).toBe(201);
    const { sessionId, url } = first.json() as { sessionId: string; url: string };
    expect(url).toBeTruthy();
    // A second press while it is open returns the same session (P13).
    expect((await s.openBalance(cookie, applied.applicationId)).json().sessionId).toBe(sessionId);
    expect((await s.verify(cookie, sessionId)).json().state).toBe("open");

    await completeOfflineSession(s.db(), sessionId);
    const [a, b, c] = await Promise.all([
      s.flow.deliverSessionEvent("checkout.session.completed", sessionId),
      s.verify(cookie, sessionId),
      s.app().services.payments.reconcile(),
    ]);
    expect(a.statusCode).toBe(200);
    expect(b.json()).toEqual({ state: "confirmed", applicationId: applied.applicationId });
    expect(c).toBeGreaterThanOrEqual(0);
    // And again: a redelivery changes nothing (P6).
    expect((await s.flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
    expect((await s.verify(cookie, sessionId)).json().state).toBe("confirmed");

    const { application, payments: paid } = await s.row(applied.applicationId);
    expect(application).toMatchObject({ paymentStatus: "paid", amountPaidCents: TOTAL, flag: null });
    expect(paid.filter((p) => p.kind === "balance")).toEqual([
      expect.objectContaining({ amountCents: BALANCE, flag: null }),
    ]);
    const receipts = await s
      .db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `balance-paid:${sessionId}`));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.textBody).toContain("now paid in full");

    const page = studentPaymentSchema.parse((await s.paymentPage(cookie, applied.applicationId)).json());
    expect(page).toMatchObject({ state: "paid", balanceDue: 0, dueDate: null, paid: TOTAL });
    expect(page.entries.map((e) => [e.paid, e.amount])).toEqual([
      ["deposit", DEPOSIT],
      ["balance", BALANCE],
    ]);
    // Nothing more to pay.
    const again = await s.openBalance(cookie, applied.applicationId);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/Nothing is owed/);
  });

  it("refuses other people: another student, an affiliate, an anonymous caller, an unverified account", async () => {
    const { applied, email } = await s.applicantWithAccount(schoolId);
    await s.flow.payByWebhook(applied);
    const other = await loginAsStudent(s.app());
    const affiliate = await loginAsAffiliate(s.app());
    for (const cookie of [other.cookie]) {
      expect((await s.paymentPage(cookie, applied.applicationId)).statusCode).toBe(404);
      expect((await s.openBalance(cookie, applied.applicationId)).statusCode).toBe(404);
    }
    for (const cookie of [affiliate.cookie, ""]) {
      expect((await s.paymentPage(cookie, applied.applicationId)).statusCode).toBe(401);
      expect((await s.openBalance(cookie, applied.applicationId)).statusCode).toBe(401);
    }
    // An account whose address is not verified sees nothing, not even its own applications' payments.
    const unverified = await loginAsStudent(s.app(), { emailVerified: false });
    expect((await s.paymentPage(unverified.cookie, applied.applicationId)).statusCode).toBe(403);
    expect((await s.openBalance(unverified.cookie, applied.applicationId)).statusCode).toBe(403);
    expect(email).toContain("@");
    // Another student cannot verify someone else's balance session.
    const { cookie } = await s.applicantWithAccount(schoolId);
    const mine = await s.applicantWithAccount(schoolId);
    await s.flow.payByWebhook(mine.applied);
    const opened = (await s.openBalance(mine.cookie, mine.applied.applicationId)).json() as {
      sessionId: string;
    };
    expect((await s.verify(cookie, opened.sessionId)).statusCode).toBe(404);
    expect((await s.verify(cookie, "")).statusCode).toBe(400);
    expect((await s.paymentPage(cookie, "not-a-uuid")).statusCode).toBe(404);
  });

  it("a payment status of an application paid in full is never 'deposit paid'", async () => {
    await s.db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, schoolId));
    s.app().services.catalogue.invalidate();
    try {
      const { applied, cookie } = await s.applicantWithAccount(schoolId);
      await s.flow.payByWebhook(applied);
      expect((await s.row(applied.applicationId)).application).toMatchObject({
        paymentStatus: "paid",
        amountPaidCents: TOTAL,
      });
      expect((await s.openBalance(cookie, applied.applicationId)).statusCode).toBe(409);
    } finally {
      await s.db().update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, schoolId));
      s.app().services.catalogue.invalidate();
    }
  });
});

describe("balance of a deposit cohort (Stripe adapter against the fake Stripe API)", () => {
  const SECRET = "whsec_balance_stripe";
  let fake: FakeStripe;
  let t: TestApp;
  const s = scenario(() => t);
  let schoolId: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      provider: createStripeProvider({ secretKey: "sk_test_x", webhookSecret: SECRET, apiBase: fake.url }),
    });
    schoolId = await s.depositSchool();
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  const deliverCompleted = (sessionId: string) => {
    const { body, signature } = stripeSessionEvent(fake, SECRET, "checkout.session.completed", sessionId);
    return s.flow.deliver(body, signature);
  };

  async function depositPaid(): Promise<{ applied: Applied; cookie: string }> {
    const { applied, cookie } = await s.applicantWithAccount(schoolId);
    const deposit = await s.flow.sessionOf(applied);
    expect(fake.sessions.get(deposit)?.amount_total).toBe(DEPOSIT);
    fake.completeSession(deposit);
    expect((await deliverCompleted(deposit)).statusCode).toBe(200);
    return { applied, cookie };
  }

  it("charges exactly the balance at Stripe and takes it once", async () => {
    const { applied, cookie } = await depositPaid();
    const { sessionId } = (await s.openBalance(cookie, applied.applicationId)).json() as {
      sessionId: string;
    };
    expect(fake.sessions.get(sessionId)).toMatchObject({ amount_total: BALANCE, status: "open" });
    expect(fake.sessions.get(sessionId)?.success_url).toContain("/student/payment-success?session_id=");
    fake.completeSession(sessionId);
    expect((await deliverCompleted(sessionId)).statusCode).toBe(200);
    expect((await deliverCompleted(sessionId)).statusCode).toBe(200);
    expect((await s.verify(cookie, sessionId)).json().state).toBe("confirmed");
    const { application, payments: paid } = await s.row(applied.applicationId);
    expect(application).toMatchObject({ paymentStatus: "paid", amountPaidCents: TOTAL });
    expect(paid.map((p) => [p.kind, p.amountCents, p.flag])).toEqual([
      ["deposit", DEPOSIT, null],
      ["balance", BALANCE, null],
    ]);
  });

  it("P10: a balance session that reports another amount is recorded, flagged and not taken as the balance", async () => {
    const { applied, cookie } = await depositPaid();
    const { sessionId } = (await s.openBalance(cookie, applied.applicationId)).json() as {
      sessionId: string;
    };
    const session = fake.completeSession(sessionId);
    session.amount_total = 100;
    expect((await deliverCompleted(sessionId)).statusCode).toBe(200);
    const { application, payments: paid } = await s.row(applied.applicationId);
    expect(application).toMatchObject({ paymentStatus: "deposit_paid", amountPaidCents: DEPOSIT });
    expect(application.flag).toMatch(/amount mismatch/);
    expect(paid.filter((p) => p.flag === "amount_mismatch")).toEqual([
      expect.objectContaining({ amountCents: 100 }),
    ]);
    const page = studentPaymentSchema.parse((await s.paymentPage(cookie, applied.applicationId)).json());
    expect(page.balanceDue).toBe(BALANCE);
    expect((await s.verify(cookie, sessionId)).json().state).not.toBe("confirmed");
    const flagged = await s
      .db()
      .select()
      .from(payments)
      .where(and(eq(payments.applicationId, applied.applicationId), eq(payments.flag, "amount_mismatch")));
    expect(flagged).toHaveLength(1);

    // A finance admin accepts it as part of the balance: it counts, and the rest is still owed.
    const { cookie: finance } = await loginAsAdmin(s.app(), "finance");
    const accepted = await s.app().inject({
      method: "POST",
      url: `/api/admin/applications/${applied.applicationId}/payments/${flagged[0]!.id}/accept`,
      headers: { cookie: finance, origin: "http://localhost:3000" },
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const after = await s.row(applied.applicationId);
    expect(after.application).toMatchObject({
      paymentStatus: "deposit_paid",
      amountPaidCents: DEPOSIT + 100,
      flag: null,
    });
    expect(after.payments.find((p) => p.id === flagged[0]!.id)).toMatchObject({
      flag: null,
      kind: "balance",
    });
    const owed = studentPaymentSchema.parse((await s.paymentPage(cookie, applied.applicationId)).json());
    expect(owed.balanceDue).toBe(BALANCE - 100);
  });

  it("P10: money of a balance session beyond what is owed cannot be accepted as the balance", async () => {
    const { applied, cookie } = await depositPaid();
    const { sessionId } = (await s.openBalance(cookie, applied.applicationId)).json() as {
      sessionId: string;
    };
    const session = fake.completeSession(sessionId);
    session.amount_total = BALANCE + 5_000;
    expect((await deliverCompleted(sessionId)).statusCode).toBe(200);
    const [flagged] = (await s.row(applied.applicationId)).payments.filter((p) => p.flag);
    const { cookie: finance } = await loginAsAdmin(s.app(), "finance");
    const refused = await s.app().inject({
      method: "POST",
      url: `/api/admin/applications/${applied.applicationId}/payments/${flagged!.id}/accept`,
      headers: { cookie: finance, origin: "http://localhost:3000" },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/more than the balance/);
    expect((await s.row(applied.applicationId)).application).toMatchObject({
      paymentStatus: "deposit_paid",
      amountPaidCents: DEPOSIT,
    });
  });
});

describe("docs/product/payments.md#deposit-and-balance: applying after the balance's due date", () => {
  let t: TestApp;
  const s = scenario(() => t);

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => t?.close());

  it("the whole amount is due at once: the quote and the checkout take it all, nothing is left overdue", async () => {
    const schoolId = await s.depositSchool();
    // The programme starts in 20 days: its balance (due 28 days before) is already due.
    const today = schoolDate(new Date());
    await s
      .db()
      .update(summerSchools)
      .set({
        startDate: addDays(today, 20),
        endDate: addDays(today, 33),
        applicationDeadline: addDays(today, 5),
      })
      .where(eq(summerSchools.id, schoolId));
    t.app.services.catalogue.invalidate();
    const summary = (await t.app.inject({ url: "/api/summer-schools" })).json() as Array<{
      id: string;
      depositPercent: number;
    }>;
    expect(summary.find((c) => c.id === schoolId)?.depositPercent).toBe(100);
    const applied = await s.flow.newApplication(schoolId);
    const dto = (
      await t.app.inject({
        url: `/api/applications/${applied.applicationId}`,
        headers: { cookie: applied.cookie },
      })
    ).json();
    expect(dto.quote).toMatchObject({ totalAmount: TOTAL, depositAmount: TOTAL, depositPercent: 100 });
    await s.flow.payByWebhook(applied);
    const { application, payments: paid } = await s.row(applied.applicationId);
    expect(application).toMatchObject({ paymentStatus: "paid", amountPaidCents: TOTAL });
    expect(paid.map((p) => p.amountCents)).toEqual([TOTAL]);
  });
});
