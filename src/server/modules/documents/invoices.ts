import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { ApplicationQuoteDto } from "../../../shared/application";
import { formatDate } from "../../../shared/dates";
import type { InvoiceLineV1, InvoiceSnapshotV2 } from "../../../shared/invoices";
import { formatMoney } from "../../../shared/money";
import { VAT_RATE_PERCENT, withDiscountSource } from "../../../shared/pricing";
import type {
  BillingDetailsDto,
  BillingDetailsInput,
  InvoiceListItem,
} from "../../../shared/schemas/documents";
import { schoolDate } from "../../../shared/time";
import { vatBreakdown } from "../../../shared/vat";
import type { Db, Tx } from "../../db/client";
import {
  addOnOptions,
  applicants,
  applications,
  billingDetails,
  checkoutSessions,
  housingOptions,
  invoiceCounters,
  invoices,
  packages,
  payments,
  refunds,
  summerSchools,
} from "../../db/schema";
import type { Env } from "../../env";

/**
 * Invoices and credit notes (docs/product/admissions.md#documents-and-letters, docs/product/payments.md#credit-notes, decision 017): one invoice per
 * accepted payment, one credit note per succeeded refund, each issued in the transaction of the
 * payment or refund, numbered from one gap-free counter per year, and stored as an immutable
 * snapshot of everything it prints.
 */

/** A document as the callers need it: its id and number. */
export interface IssuedDocument {
  id: string;
  number: string;
}

/** The school as printed on its invoices, and its VAT treatment, from the configuration. */
export function invoiceSettings(env: Env): {
  issuer: InvoiceSnapshotV2["issuer"];
  vat: { mode: "included"; ratePercent: number } | { mode: "exempt"; statement: string };
} {
  return {
    issuer: {
      legalName: env.SCHOOL_LEGAL_NAME,
      address: env.SCHOOL_ADDRESS,
      kvkNumber: env.SCHOOL_KVK_NUMBER,
      vatNumber: env.SCHOOL_VAT_NUMBER,
      email: env.SUPPORT_EMAIL,
    },
    vat:
      env.INVOICE_VAT === "exempt"
        ? { mode: "exempt", statement: env.INVOICE_VAT_EXEMPTION_TEXT }
        : { mode: "included", ratePercent: VAT_RATE_PERCENT },
  };
}

/** The document number printed for `seq` of `year`: `2027-000042`. */
export const documentNumber = (year: number, seq: number) => `${year}-${String(seq).padStart(6, "0")}`;

/**
 * Takes the next number of `year` (decision 017): `INSERT … ON CONFLICT DO UPDATE … RETURNING` on
 * the year's counter row, in the caller's transaction. The row stays locked until that transaction
 * ends, so concurrent issuers wait for each other, and a transaction that rolls back gives its
 * number back: the numbers of a year are unique and without gaps.
 */
export async function nextDocumentNumber(tx: Tx, year: number): Promise<{ seq: number; number: string }> {
  const [row] = await tx
    .insert(invoiceCounters)
    .values({ year, last: 1 })
    .onConflictDoUpdate({ target: invoiceCounters.year, set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last });
  const seq = row!.last;
  return { seq, number: documentNumber(year, seq) };
}

/**
 * The lines, share and totals of a document under the VAT treatment `settings` (docs/product/payments.md#invoice-lines,
 * decision 034), by the one rule `vatBreakdown` (src/shared/vat.ts): each line gets its unit price
 * excluding VAT, the rate and its VAT, adding up to the VAT of the lines' total. A document for a
 * part of the price (`share`, a deposit or the balance) shows the lines as the programme's price and
 * its own VAT as that of the amount paid, `total`. Exempt: no VAT anywhere, the statement instead.
 */
export function withVat(
  lines: InvoiceLineV1[],
  share: { label: string; amount: number } | null,
  total: number,
  settings: InvoiceSettingsVat,
): Pick<InvoiceSnapshotV2, "lines" | "share" | "vat"> {
  if (settings.mode === "exempt")
    return {
      lines: lines.map((l) => ({ ...l, quantity: 1, vat: null })),
      share: share ? { ...share, vat: null } : null,
      vat: { mode: "exempt", statement: settings.statement },
    };
  const rate = settings.ratePercent;
  const perLine = vatBreakdown(
    lines.map((l) => l.amount),
    rate,
  );
  const document = vatBreakdown([total], rate);
  return {
    lines: lines.map((l, i) => ({
      ...l,
      quantity: 1,
      vat: {
        unitPriceExclVat: perLine.lines[i]!.net,
        ratePercent: rate,
        vatAmount: perLine.lines[i]!.vat,
      },
    })),
    share: share ? { ...share, vat: { netAmount: document.net, vatAmount: document.vat } } : null,
    vat: { mode: "included", ratePercent: rate, vatAmount: document.vat, netAmount: document.net },
  };
}
type InvoiceSettingsVat = ReturnType<typeof invoiceSettings>["vat"];

/** English names of catalogue items by id (the documents are in English whatever the UI language). */
async function englishNames(tx: Tx, quote: ApplicationQuoteDto): Promise<Map<string, string>> {
  const ids = quote.lineItems.map((l) => l.id);
  const names = new Map<string, string>();
  if (!ids.length) return names;
  for (const table of [packages, housingOptions, addOnOptions]) {
    const rows = await tx
      .select({ id: table.id, name: table.name })
      .from(table)
      .where(inArray(table.id, ids));
    for (const r of rows) names.set(r.id, r.name.en);
  }
  return names;
}

const splitLines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);

/**
 * Issues the invoice of an accepted payment, in the payment's transaction `tx` (docs/product/payments.md#invoices
 * "Documents"; called by `markPaid` in payments/service.ts right after the payment row is written,
 * also for an accepted flagged payment). `quote` is the quote the payment paid (default: the one
 * stored with its checkout session). The invoice lists the quote's lines (package, housing,
 * add-ons, discount); when the payment is not the whole total, a line says which part it is (the
 * deposit's percentage, or the balance), so the invoice's total is the payment's amount. VAT: 21 %
 * included (amount before VAT, rate, VAT, docs/product/payments.md#vat) or the exemption statement (`INVOICE_VAT`).
 *
 * Returns null, issuing nothing, for a flagged payment (not a payment of the application until an
 * admin accepts it) or a payment of 0 (a full-discount code). Issuing twice for one payment returns
 * the first invoice.
 */
export async function issueInvoiceForPayment(
  tx: Tx,
  p: { paymentId: string; env: Env; at: Date; quote?: ApplicationQuoteDto | null },
): Promise<IssuedDocument | null> {
  const [payment] = await tx.select().from(payments).where(eq(payments.id, p.paymentId));
  if (!payment || payment.flag || payment.amountCents <= 0) return null;
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.paymentId, payment.id), eq(invoices.kind, "invoice")));
  if (existing) return existing;
  const [row] = await tx
    .select({ application: applications, applicant: applicants, school: summerSchools })
    .from(applications)
    .innerJoin(applicants, eq(applicants.id, applications.applicantId))
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
    .where(eq(applications.id, payment.applicationId));
  if (!row) return null;
  const { application, applicant, school } = row;
  let quote = p.quote ?? null;
  if (!quote) {
    const [session] = await tx
      .select({ quote: checkoutSessions.quote })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.providerSessionId, payment.providerSessionId));
    quote = session?.quote ?? null;
  }
  const [billing] = await tx
    .select()
    .from(billingDetails)
    .where(eq(billingDetails.applicationId, application.id));

  const lines: InvoiceLineV1[] = [];
  let quoteTotal: number;
  if (quote) {
    const names = await englishNames(tx, quote);
    for (const item of quote.lineItems) {
      const name = names.get(item.id) ?? item.name;
      const kind = item.kind === "package" ? "Package" : item.kind === "housing" ? "Housing" : "Add-on";
      lines.push({
        description: `${kind}: ${name}`,
        amount: item.included ? 0 : item.amount,
        ...(item.included ? { note: "Included in the package" } : {}),
      });
    }
    // The discount the quote applied: the early application discount or a code's, never both
    // (docs/product/payments.md#deposit-and-balance, decision 030); a referral code is named when it came with the early one.
    const priced = withDiscountSource(quote);
    if (priced.discountAmount > 0)
      lines.push({
        description:
          priced.discountSource === "automatic" && priced.automaticDiscount
            ? `Early application discount: ${priced.automaticDiscount.percent}% for applications before ${formatDate(priced.automaticDiscount.endsOn, "en")}`
            : quote.appliedCode
              ? `Discount (code ${quote.appliedCode.code})`
              : "Discount",
        amount: -priced.discountAmount,
      });
    quoteTotal = quote.totalAmount;
  } else {
    quoteTotal = application.totalAmountCents ?? payment.amountCents;
    lines.push({ description: "Programme fee", amount: quoteTotal });
  }
  const total = payment.amountCents;
  const percent = quote?.depositPercent ?? 100;
  const share: { label: string; amount: number } | null =
    total === quoteTotal
      ? null
      : {
          label:
            payment.kind === "balance"
              ? "Balance of the total price"
              : percent < 100
                ? `Deposit: ${percent}% of the total price`
                : "Part payment of the total price",
          amount: total,
        };

  const settings = invoiceSettings(p.env);
  const issuedOn = schoolDate(p.at);
  const year = Number(issuedOn.slice(0, 4));
  const { seq, number } = await nextDocumentNumber(tx, year);
  const snapshot: InvoiceSnapshotV2 = {
    v: 2,
    kind: "invoice",
    number,
    issuedOn,
    issuer: settings.issuer,
    student: {
      name: `${applicant.firstName} ${applicant.lastName}`.trim(),
      address: [
        applicant.address,
        `${applicant.postalCode} ${applicant.city}`.trim(),
        countryName(applicant.countryOfResidence),
      ].filter(Boolean),
    },
    organisation: billing
      ? { name: billing.organisationName, address: splitLines(billing.address), vatNumber: billing.vatNumber }
      : null,
    applicationRef: application.id,
    programme: { name: school.name.en, startDate: school.startDate, endDate: school.endDate },
    ...withVat(lines, share, total, settings.vat),
    quoteTotal,
    total,
    currency: "EUR",
    payment: { reference: payment.providerReference, paidOn: schoolDate(payment.paidAt) },
    refersTo: null,
  };
  const [inserted] = await tx
    .insert(invoices)
    .values({
      number,
      year,
      seq,
      kind: "invoice",
      applicationId: application.id,
      paymentId: payment.id,
      totalCents: total,
      issuedAt: p.at,
      snapshot,
    })
    .returning({ id: invoices.id, number: invoices.number });
  return inserted!;
}

/** A country's English name from its ISO code ("" for none). */
function countryName(code: string): string {
  if (!code) return "";
  try {
    return new Intl.DisplayNames(["en"], { type: "region" }).of(code) ?? code;
  } catch {
    return code;
  }
}

/**
 * Issues the credit note of a succeeded refund, in the refund's transaction `tx` (docs/product/payments.md#credit-notes
 * "Documents"; called by `settleRefund` in finance/settle.ts once the refund is `succeeded`). It
 * refers to the invoice of the refunded payment, with the buyer, school and VAT treatment of that
 * invoice, and minus the refunded amount (VAT likewise). Its number comes from the same yearly
 * counter. Returns null, issuing nothing, when the refunded payment has no invoice (a flagged
 * payment, a payment of 0); issuing twice for one refund returns the first credit note.
 */
export async function issueCreditNoteForRefund(
  tx: Tx,
  p: { refundId: string; at: Date },
): Promise<(IssuedDocument & { applicationId: string }) | null> {
  const [refund] = await tx.select().from(refunds).where(eq(refunds.id, p.refundId));
  if (refund?.status !== "succeeded" || refund.amountCents <= 0) return null;
  const [existing] = await tx
    .select({ id: invoices.id, number: invoices.number, applicationId: invoices.applicationId })
    .from(invoices)
    .where(eq(invoices.refundId, refund.id));
  if (existing) return existing;
  const [invoice] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.paymentId, refund.paymentId), eq(invoices.kind, "invoice")));
  if (!invoice) return null;
  const original = invoice.snapshot;
  const issuedOn = schoolDate(p.at);
  const year = Number(issuedOn.slice(0, 4));
  const { seq, number } = await nextDocumentNumber(tx, year);
  const total = -refund.amountCents;
  const vatSettings: InvoiceSettingsVat =
    original.vat.mode === "exempt"
      ? { mode: "exempt", statement: original.vat.statement }
      : { mode: "included", ratePercent: original.vat.ratePercent };
  const snapshot: InvoiceSnapshotV2 = {
    ...original,
    v: 2,
    kind: "credit_note",
    number,
    issuedOn,
    ...withVat(
      [
        {
          description:
            refund.amountCents >= invoice.totalCents
              ? `Refund of invoice ${original.number} in full`
              : `Partial refund of invoice ${original.number}`,
          amount: total,
          note: `Invoice ${original.number}: ${original.programme.name}, total ${formatMoney(invoice.totalCents, "en")}`,
        },
      ],
      null,
      total,
      vatSettings,
    ),
    quoteTotal: total,
    total,
    refersTo: { number: original.number, issuedOn: original.issuedOn },
  };
  const [inserted] = await tx
    .insert(invoices)
    .values({
      number,
      year,
      seq,
      kind: "credit_note",
      applicationId: invoice.applicationId,
      paymentId: invoice.paymentId,
      refundId: refund.id,
      refersToInvoiceId: invoice.id,
      totalCents: total,
      issuedAt: p.at,
      snapshot,
    })
    .returning({ id: invoices.id, number: invoices.number, applicationId: invoices.applicationId });
  return inserted!;
}

/** Where a document's PDF is downloaded: the student's route or the back office's. */
export const invoicePdfPath = (id: string, audience: "student" | "admin" = "student") =>
  `/api/${audience}/invoices/${id}.pdf`;

/**
 * The invoices and credit notes of an application, oldest first (docs/product/admissions.md#documents-and-letters): number,
 * kind, date of issue (`yyyy-mm-dd`), amount (cents, negative for a credit note), the invoice a
 * credit note corrects, and the PDF's path for `audience` (default the student's). For the
 * student's payment page (`/student/payment`) and the back office's application page.
 */
export async function invoicesOfApplication(
  db: Db | Tx,
  applicationId: string,
  audience: "student" | "admin" = "student",
): Promise<InvoiceListItem[]> {
  const rows = await db
    .select()
    .from(invoices)
    .where(eq(invoices.applicationId, applicationId))
    .orderBy(asc(invoices.year), asc(invoices.seq));
  return rows.map((r) => ({
    id: r.id,
    number: r.number,
    kind: r.kind,
    issuedOn: r.snapshot.issuedOn,
    amount: r.totalCents,
    currency: "EUR" as const,
    refersTo: r.snapshot.refersTo?.number ?? null,
    pdfUrl: invoicePdfPath(r.id, audience),
  }));
}

/** One stored document (row with its snapshot), or null. */
export async function invoiceById(db: Db | Tx, id: string) {
  const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
  return row ?? null;
}

/** The application's billing details (the organisation that pays), or null. */
export async function billingDetailsOf(
  db: Db | Tx,
  applicationId: string,
): Promise<BillingDetailsDto | null> {
  const [row] = await db.select().from(billingDetails).where(eq(billingDetails.applicationId, applicationId));
  return row
    ? {
        organisationName: row.organisationName,
        address: row.address,
        vatNumber: row.vatNumber,
        updatedAt: row.updatedAt.toISOString(),
      }
    : null;
}

/**
 * Saves (or, all fields empty, removes) the application's billing details. They are printed on the
 * invoices issued from then on; invoices already issued keep what they print.
 */
export async function saveBillingDetails(
  db: Db | Tx,
  applicationId: string,
  input: BillingDetailsInput,
  at: Date,
): Promise<BillingDetailsDto | null> {
  if (!input.organisationName) {
    await db.delete(billingDetails).where(eq(billingDetails.applicationId, applicationId));
    return null;
  }
  const values = {
    organisationName: input.organisationName,
    address: input.address.trim(),
    vatNumber: input.vatNumber,
    updatedAt: at,
  };
  await db
    .insert(billingDetails)
    .values({ applicationId, ...values })
    .onConflictDoUpdate({ target: billingDetails.applicationId, set: values });
  return billingDetailsOf(db, applicationId);
}
