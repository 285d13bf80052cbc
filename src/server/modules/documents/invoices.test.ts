/**
 * Invoices and credit notes (docs/product/admissions.md#documents-and-letters, decision 017): every field a Dutch invoice needs,
 * read back from the PDF's text (`pdftotext`), and the VAT-exempt variant; numbers unique and
 * gap-free per year under concurrent payments (also on PostgreSQL with TEST_DATABASE_URL); the
 * organisation as payer; a credit note after a refund, referring to its invoice, and the "refund
 * made" e-mail, once; the invoice after the applicant's erasure; ownership of every route; and an
 * invoice that never changes after the catalogue or the applicant does.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatDate } from "../../../shared/dates";
import { formatMoney } from "../../../shared/money";
import { includedVat } from "../../../shared/pricing";
import { type InvoiceList, invoiceListSchema } from "../../../shared/schemas/documents";
import { financeSummarySchema } from "../../../shared/schemas/finance";
import { schoolDate } from "../../../shared/time";
import {
  applicants,
  applications,
  codes,
  emailOutbox,
  invoiceCounters,
  invoices,
  packages,
  payments,
  refunds,
  students,
  summerSchools,
} from "../../db/schema";
import { loginAsStudent } from "../../testing/accounts";
import { adminRoles, apiOf, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import { type Applied, paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { NAMES_IN_EVERY_SCRIPT, pdfTitleOf } from "../../testing/pdf";
import { nextDocumentNumber } from "./invoices";
import { dateForPeople } from "./pdf";

/** Standard package, shared room, the required insurance: 2,950.00 + 95.00 EUR (VAT included). */
const PAID = 304_500;
const OFFLINE_SECRET = "whsec_offline_invoice_tests";

/** The text of a PDF, as a reader (or a search) gets it. */
function pdfText(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");
}

/** `text` as a regular expression matching itself. */
const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const euro = (cents: number) =>
  new Intl.NumberFormat("en-GB", { style: "currency", currency: "EUR" }).format(cents / 100);

function harness(env: Record<string, string> = {}) {
  const state: { t: TestApp; roles: RoleCookies } = {} as never;
  const api = apiOf(() => state.t.app, SAME_ORIGIN);
  const flow = paymentFlow(() => state.t, {
    addressPrefix: `10.${60 + Object.keys(env).length}`,
    webhookSecret: OFFLINE_SECRET,
  });
  const db = () => state.t.database.db;

  /** A verified student whose application (same e-mail) is ready to pay. */
  async function studentWithApplication(applicant: Record<string, unknown> = {}, schoolId?: string) {
    const email = `inv-${randomUUID().slice(0, 8)}@example.com`;
    const a = await flow.newApplication(schoolId, { email, ...applicant });
    const { cookie } = await loginAsStudent(state.t.app, { email });
    return { a, student: cookie };
  }

  /** Pays through the offline checkout page (the signed event goes through the webhook). */
  async function pay(a: Applied) {
    await flow.payOnTestPage(await flow.sessionOf(a));
  }

  async function listOf(applicationId: string, cookie: string, audience: "student" | "admin" = "student") {
    const res = await api("GET", `/api/${audience}/applications/${applicationId}/invoices`, cookie);
    expect(res.statusCode, res.body).toBe(200);
    return invoiceListSchema.parse(res.json()) as InvoiceList;
  }

  async function pdfOf(url: string, cookie: string) {
    const res = await api("GET", url, cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["cache-control"]).toBe("private, no-store");
    return { res, text: pdfText(res.rawPayload) };
  }

  return {
    state,
    api,
    flow,
    db,
    studentWithApplication,
    pay,
    listOf,
    pdfOf,
    async setup() {
      state.t = await createTestApp({ offlineWebhookSecret: OFFLINE_SECRET, env });
      state.roles = await adminRoles(state.t.app);
    },
  };
}

describe("invoices with VAT included (the default)", () => {
  const h = harness();
  const { api, db } = h;
  beforeAll(() => h.setup());
  afterAll(() => h.state.t?.close());

  it("an accepted payment gets an invoice with every field a Dutch invoice needs, in the PDF's text", async () => {
    const { a, student } = await h.studentWithApplication({
      firstName: "Amara",
      lastName: "Okafor",
      address: "12 Marina Road",
      city: "Lagos",
      postalCode: "101001",
      countryOfResidence: "NG",
    });
    await h.pay(a);
    const list = await h.listOf(a.applicationId, student);
    expect(list.items).toHaveLength(1);
    const item = list.items[0]!;
    const today = schoolDate(new Date());
    expect(item).toMatchObject({
      kind: "invoice",
      amount: PAID,
      currency: "EUR",
      issuedOn: today,
      refersTo: null,
      number: expect.stringMatching(new RegExp(`^${today.slice(0, 4)}-\\d{6}$`)),
      pdfUrl: `/api/student/invoices/${item.id}.pdf`,
    });
    const { res, text } = await h.pdfOf(item.pdfUrl, student);
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="invoice-${item.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString()).toBe("%PDF-");

    const [school] = await db()
      .select()
      .from(summerSchools)
      .innerJoin(applications, eq(applications.summerSchoolId, summerSchools.id))
      .where(eq(applications.id, a.applicationId));
    const vat = includedVat(PAID);
    for (const expected of [
      "INVOICE",
      // The school, from the configuration's defaults.
      "Stichting The Hague Summer School",
      "Lange Voorhout 1, 2514 EA Den Haag, the Netherlands",
      "KvK (Chamber of Commerce) number: 12345678",
      "VAT number: NL123456789B01",
      // Number and date of issue, written for people.
      item.number,
      `Date of issue`,
      dateForPeople(today),
      // The student and their address.
      "Amara Okafor",
      "12 Marina Road",
      "101001 Lagos",
      "Nigeria",
      // The programme and its dates.
      school!.summer_schools.name.en,
      dateForPeople(school!.summer_schools.startDate),
      dateForPeople(school!.summer_schools.endDate),
      // Line items of the quote.
      "Package: Standard",
      "Housing:",
      "Add-on:",
      // Per line: quantity, unit price excluding VAT, rate, VAT, amount (Wet OB art. 35a, docs/product/payments.md#invoice-lines; the headings are checked below); then the total excluding VAT, the VAT (docs/product/payments.md#vat)
      // and the total.
      "Total excluding VAT",
      euro(PAID - vat),
      `VAT 21% on ${euro(PAID - vat)}`,
      euro(vat),
      "Total including VAT",
      euro(PAID),
      a.applicationId,
    ])
      expect(text, expected).toContain(expected);
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // The column headings wrap inside their narrow columns: read in reading order instead of layout.
    const reading = execFileSync("pdftotext", ["-", "-"], { input: res.rawPayload })
      .toString("utf8")
      .replace(/\s+/g, " ");
    for (const heading of ["Qty", "Unit price excl. VAT", "VAT rate", "Amount incl. VAT"])
      expect(reading, heading).toContain(heading);

    // The stored lines carry their VAT, adding up to the invoice's (decision 034), and each row of
    // the PDF prints them.
    const [row] = await db().select().from(invoices).where(eq(invoices.id, item.id));
    const snapshot = row!.snapshot;
    expect(snapshot.v).toBe(2);
    if (snapshot.v !== 2 || snapshot.vat.mode !== "included") throw new Error("expected VAT per line");
    expect(snapshot.vat).toEqual({
      mode: "included",
      ratePercent: 21,
      vatAmount: vat,
      netAmount: PAID - vat,
    });
    const lineVats = snapshot.lines.map((l) => l.vat!);
    expect(lineVats.reduce((s, l) => s + l.vatAmount, 0)).toBe(vat);
    expect(lineVats.reduce((s, l) => s + l.unitPriceExclVat, 0)).toBe(PAID - vat);
    for (const l of snapshot.lines) {
      expect(l.vat!.unitPriceExclVat + l.vat!.vatAmount).toBe(l.amount);
      const cells = [l.description, "1", euro(l.vat!.unitPriceExclVat), "21%", euro(l.vat!.vatAmount)];
      expect(text).toMatch(new RegExp([...cells, euro(l.amount)].map(literal).join("\\s+")));
    }
  });

  it("the confirmation e-mail links the invoice and the portal's payment page", async () => {
    const { a, student } = await h.studentWithApplication();
    await h.pay(a);
    const [item] = (await h.listOf(a.applicationId, student)).items;
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `confirmation:${a.applicationId}`));
    expect(mail!.textBody).toContain(item!.number);
    // The invoice is reached through the portal's page, which signs the student in; never through
    // the API's address, which shows JSON to someone not signed in (docs/product/languages.md#emails).
    expect(mail!.textBody).toContain(
      `Your invoice ${item!.number} (PDF), with your payments in the student portal: http://localhost:3000/en/student/payment`,
    );
    expect(mail!.textBody + mail!.htmlBody).not.toContain("/api/");
  });

  it("a deposit invoice lists the whole quote, then the deposit's share; its total is the payment", async () => {
    const first = await h.flow.newApplication();
    const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, first.schoolId));
    await db().update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, school!.id));
    h.state.t.app.services.catalogue.invalidate();
    try {
      const { a, student } = await h.studentWithApplication({}, school!.id);
      await h.pay(a);
      const [payment] = await db().select().from(payments).where(eq(payments.applicationId, a.applicationId));
      const deposit = Math.round(PAID * 0.3);
      expect(payment!.amountCents).toBe(deposit);
      const [item] = (await h.listOf(a.applicationId, student)).items;
      expect(item!.amount).toBe(deposit);
      const { text } = await h.pdfOf(item!.pdfUrl, student);
      expect(text).toContain("Total price of the programme");
      expect(text).toContain(euro(PAID));
      expect(text).toContain("Deposit: 30% of the total price");
      expect(text).toContain(euro(deposit - includedVat(deposit)));
      expect(text).toContain(euro(includedVat(deposit)));
      expect(text).toMatch(new RegExp(`Total including VAT\\s+${literal(euro(deposit))}`));
      // The lines show the programme's price with their VAT; the deposit row and the totals the VAT
      // of the amount paid (decision 034).
      const [row] = await db().select().from(invoices).where(eq(invoices.id, item!.id));
      const snap = row!.snapshot;
      if (snap.v !== 2) throw new Error("expected version 2");
      expect(snap.share).toEqual({
        label: "Deposit: 30% of the total price",
        amount: deposit,
        vat: { netAmount: deposit - includedVat(deposit), vatAmount: includedVat(deposit) },
      });
      expect(snap.lines.reduce((s, l) => s + l.vat!.vatAmount, 0)).toBe(includedVat(PAID));
      expect(text).toMatch(
        new RegExp(
          [
            "Total price of the programme",
            euro(PAID - includedVat(PAID)),
            "21%",
            euro(includedVat(PAID)),
            euro(PAID),
          ]
            .map(literal)
            .join("\\s+"),
        ),
      );
    } finally {
      await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, school!.id));
      h.state.t.app.services.catalogue.invalidate();
    }
  });

  it("prints the organisation the student names as payer on invoices issued from then on", async () => {
    const { a, student } = await h.studentWithApplication({ firstName: "Kwame", lastName: "Mensah" });
    const url = `/api/student/applications/${a.applicationId}/billing-details`;
    const bad = await api("PUT", url, student, { organisationName: "University of Ghana" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().fieldErrors).toHaveProperty("address");
    const saved = await api("PUT", url, student, {
      organisationName: "University of Ghana",
      address: "P.O. Box LG 25\nLegon, Accra\nGhana",
      vatNumber: "GH-C000123456",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      organisationName: "University of Ghana",
      vatNumber: "GH-C000123456",
    });
    await h.pay(a);
    const list = await h.listOf(a.applicationId, student);
    expect(list.billingDetails).toMatchObject({ organisationName: "University of Ghana" });
    const { text } = await h.pdfOf(list.items[0]!.pdfUrl, student);
    for (const expected of [
      "Billed to",
      "University of Ghana",
      "P.O. Box LG 25",
      "Legon, Accra",
      "VAT number: GH-C000123456",
      "Student",
      "Kwame Mensah",
    ])
      expect(text, expected).toContain(expected);

    // Removing the organisation later does not change the invoice already issued.
    const removed = await api("PUT", url, student, { organisationName: "", address: "", vatNumber: "" });
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toBeNull();
    expect((await h.pdfOf(list.items[0]!.pdfUrl, student)).text).toContain("University of Ghana");
  });

  it("numbers are unique and gap-free per year, also when many payments arrive at once and one rolls back", async () => {
    const buyers = await Promise.all(Array.from({ length: 8 }, () => h.studentWithApplication()));
    // A transaction that takes a number and then fails gives it back (a sequence would not).
    const year = Number(schoolDate(new Date()).slice(0, 4));
    await expect(
      db().transaction(async (tx) => {
        await nextDocumentNumber(tx, year);
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    await Promise.all(buyers.map(({ a }) => h.pay(a)));
    const rows = await db().select().from(invoices).where(eq(invoices.year, year));
    const seqs = rows.map((r) => r.seq).sort((x, y) => x - y);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(new Set(rows.map((r) => r.number)).size).toBe(rows.length);
    const [counter] = await db().select().from(invoiceCounters).where(eq(invoiceCounters.year, year));
    expect(counter!.last).toBe(rows.length);
    // One invoice per paid application of the batch.
    for (const { a } of buyers)
      expect(rows.filter((r) => r.applicationId === a.applicationId && r.kind === "invoice")).toHaveLength(1);
  });

  it("a succeeded refund issues a credit note referring to the invoice, and e-mails the student once, in their language", async () => {
    const { a, student } = await h.studentWithApplication({ firstName: "Aminata" });
    await db()
      .update(applicants)
      .set({ language: "fr" })
      .where(eq(applicants.id, (await applicantOf(a.applicationId)).id));
    // The e-mail language of the student's profile decides (docs/product/portals.md#who-an-email-is-written-to).
    const [applicant] = await db()
      .select()
      .from(applicants)
      .where(eq(applicants.id, (await applicantOf(a.applicationId)).id));
    await db().update(students).set({ language: "fr" }).where(eq(students.email, applicant!.email));
    await h.pay(a);
    const res = await api(
      "POST",
      `/api/admin/applications/${a.applicationId}/refunds`,
      h.state.roles.finance,
      {
        amountCents: 50_000,
        reason: "Cancelled by the applicant",
        idempotencyKey: randomUUID(),
      },
    );
    expect(res.statusCode, res.body).toBe(201);
    const refundId = res.json().refund.id as string;
    const list = await h.listOf(a.applicationId, student);
    expect(list.items.map((i) => i.kind)).toEqual(["invoice", "credit_note"]);
    const [invoice, credit] = list.items;
    expect(credit).toMatchObject({ amount: -50_000, refersTo: invoice!.number });
    expect(credit!.number).not.toBe(invoice!.number);
    const { res: pdf, text } = await h.pdfOf(credit!.pdfUrl, student);
    expect(pdf.headers["content-disposition"]).toBe(
      `attachment; filename="credit-note-${credit!.number}.pdf"`,
    );
    for (const expected of [
      "CREDIT NOTE",
      credit!.number,
      `Corrects invoice`,
      invoice!.number,
      euro(-50_000),
      euro(-includedVat(50_000)),
      euro(-(50_000 - includedVat(50_000))),
      "KvK (Chamber of Commerce) number: 12345678",
    ])
      expect(text, expected).toContain(expected);

    const mails = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.dedupeKey, `refund:${refundId}`));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!;
    expect(mail.subject).toBe(`Votre remboursement de ${formatMoney(50_000, "fr")} a été effectué`);
    expect(mail.textBody).toContain("Bonjour Aminata,");
    expect(mail.textBody).toContain(`Le ${formatDate(schoolDate(new Date()), "fr")}`);
    expect(mail.textBody).toContain(
      `Avoir ${credit!.number} (PDF)\u202f: http://localhost:3000${credit!.pdfUrl}`,
    );
    expect(mail.textBody).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    // Queued through the mail service like every e-mail: the school's footer with its KvK number.
    expect(mail.textBody).toContain("12345678");
    expect(mail.htmlBody).toContain("12345678");

    // The provider's event delivered again changes nothing: one credit note, one e-mail.
    const [row] = await db().select().from(refunds).where(eq(refunds.id, refundId));
    const { settleRefund } = await import("../finance/settle");
    await settleRefund(
      db(),
      {
        id: row!.providerRefundId!,
        status: "succeeded",
        amountCents: 50_000,
        currency: "EUR",
        refundId,
      } as never,
      new Date(),
      { origin: "http://localhost:3000", supportEmail: "x@example.com", mail: h.state.t!.app.services.mail },
    );
    expect((await h.listOf(a.applicationId, student)).items).toHaveLength(2);
    expect(
      await db()
        .select()
        .from(emailOutbox)
        .where(like(emailOutbox.dedupeKey, `refund:${refundId}%`)),
    ).toHaveLength(1);
  });

  it("an invoice never changes: not after the catalogue, the applicant or the billing details change", async () => {
    const { a, student } = await h.studentWithApplication({ firstName: "Lerato", lastName: "Dlamini" });
    await h.pay(a);
    const [item] = (await h.listOf(a.applicationId, student)).items;
    const before = (await h.pdfOf(item!.pdfUrl, student)).text;
    const [snapshotBefore] = await db().select().from(invoices).where(eq(invoices.id, item!.id));
    const application = (
      await db().select().from(applications).where(eq(applications.id, a.applicationId))
    )[0]!;
    const [packageBefore] = await db()
      .select({ name: packages.name, priceCents: packages.priceCents })
      .from(packages)
      .where(eq(packages.id, application.packageId));
    await db()
      .update(packages)
      .set({ name: { en: "Renamed package" }, priceCents: 999_900 })
      .where(eq(packages.id, application.packageId));
    await db()
      .update(applicants)
      .set({ firstName: "Changed", lastName: "Person", address: "1 Other Street", city: "Elsewhere" })
      .where(eq(applicants.id, application.applicantId));
    await api("PUT", `/api/student/applications/${a.applicationId}/billing-details`, student, {
      organisationName: "Later Employer Ltd",
      address: "Somewhere",
    });
    const after = (await h.pdfOf(item!.pdfUrl, student)).text;
    await db().update(packages).set(packageBefore!).where(eq(packages.id, application.packageId));
    expect(after).toBe(before);
    expect(after).toContain("Lerato Dlamini");
    expect(after).not.toContain("Renamed package");
    const [snapshotAfter] = await db().select().from(invoices).where(eq(invoices.id, item!.id));
    expect(snapshotAfter).toEqual(snapshotBefore);
  });

  it("stays downloadable by admins after the applicant's erasure", async () => {
    const { a, student } = await h.studentWithApplication({ firstName: "Nomvula", lastName: "Khumalo" });
    await h.pay(a);
    const [item] = (await h.listOf(a.applicationId, student)).items;
    const applicant = await applicantOf(a.applicationId);
    const erase = await api("POST", `/api/admin/applicants/${applicant.id}/erase`, h.state.roles.owner, {
      confirm: "ERASE",
    });
    expect(erase.statusCode, erase.body).toBe(200);
    const list = await h.listOf(a.applicationId, h.state.roles.finance, "admin");
    expect(list.items.map((i) => i.number)).toEqual([item!.number]);
    expect(list.items[0]!.pdfUrl).toBe(`/api/admin/invoices/${item!.id}.pdf`);
    const { text } = await h.pdfOf(list.items[0]!.pdfUrl, h.state.roles.finance);
    expect(text).toContain(item!.number);
    expect(text).toContain("Nomvula Khumalo");
    // The applicant's account no longer reaches it (its applications were detached by erasure).
    expect((await api("GET", item!.pdfUrl, student)).statusCode).toBe(404);
  });

  it("answers only the owner: another student 404, an affiliate or anonymous 401, an unverified account 403", async () => {
    const { a, student } = await h.studentWithApplication();
    await h.pay(a);
    const [item] = (await h.listOf(a.applicationId, student)).items;
    const other = (await loginAsStudent(h.state.t.app)).cookie;
    const unverified = (
      await loginAsStudent(h.state.t.app, {
        email: `u-${randomUUID().slice(0, 6)}@example.com`,
        emailVerified: false,
      })
    ).cookie;
    const { affiliate, admissions, finance, owner } = h.state.roles;
    const routes: Array<["GET" | "PUT", string, unknown?]> = [
      ["GET", `/api/student/applications/${a.applicationId}/invoices`],
      ["GET", item!.pdfUrl],
      [
        "PUT",
        `/api/student/applications/${a.applicationId}/billing-details`,
        { organisationName: "X", address: "Y" },
      ],
    ];
    for (const [method, url, body] of routes) {
      expect((await api(method, url, other, body)).statusCode, `${url} other`).toBe(404);
      expect((await api(method, url, affiliate, body)).statusCode, `${url} affiliate`).toBe(401);
      expect((await api(method, url, undefined, body)).statusCode, `${url} anonymous`).toBe(401);
      expect((await api(method, url, owner, body)).statusCode, `${url} admin`).toBe(401);
      expect((await api(method, url, unverified, body)).statusCode, `${url} unverified`).toBe(403);
    }
    // A browser opening the e-mailed link while signed out goes to the portal's login page.
    const signedOut = await api("GET", item!.pdfUrl, undefined, undefined, {
      headers: { accept: "text/html,application/xhtml+xml" },
    });
    expect(signedOut.statusCode).toBe(303);
    expect(signedOut.headers.location).toBe("/student/login");
    expect((await api("GET", `/api/student/invoices/${randomUUID()}.pdf`, student)).statusCode).toBe(404);
    expect((await api("GET", "/api/student/invoices/nope.pdf", student)).statusCode).toBe(404);
    // The back office: every admin role reads; students, affiliates and anonymous callers do not.
    const adminRoutes = [
      `/api/admin/applications/${a.applicationId}/invoices`,
      `/api/admin/invoices/${item!.id}.pdf`,
    ];
    for (const url of adminRoutes) {
      for (const cookie of [owner, admissions, finance])
        expect((await api("GET", url, cookie)).statusCode).toBe(200);
      for (const cookie of [student, affiliate, undefined])
        expect((await api("GET", url, cookie)).statusCode).toBe(401);
    }
    expect((await api("GET", `/api/admin/invoices/${randomUUID()}.pdf`, owner)).statusCode).toBe(404);
    expect((await api("GET", `/api/admin/applications/${randomUUID()}/invoices`, owner)).statusCode).toBe(
      404,
    );
  });

  it("a completion without payment (a 100% code) gets no invoice, and takes no number", async () => {
    const year = Number(schoolDate(new Date()).slice(0, 4));
    const counter = async () =>
      (await db().select().from(invoiceCounters).where(eq(invoiceCounters.year, year)))[0]?.last ?? 0;
    const before = await counter();
    const [code] = await db()
      .insert(codes)
      .values({
        code: `FREE${randomUUID().slice(0, 6).toUpperCase()}`,
        codeType: "discount",
        discountType: "percentage",
        discountValue: 100,
      })
      .returning();
    const { a, student } = await h.studentWithApplication();
    const validated = await h.flow.validate(code!.code, a);
    expect(validated.json().quote).toMatchObject({ totalAmount: 0 });
    const done = await h.state.t.app.inject({
      method: "POST",
      url: "/api/process-zero-payment",
      headers: { cookie: a.cookie },
      payload: { applicationId: a.applicationId, termsAccepted: true, codeId: code!.id },
      remoteAddress: a.address,
    });
    expect(done.statusCode, done.body).toBe(200);
    expect((await h.listOf(a.applicationId, student)).items).toEqual([]);
    expect(await counter()).toBe(before);
  });

  it("a name and address in Chinese are printed with an embedded font and read back from the PDF", async () => {
    const { a, student } = await h.studentWithApplication({
      firstName: "小明",
      lastName: "王",
      address: "海淀区中关村大街 27 号",
      city: "北京",
      postalCode: "100080",
      countryOfResidence: "CN",
    });
    await h.pay(a);
    const [item] = (await h.listOf(a.applicationId, student)).items;
    const { text } = await h.pdfOf(item!.pdfUrl, student);
    expect(text).toContain("小明 王");
    expect(text).toContain("海淀区中关村大街 27 号");
    expect(text).toContain("100080 北京");
    expect(text).toContain(euro(item!.amount));
  });

  it("prints a Polish, Vietnamese, Chinese or Cyrillic name as written, under the invoice's Title", async () => {
    for (const name of NAMES_IN_EVERY_SCRIPT) {
      const { a, student } = await h.studentWithApplication({
        firstName: name.firstName,
        lastName: name.lastName,
        address: "ul. Długa 5",
        city: "Łódź",
      });
      await h.pay(a);
      const [item] = (await h.listOf(a.applicationId, student)).items;
      const { res, text } = await h.pdfOf(item!.pdfUrl, student);
      expect(text, name.full).toContain(name.full);
      expect(text).toContain("ul. Długa 5");
      expect(text).toContain("Łódź");
      expect(pdfTitleOf(res.rawPayload)).toBe(`Invoice ${item!.number}`);
    }
  });

  async function applicantOf(applicationId: string) {
    const [row] = await db()
      .select({ id: applicants.id })
      .from(applicants)
      .innerJoin(applications, and(eq(applications.applicantId, applicants.id)))
      .where(eq(applications.id, applicationId));
    return row!;
  }
});

describe("invoices of a VAT-exempt school", () => {
  const h = harness({
    INVOICE_VAT: "exempt",
    SCHOOL_LEGAL_NAME: "Stichting Haagse Zomerschool",
    SCHOOL_ADDRESS: "Prinsegracht 20, 2512 GA Den Haag",
    SCHOOL_KVK_NUMBER: "87654321",
    SCHOOL_VAT_NUMBER: "NL987654321B01",
  });
  beforeAll(() => h.setup());
  afterAll(() => h.state.t?.close());

  it("shows no VAT and states the exemption, with the configured school", async () => {
    const { a, student } = await h.studentWithApplication();
    await h.pay(a);
    const [item] = (await h.listOf(a.applicationId, student)).items;
    const { text } = await h.pdfOf(item!.pdfUrl, student);
    for (const expected of [
      "Stichting Haagse Zomerschool",
      "Prinsegracht 20, 2512 GA Den Haag",
      "KvK (Chamber of Commerce) number: 87654321",
      "VAT number: NL987654321B01",
      "Exempt from VAT: education (article 11(1)(o) of the Dutch VAT Act 1968).",
      euro(PAID),
    ])
      expect(text, expected).toContain(expected);
    expect(text).not.toContain("VAT 21%");
    expect(text).not.toContain("Amount before VAT");
    expect(text).not.toContain("Unit price excl. VAT");
  });

  it("the back office's revenue shows no VAT, in the page's data and in the CSV (docs/product/payments.md#vat-setting)", async () => {
    const { a } = await h.studentWithApplication();
    await h.pay(a);
    const res = await h.api("GET", "/api/admin/finances/summary", h.state.roles.finance);
    expect(res.statusCode, res.body).toBe(200);
    const summary = financeSummarySchema.parse(res.json());
    expect(summary.vat).toEqual({ mode: "exempt" });
    expect(summary.total.net).toBeGreaterThanOrEqual(PAID);
    expect(summary.total).toMatchObject({ vat: 0, netExVat: summary.total.net });
    const csv = await h.api("GET", "/api/admin/finances/summary.csv", h.state.roles.finance);
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split(/\r?\n/)[0]).toContain(
      "Group,Name,Gross (EUR),Refunded (EUR),Net (EUR),Payments,Refunds",
    );
    expect(csv.body).not.toContain("VAT");
  });
});
