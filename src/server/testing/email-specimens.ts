import type { ApplicationDto } from "../../shared/application";
import { formatDate } from "../../shared/dates";
import type { Language } from "../../shared/i18n/languages";
import { computeQuote } from "../../shared/pricing";
import type { SchoolFacts } from "../../shared/site";
import { statusEmail } from "../modules/admin/applications.service";
import { partnerApprovedEmail, partnerRejectedEmail } from "../modules/affiliates-admin/emails";
import { type AccountEmailKind, accountEmail } from "../modules/auth/emails";
import { balanceReminderEmail } from "../modules/balances/reminders";
import { refundEmail } from "../modules/documents/emails";
import {
  inquiryNotificationEmail,
  inquiryReceiptEmail,
  newsletterConfirmEmail,
} from "../modules/inquiries/emails";
import { visaLetterReadyEmail } from "../modules/letters/service";
import type { RenderedEmail } from "../modules/mail/layout";
import {
  balancePaidEmail,
  confirmationEmail,
  withDocumentHead,
  withSchoolFooter,
} from "../modules/mail/templates";
import { renderMailing } from "../modules/mailings/render";
import { payoutDetailsChangedEmail, payoutPaidEmail } from "../modules/payouts/emails";
import { resumeEmail } from "../modules/resume/service";
import {
  waitingListJoinedEmail,
  waitingListLapsedEmail,
  waitingListOfferEmail,
} from "../modules/waiting-list/emails";

/**
 * Every e-mail the school sends, built by its own template from demo facts, in a language: what
 * `npm run emails:preview` writes to a folder and what the rendered-emails test reads (typography
 * and terms of the glossary, valid HTML, links, no ISO dates). A new e-mail template gets a
 * specimen here, or the test that lists the templates fails.
 */

const ORIGIN = "https://summerschool.example";
const SUPPORT = "admissions@summerschool.example";

/** The school as the demo configuration describes it (the footer of every e-mail). */
export const SPECIMEN_SCHOOL: SchoolFacts = {
  legalName: "The Hague Summer School Foundation",
  address: "Lange Voorhout 1, 2514 EA Den Haag, the Netherlands",
  kvkNumber: "12345678",
  vatNumber: "NL123456789B01",
  phone: "+31 70 123 4567",
  emergencyPhone: "+31 6 1234 5678",
};

/** A cohort's name, package, housing and add-ons as the demo catalogue gives them in each language. */
export const NAMES: Record<
  Language,
  { program: string; package: string; housing: string; pickup: string; transport: string; insurance: string }
> = {
  en: {
    program: "International Business Summer School — July 2027",
    package: "Standard",
    housing: "Shared room",
    pickup: "Airport pickup",
    transport: "Public transport card",
    insurance: "Travel and health insurance",
  },
  zh: {
    program: "国际商务暑期学校 — 2027年7月",
    package: "标准套餐",
    housing: "双人间",
    pickup: "机场接机",
    transport: "公共交通卡",
    insurance: "申根旅行医疗保险",
  },
  fr: {
    program: "Université d’été de commerce international — Juillet 2027",
    package: "Standard",
    housing: "Chambre partagée",
    pickup: "Accueil à l’aéroport",
    transport: "Carte de transport public",
    insurance: "Assurance voyage et santé",
  },
};

/** A first name as a student in each language would write it. */
const FIRST: Record<Language, string> = { en: "Amara", zh: "小明", fr: "Aminata" };

/** The demo cohort's first and last day (`yyyy-mm-dd`). */
export const START = "2027-07-05";
export const END = "2027-07-18";

/** An application paid with a 30 % deposit, an early discount, an included and two paid add-ons. */
function application(language: Language, depositPercent: number): ApplicationDto {
  const n = NAMES[language];
  const quote = computeQuote({
    packagePriceCents: 285_000,
    housingAdjustmentCents: 0,
    addOns: [
      { id: "a1", priceCents: 3000, includedInPackage: false },
      { id: "a2", priceCents: 4500, includedInPackage: true },
      { id: "a3", priceCents: 9500, includedInPackage: false },
    ],
    depositPercent,
    automaticDiscount: { ruleId: "r1", kind: "early_application", percent: 10, endsOn: "2027-03-01" },
  });
  return {
    id: "0b5e2c1a-7a0f-4c55-9a53-3c1f1d2e4b6a",
    applicantId: "5d3c1f0e-1f2a-4b3c-8d4e-5f6a7b8c9d0e",
    status: "submitted",
    paymentStatus: depositPercent < 100 ? "deposit_paid" : "paid",
    createdAt: "2027-01-10T09:00:00.000Z",
    submittedAt: "2027-01-10T09:00:00.000Z",
    summerSchool: { id: "s1", name: n.program, startDate: START, endDate: END },
    package: { id: "p1", name: n.package },
    housing: { id: "h1", name: n.housing, priceAdjustment: 0 },
    addOns: [
      { id: "a1", name: n.pickup, price: 3000, included: false },
      { id: "a2", name: n.transport, price: 4500, included: true },
      { id: "a3", name: n.insurance, price: 9500, included: false },
    ],
    applicant: {
      firstName: FIRST[language],
      lastName: "Diallo",
      email: "student@example.com",
      phone: "+221 77 123 45 67",
      nationality: "SN",
      university: "Université Cheikh Anta Diop",
      fieldOfStudy: "Law",
      hasPassport: true,
    },
    quote: { ...quote, lineItems: [], appliedCode: null },
    payment: {
      amount: quote.depositAmount,
      currency: "EUR",
      reference: "pi_3QXample0001",
      paidAt: "2027-01-10T09:05:00.000Z",
    },
    remainingDueDate: "2027-06-07",
  };
}

const ACCOUNT_KINDS: AccountEmailKind[] = [
  "verifyEmail",
  "passwordReset",
  "adminInvite",
  "studentInvite",
  "studentInviteNoPayment",
  "studentAccount",
  "registrationAttempt",
  "emailChange",
  "emailChanged",
  "passwordChanged",
  "affiliatePasswordChanged",
];

const STATUSES = [
  "pendingPayment",
  "submitted",
  "underReview",
  "accepted",
  "rejected",
  "waitlisted",
  "withdrawn",
  "cancelled",
] as const;

/** Each specimen: a name (the template and its case) and the e-mail in a language. */
export interface EmailSpecimen {
  name: string;
  render: (language: Language) => RenderedEmail;
}

/** Every e-mail template, with the cases that change its words. */
export const EMAIL_SPECIMENS: EmailSpecimen[] = [
  {
    name: "confirmation (deposit)",
    render: (l) =>
      confirmationEmail(application(l, 30), l, SUPPORT, ORIGIN, { id: "i1", number: "2027-000123" }),
  },
  {
    name: "confirmation (paid in full)",
    render: (l) => confirmationEmail(application(l, 100), l, SUPPORT, ORIGIN),
  },
  ...(["part", "full"] as const).map((kind) => ({
    name: `balance paid (${kind})`,
    render: (l: Language) =>
      balancePaidEmail(
        {
          firstName: FIRST[l],
          program: NAMES[l].program,
          amount: kind === "part" ? 50_000 : 200_550,
          total: 295_050,
          paid: kind === "part" ? 138_515 : 295_050,
          reference: "pi_3QXample0002",
          paidOn: "2027-05-01",
        },
        l,
        SUPPORT,
        ORIGIN,
        { id: "i2", number: "2027-000456" },
      ),
  })),
  ...STATUSES.flatMap((status) =>
    [true, false].map((named) => ({
      name: `status ${status}${named ? "" : " (no first name)"}`,
      render: (l: Language) =>
        statusEmail({
          language: l,
          firstName: named ? FIRST[l] : "",
          program: NAMES[l].program,
          status,
          applicationId: "0b5e2c1a",
          paid: true,
          supportEmail: SUPPORT,
        }),
    })),
  ),
  ...(["link", "reminder"] as const).map((kind) => ({
    name: `resume ${kind}`,
    render: (l: Language) =>
      resumeEmail({
        kind,
        language: l,
        firstName: FIRST[l],
        link: `${ORIGIN}/${l}/apply/resume/tok123`,
        vars: { program: NAMES[l].program, date: formatDate(START, l), minutes: 30 },
        optOutLink: kind === "reminder" ? `${ORIGIN}/${l}/reminders/stop/tok456` : undefined,
        supportEmail: SUPPORT,
      }),
  })),
  ...ACCOUNT_KINDS.map((kind) => ({
    name: `account ${kind}`,
    render: (l: Language) =>
      accountEmail(kind, l, `${ORIGIN}/${l}/account/verify?token=tok789`, {
        name: FIRST[l],
        role: "admissions",
        email: "new@example.com",
        program: NAMES[l].program,
      }),
  })),
  {
    name: "visa letter ready",
    render: (l) =>
      visaLetterReadyEmail({
        language: l,
        firstName: FIRST[l],
        programme: NAMES[l].program,
        startDate: START,
        link: `${ORIGIN}/${l}/student/documents`,
        supportEmail: SUPPORT,
      }),
  },
  {
    name: "waiting list joined",
    render: (l) =>
      waitingListJoinedEmail({
        language: l,
        name: FIRST[l],
        cohort: { program: NAMES[l].program, startDate: START, endDate: END },
        offerHours: 48,
        leaveUrl: `${ORIGIN}/${l}/waiting-list/leave/tok1`,
        supportEmail: SUPPORT,
      }),
  },
  {
    name: "waiting list offer",
    render: (l) =>
      waitingListOfferEmail({
        language: l,
        name: FIRST[l],
        cohort: { program: NAMES[l].program, startDate: START, endDate: END },
        expiresAt: new Date("2027-05-01T08:00:00Z"),
        offerUrl: `${ORIGIN}/${l}/waiting-list/offer/tok2`,
        leaveUrl: `${ORIGIN}/${l}/waiting-list/leave/tok1`,
        supportEmail: SUPPORT,
      }),
  },
  {
    name: "waiting list lapsed",
    render: (l) =>
      waitingListLapsedEmail({
        language: l,
        name: FIRST[l],
        cohort: { program: NAMES[l].program, startDate: START, endDate: END },
        joinUrl: `${ORIGIN}/${l}/waiting-list`,
        supportEmail: SUPPORT,
      }),
  },
  ...(["due14", "due3", "overdue", "due"] as const).flatMap((kind) =>
    [true, false].map((named) => ({
      name: `balance reminder ${kind}${named ? "" : " (no first name)"}`,
      render: (l: Language) =>
        balanceReminderEmail({
          kind,
          language: l,
          firstName: named ? FIRST[l] : "",
          program: NAMES[l].program,
          balanceDue: 206_535,
          totalAmount: 295_050,
          amountPaid: 88_515,
          dueDate: "2027-06-01",
          origin: ORIGIN,
          supportEmail: SUPPORT,
        }),
    })),
  ),
  ...[true, false].map((withCreditNote) => ({
    name: `refund${withCreditNote ? " (credit note)" : ""}`,
    render: (l: Language) =>
      refundEmail(
        {
          firstName: FIRST[l],
          amountCents: 50_000,
          at: new Date("2027-06-01T10:00:00Z"),
          program: NAMES[l].program,
          creditNote: withCreditNote
            ? ({ id: "c1", number: "2027-C00012" } as Parameters<typeof refundEmail>[0]["creditNote"])
            : null,
        },
        l,
        SUPPORT,
        ORIGIN,
      ),
  })),
  ...(["partnership", "message"] as const).map((kind) => ({
    name: `inquiry receipt ${kind}`,
    render: (l: Language) => inquiryReceiptEmail({ kind, language: l }, SUPPORT),
  })),
  ...(["partnership", "message"] as const).map((kind) => ({
    name: `inquiry notification ${kind} (to the school, always English)`,
    render: (l: Language) =>
      inquiryNotificationEmail(
        {
          kind,
          name: "Fatou Sow",
          email: "fatou@example.com",
          phone: "",
          university: "Université Cheikh Anta Diop",
          countryName: "Senegal",
          position: "International office",
          interest: null,
          message: "We would like to send 12 students.",
          language: l,
        },
        ORIGIN,
      ),
  })),
  {
    name: "newsletter confirmation",
    render: (l) =>
      newsletterConfirmEmail(
        l,
        `${ORIGIN}/${l}/newsletter/confirm/tok3`,
        `${ORIGIN}/${l}/newsletter/leave/tok4`,
        48,
      ),
  },
  ...[true, false].map((withCode) => ({
    name: `partner approved${withCode ? "" : " (no code)"}`,
    render: (l: Language) =>
      partnerApprovedEmail(
        { appOrigin: ORIGIN, supportEmail: SUPPORT },
        "Kwame Mensah",
        withCode ? "KWAME" : null,
        l,
      ),
  })),
  {
    name: "partner rejected",
    render: (l) =>
      partnerRejectedEmail(
        { appOrigin: ORIGIN, supportEmail: SUPPORT },
        "Kwame Mensah",
        "We work with agencies registered in their country.",
        l,
      ),
  },
  {
    name: "message to a cohort",
    render: (l) =>
      renderMailing(
        {
          subject: { en: "Your first day", zh: "第一天的安排", fr: "Votre premier jour" },
          body: {
            en: "Dear students,\n\nThe bus to the Peace Palace leaves on Monday from Den Haag Centraal.\n\n- Bring your passport\n- Wear comfortable shoes\n\nThe [programme of the day](https://summerschool.example/en/program) is online.",
            zh: "各位同学：\n\n周一前往和平宫的巴士从海牙中央车站出发。\n\n- 请带护照\n- 请穿舒适的鞋\n\n[当天的日程](https://summerschool.example/zh/program)已在网上公布。",
            fr: "Bonjour à toutes et à tous,\n\nLe car pour le Palais de la Paix part lundi de la gare centrale de La Haye.\n\n- Apportez votre passeport\n- Portez des chaussures confortables\n\nLe [programme de la journée](https://summerschool.example/fr/program) est en ligne.",
          },
        },
        l,
        {
          audience: { kind: "applicants", cohortId: "00000000-0000-4000-8000-000000000001" },
          cohortName: {
            en: "International Business Summer School — July 2027",
            zh: "国际商务暑期学校 — 2027年7月",
            fr: "Université d’été de commerce international — Juillet 2027",
          },
          origin: ORIGIN,
        },
      ),
  },
  {
    name: "newsletter",
    render: (l) =>
      renderMailing(
        {
          subject: {
            en: "Applications for 2027 are open",
            zh: "",
            fr: "Les candidatures pour 2027 sont ouvertes",
          },
          body: {
            en: "Five sessions in The Hague, from June to October.\n\nApply at https://summerschool.example/en/apply.",
            zh: "",
            fr: "Cinq sessions à La Haye, de juin à octobre.\n\nPostulez sur https://summerschool.example/fr/apply.",
          },
        },
        l,
        { audience: { kind: "newsletter" }, cohortName: null, origin: ORIGIN },
        { unsubscribeToken: "tok5" },
      ),
  },
  {
    name: "payout details changed",
    render: (l) =>
      payoutDetailsChangedEmail({
        language: l,
        appOrigin: ORIGIN,
        name: "Kwame Mensah",
        method: "sepa",
        masked: "NL•• •••• •••• 4300",
      }),
  },
  {
    name: "payout paid",
    render: (l) =>
      payoutPaidEmail({
        language: l,
        appOrigin: ORIGIN,
        name: "Kwame Mensah",
        amountCents: 45_000,
        reference: "THSS-PO-2027-0007",
      }),
  },
];

/** The specimen as the outbox stores it: with the document head and the school's footer. */
export function queuedSpecimen(specimen: EmailSpecimen, language: Language): RenderedEmail {
  return withSchoolFooter(withDocumentHead(specimen.render(language)), SPECIMEN_SCHOOL);
}
