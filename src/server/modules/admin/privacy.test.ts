/**
 * API tests of the applicant's data-subject rights (docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs, docs/product/security.md#d3-export-and-erasure; GDPR 15, 17, 20): export of
 * everything held on an applicant (passport included), erasure of the personal data that keeps a
 * pseudonymised financial record, who may do either, and no passport number or date of birth in
 * the server logs or in any URL the app produces.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { todayIso } from "../../../shared/age";
import { buildApp } from "../../app";
import { openDatabase } from "../../db/client";
import {
  applicantNotes,
  applicants,
  applications,
  auditLog,
  codeRedemptions,
  codes,
  emailOutbox,
  payments,
  storedFiles,
} from "../../db/schema";
import { seedDemoCatalogue } from "../../db/seed";
import { envSchema } from "../../env";
import { loginAsAdmin } from "../../testing/accounts";
import {
  apiOf,
  auditEntries,
  expectRouteStatuses,
  latestAuditEntry,
  loginRoles,
  type RoleCookies,
  SAME_ORIGIN,
} from "../../testing/admin";
import {
  createPaidReadyApplication,
  createTestApp,
  fileContentExists,
  PDF_BYTES,
  type TestApp,
} from "../../testing/harness";

const PASSPORT_NUMBER = "PZ9081726";
const dateOfBirth = () => `${new Date().getUTCFullYear() - 24}-07-19`;

/**
 * An applicant made through the wizard API (with a passport), a note, a paid deposit, a code
 * redemption and two e-mails to the applicant (one still queued, one sent).
 */
async function seedApplicant(app: FastifyInstance, ownerCookie: string, email: string) {
  const made = await createPaidReadyApplication(app, {
    email,
    passportNumber: PASSPORT_NUMBER,
    dateOfBirth: dateOfBirth(),
  });
  const db = app.services.sessions.db;
  const api = apiOf(() => app, SAME_ORIGIN);
  const note = await api("POST", `/api/admin/applicants/${made.applicantId}/notes`, ownerCookie, {
    body: "Called about the visa letter.",
  });
  expect(note.statusCode).toBe(201);
  await db
    .update(applications)
    .set({ status: "submitted", paymentStatus: "paid", totalAmountCents: 250000, amountPaidCents: 250000 })
    .where(eq(applications.id, made.applicationId));
  await db.insert(payments).values({
    applicationId: made.applicationId,
    provider: "offline",
    providerSessionId: `cs_${made.applicationId}`,
    providerReference: `pi_${made.applicationId.slice(0, 8)}`,
    amountCents: 250000,
    currency: "EUR",
    paidAt: new Date("2026-03-01T10:00:00Z"),
  });
  const [code] = await db
    .insert(codes)
    .values({
      code: `PRIV${made.applicantId.slice(0, 6).toUpperCase()}`,
      codeType: "discount",
      discountType: "fixed",
      discountValue: 1000,
    })
    .returning();
  await db
    .insert(codeRedemptions)
    .values({ codeId: code!.id, applicationId: made.applicationId, status: "redeemed" });
  await db.insert(emailOutbox).values([
    {
      dedupeKey: `queued:${made.applicantId}`,
      toAddress: email.toUpperCase(),
      subject: "Queued",
      textBody: "queued",
      htmlBody: "<p>queued</p>",
    },
    {
      dedupeKey: `sent:${made.applicantId}`,
      toAddress: email,
      subject: "Sent",
      textBody: "sent",
      htmlBody: "<p>sent</p>",
      status: "sent",
      sentAt: new Date(),
    },
    {
      // About the application, at the student's new address (docs/product/portals.md#who-an-email-is-written-to).
      dedupeKey: `queued-moved:${made.applicantId}`,
      toAddress: `moved-${made.applicantId}@example.com`,
      subject: "Queued",
      textBody: "queued",
      htmlBody: "<p>queued</p>",
      applicationId: made.applicationId,
    },
  ]);
  const [row] = await db.select().from(applicants).where(eq(applicants.id, made.applicantId));
  return { ...made, fileId: row!.passportFileId! };
}

describe("applicant export and erasure", () => {
  let t: TestApp;
  const api = apiOf(() => t.app, SAME_ORIGIN);
  let cookies: RoleCookies;
  let ownerId: string;
  let subject: Awaited<ReturnType<typeof seedApplicant>>;
  const email = "lena.privacy@example.com";
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp();
    const sessions = await loginRoles(t.app);
    cookies = sessions.cookies;
    ownerId = sessions.adminIds.owner;
    subject = await seedApplicant(t.app, cookies.owner, email);
  });
  afterAll(async () => {
    await t?.close();
  });

  it("refuses export and erasure to anonymous visitors (401) and to non-owners (403)", async () => {
    const exportUrl = `/api/admin/applicants/${subject.applicantId}/export`;
    const eraseUrl = `/api/admin/applicants/${subject.applicantId}/erase`;
    const routes = [
      ["GET", exportUrl],
      ["POST", eraseUrl, { confirm: "ERASE" }],
    ] as const;
    await expectRouteStatuses(api, cookies, routes, {
      anonymous: 401,
      student: 401,
      affiliate: 401,
      admissions: 403,
      finance: 403,
    });
    // The applicant's own capability cookie is no admin session either.
    expect((await api("GET", exportUrl, subject.cookie)).statusCode).toBe(401);
    const [row] = await db().select().from(applicants).where(eq(applicants.id, subject.applicantId));
    expect(row!.passportNumber).toBe(PASSPORT_NUMBER);
  });

  it("exports every piece of the applicant's data, the passport included, as a no-store attachment", async () => {
    const res = await api("GET", `/api/admin/applicants/${subject.applicantId}/export`, cookies.owner);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/json/);
    expect(res.headers["content-disposition"]).toBe(
      `attachment; filename="applicant-${subject.applicantId}.json"`,
    );
    expect(res.headers["cache-control"]).toBe("no-store");
    const data = res.json();
    expect(data.applicant).toMatchObject({
      id: subject.applicantId,
      firstName: "Amara",
      lastName: "Okafor",
      email,
      passportNumber: PASSPORT_NUMBER,
      dateOfBirth: dateOfBirth(),
      city: "Lagos",
    });
    expect(data.applicant).not.toHaveProperty("accessTokenHash");
    expect(data.applications).toHaveLength(1);
    expect(data.applications[0]).toMatchObject({
      id: subject.applicationId,
      paymentStatus: "paid",
      payments: [expect.objectContaining({ amount: 250000, currency: "EUR" })],
    });
    expect(data.applications[0]).toHaveProperty("quote");
    expect(data.notes).toEqual([expect.objectContaining({ body: "Called about the visa letter." })]);
    expect(data.codeRedemptions).toEqual([
      expect.objectContaining({ applicationId: subject.applicationId, status: "redeemed" }),
    ]);
    expect(data.files).toEqual([
      expect.objectContaining({
        id: subject.fileId,
        kind: "passport",
        sizeBytes: PDF_BYTES.length,
        current: true,
      }),
    ]);
    expect(data.passport.filename).toBe("passport.pdf");
    expect(Buffer.from(data.passport.contentBase64, "base64").equals(PDF_BYTES)).toBe(true);
    const entry = await latestAuditEntry(db(), { action: "applicant.export", entityId: subject.applicantId });
    expect(entry).toMatchObject({ actorRole: "admin", actorId: ownerId, entityType: "applicant" });
  });

  it("answers 404 for an unknown or malformed id", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "nope"]) {
      expect((await api("GET", `/api/admin/applicants/${id}/export`, cookies.owner)).statusCode).toBe(404);
      expect(
        (
          await api("POST", `/api/admin/applicants/${id}/erase`, cookies.owner, {
            confirm: "ERASE",
          })
        ).statusCode,
      ).toBe(404);
    }
  });

  it("refuses an erasure without the typed confirmation (400), and changes nothing", async () => {
    const url = `/api/admin/applicants/${subject.applicantId}/erase`;
    expect((await api("POST", url, cookies.owner, {})).statusCode).toBe(400);
    expect((await api("POST", url, cookies.owner, { confirm: "erase" })).statusCode).toBe(400);
    const [row] = await db().select().from(applicants).where(eq(applicants.id, subject.applicantId));
    expect(row!.firstName).toBe("Amara");
  });

  it("erases the personal data and files, keeps the financial record, audits without personal data", async () => {
    const before = await api("GET", `/api/applications/${subject.applicationId}`, subject.cookie);
    expect(before.statusCode).toBe(200);
    expect(await fileContentExists(t, subject.fileId)).toBe(true);

    const res = await api("POST", `/api/admin/applicants/${subject.applicantId}/erase`, cookies.owner, {
      confirm: "ERASE",
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ erased: true, id: subject.applicantId });

    const [row] = await db().select().from(applicants).where(eq(applicants.id, subject.applicantId));
    expect(row).toMatchObject({
      firstName: "Erased",
      lastName: "Erased",
      email: `erased-${subject.applicantId}@invalid`,
      phone: "",
      address: "",
      city: "",
      postalCode: "",
      nationality: "",
      dateOfBirth: "1900-01-01",
      passportNumber: "",
      university: "",
      expectations: "",
      passportFileId: null,
    });
    expect(await fileContentExists(t, subject.fileId)).toBe(false);
    expect(
      await db().select().from(storedFiles).where(eq(storedFiles.applicantId, subject.applicantId)),
    ).toEqual([]);
    expect(
      await db().select().from(applicantNotes).where(eq(applicantNotes.applicantId, subject.applicantId)),
    ).toEqual([]);

    // The pseudonymised financial record stays.
    const [application] = await db()
      .select()
      .from(applications)
      .where(eq(applications.id, subject.applicationId));
    expect(application).toMatchObject({
      applicantId: subject.applicantId,
      paymentStatus: "paid",
      totalAmountCents: 250000,
      amountPaidCents: 250000,
    });
    const paid = await db().select().from(payments).where(eq(payments.applicationId, subject.applicationId));
    expect(paid).toEqual([
      expect.objectContaining({
        amountCents: 250000,
        currency: "EUR",
        providerReference: `pi_${subject.applicationId.slice(0, 8)}`,
        paidAt: new Date("2026-03-01T10:00:00Z"),
      }),
    ]);

    // Unsent e-mails to the address are gone; the record of sent ones stays.
    const outbox = await db().select().from(emailOutbox);
    expect(outbox.map((e) => e.dedupeKey)).not.toContain(`queued:${subject.applicantId}`);
    expect(outbox.map((e) => e.dedupeKey)).not.toContain(`queued-moved:${subject.applicantId}`);
    expect(outbox.map((e) => e.dedupeKey)).toContain(`sent:${subject.applicantId}`);

    const entries = await auditEntries(db(), { action: "applicant.erase", entityId: subject.applicantId });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ actorRole: "admin", actorId: ownerId, entityType: "applicant" });
    const recorded = JSON.stringify([entries[0]!.before, entries[0]!.after]);
    for (const personal of [
      PASSPORT_NUMBER,
      dateOfBirth(),
      "Amara",
      "Okafor",
      email,
      "Lagos",
      "12 Marina Road",
    ])
      expect(recorded.toLowerCase()).not.toContain(personal.toLowerCase());
    expect(entries[0]!.after).toMatchObject({
      erased: true,
      fields: expect.arrayContaining(["passportNumber"]),
    });

    // The text of the applicant's notes is redacted from the audit log as well.
    const everything = JSON.stringify(await db().select().from(auditLog));
    expect(everything).not.toContain("Called about the visa letter.");

    // The applicant's browser lost its access.
    const after = await api("GET", `/api/applications/${subject.applicationId}`, subject.cookie);
    expect(after.statusCode).toBe(404);
    expect((await api("GET", `/api/applicants/${subject.applicantId}`, subject.cookie)).statusCode).toBe(404);

    // The admin views show the pseudonymised record.
    const detail = await api("GET", `/api/admin/applications/${subject.applicationId}`, cookies.owner);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().applicant).toMatchObject({
      firstName: "Erased",
      passportNumber: "",
      hasPassport: false,
    });
  });

  it("answers 409 to a second erasure", async () => {
    const res = await api("POST", `/api/admin/applicants/${subject.applicantId}/erase`, cookies.owner, {
      confirm: "ERASE",
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBeTruthy();
    const entries = await auditEntries(db(), { action: "applicant.erase", entityId: subject.applicantId });
    expect(entries).toHaveLength(1);
  });

  it("exports an erased applicant without personal data or passport", async () => {
    const res = await api("GET", `/api/admin/applicants/${subject.applicantId}/export`, cookies.owner);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain(PASSPORT_NUMBER);
    expect(res.body).not.toContain(dateOfBirth());
    expect(res.json()).toMatchObject({ passport: null, files: [], notes: [] });
  });
});

describe("D2: no passport number or date of birth in logs or URLs", () => {
  let app: FastifyInstance;
  const api = apiOf(() => app, SAME_ORIGIN);
  let close: () => Promise<void>;
  const logged: string[] = [];
  const responses: LightMyRequestResponse[] = [];
  const requestedUrls: string[] = [];

  beforeAll(async () => {
    // pino writes to process.stdout when its `write` was replaced: the spy captures every log line.
    vi.spyOn(process.stdout, "write").mockImplementation((chunk: string | Uint8Array) => {
      logged.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    });
    const dataDir = mkdtempSync(path.join(tmpdir(), "hss-privacy-log-"));
    const database = await openDatabase({ dataDir: null });
    await seedDemoCatalogue(database.db, todayIso(new Date()));
    const env = envSchema.parse({
      NODE_ENV: "test",
      DATA_DIR: dataDir,
      APP_ORIGIN: "http://localhost:3000",
      LOG_LEVEL: "trace",
    });
    app = await buildApp({ env, database, distDir: path.join(dataDir, "no-dist") });
    app.addHook("onResponse", async (request) => {
      requestedUrls.push(request.url);
    });
    await app.ready();
    close = async () => {
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    };
  });
  afterAll(async () => {
    await close?.();
    vi.restoreAllMocks();
  });

  it("keeps both out of every log line and URL of the whole flow", async () => {
    const owner = await loginAsAdmin(app, "owner");
    const made = await seedApplicant(app, owner.cookie, "d2.check@example.com");
    const call = async (method: "GET" | "POST", url: string, cookie?: string, payload?: unknown) => {
      const res = await api(method, url, cookie, payload);
      responses.push(res);
      return res;
    };
    // A refused applicant (too young) through the error handler.
    await call("POST", "/api/applicants", undefined, {
      firstName: "Young",
      lastName: "Person",
      email: "young@example.com",
      dateOfBirth: `${new Date().getUTCFullYear() - 10}-07-19`,
      passportNumber: PASSPORT_NUMBER,
    });
    await call("GET", `/api/applications/${made.applicationId}`, made.cookie);
    await call("GET", `/api/applicants/${made.applicantId}`, made.cookie);
    await call("GET", `/api/admin/applications/${made.applicationId}`, owner.cookie);
    await call("GET", `/api/admin/applications?q=Okafor`, owner.cookie);
    await call("GET", `/api/admin/applicants/${made.applicantId}/passport`, owner.cookie);
    const exported = await call("GET", `/api/admin/applicants/${made.applicantId}/export`, owner.cookie);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain(PASSPORT_NUMBER);
    const erased = await call("POST", `/api/admin/applicants/${made.applicantId}/erase`, owner.cookie, {
      confirm: "ERASE",
    });
    expect(erased.statusCode).toBe(200);

    const log = logged.join("");
    // One access line per request (method, URL, status, address, time), written when the response is sent.
    const eraseLines = logged
      .flatMap((chunk) => chunk.split("\n"))
      .filter((line) => line.includes(`/api/admin/applicants/${made.applicantId}/erase`));
    expect(eraseLines).toHaveLength(1);
    expect(JSON.parse(eraseLines[0]!)).toMatchObject({
      msg: "request completed",
      method: "POST",
      url: `/api/admin/applicants/${made.applicantId}/erase`,
      statusCode: 200,
      remoteAddress: expect.any(String),
      responseTime: expect.any(Number),
    });
    const dob = dateOfBirth();
    for (const secret of [PASSPORT_NUMBER, dob, dob.replaceAll("-", "")]) {
      expect(log).not.toContain(secret);
      for (const url of requestedUrls) expect(url).not.toContain(secret);
      // URLs the app hands out: headers (location, content-disposition) and links inside bodies.
      for (const res of responses) {
        expect(JSON.stringify(res.headers)).not.toContain(secret);
        const links = res.body.match(/(?:https?:\/\/|\/api\/|\/admin\/|\/student\/)[^\s"'<>]*/g) ?? [];
        for (const link of links) expect(link).not.toContain(secret);
      }
    }
    expect(requestedUrls.length).toBeGreaterThan(10);
  });
});
