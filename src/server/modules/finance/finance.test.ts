/**
 * API tests of the finances back office (docs/product/back-office.md#finance): the refund quote of the policy
 * (docs/product/payments.md#refunds), refunds through the offline provider and through Stripe (fake Stripe API) with
 * idempotency ("refund idempotency": same key twice, concurrent double submit, an event delivered
 * twice), the payment statuses after partial and full refunds, provider failure, permissions, the
 * ledger and the revenue summary with VAT apart, CSV exports, and the dashboard's net revenue.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type {
  AdminRefundQuoteDto,
  AdminRefundResult,
  FinanceSummaryDto,
  LedgerPage,
} from "../../../shared/finance";
import { includedVat } from "../../../shared/pricing";
import { daysBeforeStart, refundPercent } from "../../../shared/refunds";
import { adminDashboardSchema } from "../../../shared/schemas/dashboard";
import {
  adminRefundQuoteSchema,
  adminRefundResultSchema,
  financeSummarySchema,
  ledgerPageSchema,
} from "../../../shared/schemas/finance";
import { schoolDate } from "../../../shared/time";
import { applications, payments, refunds, webhookEvents } from "../../db/schema";
import { loginAsAdmin } from "../../testing/accounts";
import {
  adminRoles,
  apiOf,
  auditEntries,
  csvLines,
  expectCsvDownload,
  expectRouteStatuses,
  SAME_ORIGIN,
} from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { type FakeStripe, signedStripeEvent, startFakeStripe } from "../../testing/fake-stripe";
import { createTestApp, type TestApp } from "../../testing/harness";
import { expectParses } from "../../testing/schemas";
import { buildOfflineRefundEvent, type OfflineStripeRefund } from "../payments/providers/offline";
import { createStripeProvider } from "../payments/providers/stripe";
import { PaymentProviderError } from "../payments/providers/types";

/** Standard package, shared room, the required insurance: 2,950.00 + 95.00 EUR. */
/** The places left of a school as the public catalogue shows them (from its in-memory cache). */
async function placesLeftOf(t: TestApp, schoolId: string): Promise<number> {
  const schools = (await t.app.inject({ method: "GET", url: "/api/summer-schools" })).json();
  return schools.find((s: { id: string }) => s.id === schoolId).placesLeft as number;
}

const PAID = 304_500;
const OFFLINE_SECRET = "whsec_offline_finance_tests";

describe("refunds and finances with the offline provider", () => {
  let t: TestApp;
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const flow = paymentFlow(() => t, { addressPrefix: "10.91", webhookSecret: OFFLINE_SECRET });
  const db = () => t.database.db;
  let owner: string;
  let finance: string;
  let admissions: string;
  let student: string;

  /** An application paid through the offline checkout (its signed event goes through the webhook). */
  async function paidApplication(
    email = `payer-${randomUUID().slice(0, 8)}@example.com`,
    lastName = "Okafor",
  ) {
    const a = await flow.newApplication(undefined, { email, lastName });
    await flow.payOnTestPage(await flow.sessionOf(a));
    const [application] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    expect(application).toMatchObject({ paymentStatus: "paid", amountPaidCents: PAID });
    return a;
  }

  const refund = (applicationId: string, body: Record<string, unknown>, cookie = finance) =>
    api("POST", `/api/admin/applications/${applicationId}/refunds`, cookie, {
      reason: "Cancelled by the applicant",
      idempotencyKey: randomUUID(),
      ...body,
    });

  /** `GET /api/admin/applications/:id/refund-quote` as finance: 200, checked against its shared schema. */
  async function quoteOf(applicationId: string): Promise<AdminRefundQuoteDto> {
    const res = await api("GET", `/api/admin/applications/${applicationId}/refund-quote`, finance);
    expect(res.statusCode, res.body).toBe(200);
    return expectParses(adminRefundQuoteSchema, res.json());
  }

  /** `GET /api/admin/finances/ledger?<query>` as finance: 200, checked against its shared schema. */
  async function ledgerOf(query: string): Promise<LedgerPage> {
    const res = await api("GET", `/api/admin/finances/ledger?${query}`, finance);
    expect(res.statusCode, res.body).toBe(200);
    return expectParses(ledgerPageSchema, res.json());
  }

  /** `GET /api/admin/finances/summary[?<query>]` as `cookie`: 200, checked against its shared schema. */
  async function summaryOf(query = "", cookie = finance): Promise<FinanceSummaryDto> {
    const res = await api("GET", `/api/admin/finances/summary${query ? `?${query}` : ""}`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return expectParses(financeSummarySchema, res.json());
  }

  const refundRows = (applicationId: string) =>
    db().select().from(refunds).where(eq(refunds.applicationId, applicationId));
  const applicationRow = async (applicationId: string) =>
    (await db().select().from(applications).where(eq(applications.id, applicationId)))[0]!;

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: OFFLINE_SECRET });
    ({ owner, finance, admissions, student } = await adminRoles(t.app));
  });
  afterAll(async () => {
    await t?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  describe("GET /api/admin/applications/:id/refund-quote", () => {
    it("gives the policy's percent of the amount paid for the cohort's start (docs/product/payments.md#refunds)", async () => {
      const a = await paidApplication();
      const res = await api("GET", `/api/admin/applications/${a.applicationId}/refund-quote`, finance);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const quote = res.json() as AdminRefundQuoteDto;
      expectParses(adminRefundQuoteSchema, quote);
      const days = daysBeforeStart(quote.startDate, schoolDate(new Date()));
      const percent = refundPercent(days);
      expect(quote).toMatchObject({
        applicationId: a.applicationId,
        daysBeforeStart: days,
        percent,
        paidCents: PAID,
        refundedCents: 0,
        refundableCents: PAID,
        suggestedAmountCents: Math.floor((PAID * percent) / 100),
        paymentStatus: "paid",
        refunds: [],
      });
      expect(quote.payments).toEqual([
        expect.objectContaining({ amount: PAID, provider: "offline", refunded: 0, refundable: PAID }),
      ]);
      // Owners read it too.
      expect(
        (await api("GET", `/api/admin/applications/${a.applicationId}/refund-quote`, owner)).statusCode,
      ).toBe(200);
    });

    it("is 401 without an admin session (a student's does not count), 403 for admissions, 404 for unknown ids", async () => {
      const a = await paidApplication();
      const url = `/api/admin/applications/${a.applicationId}/refund-quote`;
      await expectRouteStatuses(api, { student, admissions }, [["GET", url]], {
        anonymous: 401,
        student: 401,
        admissions: 403,
      });
      const unknown = await api("GET", `/api/admin/applications/${randomUUID()}/refund-quote`, finance);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ error: "not_found", message: expect.any(String) });
      expect((await api("GET", "/api/admin/applications/not-a-uuid/refund-quote", finance)).statusCode).toBe(
        404,
      );
    });
  });

  describe("POST /api/admin/applications/:id/refunds", () => {
    it("refunds part of a payment: the refund succeeds once, the application is partially refunded, audited", async () => {
      const a = await paidApplication();
      const res = await refund(a.applicationId, { amountCents: 50_000 });
      expect(res.statusCode, res.body).toBe(201);
      const result = res.json() as AdminRefundResult;
      expectParses(adminRefundResultSchema, result);
      expect(result).toMatchObject({
        replayed: false,
        paymentStatus: "partially_refunded",
        refund: {
          amount: 50_000,
          status: "succeeded",
          provider: "offline",
          reason: "Cancelled by the applicant",
          providerRefundId: expect.stringMatching(/^re_offline_/),
          requestedBy: expect.objectContaining({ name: "Test Finance" }),
        },
      });
      expect(result.refund.succeededAt).toEqual(expect.any(String));
      const row = await applicationRow(a.applicationId);
      expect(row).toMatchObject({ paymentStatus: "partially_refunded", amountPaidCents: PAID });

      // The offline provider delivered a signed refund.created through the webhook, applied once.
      const events = await db().select().from(webhookEvents).where(eq(webhookEvents.type, "refund.created"));
      const mine = events.filter(
        (e) =>
          (e.payload as { data: { object: { metadata: { refundId: string } } } }).data.object.metadata
            .refundId === result.refund.id,
      );
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ provider: "offline", result: "partially_refunded" });
      expect(mine[0]!.processedAt).not.toBeNull();

      const audit = await auditEntries(db(), { entityId: result.refund.id });
      expect(audit.map((e) => e.action).sort()).toEqual(["refund.create", "refund.succeeded"]);
      expect(audit.find((e) => e.action === "refund.create")).toMatchObject({
        actorRole: "admin",
        after: expect.objectContaining({ amountCents: 50_000, applicationId: a.applicationId }),
      });

      const quote = await quoteOf(a.applicationId);
      expect(quote).toMatchObject({ refundedCents: 50_000, refundableCents: PAID - 50_000 });
      expect(quote.refunds).toHaveLength(1);
    });

    it("a full refund makes the application refunded; nothing more can then be refunded (422)", async () => {
      const a = await paidApplication();
      const first = await refund(a.applicationId, { amountCents: 100_000 });
      expect(first.json()).toMatchObject({ paymentStatus: "partially_refunded" });
      const rest = await refund(a.applicationId, { amountCents: PAID - 100_000 });
      expect(rest.statusCode, rest.body).toBe(201);
      expect(rest.json()).toMatchObject({ paymentStatus: "refunded", refund: { status: "succeeded" } });
      expect(await applicationRow(a.applicationId)).toMatchObject({ paymentStatus: "refunded" });
      const more = await refund(a.applicationId, { amountCents: 1 });
      expect(more.statusCode).toBe(422);
      expect(more.json().message).toMatch(/nothing left to refund/);
    });

    it("a full refund gives the place back: the cohort's places left go up at once", async () => {
      const a = await paidApplication();
      const placesLeft = () => placesLeftOf(t, a.schoolId);
      const before = await placesLeft(); // read, and now cached
      expect((await refund(a.applicationId, { amountCents: PAID })).statusCode).toBe(201);
      expect(await placesLeft()).toBe(before + 1);
    });

    it("refuses amounts ≤ 0 or above what is still refundable with 422 and a plain message; nothing is written", async () => {
      const a = await paidApplication();
      for (const amountCents of [0, -100]) {
        const res = await refund(a.applicationId, { amountCents });
        expect(res.statusCode).toBe(422);
        expect(res.json().message).toBe("The refund amount must be more than zero.");
      }
      const above = await refund(a.applicationId, { amountCents: PAID + 1 });
      expect(above.statusCode).toBe(422);
      expect(above.json().message).toContain("more than can still be refunded");
      expect(above.json().message).toContain("3,045.00");
      // A pending refund holds its money: paid − succeeded − pending.
      await refund(a.applicationId, { amountCents: 4_500 });
      expect((await refund(a.applicationId, { amountCents: PAID - 4_499 })).statusCode).toBe(422);
      expect(await refundRows(a.applicationId)).toHaveLength(1);
      const fr = await api(
        "POST",
        `/api/admin/applications/${a.applicationId}/refunds`,
        finance,
        { amountCents: 0, reason: "x", idempotencyKey: randomUUID() },
        { headers: { "accept-language": "fr" } },
      );
      expect(fr.json().message).toBe("Le montant du remboursement doit être supérieur à zéro.");
    });

    it("answers 400 for a malformed body (no reason, cents not whole, bad key)", async () => {
      const a = await paidApplication();
      const url = `/api/admin/applications/${a.applicationId}/refunds`;
      const good = { amountCents: 1000, reason: "Visa refused", idempotencyKey: randomUUID() };
      for (const body of [
        { ...good, reason: "  " },
        { ...good, amountCents: 10.5 },
        { ...good, amountCents: "1000" },
        { ...good, idempotencyKey: "x" },
        { ...good, paymentId: "nope" },
        {},
      ]) {
        const res = await api("POST", url, finance, body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().message).toEqual(expect.any(String));
      }
      expect(await refundRows(a.applicationId)).toHaveLength(0);
    });

    it("is 401 anonymous or with a student session, 403 for admissions, 404 for unknown application or payment", async () => {
      const a = await paidApplication();
      const other = await paidApplication();
      const url = `/api/admin/applications/${a.applicationId}/refunds`;
      const body = { amountCents: 1000, reason: "Test", idempotencyKey: randomUUID() };
      await expectRouteStatuses(api, { student, admissions }, [["POST", url, body]], {
        anonymous: 401,
        student: 401,
        admissions: 403,
      });
      expect(
        (await api("POST", `/api/admin/applications/${randomUUID()}/refunds`, finance, body)).statusCode,
      ).toBe(404);
      const [otherPayment] = await db()
        .select()
        .from(payments)
        .where(eq(payments.applicationId, other.applicationId));
      const foreign = await api("POST", url, finance, { ...body, paymentId: otherPayment!.id });
      expect(foreign.statusCode).toBe(404);
      expect(await refundRows(a.applicationId)).toHaveLength(0);
      // Owners may refund.
      expect((await api("POST", url, owner, body)).statusCode).toBe(201);
    });

    it("refund idempotency: the same key twice gives one refund and one provider call", async () => {
      const a = await paidApplication();
      const spy = vi.spyOn(t.app.services.provider, "createRefund");
      const body = { amountCents: 20_000, reason: "Duplicate click", idempotencyKey: randomUUID() };
      const first = await api("POST", `/api/admin/applications/${a.applicationId}/refunds`, finance, body);
      const second = await api("POST", `/api/admin/applications/${a.applicationId}/refunds`, finance, body);
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(200);
      expectParses(adminRefundResultSchema, second.json());
      expect(second.json()).toMatchObject({
        replayed: true,
        refund: { id: first.json().refund.id, status: "succeeded" },
      });
      expect(spy).toHaveBeenCalledTimes(1);
      expect(await refundRows(a.applicationId)).toHaveLength(1);
      expect((await applicationRow(a.applicationId)).paymentStatus).toBe("partially_refunded");
      // The same key with another amount is refused, nothing new.
      const changed = await api("POST", `/api/admin/applications/${a.applicationId}/refunds`, finance, {
        ...body,
        amountCents: 30_000,
      });
      expect(changed.statusCode).toBe(409);
      expect(await refundRows(a.applicationId)).toHaveLength(1);
    });

    it("refund idempotency: two concurrent identical requests give one refund and one provider call", async () => {
      const a = await paidApplication();
      const spy = vi.spyOn(t.app.services.provider, "createRefund");
      const body = { amountCents: 30_000, reason: "Double submit", idempotencyKey: randomUUID() };
      const url = `/api/admin/applications/${a.applicationId}/refunds`;
      const [one, two] = await Promise.all([
        api("POST", url, finance, body),
        api("POST", url, finance, body),
      ]);
      expect([one.statusCode, two.statusCode].sort()).toEqual([200, 201]);
      expect(one.json().refund.id).toBe(two.json().refund.id);
      expect(spy).toHaveBeenCalledTimes(1);
      const rows = await refundRows(a.applicationId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ amountCents: 30_000, status: "succeeded" });
      const quote = await quoteOf(a.applicationId);
      expect(quote.refundedCents).toBe(30_000);
    });

    it("refund idempotency: a refund event delivered twice, and a later event for it, apply once", async () => {
      const a = await paidApplication();
      // A provider that answers "pending", as Stripe does for some methods: the event settles it.
      let refundObject: OfflineStripeRefund | null = null;
      vi.spyOn(t.app.services.provider, "createRefund").mockImplementation(async (input) => {
        refundObject = {
          id: `re_offline_${randomBytes(8).toString("hex")}`,
          object: "refund",
          amount: input.amountCents,
          currency: "eur",
          payment_intent: input.paymentIntentId,
          status: "succeeded",
          reason: null,
          metadata: input.metadata,
          created: Math.floor(Date.now() / 1000),
        };
        return { id: refundObject.id, status: "pending" };
      });
      const res = await refund(a.applicationId, { amountCents: PAID });
      expect(res.statusCode, res.body).toBe(201);
      expectParses(adminRefundResultSchema, res.json());
      expect(res.json()).toMatchObject({ paymentStatus: "paid", refund: { status: "pending" } });

      const event = buildOfflineRefundEvent("refund.updated", refundObject!);
      const deliver = () => flow.deliverSigned(event);
      const [first, second] = await Promise.all([deliver(), deliver()]);
      expect([first.json().outcome, second.json().outcome].sort()).toEqual(["duplicate", "processed"]);
      expect((await deliver()).json().outcome).toBe("duplicate");
      const [stored] = await db().select().from(webhookEvents).where(eq(webhookEvents.id, event.id));
      expect(stored).toMatchObject({ type: "refund.updated", result: "refunded" });
      expect(await applicationRow(a.applicationId)).toMatchObject({ paymentStatus: "refunded" });

      // Another event about the same refund (a new id) changes nothing more.
      const late = buildOfflineRefundEvent("refund.failed", { ...refundObject!, status: "succeeded" });
      const lateRes = await flow.deliverSigned(late);
      expect(lateRes.json().outcome).toBe("processed");
      const rows = await refundRows(a.applicationId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ status: "succeeded", providerRefundId: refundObject!.id });
      const succeeded = await auditEntries(db(), { entityId: rows[0]!.id, action: "refund.succeeded" });
      expect(succeeded).toHaveLength(1);

      // Replaying the stored event from the webhook log changes nothing either.
      const replay = await api("POST", `/api/admin/webhooks/${event.id}/replay`, owner);
      expect(replay.statusCode, replay.body).toBe(200);
      expect(replay.json()).toEqual({ result: "already succeeded" });
    });

    it("a provider failure marks the refund failed and answers 502; nothing else changes and a retry works", async () => {
      const a = await paidApplication();
      vi.spyOn(t.app.services.provider, "createRefund").mockRejectedValueOnce(
        new PaymentProviderError("down"),
      );
      const res = await refund(a.applicationId, { amountCents: 10_000 });
      expect(res.statusCode).toBe(502);
      expect(res.json().message).toMatch(/nothing was refunded/);
      const rows = await refundRows(a.applicationId);
      expect(rows).toEqual([expect.objectContaining({ status: "failed", providerRefundId: null })]);
      expect(await applicationRow(a.applicationId)).toMatchObject({ paymentStatus: "paid" });
      const audit = await auditEntries(db(), { entityId: rows[0]!.id });
      expect(audit.map((e) => e.action).sort()).toEqual(["refund.create", "refund.failed"]);
      // A failed refund holds no money: the whole payment can still be refunded.
      const quote = await quoteOf(a.applicationId);
      expect(quote.refundableCents).toBe(PAID);
      vi.restoreAllMocks();
      expect((await refund(a.applicationId, { amountCents: 10_000 })).statusCode).toBe(201);
    });

    it("a zero-payment application (FULLSCHOLAR) has nothing to refund", async () => {
      const a = await flow.newApplication(undefined, { email: "scholar@example.com" });
      const code = await flow.validate("FULLSCHOLAR", a);
      const zero = await t.app.inject({
        method: "POST",
        url: "/api/process-zero-payment",
        headers: { cookie: a.cookie },
        payload: { applicationId: a.applicationId, termsAccepted: true, codeId: code.json().codeId },
        remoteAddress: a.address,
      });
      expect(zero.statusCode, zero.body).toBe(200);
      const quote = await quoteOf(a.applicationId);
      expect(quote).toMatchObject({ paidCents: 0, refundableCents: 0, suggestedAmountCents: 0 });
      expect(quote.payments).toEqual([expect.objectContaining({ provider: "none", refundable: 0 })]);
      const res = await refund(a.applicationId, { amountCents: 100 });
      expect(res.statusCode).toBe(422);
    });
  });

  describe("the offline provider's refunds", () => {
    it("answers the same refund for a repeated key without a second event, and refuses what Stripe refuses", async () => {
      const a = await paidApplication();
      const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.applicationId));
      const provider = t.app.services.provider;
      const refundCreated = async () =>
        (await db().select().from(webhookEvents).where(eq(webhookEvents.type, "refund.created"))).length;
      const before = await refundCreated();
      const input = {
        paymentIntentId: payment!.providerReference,
        amountCents: 1_000,
        idempotencyKey: `test:${randomUUID()}`,
        metadata: { applicationId: a.applicationId, refundId: randomUUID() },
      };
      const first = await provider.createRefund(input);
      expect(first).toEqual({ id: expect.stringMatching(/^re_offline_/), status: "succeeded" });
      expect(await provider.createRefund(input)).toEqual(first);
      expect(await refundCreated()).toBe(before + 1);
      await expect(provider.createRefund({ ...input, amountCents: 2_000 })).rejects.toBeInstanceOf(
        PaymentProviderError,
      );
      await expect(
        provider.createRefund({ ...input, idempotencyKey: `test:${randomUUID()}`, amountCents: PAID }),
      ).rejects.toThrow(/greater than the unrefunded amount/);
      await expect(
        provider.createRefund({
          ...input,
          idempotencyKey: `test:${randomUUID()}`,
          paymentIntentId: "pi_offline_nope",
        }),
      ).rejects.toThrow(/No such payment intent/);
      await expect(provider.createRefund({ ...input, amountCents: 0 })).rejects.toBeInstanceOf(
        PaymentProviderError,
      );
    });
  });

  describe("ledger, revenue summary and dashboard", () => {
    let zhou: Awaited<ReturnType<typeof paidApplication>>;
    let ledgerBefore: FinanceSummaryDto;

    beforeAll(async () => {
      ledgerBefore = await summaryOf();
      // A last name with a space: the search also reads the provider's random ids (base64url), which
      // may hold "zhou" by chance (a failed run found a second refund for "Zhou"), but never a space.
      zhou = await paidApplication("wei.zhou@example.com", "Zhou Wei");
      const res = await refund(zhou.applicationId, { amountCents: 104_500, reason: "Visa refused" });
      expect(res.statusCode).toBe(201);
    });

    it("lists payments and refunds interleaved, newest first, with filters, search and pagination", async () => {
      const page = await ledgerOf("q=wei.zhou");
      expect(page).toMatchObject({ total: 2, page: 1, pageSize: 25 });
      expect(page.items.map((i) => [i.kind, i.amount, i.status])).toEqual([
        ["refund", 104_500, "succeeded"],
        ["payment", PAID, "succeeded"],
      ]);
      expect(page.items[0]).toMatchObject({
        applicationId: zhou.applicationId,
        reason: "Visa refused",
        applicant: { lastName: "Zhou Wei", email: "wei.zhou@example.com" },
        school: { id: zhou.schoolId, name: expect.any(String) },
      });
      const refundsOnly = await ledgerOf("kind=refund&q=Zhou%20Wei");
      expect(refundsOnly.items.map((i: { kind: string }) => i.kind)).toEqual(["refund"]);
      const asc = await ledgerOf("q=zhou%20wei&sort=date:asc");
      expect(asc.items.map((i: { kind: string }) => i.kind)).toEqual(["payment", "refund"]);
      const paged = await ledgerOf("pageSize=1&page=2&q=zhou%20wei");
      expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
      expect(paged.items.map((i: { kind: string }) => i.kind)).toEqual(["payment"]);
      const none = await ledgerOf(`q=zhou%20wei&schoolId=${randomUUID()}`);
      expect(none.total).toBe(0);
      const future = await ledgerOf("q=zhou%20wei&from=2099-01-01");
      expect(future.total).toBe(0);
      const literal = await ledgerOf("q=%25");
      expect(literal.total).toBe(0);
      for (const bad of ["sort=amount:up", "kind=payout", "from=2026-02-30", "pageSize=101", "schoolId=x"]) {
        expect((await api("GET", `/api/admin/finances/ledger?${bad}`, finance)).statusCode, bad).toBe(400);
      }
      await expectRouteStatuses(api, { admissions, owner }, [["GET", "/api/admin/finances/ledger"]], {
        admissions: 403,
        anonymous: 401,
        owner: 200,
      });
    });

    it("exports the ledger as CSV (refunds negative) and audits the export", async () => {
      const res = await api("GET", "/api/admin/finances/ledger.csv?q=zhou%20wei", finance);
      const lines = expectCsvDownload(res, "ledger");
      expect(lines[0]).toContain("Amount (EUR)");
      expect(lines).toHaveLength(3);
      expect(lines[1]).toContain("refund,succeeded,-1045.00");
      expect(lines[2]).toContain("payment,succeeded,3045.00");
      const audit = await auditEntries(db(), { action: "finances.export" });
      expect(audit.some((e) => e.entityType === "ledger")).toBe(true);
      expect((await api("GET", "/api/admin/finances/ledger.csv", admissions)).statusCode).toBe(403);
    });

    it("sums revenue per school and per month: gross, refunded, net and the 21 % VAT in net apart", async () => {
      const summary = await summaryOf();
      const school = summary.bySchool.find((s) => s.schoolId === zhou.schoolId)!;
      const before = ledgerBefore.bySchool.find((s) => s.schoolId === zhou.schoolId);
      const gross = (before?.gross ?? 0) + PAID;
      const refunded = (before?.refunded ?? 0) + 104_500;
      expect(school).toMatchObject({ gross, refunded, net: gross - refunded });
      expect(school.vat).toBe(includedVat(gross - refunded));
      expect(school.netExVat).toBe(school.net - school.vat);
      // One paid Standard application less a refund of 1,045.00: net 2,000.00, VAT 347.11.
      expect(includedVat(PAID - 104_500)).toBe(34_711);
      const month = new Date().toISOString().slice(0, 7);
      expect(summary.byMonth.find((m) => m.month === month)).toBeDefined();
      const sum = (key: "gross" | "refunded" | "net") =>
        summary.bySchool.reduce((total, s) => total + s[key], 0);
      expect(summary.total).toMatchObject({
        gross: sum("gross"),
        refunded: sum("refunded"),
        net: sum("net"),
      });
      expect(summary.total.vat).toBe(includedVat(summary.total.net));
      expect(summary.byMonth.reduce((total, m) => total + m.net, 0)).toBe(summary.total.net);

      const empty = await summaryOf("from=2099-01-01&to=2099-12-31");
      expect(empty).toMatchObject({ from: "2099-01-01", to: "2099-12-31", bySchool: [], byMonth: [] });
      expect(empty.total).toMatchObject({ gross: 0, net: 0, vat: 0 });
      expect((await api("GET", "/api/admin/finances/summary?from=yesterday", finance)).statusCode).toBe(400);
      expect((await api("GET", "/api/admin/finances/summary", admissions)).statusCode).toBe(403);
      expect((await api("GET", "/api/admin/finances/summary", student)).statusCode).toBe(401);
    });

    it("exports the summary as CSV with VAT apart", async () => {
      const res = await api("GET", "/api/admin/finances/summary.csv", owner);
      expect(res.statusCode).toBe(200);
      const lines = csvLines(res);
      expect(lines[0]).toBe(
        "Group,Name,Gross (EUR),Refunded (EUR),Net (EUR),VAT 21% included (EUR),Net excl. VAT (EUR),Payments,Refunds",
      );
      const summary = await summaryOf("", owner);
      const euros = (c: number) => (c / 100).toFixed(2);
      expect(lines.at(-1)).toBe(
        `total,,${euros(summary.total.gross)},${euros(summary.total.refunded)},${euros(summary.total.net)},${euros(summary.total.vat)},${euros(summary.total.netExVat)},${summary.total.payments},${summary.total.refunds}`,
      );
      expect((await api("GET", "/api/admin/finances/summary.csv", admissions)).statusCode).toBe(403);
    });

    it("the dashboard's paid revenue is net of refunds", async () => {
      const dashboard = expectParses(
        adminDashboardSchema,
        (await api("GET", "/api/admin/dashboard", owner)).json(),
      );
      const summary = await summaryOf("", owner);
      expect(dashboard.paidRevenue).toBe(summary.total.net);
    });
  });
});

describe("refunds with the Stripe provider (fake Stripe API, SDK-signed events)", () => {
  const SECRET = "whsec_finance_stripe";
  let fake: FakeStripe;
  let t: TestApp;
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const flow = paymentFlow(() => t, { addressPrefix: "10.91" });
  let finance: string;

  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp({
      provider: createStripeProvider({
        secretKey: "sk_test_finance",
        webhookSecret: SECRET,
        apiBase: fake.url,
      }),
    });
    finance = (await loginAsAdmin(t.app, "finance")).cookie;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.close();
  });

  function signed(type: string, object: unknown) {
    const { body, signature } = signedStripeEvent(SECRET, type, object);
    return t.app.inject({
      method: "POST",
      url: "/api/payments/webhook",
      headers: { "content-type": "application/json", "stripe-signature": signature },
      payload: body,
    });
  }

  /** An application paid through Stripe Checkout: session completed on the fake, event signed by the SDK. */
  async function paidThroughStripe() {
    const a = await flow.newApplication();
    const res = await flow.checkout(a);
    const session = fake.completeSession(res.json().sessionId);
    expect((await signed("checkout.session.completed", session)).json()).toMatchObject({
      outcome: "processed",
    });
    return { ...a, paymentIntent: session.payment_intent! };
  }

  it("sends refunds.create with the payment intent, amount, metadata and Idempotency-Key; a retry refunds once", async () => {
    const a = await paidThroughStripe();
    const body = { amountCents: 70_000, reason: "Cancelled", idempotencyKey: randomUUID() };
    const url = `/api/admin/applications/${a.applicationId}/refunds`;
    const res = await api("POST", url, finance, body);
    expect(res.statusCode, res.body).toBe(201);
    expectParses(adminRefundResultSchema, res.json());
    expect(res.json()).toMatchObject({
      paymentStatus: "partially_refunded",
      refund: { status: "succeeded", provider: "stripe", providerRefundId: expect.stringMatching(/^re_/) },
    });
    const calls = fake.requests.filter((r) => r.path === "/v1/refunds");
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({
      payment_intent: a.paymentIntent,
      amount: "70000",
      metadata: { applicationId: a.applicationId, refundId: res.json().refund.id },
    });
    expect(calls[0]!.idempotencyKey).toBe(`refund:${a.applicationId}:${body.idempotencyKey}`);
    expect((await api("POST", url, finance, body)).statusCode).toBe(200);
    expect(fake.requests.filter((r) => r.path === "/v1/refunds")).toHaveLength(1);
    expect(fake.refunds.size).toBe(1);
  });

  it("a pending Stripe refund is settled by refund.updated once; a refund.failed for another refund marks it failed", async () => {
    const a = await paidThroughStripe();
    fake.refundStatus = "pending";
    const url = `/api/admin/applications/${a.applicationId}/refunds`;
    const res = await api("POST", url, finance, {
      amountCents: PAID,
      reason: "Withdrawn",
      idempotencyKey: randomUUID(),
    });
    fake.refundStatus = "succeeded";
    expect(res.statusCode, res.body).toBe(201);
    expectParses(adminRefundResultSchema, res.json());
    expect(res.json()).toMatchObject({ paymentStatus: "paid", refund: { status: "pending" } });
    const reId = res.json().refund.providerRefundId as string;

    const updated = fake.updateRefund(reId, "succeeded");
    expect((await signed("refund.updated", updated)).json()).toMatchObject({ outcome: "processed" });
    const [application] = await t.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, a.applicationId));
    expect(application).toMatchObject({ paymentStatus: "refunded" });
    // The same change delivered again as a new event: nothing more happens.
    await signed("refund.updated", updated);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.applicationId, a.applicationId));
    expect(rows).toEqual([expect.objectContaining({ status: "succeeded", providerRefundId: reId })]);

    // A refund that fails at Stripe after a pending answer: failed, the application unchanged.
    const b = await paidThroughStripe();
    fake.refundStatus = "pending";
    const pending = await api("POST", `/api/admin/applications/${b.applicationId}/refunds`, finance, {
      amountCents: 5_000,
      reason: "Goodwill",
      idempotencyKey: randomUUID(),
    });
    fake.refundStatus = "succeeded";
    const failed = fake.updateRefund(pending.json().refund.providerRefundId, "failed");
    const outcome = await signed("refund.failed", failed);
    expect(outcome.json()).toMatchObject({ outcome: "processed" });
    const [bRefund] = await t.database.db
      .select()
      .from(refunds)
      .where(eq(refunds.applicationId, b.applicationId));
    expect(bRefund).toMatchObject({ status: "failed" });
    const [bApp] = await t.database.db
      .select()
      .from(applications)
      .where(eq(applications.id, b.applicationId));
    expect(bApp).toMatchObject({ paymentStatus: "paid" });
  });

  it("Stripe refusing the refund answers 502 and leaves the refund failed", async () => {
    const a = await paidThroughStripe();
    // Refund most of it at Stripe directly, so Stripe refuses our larger amount.
    const sdk = new Stripe("sk_test_finance", {
      host: new URL(fake.url).hostname,
      port: Number(new URL(fake.url).port),
      protocol: "http",
    });
    await sdk.refunds.create({ payment_intent: a.paymentIntent, amount: PAID - 100 });
    const res = await api("POST", `/api/admin/applications/${a.applicationId}/refunds`, finance, {
      amountCents: 5_000,
      reason: "Too late",
      idempotencyKey: randomUUID(),
    });
    expect(res.statusCode).toBe(502);
    const rows = await t.database.db.select().from(refunds).where(eq(refunds.applicationId, a.applicationId));
    expect(rows).toEqual([expect.objectContaining({ status: "failed" })]);
  });

  it("a full refund that Stripe answers at once gives the place back: places left go up", async () => {
    const a = await paidThroughStripe();
    const placesLeft = () => placesLeftOf(t, a.schoolId);
    const before = await placesLeft(); // read, and now cached
    const res = await api("POST", `/api/admin/applications/${a.applicationId}/refunds`, finance, {
      amountCents: PAID,
      reason: "Visa refused",
      idempotencyKey: randomUUID(),
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ paymentStatus: "refunded" });
    expect(await placesLeft()).toBe(before + 1);
  });
});
