/**
 * API tests of the letters module (docs/product/admissions.md#documents-and-letters: the visa invitation letter with its QR
 * verification, the visa window, the "visa letter ready" e-mail and the certificate of
 * completion; decision 018). PDFs are read back as a reader would: their text with pdftotext, the
 * QR code image taken out of the PDF with pdfimages and decoded with jsQR.
 */
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { and, eq, like } from "drizzle-orm";
import jsQR from "jsqr";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addDays } from "../../../shared/dates";
import { formatDateFor, visaWindow } from "../../../shared/letters";
import type { ApplicationDocuments, VisaLetterVerification } from "../../../shared/schemas/letters";
import { schoolDate } from "../../../shared/time";
import {
  applicants,
  applications,
  auditLog,
  emailOutbox,
  students,
  summerSchools,
  visaLetters,
} from "../../db/schema";
import { loginAsStudent } from "../../testing/accounts";
import { adminRoles, apiOf, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import { paymentFlow } from "../../testing/checkout";
import { createTestApp, type TestApp } from "../../testing/harness";
import { NAMES_IN_EVERY_SCRIPT, pdfTitleOf } from "../../testing/pdf";
import { renderCertificate, verificationQrPng } from "./pdf";

const OFFLINE_SECRET = "whsec_offline_letters_tests";
/** Where the students stay (a setting: housing options carry no address), unlike the school's office. */
const PROGRAMME_ADDRESS = "Stadhouderslaan 10, 2517 HV Den Haag, the Netherlands";

/** The text of a PDF, as a reader's copy and paste would give it. */
function textOf(pdf: Buffer): string {
  return execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString("utf8");
}

/** Decodes a PNG's QR code; null when none is found. */
function decodeQr(png: Buffer): string | null {
  const image = PNG.sync.read(png);
  return jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data ?? null;
}

/** The images embedded in a PDF, as PNG files (pdfimages). */
function imagesOf(pdf: Buffer): Buffer[] {
  const dir = mkdtempSync(path.join(tmpdir(), "letters-"));
  try {
    writeFileSync(path.join(dir, "in.pdf"), pdf);
    execFileSync("pdfimages", ["-png", path.join(dir, "in.pdf"), path.join(dir, "img")]);
    return readdirSync(dir)
      .filter((f) => f.startsWith("img"))
      .sort()
      .map((f) => readFileSync(path.join(dir, f)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("visa invitation letters and certificates of completion", () => {
  let t: TestApp;
  let roles: RoleCookies;
  const api = apiOf(() => t.app, SAME_ORIGIN);
  const flow = paymentFlow(() => t, { addressPrefix: "10.118", webhookSecret: OFFLINE_SECRET });
  const db = () => t.database.db;
  let schools: Array<{ id: string; status: string }>;

  /**
   * An application of `schoolId` (default: the first open school) by a new applicant whose e-mail
   * has a verified student account, paid through the offline checkout unless `pay` is false.
   */
  async function studentApplication(
    options: { pay?: boolean; schoolId?: string; applicant?: Record<string, unknown> } = {},
  ) {
    const email = `visa-${randomUUID().slice(0, 8)}@example.com`;
    const a = await flow.newApplication(options.schoolId, { email, ...options.applicant });
    if (options.pay !== false) await flow.payOnTestPage(await flow.sessionOf(a));
    const student = await loginAsStudent(t.app, { email });
    return { ...a, email, student: student.cookie };
  }

  const letterUrl = (id: string) => `/api/student/applications/${id}/visa-letter.pdf`;
  const documentsUrl = (id: string) => `/api/student/applications/${id}/documents`;

  async function versionOf(id: string): Promise<number> {
    const [row] = await db()
      .select({ version: applications.version })
      .from(applications)
      .where(eq(applications.id, id));
    return row!.version;
  }

  /** Walks the application through the admin workflow (`PATCH …/status`), asserting each step. */
  async function moveTo(id: string, ...statuses: string[]) {
    for (const status of statuses) {
      const res = await api("PATCH", `/api/admin/applications/${id}/status`, roles.owner, {
        status,
        version: await versionOf(id),
      });
      expect(res.statusCode, res.body).toBe(200);
    }
  }

  /** Downloads the student's letter (asserting a no-store PDF) and returns its bytes. */
  async function downloadLetter(id: string, cookie: string): Promise<Buffer> {
    const res = await api("GET", letterUrl(id), cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["cache-control"]).toBe("no-store");
    return res.rawPayload;
  }

  /** The verification token of the application's letter (the one in its QR code). */
  async function tokenOf(id: string): Promise<string> {
    const rows = await db().select().from(visaLetters).where(eq(visaLetters.applicationId, id));
    expect(rows.length).toBe(1);
    return rows[0]!.token;
  }

  const verify = async (token: string) => {
    const res = await api("GET", `/api/visa-letters/${token}`, undefined);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    return res.json() as VisaLetterVerification;
  };

  beforeAll(async () => {
    t = await createTestApp({ offlineWebhookSecret: OFFLINE_SECRET, env: { PROGRAMME_ADDRESS } });
    roles = await adminRoles(t.app);
    schools = (await t.app.inject({ url: "/api/summer-schools" })).json();
  });
  afterAll(async () => {
    await t?.close();
  });

  describe("the visa window (docs/product/admissions.md#visa-deadline: 6-8 weeks before the start)", () => {
    it("opens 8 weeks and closes 6 weeks before the first day, and says where today falls", () => {
      expect(visaWindow("2027-07-18", "2027-05-01")).toEqual({
        opens: "2027-05-23",
        closes: "2027-06-06",
        phase: "before",
      });
      expect(visaWindow("2027-07-18", "2027-05-23").phase).toBe("open");
      expect(visaWindow("2027-07-18", "2027-06-06").phase).toBe("open");
      expect(visaWindow("2027-07-18", "2027-06-07").phase).toBe("late");
      expect(formatDateFor("2027-05-23", "fr")).toBe("23 mai 2027");
      expect(formatDateFor("2027-05-23", "zh")).toBe("2027年5月23日");
    });
  });

  describe("GET /api/student/applications/:id/visa-letter.pdf", () => {
    it("is refused (409, with the reason) before the deposit is paid, and the documents say why", async () => {
      const a = await studentApplication({ pay: false });
      const res = await api("GET", letterUrl(a.applicationId), a.student);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        reason: "depositDue",
        message: "The visa invitation letter is available once the deposit is paid.",
      });
      const docs = await api("GET", documentsUrl(a.applicationId), a.student);
      expect(docs.statusCode, docs.body).toBe(200);
      expect((docs.json() as ApplicationDocuments).visaLetter).toMatchObject({
        available: false,
        blockedBy: "depositDue",
      });
      expect(
        await db().select().from(visaLetters).where(eq(visaLetters.applicationId, a.applicationId)),
      ).toEqual([]);
    });

    it("states every required fact, and its QR code opens the letter's verification page", async () => {
      const a = await studentApplication({ applicant: { firstName: "Amara", lastName: "Okafor" } });
      const pdf = await downloadLetter(a.applicationId, a.student);
      expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
      const text = textOf(pdf).replace(/\s+/g, " ");
      const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, a.schoolId));
      const en = (iso: string) => formatDateFor(iso, "en");
      const token = await tokenOf(a.applicationId);
      const url = `http://localhost:3000/verify/visa-letter/${token}`;
      const year = new Date().getUTCFullYear() - 25;
      for (const fact of [
        "Visa invitation letter",
        "Amara Okafor",
        "A12345678",
        "Nigeria",
        en(`${year}-05-14`),
        school!.name.en,
        `${en(school!.startDate)} to ${en(school!.endDate)} (14 days)`,
        "The Hague, Netherlands",
        "Shared room",
        "€3,045.00",
        "tuition and housing",
        "paid in full",
        "Stichting The Hague Summer School",
        "Lange Voorhout 1, 2514 EA Den Haag, the Netherlands",
        "Dr. Marieke de Vries",
        "Director of Admissions",
        "admissions@hague-summer-school.example",
        url,
      ]) {
        expect(text, fact).toContain(fact);
      }
      const qr = imagesOf(pdf).map(decodeQr).filter(Boolean);
      expect(qr).toEqual([url]);
      // Downloaded again: the same letter, the same code.
      await downloadLetter(a.applicationId, a.student);
      expect(await tokenOf(a.applicationId)).toBe(token);
    });

    it("prints a Polish, Vietnamese, Chinese or Cyrillic name as written, in its text and its Title, with the address of stay", async () => {
      for (const name of NAMES_IN_EVERY_SCRIPT) {
        const a = await studentApplication({
          applicant: { firstName: name.firstName, lastName: name.lastName },
        });
        const pdf = await downloadLetter(a.applicationId, a.student);
        const text = textOf(pdf);
        expect(text, name.full).toContain(name.full);
        expect(text).not.toContain("?");
        expect(pdfTitleOf(pdf)).toBe(`Visa invitation letter - ${name.full}`);
        // See docs/product/admissions.md#documents-and-letters: a Schengen application asks where the applicant stays.
        expect(text.replace(/\s+/g, " ")).toContain(`Address of stay ${PROGRAMME_ADDRESS}`);
      }
    });

    it("says what is still owed and by when for a deposit below 100 %", async () => {
      const school = schools.filter((s) => s.status === "open").at(-1)!;
      await db().update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, school.id));
      t.app.services.catalogue.invalidate();
      try {
        const a = await studentApplication({ schoolId: school.id });
        const [row] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
        expect(row!.amountPaidCents).toBeLessThan(row!.totalAmountCents!);
        const text = textOf(await downloadLetter(a.applicationId, a.student)).replace(/\s+/g, " ");
        expect(text).toContain("€3,045.00");
        expect(text).toContain("The balance of €2,131.50 is due by");
      } finally {
        await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, school.id));
        t.app.services.catalogue.invalidate();
      }
    });

    it("belongs to its student only: another student 404, an affiliate and an anonymous caller 401, unverified 403", async () => {
      const a = await studentApplication();
      const other = await loginAsStudent(t.app);
      for (const url of [letterUrl(a.applicationId), documentsUrl(a.applicationId)]) {
        expect((await api("GET", url, other.cookie)).statusCode, url).toBe(404);
        expect((await api("GET", url, roles.affiliate)).statusCode, url).toBe(401);
        expect((await api("GET", url, undefined)).statusCode, url).toBe(401);
        expect((await api("GET", url, a.cookie)).statusCode, `${url} applicant capability`).toBe(401);
      }
      const unverified = await studentApplication({ pay: true });
      await db().update(students).set({ emailVerifiedAt: null }).where(eq(students.email, unverified.email));
      expect((await api("GET", letterUrl(unverified.applicationId), unverified.student)).statusCode).toBe(
        403,
      );
      expect(
        await db().select().from(visaLetters).where(eq(visaLetters.applicationId, a.applicationId)),
      ).toEqual([]);
    });

    it("is downloadable by admins (read permission, audited) and by no one else on the admin route", async () => {
      const a = await studentApplication();
      const url = `/api/admin/applications/${a.applicationId}/visa-letter.pdf`;
      for (const cookie of [roles.owner, roles.admissions, roles.finance]) {
        const res = await api("GET", url, cookie);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.headers["cache-control"]).toBe("no-store");
      }
      expect((await api("GET", url, a.student)).statusCode).toBe(401);
      expect((await api("GET", url, roles.affiliate)).statusCode).toBe(401);
      expect((await api("GET", url, undefined)).statusCode).toBe(401);
      const audit = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "visaLetter.download"), eq(auditLog.entityId, a.applicationId)));
      expect(audit.length).toBe(3);
      const unpaid = await studentApplication({ pay: false });
      const refused = await api(
        "GET",
        `/api/admin/applications/${unpaid.applicationId}/visa-letter.pdf`,
        roles.owner,
      );
      expect(refused.statusCode).toBe(409);
    });
  });

  describe("the public verification", () => {
    it("says genuine with initials and dates only, then revoked once the application is withdrawn", async () => {
      const a = await studentApplication({ applicant: { firstName: "Amara", lastName: "Okafor" } });
      await downloadLetter(a.applicationId, a.student);
      const token = await tokenOf(a.applicationId);
      const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, a.schoolId));
      const genuine = await verify(token);
      expect(genuine).toEqual({
        state: "genuine",
        initials: "A. O.",
        startDate: school!.startDate,
        endDate: school!.endDate,
        issuedOn: schoolDate(new Date()),
        revokedOn: null,
      });
      const raw = JSON.stringify(genuine);
      for (const secret of ["Amara", "Okafor", "A12345678", a.email, a.applicationId])
        expect(raw).not.toContain(secret);

      await moveTo(a.applicationId, "withdrawn");
      expect(await verify(token)).toMatchObject({
        state: "revoked",
        initials: "A. O.",
        revokedOn: schoolDate(new Date()),
      });
      const refused = await api("GET", letterUrl(a.applicationId), a.student);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ reason: "closed" });
    });

    it("is revoked after a cancellation", async () => {
      const a = await studentApplication();
      await downloadLetter(a.applicationId, a.student);
      const token = await tokenOf(a.applicationId);
      await moveTo(a.applicationId, "under_review", "accepted", "cancelled");
      expect((await verify(token)).state).toBe("revoked");
    });

    it("is revoked after a full refund (from the application's live state), and stays revoked", async () => {
      const a = await studentApplication();
      await downloadLetter(a.applicationId, a.student);
      const token = await tokenOf(a.applicationId);
      expect((await verify(token)).state).toBe("genuine");
      const res = await api("POST", `/api/admin/applications/${a.applicationId}/refunds`, roles.finance, {
        amountCents: 304_500,
        reason: "Visa refused",
        idempotencyKey: randomUUID(),
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      const [row] = await db().select().from(applications).where(eq(applications.id, a.applicationId));
      expect(row!.paymentStatus).toBe("refunded");
      expect((await verify(token)).state).toBe("revoked");
      const [letter] = await db().select().from(visaLetters).where(eq(visaLetters.token, token));
      expect(letter).toMatchObject({ revokedReason: "refunded", revokedAt: expect.any(Date) });
    });

    it("is revoked after the applicant's erasure, and then shows no initials", async () => {
      const a = await studentApplication();
      await downloadLetter(a.applicationId, a.student);
      const token = await tokenOf(a.applicationId);
      const erase = await api("POST", `/api/admin/applicants/${a.applicantId}/erase`, roles.owner, {
        confirm: "ERASE",
      });
      expect(erase.statusCode, erase.body).toBe(200);
      const [letter] = await db().select().from(visaLetters).where(eq(visaLetters.token, token));
      expect(letter).toMatchObject({ revokedReason: "erased" });
      expect(await verify(token)).toMatchObject({ state: "revoked", initials: "" });
    });

    it("says unknown for a token no letter has, or a malformed one", async () => {
      expect(await verify("A".repeat(43))).toEqual({ state: "unknown" });
      expect(await verify("not-a-token")).toEqual({ state: "unknown" });
    });

    it("makes a QR code that decodes back to the verification address", async () => {
      const url = "http://localhost:3000/verify/visa-letter/abcDEF123_-abcDEF123_-abcDEF123_-abcDEF1234";
      expect(decodeQr(await verificationQrPng(url))).toBe(url);
    });
  });

  describe("the school's setting: the letter waits for acceptance", () => {
    it("refuses a paid, not yet accepted application, then gives the letter (and the e-mail) once accepted", async () => {
      const school = schools.filter((s) => s.status === "open")[0]!;
      await db()
        .update(summerSchools)
        .set({ visaLetterRequiresAcceptance: true })
        .where(eq(summerSchools.id, school.id));
      try {
        const a = await studentApplication({ schoolId: school.id });
        const res = await api("GET", letterUrl(a.applicationId), a.student);
        expect(res.statusCode).toBe(409);
        expect(res.json()).toMatchObject({ reason: "awaitingAcceptance" });
        const mails = () =>
          db()
            .select()
            .from(emailOutbox)
            .where(eq(emailOutbox.dedupeKey, `visa-letter-ready:${a.applicationId}`));
        expect(await mails()).toEqual([]);
        await moveTo(a.applicationId, "under_review", "accepted");
        await downloadLetter(a.applicationId, a.student);
        expect((await mails()).length).toBe(1);
      } finally {
        await db()
          .update(summerSchools)
          .set({ visaLetterRequiresAcceptance: false })
          .where(eq(summerSchools.id, school.id));
      }
    });

    it("is a field of the admin's school form (PATCH /api/admin/summer-schools/:id)", async () => {
      const school = schools[0]!;
      const detail = (await api("GET", `/api/admin/summer-schools/${school.id}`, roles.owner)).json();
      expect(detail.school.visaLetterRequiresAcceptance).toBe(false);
      const { id, paidPlaces, fillRate, status, archivedAt, createdAt, updatedAt, ...fields } = detail.school;
      void [id, paidPlaces, fillRate, status, archivedAt, createdAt, updatedAt];
      const res = await api("PATCH", `/api/admin/summer-schools/${school.id}`, roles.owner, {
        ...fields,
        description: {
          en: fields.description.en,
          zh: fields.description.zh ?? "",
          fr: fields.description.fr ?? "",
        },
        name: { en: fields.name.en, zh: fields.name.zh ?? "", fr: fields.name.fr ?? "" },
        applicationOpensAt: fields.applicationOpensAt ?? "",
        applicationDeadline: fields.applicationDeadline ?? "",
        visaLetterRequiresAcceptance: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().visaLetterRequiresAcceptance).toBe(true);
      await db()
        .update(summerSchools)
        .set({ visaLetterRequiresAcceptance: false })
        .where(eq(summerSchools.id, school.id));
    });
  });

  describe("the “visa letter ready” e-mail", () => {
    it("is queued once when the deposit is paid, in the student's e-mail language, linking to the portal without the letter", async () => {
      const a = await studentApplication({ applicant: { firstName: "Awa" }, pay: false });
      await db().update(applicants).set({ language: "zh" }).where(eq(applicants.id, a.applicantId));
      // The e-mail language of the student's profile decides (docs/product/portals.md#who-an-email-is-written-to).
      await db().update(students).set({ language: "zh" }).where(eq(students.email, a.email));
      const sessionId = await flow.sessionOf(a);
      await flow.payOnTestPage(sessionId);
      const [school] = await db().select().from(summerSchools).where(eq(summerSchools.id, a.schoolId));
      const rows = await db()
        .select()
        .from(emailOutbox)
        .where(like(emailOutbox.dedupeKey, `visa-letter-ready:${a.applicationId}`));
      expect(rows.length).toBe(1);
      const mail = rows[0]!;
      expect(mail.toAddress).toBe(a.email);
      expect(mail.subject).toContain("签证邀请函");
      expect(mail.textBody).toContain("Awa同学，您好：");
      expect(mail.textBody).toContain("http://localhost:3000/zh/student/trip");
      const window = visaWindow(school!.startDate, school!.startDate);
      expect(mail.textBody).toContain(formatDateFor(window.opens, "zh"));
      expect(mail.textBody).toContain(formatDateFor(window.closes, "zh"));
      expect(mail.textBody).not.toMatch(/\d{4}-\d{2}-\d{2}/);
      expect(mail.htmlBody).not.toContain("A12345678");
      // Another delivery of the same payment (the provider's webhook) does not queue it again.
      expect((await flow.deliverSessionEvent("checkout.session.completed", sessionId)).statusCode).toBe(200);
      expect(
        (
          await db()
            .select()
            .from(emailOutbox)
            .where(eq(emailOutbox.dedupeKey, `visa-letter-ready:${a.applicationId}`))
        ).length,
      ).toBe(1);
    });

    it("is not queued for an unpaid application", async () => {
      const a = await studentApplication({ pay: false });
      expect(
        await db()
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.dedupeKey, `visa-letter-ready:${a.applicationId}`)),
      ).toEqual([]);
    });
  });

  describe("the certificate of completion", () => {
    const certUrl = (id: string) => `/api/student/applications/${id}/certificate.pdf`;
    const completion = (id: string, body: Record<string, unknown>, cookie = roles.admissions) =>
      api("POST", `/api/admin/applications/${id}/completion`, cookie, body);

    /** Moves the cohort's two weeks into the past (ended yesterday in The Hague), as if time had passed. */
    async function endCohort(schoolId: string) {
      const today = schoolDate(new Date());
      await db()
        .update(summerSchools)
        .set({ startDate: addDays(today, -14), endDate: addDays(today, -1) })
        .where(eq(summerSchools.id, schoolId));
      t.app.services.catalogue.invalidate();
    }

    it("prints a Polish, Vietnamese, Chinese or Cyrillic name as written, in its text and its Title", async () => {
      for (const name of [...NAMES_IN_EVERY_SCRIPT.map((n) => n.full), "王小明"]) {
        const pdf = await renderCertificate({
          issuer: {
            legalName: "Stichting The Hague Summer School",
            address: "Lange Voorhout 1, 2514 EA Den Haag, the Netherlands",
            email: "admissions@hague-summer-school.example",
            website: "hague-summer-school.example",
            signatoryName: "Dr. Marieke de Vries",
            signatoryTitle: "Director of Admissions",
          },
          fullName: name,
          programmeName: "Leadership and Innovation Summer School",
          location: "The Hague, Netherlands",
          startDate: "5 July 2027",
          endDate: "18 July 2027",
          ects: 6,
          completedOn: "18 July 2027",
          reference: "CC-1234ABCD",
        });
        const text = textOf(pdf);
        expect(text, name).toContain(name);
        expect(text).not.toContain("?");
        expect(pdfTitleOf(pdf)).toBe(`Certificate of completion - ${name}`);
      }
    });

    it("is refused until an admin marks the programme completed, then names the student and 6 ECTS", async () => {
      const a = await studentApplication({ applicant: { firstName: "Chen", lastName: "Wei" } });
      expect((await api("GET", certUrl(a.applicationId), a.student)).statusCode).toBe(409);
      // Not accepted yet: refused.
      const early = await completion(a.applicationId, {
        completed: true,
        version: await versionOf(a.applicationId),
      });
      expect(early.statusCode).toBe(422);
      await moveTo(a.applicationId, "under_review", "accepted");
      // See docs/product/admissions.md#certificate: not before the programme's last day, in the admin's language.
      const beforeEnd = await completion(a.applicationId, {
        completed: true,
        version: await versionOf(a.applicationId),
      });
      expect(beforeEnd.statusCode).toBe(422);
      expect(beforeEnd.json().message).toBe(
        "The programme has not ended yet: a certificate of completion can be issued from its last day.",
      );
      expect((await api("GET", certUrl(a.applicationId), a.student)).statusCode).toBe(409);
      await endCohort(a.schoolId);
      // A stale version: refused, nothing changes.
      const stale = await completion(a.applicationId, { completed: true, version: 1 });
      expect(stale.statusCode).toBe(409);
      const marked = await completion(a.applicationId, {
        completed: true,
        version: await versionOf(a.applicationId),
      });
      expect(marked.statusCode, marked.body).toBe(200);
      expect((marked.json() as ApplicationDocuments).certificate).toMatchObject({ available: true, ects: 6 });
      const res = await api("GET", certUrl(a.applicationId), a.student);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers["cache-control"]).toBe("no-store");
      const text = textOf(res.rawPayload).replace(/\s+/g, " ");
      for (const fact of ["Certificate of completion", "Chen Wei", "6 ECTS", "Dr. Marieke de Vries"]) {
        expect(text, fact).toContain(fact);
      }
      const audit = await db()
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "application.completion"), eq(auditLog.entityId, a.applicationId)));
      expect(audit.length).toBe(1);
      // Others: another student 404, an affiliate and an anonymous caller 401; admins may download.
      expect(
        (await api("GET", certUrl(a.applicationId), (await loginAsStudent(t.app)).cookie)).statusCode,
      ).toBe(404);
      expect((await api("GET", certUrl(a.applicationId), roles.affiliate)).statusCode).toBe(401);
      expect((await api("GET", certUrl(a.applicationId), undefined)).statusCode).toBe(401);
      expect(
        (await api("GET", `/api/admin/applications/${a.applicationId}/certificate.pdf`, roles.finance))
          .statusCode,
      ).toBe(200);
      // Finance may not mark; unmarking takes the certificate away again.
      expect(
        (
          await completion(
            a.applicationId,
            { completed: false, version: await versionOf(a.applicationId) },
            roles.finance,
          )
        ).statusCode,
      ).toBe(403);
      const unmarked = await completion(a.applicationId, {
        completed: false,
        version: await versionOf(a.applicationId),
      });
      expect(unmarked.statusCode).toBe(200);
      expect((await api("GET", certUrl(a.applicationId), a.student)).statusCode).toBe(409);
    });

    it("marks a whole cohort at once: exactly its accepted, paid-in-full applications", async () => {
      const school = schools.filter((s) => s.status === "open")[1]!;
      const accepted = await studentApplication({ schoolId: school.id });
      await moveTo(accepted.applicationId, "under_review", "accepted");
      const submitted = await studentApplication({ schoolId: school.id });
      // Accepted, but only the 30 % deposit paid: the balance is still owed.
      await db().update(summerSchools).set({ depositPercent: 30 }).where(eq(summerSchools.id, school.id));
      t.app.services.catalogue.invalidate();
      const depositOnly = await studentApplication({ schoolId: school.id });
      await db().update(summerSchools).set({ depositPercent: 100 }).where(eq(summerSchools.id, school.id));
      t.app.services.catalogue.invalidate();
      await moveTo(depositOnly.applicationId, "under_review", "accepted");
      const unpaid = await studentApplication({ schoolId: school.id, pay: false });
      const rejected = await studentApplication({ schoolId: school.id });
      await moveTo(rejected.applicationId, "under_review", "rejected");
      const [row] = await db()
        .select({ version: summerSchools.version })
        .from(summerSchools)
        .where(eq(summerSchools.id, school.id));
      const url = `/api/admin/summer-schools/${school.id}/complete-cohort`;
      // See docs/product/admissions.md#certificate: a cohort still to come (or under way) cannot be marked completed.
      const early = await api("POST", url, roles.owner, { version: row!.version });
      expect(early.statusCode).toBe(422);
      expect(early.json().message).toContain("has not ended yet");
      await endCohort(school.id);
      expect(
        (
          await db()
            .select({ completedAt: applications.completedAt })
            .from(applications)
            .where(eq(applications.summerSchoolId, school.id))
        ).every((r) => r.completedAt === null),
      ).toBe(true);
      expect((await api("POST", url, roles.finance, { version: row!.version })).statusCode).toBe(403);
      expect((await api("POST", url, roles.owner, { version: row!.version + 1 })).statusCode).toBe(409);
      const res = await api("POST", url, roles.owner, { version: row!.version });
      expect(res.statusCode, res.body).toBe(200);
      const cohort = await db()
        .select({ id: applications.id, completedAt: applications.completedAt })
        .from(applications)
        .where(eq(applications.summerSchoolId, school.id));
      const completed = cohort.filter((c) => c.completedAt).map((c) => c.id);
      expect(completed).toEqual([accepted.applicationId]);
      expect(res.json()).toMatchObject({ marked: 1, alreadyCompleted: 0 });
      for (const other of [submitted, depositOnly, unpaid, rejected])
        expect((await api("GET", certUrl(other.applicationId), other.student)).statusCode).toBe(409);
      expect((await api("GET", certUrl(accepted.applicationId), accepted.student)).statusCode).toBe(200);
      // Again: nothing new to mark.
      const again = await api("POST", url, roles.owner, { version: row!.version });
      expect(again.json()).toMatchObject({ marked: 0, alreadyCompleted: 1 });
    });
  });
});
