import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApplicationDto } from "../../../shared/application";
import type { HousingOptionDto, PackageDto, SummerSchoolDto } from "../../../shared/catalogue";
import { applicants, applications, fileChunks, storedFiles } from "../../db/schema";
import { addressSequence } from "../../testing/checkout";
import {
  applicantFixture,
  cookiesFrom,
  createTestApp,
  PDF_BYTES,
  passportUpload,
  type TestApp,
} from "../../testing/harness";

const fr = JSON.parse(
  readFileSync(new URL("../../../shared/i18n/locales/fr/common.json", import.meta.url), "utf8"),
) as { validation: Record<string, string>; errors: Record<string, string> };

/** The English texts of docs/product/admissions.md#personal-step, docs/product/api.md#errors (exact wording). */
const EN = {
  fillRequired: "Please fill in all required fields.",
  required: "This field is required.",
  invalidEmail: "Please enter a valid email address.",
  tooYoung: "You must be at least 18 years old to apply.",
  tooOld: "The maximum age for application is 40 years old.",
  specifyReferral: "Please specify how you heard about us.",
  passportRequired: "Please upload your passport document (PDF format).",
  passportPdfOnly: "Please upload your passport in PDF format only.",
  fileTooLarge: "Maximum file size is 5MB. Please upload a smaller file.",
  selectSchool: "Please select a summer school programme",
  selectPackage: "Please select a package",
  selectHousing: "Please select a housing option",
};

let t: TestApp;
/** A fresh client address per applicant, so the 10/min applicant limit (S5) does not interfere. */
const nextAddress = addressSequence("10.1");

// The app's clock is fixed in the January before the demo summer, so June is full, July has few
// places left and October opens on 1 May whatever the day the suite runs. Ages are checked against
// the real date (the shared schema), which the date-of-birth helpers below use too.
const CLOCK = new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 15, 10));

beforeAll(async () => {
  t = await createTestApp({ now: () => CLOCK });
});
afterAll(async () => {
  await t?.close();
});

/** yyyy-mm-dd of today (UTC) minus `years`, plus `days`. */
function birthDate(years: number, days = 0): string {
  const now = new Date();
  const d = new Date(Date.UTC(now.getUTCFullYear() - years, now.getUTCMonth(), now.getUTCDate() + days));
  return d.toISOString().slice(0, 10);
}

function postApplicant(payload: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/api/applicants",
    payload: payload as Record<string, unknown>,
    headers,
    remoteAddress: nextAddress(),
  });
}

async function newApplicant(overrides: Record<string, unknown> = {}) {
  const res = await postApplicant(applicantFixture(overrides));
  expect(res.statusCode, res.body).toBe(201);
  return { id: res.json().id as string, cookie: cookiesFrom(res) };
}

/** Request headers with the capability cookie added to any cookie already in `headers`. */
function withCookie(
  cookie: string | undefined,
  headers: Record<string, string> = {},
): Record<string, string> {
  const cookies = [cookie, headers.cookie].filter(Boolean).join("; ");
  return cookies ? { ...headers, cookie: cookies } : headers;
}

function upload(
  applicantId: string,
  cookie: string | undefined,
  content: Buffer,
  filename?: string,
  headers: Record<string, string> = {},
) {
  const body = passportUpload(applicantId, content, filename);
  return t.app.inject({
    method: "POST",
    url: "/api/upload-passport",
    headers: { ...body.headers, ...withCookie(cookie, headers) },
    payload: body.payload,
  });
}

/** Everything the storage holds: stored-file rows, chunk rows, files in <dataDir>/files. */
async function storedEverything() {
  const filesDir = path.join(t.dataDir, "files");
  return {
    rows: (await t.database.db.select({ id: storedFiles.id }).from(storedFiles)).length,
    chunks: (await t.database.db.select({ idx: fileChunks.idx }).from(fileChunks)).length,
    files: existsSync(filesDir) ? readdirSync(filesDir).length : 0,
  };
}

async function applicantWithPassport(overrides: Record<string, unknown> = {}) {
  const a = await newApplicant(overrides);
  const up = await upload(a.id, a.cookie, PDF_BYTES);
  expect(up.statusCode, up.body).toBe(201);
  return a;
}

async function schools() {
  return (await t.app.inject({ url: "/api/summer-schools" })).json() as SummerSchoolDto[];
}

async function choicesOf(schoolId: string) {
  const pkgs = (
    await t.app.inject({ url: `/api/summer-schools/${schoolId}/packages` })
  ).json() as PackageDto[];
  const housing = (
    await t.app.inject({ url: `/api/summer-schools/${schoolId}/housing-options` })
  ).json() as HousingOptionDto[];
  const addOns = (
    await t.app.inject({ url: `/api/summer-schools/${schoolId}/add-on-options` })
  ).json() as Array<{
    id: string;
    name: string;
  }>;
  return { pkgs, housing, addOns };
}

function createApplication(
  cookie: string | undefined,
  payload: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: "POST",
    url: "/api/create-application-from-info",
    headers: withCookie(cookie, headers),
    payload,
  });
}

async function selectionFor(status: SummerSchoolDto["status"], which = 0) {
  const school = (await schools()).filter((s) => s.status === status)[which]!;
  const { pkgs, housing, addOns } = await choicesOf(school.id);
  return {
    school,
    pkgs,
    housing,
    addOns,
    selection: {
      summerSchoolId: school.id,
      packageId: pkgs[0]!.id,
      housingOptionId: housing[0]!.id,
      selectedAddOns: [],
    },
  };
}

const messageOf = (res: LightMyRequestResponse) => res.json().message as string;

describe("POST /api/applicants", () => {
  it("creates the applicant (201) and sets the capability cookie: httpOnly, SameSite=Lax, Path=/api, ≥128 bits", async () => {
    const res = await postApplicant(applicantFixture());
    expect(res.statusCode).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const { id } = res.json();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

    const cookie = res.cookies.find((c) => c.name === "applicant_access")!;
    expect(cookie).toBeDefined();
    expect(cookie.httpOnly).toBe(true);
    expect(String(cookie.sameSite).toLowerCase()).toBe("lax");
    expect(cookie.path).toBe("/api");
    expect(cookie.secure).toBeFalsy(); // Secure only in production
    const raw = String(res.headers["set-cookie"]);
    expect(raw).toMatch(/HttpOnly/);
    expect(raw).toMatch(/SameSite=Lax/);
    expect(raw).toMatch(/Path=\/api(;|$)/);
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(Buffer.from(cookie.value, "base64url").length).toBeGreaterThanOrEqual(16);

    // A fresh random value per applicant; the database keeps only its SHA-256.
    const other = await postApplicant(applicantFixture());
    const otherCookie = other.cookies.find((c) => c.name === "applicant_access")!;
    expect(otherCookie.value).not.toBe(cookie.value);
    const [row] = await t.database.db.select().from(applicants).where(eq(applicants.id, id));
    expect(row!.accessTokenHash).toBe(createHash("sha256").update(cookie.value).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(cookie.value);
  });

  it("returns the owner's fields, and nothing to anyone else", async () => {
    const a = await newApplicant();
    const b = await newApplicant();
    const own = await t.app.inject({ url: `/api/applicants/${a.id}`, headers: { cookie: a.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.headers["cache-control"]).toBe("no-store");
    expect(own.json()).toMatchObject({
      id: a.id,
      firstName: "Amara",
      email: "amara.okafor@example.com",
      passportUrl: null,
    });
    expect(own.json()).not.toHaveProperty("accessTokenHash");
    for (const headers of [{ cookie: b.cookie }, {}, { cookie: "applicant_access=forged" }]) {
      const res = await t.app.inject({ url: `/api/applicants/${a.id}`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain("Amara");
    }
  });

  describe.each([
    ["en", {}, (key: keyof typeof EN) => EN[key]],
    ["fr", { "accept-language": "fr-FR,fr;q=0.9" }, (key: keyof typeof EN) => fr.validation[key]!],
    ["fr (cookie)", { cookie: "language=fr" }, (key: keyof typeof EN) => fr.validation[key]!],
  ])(
    "validation messages of docs/product/languages.md#supported-languages in %s",
    (_language, headers, text) => {
      it("the French texts are translations, not the English fallback", () => {
        for (const key of Object.keys(EN) as Array<keyof typeof EN>)
          expect(fr.validation[key], key).toBeTruthy();
        expect(fr.validation.fillRequired).not.toBe(EN.fillRequired);
      });

      it("missing required fields", async () => {
        for (const field of [
          "firstName",
          "email",
          "dateOfBirth",
          "passportNumber",
          "studentStatus",
          "countryOfResidence",
        ]) {
          const res = await postApplicant(applicantFixture({ [field]: undefined }), headers);
          expect(res.statusCode, field).toBe(400);
          expect(messageOf(res), field).toBe(text("fillRequired"));
          expect(res.json().fieldErrors[field], field).toBe(text("required"));
        }
        const blank = await postApplicant(applicantFixture({ lastName: "   " }), headers);
        expect(blank.statusCode).toBe(400);
        expect(messageOf(blank)).toBe(text("fillRequired"));
        const empty = await postApplicant({}, headers);
        expect(empty.statusCode).toBe(400);
        expect(messageOf(empty)).toBe(text("fillRequired"));
        expect(Object.keys(empty.json().fieldErrors)).toEqual(
          expect.arrayContaining([
            "firstName",
            "lastName",
            "email",
            "phone",
            "address",
            "city",
            "postalCode",
          ]),
        );
      });

      it("a bad email", async () => {
        for (const email of ["not-an-email", "a@b", "amara@@example.com", "amara example@example.com"]) {
          const res = await postApplicant(applicantFixture({ email }), headers);
          expect(res.statusCode, email).toBe(400);
          expect(messageOf(res), email).toBe(text("invalidEmail"));
          expect(res.json().fieldErrors.email).toBe(text("invalidEmail"));
        }
      });

      it("age: the 18th birthday today is allowed, the day before it is not", async () => {
        const young = await postApplicant(applicantFixture({ dateOfBirth: birthDate(18, 1) }), headers);
        expect(young.statusCode).toBe(400);
        expect(messageOf(young)).toBe(text("tooYoung"));
        expect(young.json().fieldErrors.dateOfBirth).toBe(text("tooYoung"));
        const ok = await postApplicant(applicantFixture({ dateOfBirth: birthDate(18) }), headers);
        expect(ok.statusCode, ok.body).toBe(201);
      });

      it("age: the 41st birthday today is refused, the day before it is allowed", async () => {
        const old = await postApplicant(applicantFixture({ dateOfBirth: birthDate(41) }), headers);
        expect(old.statusCode).toBe(400);
        expect(messageOf(old)).toBe(text("tooOld"));
        const ok = await postApplicant(applicantFixture({ dateOfBirth: birthDate(41, 1) }), headers);
        expect(ok.statusCode, ok.body).toBe(201);
      });

      it("referral source Other without the detail", async () => {
        const res = await postApplicant(
          applicantFixture({ referralSource: "other", otherReferralDetail: "" }),
          headers,
        );
        expect(res.statusCode).toBe(400);
        expect(messageOf(res)).toBe(text("specifyReferral"));
        expect(res.json().fieldErrors.otherReferralDetail).toBe(text("specifyReferral"));
        const ok = await postApplicant(
          applicantFixture({ referralSource: "other", otherReferralDetail: "A friend at the embassy" }),
          headers,
        );
        expect(ok.statusCode).toBe(201);
      });

      it("program step: school, package and housing are required", async () => {
        const a = await newApplicant();
        const { selection } = await selectionFor("open");
        const cases: Array<[string, keyof typeof EN]> = [
          ["summerSchoolId", "selectSchool"],
          ["packageId", "selectPackage"],
          ["housingOptionId", "selectHousing"],
        ];
        for (const [field, key] of cases) {
          const res = await createApplication(
            a.cookie,
            { applicantId: a.id, ...selection, [field]: undefined },
            headers,
          );
          expect(res.statusCode, field).toBe(400);
          expect(messageOf(res), field).toBe(text(key));
        }
      });

      it("create application without a passport", async () => {
        const a = await newApplicant();
        const { selection } = await selectionFor("open");
        const res = await createApplication(a.cookie, { applicantId: a.id, ...selection }, headers);
        expect(res.statusCode).toBe(422);
        expect(messageOf(res)).toBe(text("passportRequired"));
      });

      it("passport that is not a PDF, or too large", async () => {
        const a = await newApplicant();
        const html = await upload(
          a.id,
          a.cookie,
          Buffer.from("<html><script>alert(1)</script></html>"),
          "passport.pdf",
          headers,
        );
        expect(html.statusCode).toBe(415);
        expect(messageOf(html)).toBe(text("passportPdfOnly"));
        const big = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(6 * 1024 * 1024, 0x20)]);
        const large = await upload(a.id, a.cookie, big, "passport.pdf", headers);
        expect(large.statusCode).toBe(413);
        expect(messageOf(large)).toBe(text("fileTooLarge"));
      });
    },
  );

  it("answers malformed JSON with 400 and a plain message", async () => {
    for (const payload of ['{"firstName": "Amara",', "{firstName: 'x'}", "null x", "\u0000"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/applicants",
        headers: { "content-type": "application/json" },
        payload,
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode, payload).toBe(400);
      expect(res.json(), payload).toEqual({ message: "The request was not valid JSON." });
    }
    const empty = await t.app.inject({
      method: "POST",
      url: "/api/applicants",
      headers: { "content-type": "application/json" },
      payload: "",
      remoteAddress: nextAddress(),
    });
    expect(empty.statusCode).toBe(400);
    expect(typeof empty.json().message).toBe("string");
  });

  it("answers wrong types with 400, never 500", async () => {
    const cases: Array<Record<string, unknown>> = [
      { firstName: 42 },
      { email: ["amara@example.com"] },
      { dateOfBirth: 19990101 },
      { dateOfBirth: "2001-02-31" },
      { dateOfBirth: "yesterday" },
      { nationality: "Narnia" },
      { fieldOfStudy: { $ne: null } },
      { expectations: 12 },
      { referralSource: true },
      { firstName: "x".repeat(5000) },
    ];
    for (const override of cases) {
      const res = await postApplicant(applicantFixture(override));
      expect(res.statusCode, JSON.stringify(override).slice(0, 60)).toBe(400);
      expect(typeof messageOf(res)).toBe("string");
      expect(res.body).not.toMatch(/stack|ZodError|at .*\.ts/);
    }
    for (const payload of ["[]", '"text"', "42", "null"]) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/applicants",
        headers: { "content-type": "application/json" },
        payload,
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode, payload).toBe(400);
      expect(typeof messageOf(res)).toBe("string");
    }
    const a = await newApplicant();
    const wrong = await createApplication(a.cookie, {
      applicantId: a.id,
      summerSchoolId: 7,
      packageId: [],
      selectedAddOns: "all",
    });
    expect(wrong.statusCode).toBe(400);
  });

  it("stores SQL and script injection strings verbatim and returns them as data", async () => {
    const hostile = {
      firstName: "Robert'); DROP TABLE applicants;--",
      lastName: '<script>alert("x")</script>',
      city: "' OR '1'='1",
      address: "1; SELECT pg_sleep(5); --",
      university: `{{7*7}} $${"{"}7*7} <img src=x onerror=alert(1)>`,
      expectations: "\\x00 \\' \" `rm -rf /` 你好 🎓",
      postalCode: "$1",
      passportNumber: "A1' --",
    };
    const created = await postApplicant(applicantFixture(hostile));
    expect(created.statusCode, created.body).toBe(201);
    const cookie = cookiesFrom(created);
    const res = await t.app.inject({ url: `/api/applicants/${created.json().id}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/application\/json/);
    expect(res.json()).toMatchObject(hostile);
    expect((await t.database.db.select().from(applicants)).length).toBeGreaterThan(1); // still there

    // A NUL character cannot be stored in PostgreSQL text: refused as bad input (the shared
    // schemas refuse control characters), not a 500.
    const nul = await postApplicant(applicantFixture({ lastName: "Okafor\u0000" }));
    expect(nul.statusCode).toBeLessThan(500);
    expect(nul.statusCode).toBeGreaterThanOrEqual(400);
  });
});

describe("passport upload and download", () => {
  it("accepts a PDF (201 { url }) and serves it to its owner as an attachment with nosniff and no-store", async () => {
    const a = await newApplicant();
    const res = await upload(a.id, a.cookie, PDF_BYTES);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ url: `/api/applicants/${a.id}/passport` });

    const own = await t.app.inject({ url: res.json().url, headers: { cookie: a.cookie } });
    expect(own.statusCode).toBe(200);
    expect(own.headers["content-type"]).toBe("application/pdf");
    expect(own.headers["content-disposition"]).toMatch(/^attachment;/);
    expect(own.headers["x-content-type-options"]).toBe("nosniff");
    expect(own.headers["cache-control"]).toBe("no-store");
    expect(own.rawPayload.equals(PDF_BYTES)).toBe(true);

    const patched = await t.app.inject({
      method: "PATCH",
      url: `/api/applicants/${a.id}`,
      headers: { cookie: a.cookie },
      payload: { passportUrl: res.json().url },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().passportUrl).toBe(res.json().url);
  });

  it("serves a passport to nobody else: another applicant's cookie or no cookie → 404 (S6)", async () => {
    const a = await applicantWithPassport();
    const b = await applicantWithPassport();
    for (const headers of [{ cookie: b.cookie }, {}, { cookie: "applicant_access=" }]) {
      const res = await t.app.inject({ url: `/api/applicants/${a.id}/passport`, headers });
      expect(res.statusCode).toBe(404);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      expect(res.rawPayload.includes(Buffer.from("%PDF-"))).toBe(false);
    }
    // Nor can B upload in A's name.
    const hijack = await upload(a.id, b.cookie, PDF_BYTES);
    expect(hijack.statusCode).toBe(404);
    const anonymous = await upload(a.id, undefined, PDF_BYTES);
    expect(anonymous.statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: "/api/applicants/not-a-uuid/passport", headers: { cookie: a.cookie } }))
        .statusCode,
    ).toBe(404);
  });

  it("refuses an HTML '.pdf' and an MZ executable with 415 and the spec message", async () => {
    const a = await newApplicant();
    const fakes: Array<[string, Buffer]> = [
      ["passport.pdf", Buffer.from("<!doctype html><html><body>%PDF-1.4</body></html>")],
      ["passport.pdf", Buffer.concat([Buffer.from("MZ\x90\x00\x03\x00\x00\x00"), Buffer.alloc(512, 0)])],
      ["passport.exe", Buffer.from("MZ this program cannot be run in DOS mode")],
      ["passport.pdf", Buffer.from(" %PDF-1.4 leading space")],
    ];
    for (const [name, content] of fakes) {
      const res = await upload(a.id, a.cookie, content, name);
      expect(res.statusCode, name).toBe(415);
      expect(messageOf(res)).toBe(EN.passportPdfOnly);
    }
    const [row] = await t.database.db.select().from(applicants).where(eq(applicants.id, a.id));
    expect(row!.passportFileId).toBeNull();
    expect(await t.database.db.select().from(storedFiles).where(eq(storedFiles.applicantId, a.id))).toEqual(
      [],
    );
  });

  it("answers 413 for 6 MB (docs/product/security.md#i1-uploads) and keeps nothing", async () => {
    const a = await newApplicant();
    const before = await storedEverything();
    const big = Buffer.concat([PDF_BYTES, Buffer.alloc(6 * 1024 * 1024, 0x41)]);
    const res = await upload(a.id, a.cookie, big);
    expect(res.statusCode).toBe(413);
    expect(messageOf(res)).toBe(EN.fileTooLarge);
    expect(await storedEverything()).toEqual(before);
    const justUnder = await upload(
      a.id,
      a.cookie,
      Buffer.concat([PDF_BYTES, Buffer.alloc(4 * 1024 * 1024, 0x41)]),
    );
    expect(justUnder.statusCode).toBe(201);
  });

  it("stores '../../x' under a random id outside any public folder, encrypted (no %PDF- stored)", async () => {
    const a = await newApplicant();
    const { files } = t.app.services;
    const filesDir = path.join(t.dataDir, "files");
    const listFiles = () => (existsSync(filesDir) ? readdirSync(filesDir) : []);
    const before = new Set(listFiles());
    const escapes = [path.resolve(filesDir, "../../x"), path.join(t.dataDir, "x"), path.join(filesDir, "x")];
    // Compare with what existed before (a file called x may already exist outside the data folder).
    const existedBefore = escapes.map((p) => existsSync(p));
    const res = await upload(a.id, a.cookie, PDF_BYTES, "../../x");
    expect(res.statusCode).toBe(201);
    expect(escapes.map((p) => existsSync(p))).toEqual(existedBefore);
    const [row] = await t.database.db.select().from(applicants).where(eq(applicants.id, a.id));
    const fileId = row!.passportFileId!;
    expect(fileId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [file] = await t.database.db.select().from(storedFiles).where(eq(storedFiles.id, fileId));
    expect(file).toMatchObject({
      applicantId: a.id,
      kind: "passport",
      sizeBytes: PDF_BYTES.length,
      storage: files.mode,
      keyId: files.currentKeyId,
    });
    // Disk: one new file, <dataDir>/files/<id>.bin; database: chunk rows and no file at all.
    const added = listFiles().filter((f) => !before.has(f));
    let stored: Buffer;
    if (files.mode === "disk") {
      expect(added).toEqual([`${fileId}.bin`]);
      stored = readFileSync(path.join(filesDir, added[0]!));
    } else {
      expect(added).toEqual([]);
      const chunks = await t.database.db
        .select({ data: fileChunks.data })
        .from(fileChunks)
        .where(eq(fileChunks.fileId, fileId));
      expect(chunks.length).toBeGreaterThan(0);
      stored = Buffer.concat(chunks.map((c) => c.data));
    }
    expect(stored.includes(Buffer.from("%PDF-"))).toBe(false);
    expect(stored.includes(Buffer.from("/Catalog"))).toBe(false);
    // Decrypted for its owner, byte for byte.
    const own = await t.app.inject({
      url: `/api/applicants/${a.id}/passport`,
      headers: { cookie: a.cookie },
    });
    expect(own.rawPayload.equals(PDF_BYTES)).toBe(true);
  });

  it("refuses an upload without a file, or that is not multipart", async () => {
    const a = await newApplicant();
    const boundary = "----hssempty";
    const noFile = await t.app.inject({
      method: "POST",
      url: "/api/upload-passport",
      headers: {
        "content-type": `multipart/form-data; boundary=${boundary}`,
        origin: "http://localhost:3000",
        cookie: a.cookie,
      },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="applicantId"\r\n\r\n${a.id}\r\n--${boundary}--\r\n`,
    });
    expect(noFile.statusCode).toBe(400);
    expect(messageOf(noFile)).toMatch(/No file was received/);
    const json = await t.app.inject({
      method: "POST",
      url: "/api/upload-passport",
      headers: { cookie: a.cookie },
      payload: { applicantId: a.id, document: PDF_BYTES.toString("base64") },
    });
    expect(json.statusCode).toBe(415);
  });
});

describe("applications", () => {
  it("requires the passport, then creates the application with the server's quote", async () => {
    const a = await newApplicant();
    const { selection, school } = await selectionFor("open");
    const without = await createApplication(a.cookie, { applicantId: a.id, ...selection });
    expect(without.statusCode).toBe(422);
    expect(messageOf(without)).toBe(EN.passportRequired);

    expect((await upload(a.id, a.cookie, PDF_BYTES)).statusCode).toBe(201);
    const res = await createApplication(a.cookie, { applicantId: a.id, ...selection });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers["cache-control"]).toBe("no-store");
    const id = res.json().id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const dto = await t.app.inject({ url: `/api/applications/${id}`, headers: { cookie: a.cookie } });
    expect(dto.statusCode).toBe(200);
    expect(dto.headers["cache-control"]).toBe("no-store");
    const app = dto.json() as ApplicationDto;
    expect(app).toMatchObject({
      id,
      applicantId: a.id,
      status: "pending_payment",
      paymentStatus: "unpaid",
      summerSchool: { id: school.id },
      package: { name: "Standard" },
      housing: { name: "Shared room (2 people)", priceAdjustment: 0 },
    });
    expect(app.applicant.hasPassport).toBe(true);
    // Standard 2,950.00 + the required insurance 95.00; the transport card is included at 0.
    expect(app.quote).toMatchObject({
      originalAmount: 304500,
      discountAmount: 0,
      totalAmount: 304500,
      depositAmount: 304500,
    });
    expect(app.addOns.map((x) => [x.name, x.price, x.included])).toEqual([
      ["Public transport card", 0, true],
      ["Travel and health insurance", 9500, false],
    ]);
  });

  it("going back and submitting again updates the same application (no duplicate)", async () => {
    const a = await applicantWithPassport();
    const { selection, housing, pkgs, addOns } = await selectionFor("open");
    const first = await createApplication(a.cookie, { applicantId: a.id, ...selection });
    expect(first.statusCode).toBe(201);
    const pickup = addOns.find((x) => x.name === "Airport pickup")!;
    const second = await createApplication(a.cookie, {
      applicantId: a.id,
      ...selection,
      packageId: pkgs[0]!.id,
      housingOptionId: housing[1]!.id,
      selectedAddOns: [pickup.id],
    });
    expect(second.statusCode).toBe(201);
    expect(second.json().id).toBe(first.json().id);
    const rows = await t.database.db.select().from(applications).where(eq(applications.applicantId, a.id));
    expect(rows).toHaveLength(1);
    const dto = (
      await t.app.inject({ url: `/api/applications/${first.json().id}`, headers: { cookie: a.cookie } })
    ).json();
    expect(dto.housing.name).toBe("Private room");
    expect(dto.quote.totalAmount).toBe(295000 + 80000 + 9500 + 3000);

    // Another school is a change of the same unpaid application, too.
    const { selection: other } = await selectionFor("open", 1);
    const third = await createApplication(a.cookie, { applicantId: a.id, ...other });
    expect(third.json().id).toBe(first.json().id);
    expect(
      await t.database.db.select().from(applications).where(eq(applications.applicantId, a.id)),
    ).toHaveLength(1);
  });

  it("refuses the full June cohort (409 schoolFull) and October, which opens later (409)", async () => {
    const a = await applicantWithPassport();
    const june = await selectionFor("full");
    expect(june.school.name).toMatch(/June/);
    const full = await createApplication(a.cookie, { applicantId: a.id, ...june.selection });
    expect(full.statusCode).toBe(409);
    expect(messageOf(full)).toBe("This programme is full. Please choose another cohort.");
    const fullFr = await createApplication(
      a.cookie,
      { applicantId: a.id, ...june.selection },
      { cookie: "language=fr" },
    );
    expect(messageOf(fullFr)).toBe(fr.errors.schoolFull);

    const october = await selectionFor("openingSoon");
    expect(october.school.name).toMatch(/October/);
    const soon = await createApplication(a.cookie, { applicantId: a.id, ...october.selection });
    expect(soon.statusCode).toBe(409);
    expect(messageOf(soon)).toBe("Applications for this programme are not open.");
    expect(
      await t.database.db.select().from(applications).where(eq(applications.applicantId, a.id)),
    ).toHaveLength(0);

    // July has few places left: still open for applications.
    const july = await selectionFor("fewSpotsLeft");
    expect((await createApplication(a.cookie, { applicantId: a.id, ...july.selection })).statusCode).toBe(
      201,
    );
  });

  it("refuses a package, housing option or add-on of another school (422)", async () => {
    const a = await applicantWithPassport();
    const aug = await selectionFor("open", 0);
    const sep = await selectionFor("open", 1);
    const pkg = await createApplication(a.cookie, {
      applicantId: a.id,
      ...aug.selection,
      packageId: sep.pkgs[0]!.id,
    });
    expect(pkg.statusCode).toBe(422);
    expect(messageOf(pkg)).toBe(EN.selectPackage);
    const housing = await createApplication(a.cookie, {
      applicantId: a.id,
      ...aug.selection,
      housingOptionId: sep.housing[0]!.id,
    });
    expect(housing.statusCode).toBe(422);
    expect(messageOf(housing)).toBe(EN.selectHousing);
    const addOn = await createApplication(a.cookie, {
      applicantId: a.id,
      ...aug.selection,
      selectedAddOns: [sep.addOns[0]!.id],
    });
    expect(addOn.statusCode).toBe(422);
    const unknownSchool = await createApplication(a.cookie, {
      applicantId: a.id,
      ...aug.selection,
      summerSchoolId: randomUUID(),
    });
    expect(unknownSchool.statusCode).toBe(422);
    expect(messageOf(unknownSchool)).toBe(EN.selectSchool);
    expect(
      await t.database.db.select().from(applications).where(eq(applications.applicantId, a.id)),
    ).toHaveLength(0);
  });

  it("keeps applications private: another applicant or no cookie gets 404 (S6)", async () => {
    const a = await applicantWithPassport();
    const b = await applicantWithPassport();
    const { selection } = await selectionFor("open");
    const created = await createApplication(a.cookie, { applicantId: a.id, ...selection });
    const id = created.json().id as string;
    for (const headers of [{ cookie: b.cookie }, {}]) {
      const res = await t.app.inject({ url: `/api/applications/${id}`, headers });
      expect(res.statusCode).toBe(404);
      expect(messageOf(res)).toMatch(/We could not find this application/);
      expect(res.body).not.toContain("Amara");
    }
    expect(
      (await t.app.inject({ url: `/api/applications/${randomUUID()}`, headers: { cookie: a.cookie } }))
        .statusCode,
    ).toBe(404);
    expect(
      (await t.app.inject({ url: "/api/applications/1", headers: { cookie: a.cookie } })).statusCode,
    ).toBe(404);
    // B cannot create or change an application in A's name.
    const hijack = await createApplication(b.cookie, { applicantId: a.id, ...selection });
    expect(hijack.statusCode).toBe(404);
    const patch = await t.app.inject({
      method: "PATCH",
      url: `/api/applicants/${a.id}`,
      headers: { cookie: b.cookie },
      payload: applicantFixture({ firstName: "Mallory" }),
    });
    expect(patch.statusCode).toBe(404);
    const [row] = await t.database.db.select().from(applicants).where(eq(applicants.id, a.id));
    expect(row!.firstName).toBe("Amara");
  });
});
