/**
 * Checklist D2 ("no passport number or date of birth in logs or URLs", GDPR 32) and I2 (control
 * characters and injection in every field): the attack found on the applicant form — a NUL byte in
 * any field of `POST /api/applicants` made the database refuse the insert, and the failed
 * statement with every parameter (passport number, date of birth, name, e-mail, address, the
 * capability's hash) went to the server log — swept over every form of the API.
 *
 * The sweep is built from the shared zod schemas: `FORMS` names each route that parses a shared
 * schema, with a valid body (or query) for it; `stringFields` finds the schema's text fields,
 * nested, optional and array ones included, and each field gets, in turn, a NUL byte, another
 * control character, an SQL injection and a script, each carrying a canary. A check reads the
 * route files, so a route that starts parsing a shared schema fails this file until it is in
 * `FORMS`; a field added to a schema is swept without new test code. The log is captured from the
 * app's real logger. Runs on the embedded database, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Language } from "../shared/i18n/languages";
import { type StringField, stringFields } from "../shared/schemas/string-fields";
import type { z } from "../shared/schemas/zod";
import {
  addOnOptions,
  affiliates,
  applicants,
  applications,
  codes,
  housingOptions,
  packages,
  portalEntries,
  students,
  summerSchools,
} from "./db/schema";
import { t as translate } from "./lib/i18n";
import { loginAsAffiliate, loginAsStudent, TEST_PASSWORD } from "./testing/accounts";
import { loginRoles, type Method } from "./testing/admin";
import {
  applicantFixture,
  createPaidReadyApplication,
  createTestApp,
  json,
  type LogCapture,
  logCapture,
  type TestApp,
} from "./testing/harness";

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The shared schema modules, by file name (`applicant`, `codes-admin`…). */
const SCHEMA_MODULES = Object.fromEntries(
  Object.entries(
    import.meta.glob<Record<string, unknown>>(["../shared/schemas/*.ts", "!../shared/schemas/*.test.ts"], {
      eager: true,
    }),
  ).map(([file, exports]) => [path.basename(file, ".ts"), exports]),
);

/** A unique marker: if it is ever logged, something logged what a person typed. */
const CANARY = `cnry${randomUUID().slice(0, 8)}`;

/** An applicant whose every value is searched for in the log. */
const YEAR = new Date().getUTCFullYear() - 24;
const PERSON = {
  firstName: "Zanele",
  lastName: "Quispe-Mamani",
  email: "zanele.quispe-mamani@example.org",
  phone: "+51 984 221 733",
  address: "47 Rue des Tilleuls",
  city: "Arequipa",
  passportNumber: "PQ7X29K41",
  dateOfBirth: `${YEAR}-03-27`,
  university: "Universidad Nacional de San Agustín",
  expectations: "Meet the judges of the International Court of Justice.",
};
const PASSWORD = "d2 correct horse pass phrase";
const LINK_TOKEN = "D2linkTokenD2linkTokenD2linkTokenD2linkTok";

let unique = 0;
const next = () => {
  unique += 1;
  return `${Date.now().toString(36)}${unique}`;
};
const email = () => `d2-${next()}@example.org`;

/** A route that parses a shared schema, and how to send it a valid request. */
interface Form {
  method: Method;
  url: () => string;
  schema: z.ZodType;
  /** Where the schema reads: the JSON body, or the query string (each value a string). */
  in: "body" | "query";
  /** Whose request it is: anyone, the applicant (capability cookie), an owner, the student of a cohort, a new student each time, or an approved affiliate. */
  as: "anonymous" | "applicant" | "owner" | "student" | "newStudent" | "affiliate";
  /**
   * The schema whose text fields are swept, when not `schema` itself: one option of a union
   * (payout details by method), so each field is sent with the body of its own option.
   */
  fields?: z.ZodType;
  /** A valid body or query (fresh each time: unique e-mail addresses, codes, current versions). */
  valid: () => Record<string, unknown> | Promise<Record<string, unknown>>;
}

let t: TestApp;
let log: LogCapture;
let owner = "";
/** An approved affiliate with a referral code (the partner area, payout details). */
let affiliateCookie = "";
/** A verified student with a paid place (the portal's cohort pages) and that application's id. */
let cohortStudent = { cookie: "", applicationId: "" };
/** The applicant of the sweep: its id, its application and capability cookie. */
let mine: { applicantId: string; applicationId: string; cookie: string; schoolId: string };
const ids = {
  school: "",
  package: "",
  housing: "",
  addOn: "",
  note: "",
  code: "",
  portal: "",
  student: "",
  admin: "",
  affiliate: "",
};

const db = () => t.database.db;
async function versionOf(
  table:
    | typeof summerSchools
    | typeof packages
    | typeof housingOptions
    | typeof addOnOptions
    | typeof codes
    | typeof portalEntries
    | typeof students,
  id: string,
): Promise<number> {
  const [row] = await db().select({ version: table.version }).from(table).where(eq(table.id, id));
  return row!.version;
}

const localized = (en: string) => ({ en, zh: `${en}（中文）`, fr: `${en} (fr)` });
const schoolBody = () => ({
  slug: `d2-school-${next()}`,
  name: localized("Winter School"),
  description: localized("Two weeks of negotiation."),
  location: "The Hague, Netherlands",
  startDate: `${YEAR + 26}-01-10`,
  endDate: `${YEAR + 26}-01-23`,
  applicationOpensAt: "",
  applicationDeadline: `${YEAR + 26}-01-01`,
  capacity: 30,
  depositPercent: 30,
});
const packageBody = () => ({
  name: localized("Full programme"),
  description: localized("All courses and visits."),
  includes: [localized("All courses")],
  includedAddOnIds: [],
  urgencyText: localized("Few places"),
  urgencyColor: "red",
  sortOrder: 0,
  priceCents: 250_000,
});
const itemBody = () => ({
  name: localized("Airport pickup"),
  description: localized("From Schiphol."),
  sortOrder: 0,
});
const codeBody = () => ({
  code: `D2${next()}`.slice(0, 32).toUpperCase(),
  codeType: "discount",
  discountType: "percentage",
  discountValue: 10,
  description: "Spring campaign",
});
const portalBody = () => ({
  kind: "announcement",
  summerSchoolId: null,
  title: localized("Welcome"),
  body: localized("Your first day starts at 9:00."),
  url: "https://www.example.org/welcome",
  sortOrder: 0,
  publishedAt: null,
});
const applicantBody = () => applicantFixture(PERSON);

/** Every route that parses a shared schema (the check below keeps this complete). */
const FORMS = (): Form[] => {
  const S = SCHEMA_MODULES as Record<string, Record<string, z.ZodType>>;
  const a = S.applicant!;
  const app = S.application!;
  const acc = S.accounts!;
  const adm = S.admin!;
  const cat = S["catalogue-admin"]!;
  const cod = S["codes-admin"]!;
  const aff = S["affiliates-admin"]!;
  const fin = S.finance!;
  const por = S.portal!;
  const stu = S["students-admin"]!;
  const tr = S.translations!;
  const coh = S.cohort!;
  const doc = S.documents!;
  const pro = S.profile!;
  const ltr = S.letters!;
  const res = S.resume!;
  const body = (
    method: Method,
    url: string | (() => string),
    schema: z.ZodType,
    as: Form["as"],
    valid: Form["valid"],
  ): Form => ({ method, url: typeof url === "string" ? () => url : url, schema, in: "body", as, valid });
  const query = (
    url: string,
    schema: z.ZodType,
    valid: Record<string, string> = {},
    as: Form["as"] = "owner",
  ): Form => ({
    method: "GET",
    url: () => url,
    schema,
    in: "query",
    as,
    valid: () => valid,
  });
  const sp = S["student-payment"]!;
  const ROLES = ["student", "affiliate", "admin"] as const;
  return [
    // The applicant's wizard.
    body("POST", "/api/applicants", a.applicantInputSchema!, "anonymous", applicantBody),
    body(
      "PATCH",
      () => `/api/applicants/${mine.applicantId}`,
      a.applicantInputSchema!,
      "applicant",
      applicantBody,
    ),
    body(
      "PATCH",
      () => `/api/applicants/${mine.applicantId}`,
      a.applicantPatchSchema!,
      "applicant",
      () => ({
        passportUrl: `/api/applicants/${mine.applicantId}/passport`,
      }),
    ),
    body(
      "POST",
      "/api/create-application-from-info",
      app.createApplicationSchema!,
      "applicant",
      async () => ({
        applicantId: mine.applicantId,
        summerSchoolId: ids.school,
        packageId: ids.package,
        housingOptionId: ids.housing,
        selectedAddOns: [ids.addOn],
      }),
    ),
    body("POST", "/api/validate-code", app.validateCodeSchema!, "applicant", () => ({
      code: "NOSUCHCODE",
      applicationId: mine.applicationId,
    })),
    body("POST", "/api/record-code-click", app.recordCodeClickSchema!, "anonymous", () => ({
      code: "NOSUCHCODE",
      sourceUrl: "https://www.example.org/partners",
      utmSource: "newsletter",
      utmCampaign: "spring",
      userAgent: "Mozilla/5.0 (X11; Linux x86_64)",
      hasCookieConsent: true,
    })),
    body("POST", "/api/create-checkout-session", app.createCheckoutSessionSchema!, "applicant", () => ({
      applicationId: mine.applicationId,
      successUrl: "http://localhost:3000/payment-success?session_id={CHECKOUT_SESSION_ID}",
      cancelUrl: "http://localhost:3000/apply",
      termsAccepted: true,
    })),
    body("POST", "/api/process-zero-payment", app.processZeroPaymentSchema!, "applicant", () => ({
      applicationId: mine.applicationId,
      codeId: randomUUID(),
      affiliateId: null,
      discountInfo: { appliedCodeId: randomUUID(), discountAmount: 0, originalAmount: 0 },
      termsAccepted: true,
    })),
    // The student portal.
    query(
      "/api/student/checkout/verify",
      sp.balanceVerifyQuerySchema!,
      { session_id: "cs_unknown" },
      "student",
    ),
    // Accounts of the three roles.
    ...ROLES.flatMap((role) => [
      body("POST", `/api/${role}/login`, acc.loginSchema!, "anonymous", () => ({
        email: email(),
        password: PASSWORD,
      })),
      body("POST", `/api/${role}/password-reset`, acc.passwordResetRequestSchema!, "anonymous", () => ({
        email: email(),
      })),
      body(
        "POST",
        `/api/${role}/password-reset/confirm`,
        acc.passwordResetConfirmSchema!,
        "anonymous",
        () => ({
          token: LINK_TOKEN,
          password: PASSWORD,
        }),
      ),
    ]),
    // Save and resume (docs/product/admissions.md#resume-links, decision 028).
    body("POST", "/api/resume-links", res.resumeLinkRequestSchema!, "anonymous", () => ({ email: email() })),
    body("POST", "/api/resume-links/use", res.resumeLinkUseSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
    })),
    body("POST", "/api/resume-reminders/opt-out", res.reminderOptOutSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
    })),
    ...(["student", "affiliate"] as const).flatMap((role) => [
      body("POST", `/api/${role}/verify-email`, acc.tokenSchema!, "anonymous", () => ({ token: LINK_TOKEN })),
      body("POST", `/api/${role}/resend-verification`, stu.resendVerificationSchema!, "anonymous", () => ({
        email: email(),
      })),
    ]),
    // The student portal.
    body(
      "PUT",
      () => `/api/student/applications/${cohortStudent.applicationId}/billing-details`,
      doc.billingDetailsInputSchema!,
      "student",
      () => ({
        organisationName: "Universidad Nacional de San Agustín",
        address: "Av. Independencia s/n\nArequipa",
        vatNumber: "PE20163646499",
      }),
    ),
    body("POST", "/api/student/register", acc.studentRegistrationSchema!, "anonymous", () => ({
      firstName: PERSON.firstName,
      lastName: PERSON.lastName,
      email: email(),
      password: PASSWORD,
      language: "en",
    })),
    // The waiting list of a full cohort (docs/product/admissions.md#waiting-list).
    body(
      "POST",
      () => `/api/waiting-list/${ids.school}`,
      S["waiting-list"]!.waitingListJoinSchema!,
      "anonymous",
      () => ({ name: "Amara Okafor", email: email(), language: "en", consent: true, website: "" }),
    ),
    body("POST", "/api/waiting-list/leave", S["waiting-list"]!.waitingListTokenSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
    })),
    body(
      "POST",
      "/api/waiting-list/offers/accept",
      S["waiting-list"]!.waitingListTokenSchema!,
      "anonymous",
      () => ({ token: LINK_TOKEN }),
    ),
    body(
      "POST",
      `/api/admin/waiting-list/${randomUUID()}/move`,
      S["waiting-list"]!.waitingListMoveSchema!,
      "owner",
      () => ({ place: 1 }),
    ),
    body("POST", "/api/affiliate/register", acc.affiliateRegistrationSchema!, "anonymous", () => ({
      name: "Campus Ambassadors Lima",
      email: email(),
      password: PASSWORD,
      website: "https://ambassadors.example.org",
      country: "PE",
    })),
    body("POST", "/api/admin/accept-invite", acc.acceptInviteSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
      password: PASSWORD,
      name: PERSON.firstName,
    })),
    // The back office.
    body("POST", "/api/admin/admins", acc.adminInviteSchema!, "owner", () => ({
      email: email(),
      name: PERSON.lastName,
      role: "admissions",
    })),
    body(
      "PATCH",
      () => `/api/admin/admins/${ids.admin}`,
      acc.adminUpdateSchema!,
      "owner",
      () => ({ role: "finance" }),
    ),
    body(
      "PATCH",
      () => `/api/admin/applications/${mine.applicationId}/status`,
      adm.statusChangeSchema!,
      "owner",
      () => ({
        status: "under_review",
        version: 1,
      }),
    ),
    body(
      "POST",
      () => `/api/admin/applicants/${mine.applicantId}/notes`,
      adm.noteBodySchema!,
      "owner",
      () => ({
        body: "Called the applicant.\nSends the letter on Monday.",
      }),
    ),
    body(
      "PATCH",
      () => `/api/admin/notes/${ids.note}`,
      adm.noteBodySchema!,
      "owner",
      () => ({
        body: "Letter received.",
      }),
    ),
    body(
      "POST",
      () => `/api/admin/applications/${mine.applicationId}/refunds`,
      fin.refundRequestSchema!,
      "owner",
      () => ({
        amountCents: 1000,
        reason: "Course cancelled.\nRefund agreed by phone.",
        idempotencyKey: randomUUID(),
      }),
    ),
    body("POST", "/api/admin/summer-schools", cat.summerSchoolInputSchema!, "owner", schoolBody),
    body(
      "PATCH",
      () => `/api/admin/summer-schools/${ids.school}`,
      cat.summerSchoolUpdateSchema!,
      "owner",
      async () => ({
        ...schoolBody(),
        version: await versionOf(summerSchools, ids.school),
      }),
    ),
    body(
      "POST",
      () => `/api/admin/summer-schools/${ids.school}/archive`,
      cat.versionBodySchema!,
      "owner",
      async () => ({
        version: 999,
      }),
    ),
    body(
      "PUT",
      () => `/api/admin/summer-schools/${ids.school}/pricing-rules/early-application`,
      S["pricing-rules"]!.earlyDiscountRuleInputSchema!,
      "owner",
      () => ({ percent: 10, endsOn: "2027-03-15", active: true, version: 999 }),
    ),
    body("POST", "/api/admin/packages", cat.packageCreateSchema!, "owner", () => ({
      ...packageBody(),
      summerSchoolId: ids.school,
    })),
    body(
      "PATCH",
      () => `/api/admin/packages/${ids.package}`,
      cat.packageUpdateSchema!,
      "owner",
      async () => ({
        ...packageBody(),
        version: await versionOf(packages, ids.package),
      }),
    ),
    body("POST", "/api/admin/housing", cat.housingCreateSchema!, "owner", () => ({
      ...itemBody(),
      priceAdjustmentCents: -5000,
      summerSchoolId: ids.school,
    })),
    body(
      "PATCH",
      () => `/api/admin/housing/${ids.housing}`,
      cat.housingUpdateSchema!,
      "owner",
      async () => ({
        ...itemBody(),
        priceAdjustmentCents: 0,
        version: await versionOf(housingOptions, ids.housing),
      }),
    ),
    body("POST", "/api/admin/add-ons", cat.addOnCreateSchema!, "owner", () => ({
      ...itemBody(),
      isRequired: false,
      priceCents: 4500,
      summerSchoolId: ids.school,
    })),
    body(
      "PATCH",
      () => `/api/admin/add-ons/${ids.addOn}`,
      cat.addOnUpdateSchema!,
      "owner",
      async () => ({
        ...itemBody(),
        isRequired: false,
        priceCents: 4500,
        version: await versionOf(addOnOptions, ids.addOn),
      }),
    ),
    body("POST", "/api/admin/codes", cod.codeCreateSchema!, "owner", codeBody),
    body(
      "PUT",
      () => `/api/admin/codes/${ids.code}`,
      cod.codeUpdateSchema!,
      "owner",
      async () => ({
        ...codeBody(),
        version: await versionOf(codes, ids.code),
      }),
    ),
    body(
      "POST",
      () => `/api/admin/codes/${ids.code}/deactivate`,
      cod.versionBodySchema!,
      "owner",
      () => ({
        version: 999,
      }),
    ),
    body(
      "POST",
      () => `/api/admin/affiliates/${ids.affiliate}/approve`,
      aff.affiliateActionSchema!,
      "owner",
      () => ({}),
    ),
    body(
      "POST",
      () => `/api/admin/affiliates/${ids.affiliate}/suspend`,
      aff.affiliateVersionSchema!,
      "owner",
      () => ({
        version: 999,
      }),
    ),
    body(
      "PATCH",
      () => `/api/admin/affiliates/${ids.affiliate}/commission`,
      aff.commissionSchema!,
      "owner",
      () => ({
        commissionPercent: 12,
        version: 999,
      }),
    ),
    body(
      "POST",
      () => `/api/admin/affiliates/${ids.affiliate}/adjustments`,
      aff.adjustmentSchema!,
      "owner",
      () => ({ amountCents: 2500, reason: "Poster printing", version: 999 }),
    ),
    body(
      "POST",
      // An entry that does not exist: the body is parsed (and swept) before the look-up answers 404.
      () => `/api/admin/affiliates/${ids.affiliate}/adjustments/4b0e1c1e-0000-4000-8000-000000000001/reverse`,
      aff.reverseAdjustmentSchema!,
      "owner",
      () => ({ reason: "Saved twice by a double click", version: 999 }),
    ),
    body(
      "POST",
      () => `/api/admin/affiliates/${ids.affiliate}/reject`,
      aff.rejectSchema!,
      "owner",
      () => ({ reason: "The website does not show an education business.", version: 999 }),
    ),
    body("POST", "/api/admin/portal-entries", por.portalEntryInputSchema!, "owner", portalBody),
    body(
      "PATCH",
      () => `/api/admin/portal-entries/${ids.portal}`,
      por.portalEntryUpdateSchema!,
      "owner",
      async () => ({
        version: await versionOf(portalEntries, ids.portal),
        entry: portalBody(),
      }),
    ),
    body("POST", "/api/admin/students", stu.studentCreateSchema!, "owner", () => ({
      email: email(),
      firstName: PERSON.firstName,
      lastName: PERSON.lastName,
      language: "fr",
    })),
    body(
      "PATCH",
      () => `/api/admin/students/${ids.student}`,
      stu.studentUpdateSchema!,
      "owner",
      async () => ({
        firstName: PERSON.firstName,
        lastName: PERSON.lastName,
        version: await versionOf(students, ids.student),
      }),
    ),
    body(
      "POST",
      () => `/api/admin/applications/${mine.applicationId}/completion`,
      ltr.completionChangeSchema!,
      "owner",
      () => ({ completed: true, version: 999 }),
    ),
    body(
      "POST",
      () => `/api/admin/summer-schools/${ids.school}/complete-cohort`,
      ltr.cohortCompletionSchema!,
      "owner",
      () => ({ version: 999 }),
    ),
    body("PUT", "/api/admin/translations", tr.translationUpdateSchema!, "owner", () => ({
      namespace: "home",
      key: "hero.title",
      language: "fr",
      value: "L’école d’été de La Haye",
    })),
    body("DELETE", "/api/admin/translations", tr.translationRevertSchema!, "owner", () => ({
      namespace: "home",
      key: "hero.title",
      language: "fr",
    })),
    // The cohort's pages of the student portal and the programme editor (docs/product/portals.md#cohort-pages).
    body(
      "PUT",
      () => `/api/student/applications/${cohortStudent.applicationId}/emergency-contact`,
      coh.emergencyContactSchema!,
      "student",
      () => ({ name: "Wei Zhang", relationship: "Father", phone: "+86 138 0013 8000" }),
    ),
    {
      method: "GET",
      url: () => "/api/student/cohort-entries",
      schema: coh.cohortEntriesQuerySchema!,
      in: "query",
      as: "student",
      valid: () => ({ kind: "faq" }),
    },
    body(
      "PUT",
      () => `/api/admin/summer-schools/${ids.school}/guide`,
      coh.cohortGuideInputSchema!,
      "owner",
      async () => {
        const res = await t.app.inject({
          url: `/api/admin/summer-schools/${ids.school}/guide`,
          headers: { cookie: owner },
        });
        const texts = localized("Opening session");
        return {
          version: json<{ version: number }>(res).version,
          days: [{ day: 1, title: texts, details: localized("Welcome at 9:00.\nWalking tour.") }],
          whatToBring: localized("Passport\nLaptop"),
          arrivalDate: "",
          arrivalInfo: localized("The welcome desk opens at 10:00."),
          arrivalAddress: "Laan van Meerdervoort 12, 2517 AJ Den Haag",
          housingAddress: "Laan van Meerdervoort 12, 2517 AJ Den Haag",
          airportPickupAddOnId: null,
          insuranceProofRequired: true,
        };
      },
    ),
    // The student's own account (docs/product/portals.md#student-profile).
    body("PATCH", "/api/student/profile", pro.studentProfileUpdateSchema!, "newStudent", () => ({
      firstName: PERSON.firstName,
      lastName: PERSON.lastName,
      language: "fr",
    })),
    body("POST", "/api/student/profile/password", pro.passwordChangeSchema!, "newStudent", () => ({
      currentPassword: TEST_PASSWORD,
      newPassword: PASSWORD,
    })),
    body("POST", "/api/student/profile/email", pro.emailChangeSchema!, "newStudent", () => ({
      newEmail: email(),
      currentPassword: TEST_PASSWORD,
    })),
    body("POST", "/api/student/profile/email/confirm", pro.emailChangeConfirmSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
    })),
    body("POST", "/api/student/profile/erasure", pro.erasureRequestSchema!, "newStudent", () => ({
      message: PERSON.expectations,
    })),
    query("/api/admin/erasure-requests", pro.erasureRequestListQuerySchema!, { status: "all" }),
    // The back office's lists and exports: searches for a person travel in the query string.
    query("/api/admin/applications", adm.applicationListQuerySchema!, { q: PERSON.lastName }),
    query("/api/admin/applications.csv", adm.applicationFiltersSchema!, { q: PERSON.lastName }),
    query("/api/admin/audit", adm.auditListQuerySchema!),
    query("/api/admin/audit.csv", adm.auditFiltersSchema!),
    query("/api/admin/admins", stu.teamListQuerySchema!),
    query("/api/admin/admins.csv", stu.teamFiltersSchema!),
    query("/api/admin/students", stu.studentListQuerySchema!, { q: PERSON.email }),
    query("/api/admin/students.csv", stu.studentFiltersSchema!),
    query("/api/admin/finances/ledger", fin.ledgerQuerySchema!),
    query("/api/admin/finances/ledger.csv", fin.ledgerFiltersSchema!),
    query("/api/admin/finances/summary", fin.financeSummaryQuerySchema!),
    query("/api/admin/finances/summary.csv", fin.financeSummaryQuerySchema!),
    query("/api/admin/translations", tr.translationListQuerySchema!),
    query("/api/admin/translations.csv", tr.translationExportQuerySchema!, { namespace: "home" }),
    query("/api/admin/summer-schools", cat.schoolListQuerySchema!),
    query("/api/admin/summer-schools.csv", cat.schoolFiltersSchema!),
    query("/api/admin/packages", cat.itemListQuerySchema!),
    query("/api/admin/packages.csv", cat.itemFiltersSchema!),
    query("/api/admin/codes", cod.codeListQuerySchema!),
    query("/api/admin/codes.csv", cod.codeFiltersSchema!),
    query("/api/admin/affiliates", aff.affiliateListQuerySchema!),
    query("/api/admin/affiliates.csv", aff.affiliateFiltersSchema!),
    // The partner area and payouts (docs/product/portals.md#partner-area).
    {
      method: "GET",
      url: () => "/api/affiliate/stats",
      schema: S["affiliate-portal"]!.affiliateStatsQuerySchema!,
      in: "query",
      as: "affiliate",
      valid: () => ({ from: "2027-01-01", to: "2027-01-31", campaign: "spring" }),
    },
    {
      method: "GET",
      url: () => "/api/affiliate/qr.svg",
      schema: S["affiliate-portal"]!.qrQuerySchema!,
      in: "query",
      as: "affiliate",
      valid: () => ({ campaign: "lagos_fair" }),
    },
    body(
      "PATCH",
      "/api/affiliate/profile",
      S["affiliate-portal"]!.affiliateProfileUpdateSchema!,
      "affiliate",
      () => ({
        name: "Campus Ambassadors",
        language: "fr",
        website: "https://partner.example.org",
        country: "NG",
      }),
    ),
    ...(
      [
        { method: "sepa", accountHolder: "Ada Obi", iban: "NL91ABNA0417164300", bic: "ABNANL2A" },
        {
          method: "swift",
          accountHolder: "Ada Obi",
          accountNumber: "0123456789",
          swiftCode: "ZEIBNGLA",
          bankName: "Zenith Bank",
          bankAddress: "Plot 84 Ajose Adeogun Street, Lagos",
          country: "NG",
          currency: "NGN",
        },
        { method: "wise", accountHolder: "Ada Obi", email: "ada.obi@example.org" },
        { method: "paypal", email: "ada.obi@example.org" },
      ] as const
    ).map(
      (details, index): Form => ({
        method: "PUT",
        url: () => "/api/affiliate/payout-details",
        schema: S.payouts!.payoutDetailsSchema!,
        fields: (S.payouts!.payoutDetailsSchema as unknown as { options: z.ZodType[] }).options[index],
        in: "body",
        as: "affiliate",
        valid: () => ({ ...details }),
      }),
    ),
    body("POST", "/api/admin/payout-runs", S.payouts!.createPayoutRunSchema!, "owner", () => ({
      idempotencyKey: randomUUID(),
    })),
    body(
      "POST",
      () => `/api/admin/payouts/${randomUUID()}/paid`,
      S.payouts!.markPayoutPaidSchema!,
      "owner",
      () => ({ reference: "HSS-PAYOUT-0001" }),
    ),
    query("/api/admin/portal-entries", por.portalEntryListQuerySchema!),
    query("/api/admin/portal-entries.csv", por.portalEntryFiltersSchema!),
    // The public forms and the inbox (docs/product/portals.md#public-forms).
    body(
      "POST",
      "/api/public/partnership-inquiries",
      S.inquiries!.partnershipInquirySchema!,
      "anonymous",
      () => ({
        university: PERSON.university,
        country: "PE",
        contactPerson: `${PERSON.firstName} ${PERSON.lastName}`,
        position: "Dean",
        email: PERSON.email,
        phone: PERSON.phone,
        interest: "creditTransfer",
        message: PERSON.expectations,
        language: "en",
        website: "",
      }),
    ),
    body("POST", "/api/public/messages", S.inquiries!.contactMessageSchema!, "anonymous", () => ({
      name: PERSON.firstName,
      email: PERSON.email,
      message: PERSON.expectations,
      language: "fr",
      website: "",
    })),
    body("POST", "/api/public/newsletter", S.inquiries!.newsletterSignupSchema!, "anonymous", () => ({
      email: PERSON.email,
      language: "zh",
      website: "",
    })),
    body("POST", "/api/public/newsletter/confirm", S.inquiries!.linkTokenSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
    })),
    body("POST", "/api/public/newsletter/unsubscribe", S.inquiries!.linkTokenSchema!, "anonymous", () => ({
      token: LINK_TOKEN,
    })),
    body(
      "PATCH",
      () => `/api/admin/inbox/inquiries/${randomUUID()}`,
      S.inquiries!.inquiryStatusSchema!,
      "owner",
      () => ({ status: "answered" }),
    ),
    query("/api/admin/inbox/inquiries", S.inquiries!.inquiryListQuerySchema!, { q: PERSON.lastName }),
    query("/api/admin/inbox/inquiries.csv", S.inquiries!.inquiryFiltersSchema!),
    query("/api/admin/inbox/subscribers", S.inquiries!.subscriberListQuerySchema!, { q: PERSON.email }),
    query("/api/admin/inbox/subscribers.csv", S.inquiries!.subscriberFiltersSchema!),
  ];
};

/** Every C0 control character but NUL, tab, line feed and carriage return, and DEL: one per field, in turn. */
const OTHER_CONTROLS = [
  ...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)).filter(
    (c) => !"\0\t\n\r".includes(c),
  ),
  "\u007f",
];
const LANGUAGES: Language[] = ["en", "zh", "fr"];

/** The value at `path` of `data`, as a string ("" when absent or not a string). */
function valueAt(data: unknown, fieldPath: Array<string | number>): string {
  let node = data;
  for (const key of fieldPath) node = (node as Record<string | number, unknown> | null | undefined)?.[key];
  return typeof node === "string" ? node : "";
}

/** A copy of `data` with `value` at `path` (missing objects and arrays created). */
function withValue(data: Record<string, unknown>, fieldPath: Array<string | number>, value: string) {
  const copy = structuredClone(data);
  let node: Record<string | number, unknown> = copy;
  fieldPath.forEach((key, index) => {
    if (index === fieldPath.length - 1) {
      node[key] = value;
      return;
    }
    const child = node[key];
    if (typeof child !== "object" || child === null)
      node[key] = typeof fieldPath[index + 1] === "number" ? [] : {};
    node = node[key] as Record<string | number, unknown>;
  });
  return copy;
}

/** `c` in the middle of the field's valid value, so nothing but the character is wrong. */
const insert = (base: string, c: string) => {
  const text = base === "" ? "ab" : base;
  const middle = Math.ceil(text.length / 2);
  return `${text.slice(0, middle)}${c}${text.slice(middle)}`;
};

let address = 0;
/** A new client address per request: the rate limits count per address. */
const nextAddress = () => {
  address += 1;
  return `10.77.${Math.floor(address / 250) % 250}.${(address % 250) + 1}`;
};

async function send(form: Form, data: Record<string, unknown>, language: Language) {
  const cookie =
    form.as === "owner"
      ? owner
      : form.as === "applicant"
        ? mine.cookie
        : form.as === "student"
          ? cohortStudent.cookie
          : form.as === "newStudent"
            ? // A new student per request: the profile's per-session rate limits do not carry over.
              (await loginAsStudent(t.app)).cookie
            : form.as === "affiliate"
              ? affiliateCookie
              : undefined;
  const headers: Record<string, string> = { "accept-language": language, ...(cookie ? { cookie } : {}) };
  if (form.in === "query") {
    const search = new URLSearchParams(data as Record<string, string>).toString();
    return t.app.inject({
      method: form.method,
      url: `${form.url()}${search ? `?${search}` : ""}`,
      headers,
      remoteAddress: nextAddress(),
    });
  }
  return t.app.inject({
    method: form.method,
    url: form.url(),
    headers,
    payload: data,
    remoteAddress: nextAddress(),
  });
}

/** What a person may be shown: a sentence, not a key, a statement or a stack. */
function plainMessageProblem(res: LightMyRequestResponse): string | null {
  if (/Failed query|insert into|select .* from|\bparams\b|\s+at \S+ \(/i.test(res.body))
    return `leaks: ${res.body}`;
  const message = (res.json() as { message?: unknown }).message;
  if (typeof message !== "string" || message.trim() === "") return `no message: ${res.body}`;
  if (/^(errors|validation)\.[\w.]+$/.test(message)) return `untranslated key ${message}`;
  return null;
}

beforeAll(async () => {
  log = logCapture();
  t = await createTestApp({ logStream: log.stream });
  const sessions = await loginRoles(t.app);
  owner = sessions.cookies.owner;
  ids.admin = sessions.adminIds.admissions;
  mine = await createPaidReadyApplication(t.app, PERSON, { remoteAddress: nextAddress() });
  const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, mine.schoolId));
  ids.school = school!.id;
  ids.package = (await db().select().from(packages).where(eq(packages.summerSchoolId, ids.school)))[0]!.id;
  ids.housing = (
    await db().select().from(housingOptions).where(eq(housingOptions.summerSchoolId, ids.school))
  )[0]!.id;
  ids.addOn = (
    await db().select().from(addOnOptions).where(eq(addOnOptions.summerSchoolId, ids.school))
  )[0]!.id;
  ids.affiliate = (await db().select().from(affiliates))[0]!.id;
  {
    const partner = await loginAsAffiliate(t.app);
    await db()
      .insert(codes)
      .values({
        code: `D2REF${next()}`.slice(0, 32).toUpperCase(),
        codeType: "referral",
        affiliateId: partner.affiliate.id,
      });
    affiliateCookie = partner.cookie;
  }
  {
    // A student of the cohort: a paid application of their own, a verified account.
    const studentEmail = `d2-student-${next()}@example.org`;
    const place = await createPaidReadyApplication(
      t.app,
      { ...PERSON, email: studentEmail },
      { remoteAddress: nextAddress(), schoolId: mine.schoolId },
    );
    await db()
      .update(applications)
      .set({
        status: "submitted",
        paymentStatus: "paid",
        totalAmountCents: 304_500,
        amountPaidCents: 304_500,
      })
      .where(eq(applications.id, place.applicationId));
    const { cookie } = await loginAsStudent(t.app, { email: studentEmail, password: PASSWORD });
    cohortStudent = { cookie, applicationId: place.applicationId };
  }
  const created = async (url: string, payload: Record<string, unknown>) => {
    const res = await t.app.inject({ method: "POST", url, headers: { cookie: owner }, payload });
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return json<{ id: string }>(res).id;
  };
  ids.note = await created(`/api/admin/applicants/${mine.applicantId}/notes`, { body: "First call." });
  ids.code = await created("/api/admin/codes", codeBody());
  ids.portal = await created("/api/admin/portal-entries", portalBody());
  ids.student = await created("/api/admin/students", {
    email: email(),
    firstName: PERSON.firstName,
    lastName: PERSON.lastName,
    language: "en",
  });
}, 120_000);

afterAll(async () => {
  await t?.close();
});

/** Values of people that must never be in the log. */
const personalValues = () => [
  CANARY,
  PERSON.firstName,
  PERSON.lastName,
  PERSON.email,
  PERSON.phone,
  PERSON.address,
  PERSON.passportNumber,
  PERSON.dateOfBirth,
  PERSON.university,
  PERSON.expectations,
  PASSWORD,
  LINK_TOKEN,
  "@example.org",
];

/** What the captured log holds that it must not: personal values, statement parameters, token hashes. */
function logProblems(): string[] {
  const text = log.text();
  return [
    ...personalValues()
      .filter((value) => text.includes(value) || text.includes(JSON.stringify(value).slice(1, -1)))
      .map((value) => `the log contains ${value}`),
    ...(/"params"|\$\d+\b|"detail"/.test(text) ? ["the log contains a statement's parameters"] : []),
    ...(/\b[0-9a-f]{64}\b/.test(text) ? ["the log contains a token hash"] : []),
  ];
}

describe("D2 no personal data in the log: a NUL byte in each field of the anonymous applicant form", () => {
  it("D2 POST /api/applicants with a NUL byte in any field: 400 in the applicant's language on that field, nothing stored, nothing of the applicant logged", async () => {
    const before = (await db().select({ id: applicants.id }).from(applicants)).length;
    const form = FORMS()[0]!;
    const fields = stringFields(form.schema).filter((f) => f.freeText);
    expect(fields.map((f) => f.path.join("."))).toEqual(
      expect.arrayContaining(["firstName", "lastName", "email", "passportNumber", "dateOfBirth", "address"]),
    );
    const problems: string[] = [];
    for (const [index, field] of fields.entries()) {
      const language = LANGUAGES[index % LANGUAGES.length]!;
      const key = field.path.join(".");
      const body = withValue(
        applicantBody(),
        field.path,
        insert(valueAt(applicantBody(), field.path), "\u0000"),
      );
      const res = await send(form, body, language);
      const expected = translate(language, "validation.controlCharacters");
      if (res.statusCode !== 400) problems.push(`${key}: ${res.statusCode} ${res.body}`);
      else if (json(res).message !== expected || json(res).fieldErrors?.[key] !== expected)
        problems.push(`${key} (${language}): ${res.body}`);
    }
    expect(log.text()).toContain('"url":"/api/applicants","statusCode":400');
    expect([...problems, ...logProblems()]).toEqual([]);
    expect((await db().select({ id: applicants.id }).from(applicants)).length).toBe(before);
  }, 120_000);
});

describe("D2 no personal data in the log: every form built from the shared schemas", () => {
  it("D2 FORMS lists every route that parses a shared schema (a new form is swept by adding its route here)", () => {
    const routeFiles = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
        entry.isDirectory()
          ? routeFiles(path.join(dir, entry.name))
          : /\.ts$/.test(entry.name) && !/\.test\.ts$/.test(entry.name)
            ? [path.join(dir, entry.name)]
            : [],
      );
    const swept = new Set(FORMS().map((form) => form.schema));
    const missing: string[] = [];
    for (const file of routeFiles(path.join(HERE, "modules"))) {
      const source = readFileSync(file, "utf8");
      const imported = new Map<string, string>();
      for (const [, names, module] of source.matchAll(
        /import\s*{([^}]*)}\s*from\s*"[./]*shared\/schemas\/([\w-]+)"/g,
      )) {
        for (const name of names!.split(",").map((n) => n.replace(/^\s*type\s+/, "").trim())) {
          if (name) imported.set(name, module!);
        }
      }
      for (const [, name] of source.matchAll(/parseOrThrow\(\s*(\w+)/g)) {
        const module = imported.get(name!);
        if (!module) continue;
        const schema = SCHEMA_MODULES[module]?.[name!];
        if (!swept.has(schema as z.ZodType)) missing.push(`${path.relative(HERE, file)}: ${module}.${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it("D2 a NUL byte, other control characters, SQL and a script in every text field of every form: no 500, control characters refused with a plain 400 in the user's language, nothing of it in the log", async () => {
    const problems: string[] = [];
    let sent = 0;
    let fieldIndex = 0;
    for (const form of FORMS()) {
      const fields: StringField[] = stringFields(form.fields ?? form.schema);
      for (const field of fields) {
        fieldIndex += 1;
        const key = field.path.join(".");
        const label = `${form.method} ${form.url()} ${form.in} ${key}`;
        const language = LANGUAGES[fieldIndex % LANGUAGES.length]!;
        const other = OTHER_CONTROLS[fieldIndex % OTHER_CONTROLS.length]!;
        const attacks: Array<["control" | "injection", string]> = [
          ["control", "\u0000"],
          ["control", other],
          ["injection", `x' OR '1'='1'; --${CANARY}`],
          ["injection", `<script>alert("${CANARY}")</script>`],
        ];
        for (const [kind, attack] of attacks) {
          const valid = await form.valid();
          const value = kind === "control" ? insert(valueAt(valid, field.path), attack) : attack;
          const res = await send(form, withValue(valid, field.path, value), language);
          sent += 1;
          const what = `${label} ${kind} U+${attack.charCodeAt(0).toString(16).padStart(4, "0")}`;
          if (res.statusCode >= 500) {
            problems.push(`${what}: ${res.statusCode} ${res.body}`);
            continue;
          }
          if (kind === "injection") continue;
          if (res.statusCode !== 400) {
            problems.push(`${what}: ${res.statusCode}, expected 400`);
            continue;
          }
          const plain = plainMessageProblem(res);
          if (plain) problems.push(`${what}: ${plain}`);
          const expected = translate(language, "validation.controlCharacters");
          if (field.freeText && json(res).fieldErrors?.[key] !== expected)
            problems.push(`${what} (${language}): ${res.body}`);
        }
      }
    }
    expect([...problems, ...logProblems()]).toEqual([]);
    expect(sent).toBeGreaterThan(400);
  }, 600_000);
});
