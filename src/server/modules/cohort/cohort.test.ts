/**
 * API tests of the cohort's pages of the student portal (docs/product/portals.md#cohort-pages: /student/program, /student/trip,
 * /student/faq, /student/partners) and of the programme editor of /admin/summer-schools/{id}:
 * what a student of a cohort reads, in their language; that nobody else reads it (another student,
 * a student of another cohort, an unpaid or withdrawn application, an unverified account, an
 * affiliate, an admin's session, an anonymous caller: docs/product/security.md#s6-nobody-reads-what-is-not-theirs); the emergency contact; the
 * proof of insurance (type by content, size, encrypted at rest: docs/product/security.md#i1-uploads, docs/product/security.md#d2-passports-encrypted-personal-data-out-of-logs, decision 012);
 * and the editor (owners only, three languages, version conflicts, audit).
 */
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type AdminCohortGuide,
  adminApplicationTripSchema,
  type CohortEntries,
  type StudentProgram,
  type StudentTrip,
} from "../../../shared/schemas/cohort";
import {
  addOnOptions,
  applications,
  applicationTrips,
  auditLog,
  cohortGuides,
  packages,
  storedFiles,
} from "../../db/schema";
import { loginAsAffiliate, loginAsStudent } from "../../testing/accounts";
import { adminRoles, apiOf, latestAuditEntry, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import {
  createPaidReadyApplication,
  createTestApp,
  fileContentExists,
  PDF_BYTES,
  storedContent,
  type TestApp,
} from "../../testing/harness";

let t: TestApp;
let roles: RoleCookies;
const api = apiOf(() => t.app, SAME_ORIGIN);
let schools: Array<{ id: string; status: string; startDate: string }>;

let counter = 0;
const nextAddress = () => {
  counter += 1;
  return `10.91.${Math.floor(counter / 250)}.${(counter % 250) + 1}`;
};

/**
 * A verified student with an application in `schoolId` whose payment stands as `payment` says:
 * paid in full, deposit paid (30 %), or unpaid. Returns the student's cookie and the ids.
 */
async function studentWith(
  schoolId: string,
  payment: "paid" | "deposit" | "unpaid" = "paid",
  options: { language?: "en" | "zh" | "fr"; premium?: boolean; emailVerified?: boolean } = {},
) {
  counter += 1;
  const email = `cohort-${counter}-${Date.now().toString(36)}@example.com`;
  const created = await createPaidReadyApplication(
    t.app,
    { email },
    { schoolId, remoteAddress: nextAddress() },
  );
  const total = 304_500;
  const paid = payment === "paid" ? total : payment === "deposit" ? 91_350 : 0;
  const [premium] = options.premium
    ? await t.database.db
        .select()
        .from(packages)
        .where(eq(packages.summerSchoolId, schoolId))
        .limit(2)
        .offset(1)
    : [];
  await t.database.db
    .update(applications)
    .set({
      status: payment === "unpaid" ? "pending_payment" : "submitted",
      paymentStatus: payment === "paid" ? "paid" : payment === "deposit" ? "deposit_paid" : "unpaid",
      totalAmountCents: payment === "unpaid" ? null : total,
      amountPaidCents: paid,
      ...(premium ? { packageId: premium.id } : {}),
    })
    .where(eq(applications.id, created.applicationId));
  const { cookie, student } = await loginAsStudent(t.app, {
    email,
    language: options.language,
    emailVerified: options.emailVerified,
  });
  return { ...created, cookie, student };
}

/** A multipart body with one file field `document`. */
function documentUpload(content: Buffer, filename = "insurance.pdf", type = "application/pdf") {
  const boundary = `----hss${Math.random().toString(16).slice(2)}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { "content-type": `multipart/form-data; boundary=${boundary}`, origin: "http://localhost:3000" },
  };
}

async function upload(applicationId: string, cookie: string | undefined, content: Buffer, name?: string) {
  const body = documentUpload(content, name);
  return t.app.inject({
    method: "POST",
    url: `/api/student/applications/${applicationId}/insurance`,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
    payload: body.payload,
    remoteAddress: nextAddress(),
  });
}

const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from("IHDR insurance certificate scan"),
]);
/** A PDF whose text is searched for in the storage: it must never be there in clear. */
const MARKER = "POLICY-NUMBER-NL-77812-CLEARTEXT";
const INSURANCE_PDF = Buffer.concat([PDF_BYTES, Buffer.from(`% ${MARKER}\n`.repeat(50))]);

let paidA: Awaited<ReturnType<typeof studentWith>>;
let paidB: Awaited<ReturnType<typeof studentWith>>;
let affiliate: string;

beforeAll(async () => {
  t = await createTestApp();
  roles = await adminRoles(t.app);
  schools = (await t.app.inject({ url: "/api/summer-schools" })).json();
  const open = schools.filter((s) => s.status === "open");
  paidA = await studentWith(open[0]!.id, "paid");
  paidB = await studentWith(open[1]!.id, "paid");
  affiliate = (await loginAsAffiliate(t.app)).cookie;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe("who may read a cohort's pages", () => {
  const reads = ["/api/student/program", "/api/student/trip", "/api/student/cohort-entries?kind=faq"];

  it("answers 401 to an anonymous caller, an affiliate and an admin, and 403 to an unverified student", async () => {
    const unverified = await studentWith(paidA.schoolId, "paid", { emailVerified: false });
    for (const url of reads) {
      expect((await api("GET", url)).statusCode, url).toBe(401);
      expect((await api("GET", url, affiliate)).statusCode, url).toBe(401);
      expect((await api("GET", url, roles.owner)).statusCode, url).toBe(401);
      const res = await api("GET", url, unverified.cookie);
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toMatch(/confirm your e-mail/);
    }
    // Their own paid application stays closed too until the address is confirmed.
    const mine = `/api/student/applications/${unverified.applicationId}`;
    const contact = { name: "Wei Zhang", relationship: "Father", phone: "+86 138 0013 8000" };
    expect((await api("PUT", `${mine}/emergency-contact`, unverified.cookie, contact)).statusCode).toBe(403);
    expect((await api("GET", `${mine}/insurance`, unverified.cookie)).statusCode).toBe(403);
    expect((await upload(unverified.applicationId, unverified.cookie, INSURANCE_PDF)).statusCode).toBe(403);
    expect((await api("PUT", `${mine}/emergency-contact`, roles.owner, contact)).statusCode).toBe(401);
  });

  it("shows nothing of any cohort to a student whose application is unpaid, withdrawn or fully refunded", async () => {
    const unpaid = await studentWith(paidA.schoolId, "unpaid");
    const withdrawn = await studentWith(paidA.schoolId, "paid");
    await t.database.db
      .update(applications)
      .set({ status: "withdrawn" })
      .where(eq(applications.id, withdrawn.applicationId));
    const refunded = await studentWith(paidA.schoolId, "paid");
    await t.database.db
      .update(applications)
      .set({ paymentStatus: "refunded", amountPaidCents: 0 })
      .where(eq(applications.id, refunded.applicationId));
    for (const who of [unpaid, withdrawn, refunded]) {
      expect((await api("GET", "/api/student/program", who.cookie)).json()).toEqual({ cohorts: [] });
      expect((await api("GET", "/api/student/trip", who.cookie)).json()).toEqual({ trips: [] });
      expect((await api("GET", "/api/student/cohort-entries?kind=faq", who.cookie)).json()).toEqual({
        cohorts: 0,
        entries: [],
      });
      const contact = await api(
        "PUT",
        `/api/student/applications/${who.applicationId}/emergency-contact`,
        who.cookie,
        {
          name: "Wei Zhang",
          relationship: "Father",
          phone: "+86 138 0013 8000",
        },
      );
      expect(contact.statusCode).toBe(404);
    }
  });

  it("counts a deposit-paid place: the visa and the trip are prepared before the balance is due", async () => {
    const deposit = await studentWith(paidA.schoolId, "deposit");
    const program = (await api("GET", "/api/student/program", deposit.cookie)).json() as StudentProgram;
    expect(program.cohorts.map((c) => c.summerSchoolId)).toEqual([paidA.schoolId]);
  });

  it("shows each student only their own cohort, and answers 404 for another student's application", async () => {
    const a = (await api("GET", "/api/student/trip", paidA.cookie)).json() as StudentTrip;
    const b = (await api("GET", "/api/student/trip", paidB.cookie)).json() as StudentTrip;
    expect(a.trips.map((x) => x.applicationId)).toEqual([paidA.applicationId]);
    expect(b.trips.map((x) => x.applicationId)).toEqual([paidB.applicationId]);
    const contact = { name: "Wei Zhang", relationship: "Father", phone: "+86 138 0013 8000" };
    const url = `/api/student/applications/${paidA.applicationId}`;
    expect((await api("PUT", `${url}/emergency-contact`, paidB.cookie, contact)).statusCode).toBe(404);
    expect((await api("PUT", `${url}/emergency-contact`, undefined, contact)).statusCode).toBe(401);
    expect((await api("PUT", `${url}/emergency-contact`, affiliate, contact)).statusCode).toBe(401);
    expect((await api("GET", `${url}/insurance`, paidB.cookie)).statusCode).toBe(404);
    expect((await upload(paidA.applicationId, paidB.cookie, INSURANCE_PDF)).statusCode).toBe(404);
    expect((await upload(paidA.applicationId, undefined, INSURANCE_PDF)).statusCode).toBe(401);
    expect((await upload(paidA.applicationId, affiliate, INSURANCE_PDF)).statusCode).toBe(401);
    expect(
      (await api("PUT", "/api/student/applications/not-a-uuid/emergency-contact", paidA.cookie, contact))
        .statusCode,
    ).toBe(404);
    expect(await t.database.db.select().from(applicationTrips)).toEqual([]);
  });
});

describe("GET /api/student/program", () => {
  it("gives the cohort's fourteen days with their dates, 6 ECTS and what to bring", async () => {
    const res = await api("GET", "/api/student/program", paidA.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers["cache-control"]).toBe("no-store");
    const [cohort] = (res.json() as StudentProgram).cohorts;
    expect(cohort).toMatchObject({
      applicationId: paidA.applicationId,
      ects: 6,
      location: "The Hague, Netherlands",
    });
    expect(cohort!.days).toHaveLength(14);
    expect(cohort!.days[0]).toMatchObject({
      day: 1,
      date: cohort!.startDate,
      title: "Arrival and welcome evening",
    });
    expect(cohort!.days[13]).toMatchObject({ day: 14, date: cohort!.endDate, title: "Departure" });
    expect(cohort!.days.map((d) => d.title)).toContain("Pitch to the jury and certificate ceremony");
    expect(cohort!.whatToBring).toContain("Proof of your travel and health insurance");
  });

  it("answers in the student's language: Chinese and French", async () => {
    const zh = (
      await api("GET", "/api/student/program", paidA.cookie, undefined, {
        headers: { "accept-language": "zh-CN" },
      })
    ).json() as StudentProgram;
    expect(zh.cohorts[0]!.days[0]!.title).toBe("抵达与欢迎晚会");
    expect(zh.cohorts[0]!.name).toMatch(/国际商务暑期学校/);
    const fr = (
      await api("GET", "/api/student/program", paidA.cookie, undefined, {
        headers: { "accept-language": "fr" },
      })
    ).json() as StudentProgram;
    expect(fr.cohorts[0]!.days[6]!.title).toBe("Journée libre");
  });
});

describe("GET /api/student/trip and the emergency contact", () => {
  it("gives arrival, housing, insurance, and the airport pickup as not booked on the Standard package", async () => {
    const [trip] = ((await api("GET", "/api/student/trip", paidA.cookie)).json() as StudentTrip).trips;
    expect(trip).toMatchObject({
      arrival: { date: trip!.startDate, address: "Laan van Meerdervoort 12, 2517 AJ Den Haag" },
      housing: { name: "Shared room (2 people)", address: "Laan van Meerdervoort 12, 2517 AJ Den Haag" },
      airportPickup: { offered: true, booked: false, name: "Airport pickup" },
      // The demo cohort sells its insurance as a required add-on, which the application bought.
      insurance: { proofRequired: false, coveredBySchool: true, proof: null },
      emergencyContact: null,
    });
    expect(trip!.arrival.info).toMatch(/welcome desk/);
  });

  it("asks proof of insurance of a student who did not buy the school's insurance (docs/product/admissions.md#next-steps)", async () => {
    await t.database.db
      .update(cohortGuides)
      .set({ insuranceAddOnId: null })
      .where(eq(cohortGuides.summerSchoolId, paidA.schoolId));
    try {
      const [trip] = ((await api("GET", "/api/student/trip", paidA.cookie)).json() as StudentTrip).trips;
      expect(trip!.insurance).toEqual({ proofRequired: true, coveredBySchool: false, proof: null });
    } finally {
      const [insurance] = await t.database.db
        .select({ id: addOnOptions.id })
        .from(addOnOptions)
        .where(and(eq(addOnOptions.summerSchoolId, paidA.schoolId), eq(addOnOptions.isRequired, true)));
      await t.database.db
        .update(cohortGuides)
        .set({ insuranceAddOnId: insurance!.id })
        .where(eq(cohortGuides.summerSchoolId, paidA.schoolId));
    }
  });

  it("shows the airport pickup as booked when the package includes it", async () => {
    const premium = await studentWith(paidA.schoolId, "paid", { premium: true });
    const [trip] = ((await api("GET", "/api/student/trip", premium.cookie)).json() as StudentTrip).trips;
    expect(trip!.airportPickup).toEqual({ offered: true, booked: true, name: "Airport pickup" });
  });

  it("refuses a contact without a name or with a phone that is not a number, in the student's language", async () => {
    const url = `/api/student/applications/${paidA.applicationId}/emergency-contact`;
    const empty = await api("PUT", url, paidA.cookie, {
      name: " ",
      relationship: "Mother",
      phone: "+86 10 1234 5678",
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().fieldErrors).toEqual({ name: "This field is required." });
    const phone = await api(
      "PUT",
      url,
      paidA.cookie,
      { name: "Li Na", relationship: "Mother", phone: "call me" },
      { headers: { "accept-language": "zh" } },
    );
    expect(phone.statusCode).toBe(400);
    expect(phone.json().fieldErrors.phone).toMatch(/国家区号/);
    const control = await api("PUT", url, paidA.cookie, {
      name: "Li\u0000Na",
      relationship: "Mother",
      phone: "+86 10 1234 5678",
    });
    expect(control.statusCode).toBe(400);
  });

  it("saves the contact, shows it on the trip page and lets the student change it", async () => {
    const url = `/api/student/applications/${paidA.applicationId}/emergency-contact`;
    const saved = await api("PUT", url, paidA.cookie, {
      name: "Li Na",
      relationship: "Mother",
      phone: "+86 10 1234 5678",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const changed = await api("PUT", url, paidA.cookie, {
      name: "Li Na",
      relationship: "Mother",
      phone: "+86 139 1111 2222",
    });
    expect(changed.json()).toEqual({ name: "Li Na", relationship: "Mother", phone: "+86 139 1111 2222" });
    const [trip] = ((await api("GET", "/api/student/trip", paidA.cookie)).json() as StudentTrip).trips;
    expect(trip!.emergencyContact).toEqual({
      name: "Li Na",
      relationship: "Mother",
      phone: "+86 139 1111 2222",
    });
  });
});

describe("POST /api/student/applications/:id/insurance", () => {
  it("stores a PDF encrypted at rest, serves it back to its owner only, and shows it on the trip page", async () => {
    const res = await upload(paidA.applicationId, paidA.cookie, INSURANCE_PDF);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ type: "pdf", sizeBytes: INSURANCE_PDF.length });
    const [trip] = await t.database.db
      .select()
      .from(applicationTrips)
      .where(eq(applicationTrips.applicationId, paidA.applicationId));
    const fileId = trip!.insuranceFileId!;
    const [row] = await t.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
    expect(row).toMatchObject({
      kind: "insurance",
      applicantId: paidA.applicantId,
      sizeBytes: INSURANCE_PDF.length,
    });
    // D2: what lies in the storage is not the document.
    const raw = await storedContent(t, fileId);
    expect(raw.length).toBeGreaterThan(INSURANCE_PDF.length);
    expect(raw.includes(Buffer.from(MARKER))).toBe(false);
    expect(raw.includes(Buffer.from("%PDF-"))).toBe(false);

    const download = await api(
      "GET",
      `/api/student/applications/${paidA.applicationId}/insurance`,
      paidA.cookie,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers).toMatchObject({
      "content-type": "application/pdf",
      "x-content-type-options": "nosniff",
      "cache-control": "no-store",
    });
    expect(download.headers["content-disposition"]).toMatch(/^attachment/);
    expect(download.rawPayload.equals(INSURANCE_PDF)).toBe(true);
    const [shown] = ((await api("GET", "/api/student/trip", paidA.cookie)).json() as StudentTrip).trips;
    expect(shown!.insurance.proof).toMatchObject({ type: "pdf", sizeBytes: INSURANCE_PDF.length });
  });

  it("shows admins the emergency contact and the proof on file; the download is audited; students and unknown ids get nothing", async () => {
    const trip = await api("GET", `/api/admin/applications/${paidA.applicationId}/trip`, roles.admissions);
    expect(trip.statusCode, trip.body).toBe(200);
    expect(adminApplicationTripSchema.parse(trip.json())).toEqual({
      emergencyContact: { name: "Li Na", relationship: "Mother", phone: "+86 139 1111 2222" },
      insurance: {
        proofRequired: true,
        proof: expect.objectContaining({
          type: "pdf",
          sizeBytes: INSURANCE_PDF.length,
          url: `/api/admin/applications/${paidA.applicationId}/insurance`,
        }),
      },
    });
    const download = await api(
      "GET",
      `/api/admin/applications/${paidA.applicationId}/insurance`,
      roles.finance,
    );
    expect(download.statusCode).toBe(200);
    expect(download.headers).toMatchObject({
      "content-type": "application/pdf",
      "cache-control": "no-store",
    });
    expect(download.rawPayload.equals(INSURANCE_PDF)).toBe(true);
    await latestAuditEntry(t.database.db, { action: "insurance.download", entityId: paidA.applicationId });

    expect(
      (await api("GET", `/api/admin/applications/${paidA.applicationId}/trip`, paidA.cookie)).statusCode,
    ).toBe(401);
    expect(
      (await api("GET", `/api/admin/applications/${paidA.applicationId}/insurance`, paidA.cookie)).statusCode,
    ).toBe(401);
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await api("GET", `/api/admin/applications/${unknown}/trip`, roles.owner)).statusCode).toBe(404);
    expect((await api("GET", `/api/admin/applications/${unknown}/insurance`, roles.owner)).statusCode).toBe(
      404,
    );
  });

  it("accepts a PNG by its content and removes the replaced proof's content", async () => {
    const [before] = await t.database.db
      .select()
      .from(applicationTrips)
      .where(eq(applicationTrips.applicationId, paidA.applicationId));
    const res = await upload(paidA.applicationId, paidA.cookie, PNG_BYTES, "scan.pdf");
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().type).toBe("png");
    expect(await fileContentExists(t, before!.insuranceFileId!)).toBe(false);
    const download = await api(
      "GET",
      `/api/student/applications/${paidA.applicationId}/insurance`,
      paidA.cookie,
    );
    expect(download.headers["content-type"]).toBe("image/png");
    expect(download.rawPayload.equals(PNG_BYTES)).toBe(true);
  });

  it("refuses HTML named .pdf (415), a file over 5 MB (413) and an empty request (400), keeping the current proof", async () => {
    const [before] = await t.database.db
      .select()
      .from(applicationTrips)
      .where(eq(applicationTrips.applicationId, paidA.applicationId));
    const html = await upload(
      paidA.applicationId,
      paidA.cookie,
      Buffer.from("<html><script>alert(1)</script></html>"),
    );
    expect(html.statusCode).toBe(415);
    expect(html.json().message).toBe("Please upload a PDF, JPG or PNG file.");
    const big = await upload(
      paidA.applicationId,
      paidA.cookie,
      Buffer.concat([PDF_BYTES, Buffer.alloc(5 * 1024 * 1024)]),
    );
    expect(big.statusCode).toBe(413);
    const empty = await upload(paidA.applicationId, paidA.cookie, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    const [after] = await t.database.db
      .select()
      .from(applicationTrips)
      .where(eq(applicationTrips.applicationId, paidA.applicationId));
    expect(after!.insuranceFileId).toBe(before!.insuranceFileId);
    expect(
      await t.database.db.select().from(storedFiles).where(eq(storedFiles.kind, "insurance")),
    ).toHaveLength(2);
  });
});

describe("GET /api/student/cohort-entries", () => {
  it("lists the published FAQ and partners of the student's cohort and of every cohort, never another cohort's", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const create = async (payload: Record<string, unknown>) => {
      const res = await api("POST", "/api/admin/portal-entries", roles.owner, {
        body: { en: "Details." },
        sortOrder: 0,
        publishedAt: past,
        url: "",
        ...payload,
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await create({
      kind: "faq",
      summerSchoolId: paidA.schoolId,
      title: { en: "Where do we meet on day 2?", zh: "第二天在哪里集合？" },
    });
    await create({ kind: "faq", summerSchoolId: paidB.schoolId, title: { en: "Other cohort question" } });
    await create({ kind: "faq", summerSchoolId: null, title: { en: "Is breakfast included?" } });
    await create({ kind: "faq", summerSchoolId: null, title: { en: "Draft question" }, publishedAt: null });
    await create({
      kind: "partner",
      summerSchoolId: paidA.schoolId,
      title: { en: "Leiden University" },
      url: "https://www.universiteitleiden.nl",
    });

    const faq = (
      await api("GET", "/api/student/cohort-entries?kind=faq", paidA.cookie)
    ).json() as CohortEntries;
    expect(faq.cohorts).toBe(1);
    expect(faq.entries.map((e) => e.title).sort()).toEqual([
      "Is breakfast included?",
      "Where do we meet on day 2?",
    ]);
    const zh = (
      await api("GET", "/api/student/cohort-entries?kind=faq", paidA.cookie, undefined, {
        headers: { "accept-language": "zh" },
      })
    ).json() as CohortEntries;
    expect(zh.entries.map((e) => e.title)).toContain("第二天在哪里集合？");
    const partners = (
      await api("GET", "/api/student/cohort-entries?kind=partner", paidA.cookie)
    ).json() as CohortEntries;
    expect(partners.entries).toMatchObject([
      { title: "Leiden University", url: "https://www.universiteitleiden.nl" },
    ]);
    const other = (
      await api("GET", "/api/student/cohort-entries?kind=faq", paidB.cookie)
    ).json() as CohortEntries;
    expect(other.entries.map((e) => e.title).sort()).toEqual([
      "Is breakfast included?",
      "Other cohort question",
    ]);
    expect(
      (await api("GET", "/api/student/cohort-entries?kind=partner", paidB.cookie)).json().entries,
    ).toEqual([]);
  });

  it("answers 400 for another kind", async () => {
    expect((await api("GET", "/api/student/cohort-entries?kind=announcement", paidA.cookie)).statusCode).toBe(
      400,
    );
    expect((await api("GET", "/api/student/cohort-entries", paidA.cookie)).statusCode).toBe(400);
  });
});

describe("the programme editor: /api/admin/summer-schools/:id/guide", () => {
  const url = () => `/api/admin/summer-schools/${paidB.schoolId}/guide`;
  const input = (guide: AdminCohortGuide, overrides: Record<string, unknown> = {}) => ({
    version: guide.version,
    days: guide.days,
    whatToBring: guide.whatToBring,
    arrivalDate: guide.arrivalDate,
    arrivalInfo: guide.arrivalInfo,
    arrivalAddress: guide.arrivalAddress,
    housingAddress: guide.housingAddress,
    airportPickupAddOnId: guide.airportPickupAddOnId,
    insuranceProofRequired: guide.insuranceProofRequired,
    insuranceAddOnId: guide.insuranceAddOnId,
    ...overrides,
  });

  it("is for owners only: 401 anonymous, student and affiliate; 403 admissions and finance", async () => {
    for (const method of ["GET", "PUT"] as const) {
      const body = method === "PUT" ? { version: 1, days: [] } : undefined;
      expect((await api(method, url(), undefined, body)).statusCode).toBe(401);
      expect((await api(method, url(), paidB.cookie, body)).statusCode).toBe(401);
      expect((await api(method, url(), affiliate, body)).statusCode).toBe(401);
      expect((await api(method, url(), roles.admissions, body)).statusCode).toBe(403);
      expect((await api(method, url(), roles.finance, body)).statusCode).toBe(403);
    }
    expect(
      (await api("GET", "/api/admin/summer-schools/00000000-0000-4000-8000-000000000000/guide", roles.owner))
        .statusCode,
    ).toBe(404);
  });

  it("saves the three languages, audits the change, and the students read the new text", async () => {
    const guide = (await api("GET", url(), roles.owner)).json() as AdminCohortGuide;
    expect(guide).toMatchObject({ version: 1, insuranceProofRequired: true });
    expect(guide.days).toHaveLength(14);
    const days = guide.days.map((d) =>
      d.day === 7
        ? {
            day: 7,
            title: { en: "Day trip to Delft", zh: "代尔夫特一日游", fr: "Excursion à Delft" },
            details: {
              en: "Train at 9:30 from Den Haag Centraal.",
              zh: "",
              fr: "Train à 9 h 30 depuis Den Haag Centraal.",
            },
          }
        : d,
    );
    const saved = await api("PUT", url(), roles.owner, input(guide, { days, insuranceProofRequired: false }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({ version: 2, insuranceProofRequired: false });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "cohortGuide.update"));
    expect(audit).toMatchObject({ entityType: "summer_school", entityId: paidB.schoolId });
    expect((audit!.before as AdminCohortGuide).version).toBe(1);
    expect((audit!.after as AdminCohortGuide).days[6]!.title.zh).toBe("代尔夫特一日游");

    const read = async (language: string) =>
      (
        (
          await api("GET", "/api/student/program", paidB.cookie, undefined, {
            headers: { "accept-language": language },
          })
        ).json() as StudentProgram
      ).cohorts[0]!.days[6]!;
    expect((await read("en")).title).toBe("Day trip to Delft");
    expect(await read("zh")).toMatchObject({
      title: "代尔夫特一日游",
      details: "Train at 9:30 from Den Haag Centraal.",
    });
    expect((await read("fr")).details).toBe("Train à 9 h 30 depuis Den Haag Centraal.");
    const [trip] = ((await api("GET", "/api/student/trip", paidB.cookie)).json() as StudentTrip).trips;
    expect(trip!.insurance.proofRequired).toBe(false);
  });

  it("answers 409 with the current guide to a stale version, and changes nothing", async () => {
    const guide = (await api("GET", url(), roles.owner)).json() as AdminCohortGuide;
    const stale = await api(
      "PUT",
      url(),
      roles.owner,
      input(guide, { version: guide.version - 1, housingAddress: "Elsewhere 1" }),
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toMatch(/changed by someone else/);
    expect(stale.json().current).toMatchObject({
      version: guide.version,
      housingAddress: guide.housingAddress,
    });
    expect(((await api("GET", url(), roles.owner)).json() as AdminCohortGuide).version).toBe(guide.version);
  });

  it("refuses a day without an English title, a day twice, a day after the last one and another school's add-on", async () => {
    const guide = (await api("GET", url(), roles.owner)).json() as AdminCohortGuide;
    const day = (n: number, en = "Class") => ({
      day: n,
      title: { en, zh: "", fr: "" },
      details: { en: "", zh: "", fr: "" },
    });
    const noTitle = await api("PUT", url(), roles.owner, input(guide, { days: [day(1, " ")] }));
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fieldErrors).toHaveProperty(["days.0.title.en"]);
    const twice = await api("PUT", url(), roles.owner, input(guide, { days: [day(2), day(2)] }));
    expect(twice.statusCode).toBe(400);
    expect(twice.json().fieldErrors).toHaveProperty(["days.1.day"]);
    const late = await api("PUT", url(), roles.owner, input(guide, { days: [day(15)] }));
    expect(late.statusCode).toBe(400);
    expect(late.json().message).toBe("This cohort has 14 days. Please choose a day within the programme.");
    const otherGuide = (
      await api("GET", `/api/admin/summer-schools/${paidA.schoolId}/guide`, roles.owner)
    ).json() as AdminCohortGuide;
    const otherAddOn = otherGuide.airportPickupAddOnId;
    const foreign = await api("PUT", url(), roles.owner, input(guide, { airportPickupAddOnId: otherAddOn }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().fieldErrors).toHaveProperty("airportPickupAddOnId");
    // The school's insurance add-on (docs/product/admissions.md#next-steps) must be one of this school's add-ons too.
    expect(otherGuide.insuranceAddOnId).toBeTruthy();
    const foreignInsurance = await api(
      "PUT",
      url(),
      roles.owner,
      input(guide, { insuranceAddOnId: otherGuide.insuranceAddOnId }),
    );
    expect(foreignInsurance.statusCode).toBe(400);
    expect(foreignInsurance.json().fieldErrors).toHaveProperty("insuranceAddOnId");
    expect(((await api("GET", url(), roles.owner)).json() as AdminCohortGuide).version).toBe(guide.version);
  });
});

describe("export and erasure of what the student gave for the trip (docs/product/security.md#d3-export-and-erasure)", () => {
  it("exports the emergency contact, then erasure removes it and the proof of insurance", async () => {
    const who = await studentWith(paidA.schoolId, "paid");
    const contact = { name: "Grace Mensah", relationship: "Sister", phone: "+233 24 123 4567" };
    const url = `/api/student/applications/${who.applicationId}`;
    expect((await api("PUT", `${url}/emergency-contact`, who.cookie, contact)).statusCode).toBe(200);
    expect((await upload(who.applicationId, who.cookie, INSURANCE_PDF)).statusCode).toBe(201);
    const [trip] = await t.database.db
      .select()
      .from(applicationTrips)
      .where(eq(applicationTrips.applicationId, who.applicationId));

    const exported = await api("GET", `/api/admin/applicants/${who.applicantId}/export`, roles.owner);
    expect(exported.statusCode).toBe(200);
    expect(exported.json().trips).toMatchObject([
      { applicationId: who.applicationId, emergencyContact: contact, insuranceFileId: trip!.insuranceFileId },
    ]);
    expect(
      exported
        .json()
        .files.map((f: { kind: string }) => f.kind)
        .sort(),
    ).toEqual(["insurance", "passport"]);

    const erased = await api("POST", `/api/admin/applicants/${who.applicantId}/erase`, roles.owner, {
      confirm: "ERASE",
    });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(
      await t.database.db
        .select()
        .from(applicationTrips)
        .where(eq(applicationTrips.applicationId, who.applicationId)),
    ).toEqual([]);
    expect(await fileContentExists(t, trip!.insuranceFileId!)).toBe(false);
  });
});
