import { formatDate } from "../../shared/dates";
import type { Language } from "../../shared/i18n/languages";
import type { InvoiceLineV1, InvoiceSnapshotV2 } from "../../shared/invoices";
import { formatMoney } from "../../shared/money";
import { computeQuote } from "../../shared/pricing";
import { type Env, loadEnv } from "../env";
import { studentShortName } from "../modules/commissions/ledger";
import { invoiceSettings, withVat } from "../modules/documents/invoices";
import { renderInvoicePdf } from "../modules/documents/pdf";
import { renderCertificate, renderVisaLetter, verificationQrPng } from "../modules/letters/pdf";
import { issuerOf, verificationUrl } from "../modules/letters/service";
import { renderStatementPdf, type StatementEntry } from "../modules/payouts/statement";
import { END, NAMES, START } from "./email-specimens";
import { NAMES_IN_EVERY_SCRIPT } from "./pdf";

/**
 * Every PDF document the school issues, drawn by its own renderer from demo facts, in each language
 * it is issued in: what the rendered-documents test reads back as a reader's viewer does
 * (`pdftotext`, `pdfinfo`) and holds to the glossary's rules (docs/glossary.md). A new PDF renderer
 * gets a specimen here, or the test that lists the renderers fails.
 *
 * Languages (decisions 017, 018, 024): invoices and credit notes are the school's accounting records,
 * in English; the visa invitation letter is written to an embassy and the certificate of completion
 * is a record of study, both in English; the payout statement is in the partner's language.
 *
 * Names are written as applicants write them in the forms: Polish (Łukasz Żółć), Vietnamese
 * (Nguyễn Thị Ánh) and Chinese (小明 王, given name first as the forms compose it), each composed as
 * the services compose it ("first last" on invoices and letters, first name and initial on a
 * statement).
 */

const ORIGIN = "https://summerschool.example";

/** The demo configuration: the school's defaults (legal name, address, numbers, signatory). */
const ENV: Env = loadEnv({ NODE_ENV: "test", APP_ORIGIN: ORIGIN });
/** The same school, VAT-exempt (`INVOICE_VAT=exempt`, with the default exemption statement). */
const EXEMPT_ENV: Env = loadEnv({ NODE_ENV: "test", APP_ORIGIN: ORIGIN, INVOICE_VAT: "exempt" });

const [POLISH, VIETNAMESE, CHINESE] = NAMES_IN_EVERY_SCRIPT;

/** The English catalogue names (documents print them whatever the student's language). */
const EN = NAMES.en;
/** The quote's options as the demo catalogue prices them (cents). */
const PACKAGE = 285_000;
const PICKUP = 3_000;
const TRANSPORT = 4_500;
const INSURANCE = 9_500;
/** The early application discount's last day: the first of a month. */
const EARLY_UNTIL = "2027-03-01";

/** A quote with an early discount, an included and two paid add-ons, at `depositPercent`. */
function quote(depositPercent: number) {
  return computeQuote({
    packagePriceCents: PACKAGE,
    housingAdjustmentCents: 0,
    addOns: [
      { id: "a1", priceCents: PICKUP, includedInPackage: false },
      { id: "a2", priceCents: TRANSPORT, includedInPackage: true },
      { id: "a3", priceCents: INSURANCE, includedInPackage: false },
    ],
    depositPercent,
    automaticDiscount: { ruleId: "r1", kind: "early_application", percent: 10, endsOn: EARLY_UNTIL },
  });
}

/** The quote's lines as `issueInvoiceForPayment` (documents/invoices.ts) writes them. */
function quoteLines(q: ReturnType<typeof quote>): InvoiceLineV1[] {
  return [
    { description: `Package: ${EN.package}`, amount: PACKAGE },
    { description: `Housing: ${EN.housing}`, amount: 0 },
    { description: `Add-on: ${EN.pickup}`, amount: PICKUP },
    { description: `Add-on: ${EN.transport}`, amount: 0, note: "Included in the package" },
    { description: `Add-on: ${EN.insurance}`, amount: INSURANCE },
    {
      description: `Early application discount: ${q.automaticDiscount!.percent}% for applications before ${formatDate(EARLY_UNTIL, "en")}`,
      amount: -q.discountAmount,
    },
  ];
}

/** The invoice of a 30 % deposit, VAT included, billed to the student (Polish name). */
function depositInvoice(): InvoiceSnapshotV2 {
  const q = quote(30);
  const settings = invoiceSettings(ENV);
  return {
    v: 2,
    kind: "invoice",
    number: "2027-000123",
    issuedOn: "2027-01-10",
    issuer: settings.issuer,
    student: { name: POLISH.full, address: ["ul. Piotrkowska 104/12", "90-004 Łódź", "Poland"] },
    organisation: null,
    applicationRef: "0b5e2c1a-7a0f-4c55-9a53-3c1f1d2e4b6a",
    programme: { name: EN.program, startDate: START, endDate: END },
    ...withVat(
      quoteLines(q),
      { label: `Deposit: ${q.depositPercent}% of the total price`, amount: q.depositAmount },
      q.depositAmount,
      settings.vat,
    ),
    quoteTotal: q.totalAmount,
    total: q.depositAmount,
    currency: "EUR",
    payment: { reference: "pi_3QXample0001", paidOn: "2027-01-10" },
    refersTo: null,
  };
}

/** The invoice of the balance, VAT-exempt, paid by the student's university (Vietnamese name). */
function exemptBalanceInvoice(): InvoiceSnapshotV2 {
  const q = quote(30);
  const settings = invoiceSettings(EXEMPT_ENV);
  return {
    v: 2,
    kind: "invoice",
    number: "2027-000456",
    issuedOn: "2027-06-01",
    issuer: settings.issuer,
    student: { name: VIETNAMESE.full, address: ["12 Phố Huế, Hai Bà Trưng", "Hà Nội", "Vietnam"] },
    organisation: {
      name: "Trường Đại học Ngoại thương",
      address: ["91 Chùa Láng, Đống Đa", "Hà Nội", "Vietnam"],
      vatNumber: "0100107028",
    },
    applicationRef: "7c1d9e4f-2b3a-4c5d-8e6f-9a0b1c2d3e4f",
    programme: { name: EN.program, startDate: START, endDate: END },
    ...withVat(
      quoteLines(q),
      { label: "Balance of the total price", amount: q.remainingAmount },
      q.remainingAmount,
      settings.vat,
    ),
    quoteTotal: q.totalAmount,
    total: q.remainingAmount,
    currency: "EUR",
    payment: { reference: "pi_3QXample0002", paidOn: "2027-06-01" },
    refersTo: null,
  };
}

/** The credit note of a partial refund of the deposit invoice, as `issueCreditNoteForRefund` writes it. */
function creditNote(): InvoiceSnapshotV2 {
  const original = depositInvoice();
  const refund = 50_000;
  return {
    ...original,
    kind: "credit_note",
    number: "2027-000789",
    issuedOn: "2027-06-15",
    ...withVat(
      [
        {
          description: `Partial refund of invoice ${original.number}`,
          amount: -refund,
          note: `Invoice ${original.number}: ${original.programme.name}, total ${formatMoney(original.total, "en")}`,
        },
      ],
      null,
      -refund,
      invoiceSettings(ENV).vat,
    ),
    quoteTotal: -refund,
    total: -refund,
    refersTo: { number: original.number, issuedOn: original.issuedOn },
  };
}

const en = (iso: string) => formatDate(iso, "en");

/** The visa invitation letter as `visaLetterPdf` (letters/service.ts) fills it. */
async function visaLetter(
  name: { full: string },
  nationality: string,
  standing: { accepted: boolean; paid: number; balance: { amount: number; dueOn: string } | null },
) {
  const url = verificationUrl(ORIGIN, "specimen-token-0123456789abcdef");
  return renderVisaLetter({
    issuer: issuerOf(ENV),
    issuedOn: en("2027-04-01"),
    reference: "VL-0B5E2C1A",
    fullName: name.full,
    passportNumber: "EK1234567",
    nationality,
    dateOfBirth: en("2004-11-01"),
    programmeName: EN.program,
    startDate: en(START),
    endDate: en(END),
    days: 14,
    location: "The Hague, Netherlands",
    accepted: standing.accepted,
    housing: `${EN.housing}, arranged by the school for the dates of the programme`,
    stayAddress: ENV.PROGRAMME_ADDRESS,
    included: [
      "Tuition, workshops and the pitch session",
      "Shared room (2 people) for 13 nights",
      "Breakfast and lunch every day",
      `Housing: ${EN.housing}`,
      EN.pickup,
      EN.transport,
      EN.insurance,
    ],
    totalFee: formatMoney(quote(30).totalAmount, "en"),
    paid: formatMoney(standing.paid, "en"),
    balance: standing.balance
      ? { amount: formatMoney(standing.balance.amount, "en"), dueOn: en(standing.balance.dueOn) }
      : null,
    verificationUrl: url,
    qrPng: await verificationQrPng(url),
  });
}

/** A payout's entries: a commission per student, a clawback and an adjustment with its reason. */
function statementEntries(language: Language): StatementEntry[] {
  const cohort = NAMES[language].program;
  const students = [POLISH, VIETNAMESE, CHINESE];
  return [
    ...students.map((s, i) => ({
      createdAt: new Date(`2027-05-0${i + 1}T10:00:00Z`),
      kind: "payment" as const,
      studentName: studentShortName(s.firstName, s.lastName),
      cohortName: cohort,
      reason: "",
      amount: 26_775,
    })),
    {
      createdAt: new Date("2027-05-20T10:00:00Z"),
      kind: "refund",
      studentName: studentShortName(POLISH.firstName, POLISH.lastName),
      cohortName: cohort,
      reason: "",
      amount: -5_000,
    },
    {
      createdAt: new Date("2027-05-28T10:00:00Z"),
      kind: "adjustment",
      studentName: null,
      cohortName: null,
      reason: "Welcome event",
      amount: 10_000,
    },
  ];
}

/** Each specimen: a name (the document and its case), its languages and the PDF in one of them. */
export interface DocumentSpecimen {
  name: string;
  /** The languages the document is issued in (one, for a document issued in English only). */
  languages: readonly Language[];
  /** Names of people and organisations in the facts, as written: each prints exactly so. */
  names: (language: Language) => string[];
  render: (language: Language) => Promise<Buffer>;
}

/** Every PDF document, with the cases that change its words. */
export const DOCUMENT_SPECIMENS: DocumentSpecimen[] = [
  {
    name: "invoice (deposit, VAT included, early discount, add-ons)",
    languages: ["en"],
    names: () => [POLISH.full],
    render: async () => (await renderInvoicePdf(depositInvoice())).pdf,
  },
  {
    name: "invoice (balance, VAT exempt, billed to an organisation)",
    languages: ["en"],
    names: () => [VIETNAMESE.full, "Trường Đại học Ngoại thương"],
    render: async () => (await renderInvoicePdf(exemptBalanceInvoice())).pdf,
  },
  {
    name: "credit note (partial refund)",
    languages: ["en"],
    names: () => [POLISH.full],
    render: async () => (await renderInvoicePdf(creditNote())).pdf,
  },
  {
    name: "visa invitation letter (deposit paid, balance due)",
    languages: ["en"],
    names: () => [CHINESE.full],
    render: () =>
      visaLetter(CHINESE, "China", {
        accepted: false,
        paid: quote(30).depositAmount,
        balance: { amount: quote(30).remainingAmount, dueOn: "2027-06-07" },
      }),
  },
  {
    name: "visa invitation letter (accepted, paid in full)",
    languages: ["en"],
    names: () => [POLISH.full],
    render: () =>
      visaLetter(POLISH, "Poland", { accepted: true, paid: quote(30).totalAmount, balance: null }),
  },
  {
    name: "certificate of completion",
    languages: ["en"],
    names: () => [VIETNAMESE.full],
    render: () =>
      renderCertificate({
        issuer: issuerOf(ENV),
        fullName: VIETNAMESE.full,
        programmeName: EN.program,
        location: "The Hague, Netherlands",
        startDate: en(START),
        endDate: en(END),
        ects: 6,
        completedOn: en(END),
        reference: "CC-7C1D9E4F",
      }),
  },
  {
    name: "payout statement",
    languages: ["en", "zh", "fr"],
    names: () => [
      "Agencja Edukacyjna Łódź",
      ...[POLISH, VIETNAMESE, CHINESE].map((s) => studentShortName(s.firstName, s.lastName)),
    ],
    render: (language) =>
      renderStatementPdf({
        language,
        school: { name: ENV.SCHOOL_LEGAL_NAME, address: ENV.SCHOOL_ADDRESS },
        affiliateName: "Agencja Edukacyjna Łódź",
        payout: {
          id: "0f0e0d0c-0000-4000-8000-000000000001",
          amountCents: 85_325,
          createdAt: new Date("2027-05-31T10:00:00Z"),
          // Paid on the first of a month: «1er juin 2027» in French.
          paidAt: new Date("2027-06-01T10:00:00Z"),
          reference: "THSS-PO-2027-0007",
          masked: "PL•• •••• •••• •••• •••• •••• 1234",
        },
        entries: statementEntries(language),
      }),
  },
];
