import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applications, emailOutbox, fulfilmentSteps, invoices, packages, payments } from "../../db/schema";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { issueInvoiceForPayment } from "../documents/invoices";

// The invoice step's work, wrapped so that a test can make it throw once.
vi.mock("../documents/invoices", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../documents/invoices")>();
  return { ...actual, issueInvoiceForPayment: vi.fn(actual.issueInvoiceForPayment) };
});

const WEBHOOK_SECRET = "whsec_fulfilment_steps_secret";

/**
 * Fulfilment as named steps: a step that throws does not undo the payment nor stop the other
 * steps; it is recorded (`fulfilment_steps`) and the payment-recovery job runs it again, once,
 * without doubling the invoice, the commission or an e-mail. The confirmation e-mail states the
 * quote stored with the payment even when the catalogue's price changed before it was sent.
 */
describe("fulfilment steps of a payment", () => {
  let t: TestApp;
  const flow = paymentFlow(() => t, { addressPrefix: "10.79", webhookSecret: WEBHOOK_SECRET });
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: WEBHOOK_SECRET });
  });
  afterAll(async () => {
    await t?.close();
  });

  async function paymentOf(applicationId: string) {
    const rows = await db().select().from(payments).where(eq(payments.applicationId, applicationId));
    expect(rows).toHaveLength(1);
    return rows[0]!;
  }

  /** The payment's steps: name → [status, attempts, last error code]. */
  async function stepsOf(paymentId: string) {
    const rows = await db().select().from(fulfilmentSteps).where(eq(fulfilmentSteps.paymentId, paymentId));
    return Object.fromEntries(rows.map((r) => [r.step, [r.status, r.attempts, r.lastErrorCode]]));
  }

  const confirmations = (applicationId: string) =>
    db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `confirmation:${applicationId}`));
  const invoicesOf = (paymentId: string) =>
    db()
      .select()
      .from(invoices)
      .where(and(eq(invoices.paymentId, paymentId), eq(invoices.kind, "invoice")));

  it("an e-mail that fails once is retried by the recovery job, sent once, with the quote stored with the payment", async () => {
    const a = await flow.newApplication();
    const enqueue = vi
      .spyOn(t.app.services.mail, "enqueue")
      .mockRejectedValueOnce(Object.assign(new Error("outbox unavailable"), { code: "EOUTBOX" }));
    try {
      await flow.payByWebhook(a);
    } finally {
      enqueue.mockRestore();
    }
    const payment = await paymentOf(a.applicationId);
    const [application] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
    expect(application?.paymentStatus).toBe("paid");
    expect(await stepsOf(payment.id)).toEqual({
      invoice: ["done", 1, null],
      codeRedemption: ["done", 1, null],
      commission: ["done", 1, null],
      confirmationEmail: ["failed", 1, "EOUTBOX"],
      studentInvitation: ["done", 1, null],
      visaLetter: ["done", 1, null],
    });
    expect(await confirmations(a.applicationId)).toHaveLength(0);

    // The catalogue's price changes before the job runs: the e-mail still states what was paid.
    await db()
      .update(packages)
      .set({ priceCents: sql`${packages.priceCents} + 50000` })
      .where(eq(packages.id, application!.packageId));
    try {
      await t.app.services.payments.recoverAndReconcile();
      await t.app.services.payments.recoverAndReconcile();
    } finally {
      await db()
        .update(packages)
        .set({ priceCents: sql`${packages.priceCents} - 50000` })
        .where(eq(packages.id, application!.packageId));
    }
    const sent = await confirmations(a.applicationId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.textBody).toContain("3,045.00");
    expect(sent[0]!.textBody).not.toContain("3,545.00");
    expect((await stepsOf(payment.id)).confirmationEmail).toEqual(["done", 2, null]);
    const [invoice] = await invoicesOf(payment.id);
    expect(sent[0]!.textBody).toContain(invoice!.number);
    expect(await invoicesOf(payment.id)).toHaveLength(1);
  });

  it("an invoice that fails once keeps the payment; the commission and e-mail wait for it; the job does each once", async () => {
    const a = await flow.newApplication();
    vi.mocked(issueInvoiceForPayment).mockRejectedValueOnce(
      Object.assign(new Error("sequence locked"), { code: "55P03" }),
    );
    await flow.payByWebhook(a);
    const payment = await paymentOf(a.applicationId);
    expect(await stepsOf(payment.id)).toEqual({
      invoice: ["failed", 1, "55P03"],
      codeRedemption: ["done", 1, null],
      commission: ["pending", 0, null],
      confirmationEmail: ["pending", 0, null],
      studentInvitation: ["done", 1, null],
      visaLetter: ["done", 1, null],
    });
    expect(await invoicesOf(payment.id)).toHaveLength(0);
    expect(await confirmations(a.applicationId)).toHaveLength(0);

    await t.app.services.payments.recoverAndReconcile();
    await t.app.services.payments.recoverAndReconcile();
    expect(await stepsOf(payment.id)).toEqual({
      invoice: ["done", 2, null],
      codeRedemption: ["done", 1, null],
      commission: ["done", 1, null],
      confirmationEmail: ["done", 1, null],
      studentInvitation: ["done", 1, null],
      visaLetter: ["done", 1, null],
    });
    const issued = await invoicesOf(payment.id);
    expect(issued).toHaveLength(1);
    const sent = await confirmations(a.applicationId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.textBody).toContain(issued[0]!.number);
  });
});
