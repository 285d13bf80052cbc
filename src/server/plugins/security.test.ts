import { readFileSync } from "node:fs";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { applicants, codeClicks } from "../db/schema";
import { addressSequence } from "../testing/checkout";
import {
  applicantFixture,
  cookiesFrom,
  createPaidReadyApplication,
  createTestApp,
  json,
  PDF_BYTES,
  passportUpload,
  type TestApp,
} from "../testing/harness";
import { headersOf } from "./security";

const fr = JSON.parse(
  readFileSync(new URL("../../shared/i18n/locales/fr/common.json", import.meta.url), "utf8"),
) as { errors: Record<string, string> };

const FORBIDDEN = "This request was refused for your security. Please reload the page and try again.";
const TOO_MANY = "Too many attempts. Please wait a minute and try again.";

const nextAddress = addressSequence("10.4");

function expectSecurityHeaders(res: LightMyRequestResponse) {
  const csp = String(res.headers["content-security-policy"]);
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("default-src 'self'");
  expect(res.headers["x-content-type-options"]).toBe("nosniff");
  expect(res.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  // See docs/product/security.md#i3-response-headers: no page may use the camera, microphone, location or payment features.
  const policy = String(res.headers["permissions-policy"]);
  for (const feature of ["camera", "microphone", "geolocation", "payment", "browsing-topics"])
    expect(policy).toContain(`${feature}=()`);
}

describe("the default app (test environment)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      setup: (app) => {
        app.get("/api/test/boom", async () => {
          const err = new Error(
            'relation "applicants" does not exist: select "id", "passport_number" from "applicants" where "id" = $1',
          );
          err.stack = `${err.message}\n    at boom (/srv/app/src/server/modules/secret/handler.ts:42:7)`;
          throw err;
        });
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const countApplicants = async () => (await t.database.db.select().from(applicants)).length;

  describe("S3: cross-site requests that change state", () => {
    it("refuses a foreign Origin, Sec-Fetch-Site cross-site or same-site, and text/plain or form bodies with 403", async () => {
      const before = await countApplicants();
      const body = JSON.stringify(applicantFixture());
      const attempts: Array<[string, Record<string, string>, string]> = [
        ["foreign Origin", { origin: "https://evil.example", "content-type": "application/json" }, body],
        ["Origin null", { origin: "null", "content-type": "application/json" }, body],
        [
          "Sec-Fetch-Site: cross-site",
          { "sec-fetch-site": "cross-site", "content-type": "application/json" },
          body,
        ],
        [
          "Sec-Fetch-Site: same-site",
          { "sec-fetch-site": "same-site", "content-type": "application/json" },
          body,
        ],
        ["text/plain body", { "content-type": "text/plain" }, body],
        ["text/plain with charset", { "content-type": "text/plain;charset=UTF-8" }, body],
        ["form body", { "content-type": "application/x-www-form-urlencoded" }, "firstName=Eve"],
        [
          "multipart without Origin",
          { "content-type": "multipart/form-data; boundary=x" },
          '--x\r\nContent-Disposition: form-data; name="firstName"\r\n\r\nEve\r\n--x--\r\n',
        ],
      ];
      for (const [what, headers, payload] of attempts) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/applicants",
          headers,
          payload,
          remoteAddress: nextAddress(),
        });
        expect(res.statusCode, what).toBe(403);
        expect(json(res), what).toEqual({ message: FORBIDDEN });
        expect(res.headers["set-cookie"], what).toBeUndefined();
      }
      expect(await countApplicants()).toBe(before);

      // The demo data holds earlier clicks on the demo affiliate's link: none is added.
      const clicksBefore = (await t.database.db.select().from(codeClicks)).length;
      const clicks = await t.app.inject({
        method: "POST",
        url: "/api/record-code-click",
        headers: { origin: "https://evil.example" },
        payload: { code: "LINDA2027" },
      });
      expect(clicks.statusCode).toBe(403);
      expect(await t.database.db.select().from(codeClicks)).toHaveLength(clicksBefore);

      // The same request from the site itself is accepted.
      const ok = await t.app.inject({
        method: "POST",
        url: "/api/applicants",
        headers: { origin: "http://localhost:3000", "sec-fetch-site": "same-origin" },
        payload: applicantFixture(),
        remoteAddress: nextAddress(),
      });
      expect(ok.statusCode).toBe(201);
      expect(await countApplicants()).toBe(before + 1);
    });

    it("refuses cross-site uploads, code changes, checkouts and test payments of a real applicant", async () => {
      const a = await createPaidReadyApplication(t.app, {}, { remoteAddress: nextAddress() });
      const evil = { origin: "https://evil.example", cookie: a.cookie };
      const upload = passportUpload(a.applicantId, PDF_BYTES);
      const attempts = [
        {
          method: "POST" as const,
          url: "/api/upload-passport",
          headers: { ...upload.headers, ...evil },
          payload: upload.payload,
        },
        {
          method: "POST" as const,
          url: "/api/validate-code",
          headers: { ...evil, "sec-fetch-site": "cross-site" },
          payload: { code: "FULLSCHOLAR", applicationId: a.applicationId },
        },
        { method: "DELETE" as const, url: `/api/applications/${a.applicationId}/code`, headers: evil },
        {
          method: "PATCH" as const,
          url: `/api/applicants/${a.applicantId}`,
          headers: evil,
          payload: applicantFixture({ firstName: "Eve" }),
        },
        {
          method: "POST" as const,
          url: "/api/create-checkout-session",
          headers: evil,
          payload: { applicationId: a.applicationId, termsAccepted: true },
        },
        {
          method: "POST" as const,
          url: "/api/process-zero-payment",
          headers: evil,
          payload: { applicationId: a.applicationId, termsAccepted: true },
        },
        {
          method: "POST" as const,
          url: "/test-payment/pay",
          headers: { ...evil, "content-type": "application/x-www-form-urlencoded" },
          payload: "session_id=cs_offline_x",
        },
      ];
      for (const attempt of attempts) {
        const res = await t.app.inject({ ...attempt, remoteAddress: nextAddress() });
        expect(res.statusCode, attempt.url).toBe(403);
      }
      const dto = await t.app.inject({
        url: `/api/applications/${a.applicationId}`,
        headers: { cookie: a.cookie },
      });
      expect(dto.json()).toMatchObject({
        paymentStatus: "unpaid",
        quote: { appliedCode: null, discountAmount: 0 },
      });
      expect(dto.json().applicant.firstName).toBe("Amara");
      // A GET carries no state change, whoever links to it.
      const get = await t.app.inject({
        url: `/api/applications/${a.applicationId}`,
        headers: { cookie: a.cookie, "sec-fetch-site": "cross-site" },
      });
      expect(get.statusCode).toBe(200);
      expect((await t.app.inject({ url: "/api/create-checkout-session" })).statusCode).toBe(404);
    });
  });

  describe("I3: response headers", () => {
    it("API answers carry CSP, nosniff and Referrer-Policy; no HSTS outside production", async () => {
      const res = await t.app.inject({ url: "/api/summer-schools" });
      expect(res.statusCode).toBe(200);
      expectSecurityHeaders(res);
      expect(res.headers["strict-transport-security"]).toBeUndefined();
      expect(String(res.headers["content-security-policy"])).not.toContain("upgrade-insecure-requests");
      const error = await t.app.inject({ url: "/api/packages/nope" });
      expect(error.statusCode).toBe(404);
      expectSecurityHeaders(error);
    });

    it("pages carry the same headers", async () => {
      const page = await t.app.inject({ url: "/test-payment?session_id=cs_offline_unknown" });
      expect(page.headers["content-type"]).toMatch(/text\/html/);
      expectSecurityHeaders(page);
      expect(page.body).not.toMatch(/<script/i);
      const home = await t.app.inject({ url: "/" });
      expectSecurityHeaders(home);
    });

    it("personal answers are no-store", async () => {
      const address = nextAddress();
      const created = await t.app.inject({
        method: "POST",
        url: "/api/applicants",
        payload: applicantFixture(),
        remoteAddress: address,
      });
      expect(created.headers["cache-control"]).toBe("no-store");
      const a = await createPaidReadyApplication(t.app, {}, { remoteAddress: nextAddress() });
      const urls = [
        `/api/applicants/${a.applicantId}`,
        `/api/applications/${a.applicationId}`,
        `/api/applicants/${a.applicantId}/passport`,
      ];
      for (const url of urls) {
        const res = await t.app.inject({ url, headers: { cookie: a.cookie } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers["cache-control"], url).toBe("no-store");
      }
      const validated = await t.app.inject({
        method: "POST",
        url: "/api/validate-code",
        headers: { cookie: a.cookie },
        payload: { code: "WELCOME10", applicationId: a.applicationId },
        remoteAddress: nextAddress(),
      });
      expect(validated.headers["cache-control"]).toBe("no-store");
      const checkout = await t.app.inject({
        method: "POST",
        url: "/api/create-checkout-session",
        headers: { cookie: a.cookie },
        payload: { applicationId: a.applicationId, termsAccepted: true },
        remoteAddress: nextAddress(),
      });
      expect(checkout.headers["cache-control"]).toBe("no-store");
      const verify = await t.app.inject({
        url: `/api/checkout-sessions/${checkout.json().sessionId}/verify`,
        headers: { cookie: a.cookie },
      });
      expect(verify.headers["cache-control"]).toBe("no-store");
    });
  });

  describe("I4: unexpected errors", () => {
    it("a throwing handler answers 500 with a generic message and a reference, no stack or SQL", async () => {
      const res = await t.app.inject({ url: "/api/test/boom" });
      expect(res.statusCode).toBe(500);
      expect(res.headers["content-type"]).toMatch(/application\/json/);
      const body = json(res);
      expect(Object.keys(body).sort()).toEqual(["message", "reference"]);
      expect(body.reference).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(body.message).toBe(
        `Something went wrong on our side. Please try again in a moment. If it keeps happening, contact us and mention reference ${body.reference}.`,
      );
      for (const leak of [
        "select",
        "applicants",
        "passport_number",
        "relation",
        "/srv/app/",
        "handler.ts",
        " at ",
      ]) {
        expect(res.body).not.toContain(leak);
      }
      expectSecurityHeaders(res);
      const again = await t.app.inject({ url: "/api/test/boom", headers: { "accept-language": "fr" } });
      expect(json(again).message).toBe(fr.errors.internal!.replace("{{reference}}", json(again).reference));
      expect(json(again).reference).not.toBe(body.reference);
    });

    it("a failing database answers 500 with a generic message and a reference, no SQL", async () => {
      const a = await createPaidReadyApplication(t.app, {}, { remoteAddress: nextAddress() });
      const failure = new Error(
        'Failed query: select "id", "passport_number" from "applicants" where "applicants"."id" = $1\nparams: x',
      );
      const spy = vi.spyOn(t.database.db, "transaction").mockRejectedValue(failure);
      try {
        const res = await t.app.inject({
          url: `/api/applications/${a.applicationId}`,
          headers: { cookie: a.cookie },
        });
        expect(res.statusCode).toBe(500);
        expect(Object.keys(json(res)).sort()).toEqual(["message", "reference"]);
        expect(res.body).not.toMatch(/select|passport_number|Failed query|params/i);
        const post = await t.app.inject({
          method: "POST",
          url: "/api/validate-code",
          headers: { cookie: a.cookie },
          payload: { code: "WELCOME10", applicationId: a.applicationId },
          remoteAddress: nextAddress(),
        });
        expect(post.statusCode).toBe(500);
        expect(post.body).not.toMatch(/select|Failed query/i);
      } finally {
        spy.mockRestore();
      }
      expect(
        (await t.app.inject({ url: `/api/applications/${a.applicationId}`, headers: { cookie: a.cookie } }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe("S5: rate limits", () => {
    it("the 21st code validation within a minute from one address → 429 with a plain message", async () => {
      const address = nextAddress();
      for (let i = 1; i <= 20; i++) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/validate-code",
          payload: { code: `GUESS${i}` },
          remoteAddress: address,
        });
        expect(res.statusCode, `attempt ${i}`).toBe(200);
      }
      const limited = await t.app.inject({
        method: "POST",
        url: "/api/validate-code",
        payload: { code: "WELCOME10" },
        remoteAddress: address,
      });
      expect(limited.statusCode).toBe(429);
      expect(json(limited).message).toBe(TOO_MANY);
      expect(limited.body).not.toContain("isValid");
      const fromFrance = await t.app.inject({
        method: "POST",
        url: "/api/validate-code",
        headers: { "accept-language": "fr" },
        payload: { code: "WELCOME10" },
        remoteAddress: address,
      });
      expect(json(fromFrance).message).toBe(fr.errors.tooManyRequests);
      // Another address is not affected.
      const other = await t.app.inject({
        method: "POST",
        url: "/api/validate-code",
        payload: { code: "WELCOME10" },
        remoteAddress: nextAddress(),
      });
      expect(other.statusCode).toBe(200);
    });

    it("the 11th applicant within a minute → 429; a spoofed X-Forwarded-For does not reset the limit", async () => {
      const address = nextAddress();
      const before = await countApplicants();
      for (let i = 1; i <= 10; i++) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/applicants",
          headers: { "x-forwarded-for": `198.51.100.${i}` },
          payload: applicantFixture(),
          remoteAddress: address,
        });
        expect(res.statusCode, `applicant ${i}`).toBe(201);
      }
      for (const forwarded of [undefined, "203.0.113.77", "203.0.113.78, 10.0.0.1"]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/applicants",
          headers: forwarded ? { "x-forwarded-for": forwarded } : {},
          payload: applicantFixture(),
          remoteAddress: address,
        });
        expect(res.statusCode, String(forwarded)).toBe(429);
        expect(json(res).message).toBe(TOO_MANY);
        expect(res.headers["set-cookie"]).toBeUndefined();
      }
      expect(await countApplicants()).toBe(before + 10);
    });
  });
});

describe("production behind a trusted proxy (NODE_ENV=production, TRUST_PROXY=true)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { NODE_ENV: "production", TRUST_PROXY: "true" } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it("sends HSTS and upgrade-insecure-requests, and Secure capability cookies", async () => {
    const res = await t.app.inject({ url: "/api/summer-schools" });
    expectSecurityHeaders(res);
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
    expect(String(res.headers["content-security-policy"])).toContain("upgrade-insecure-requests");
    const created = await t.app.inject({
      method: "POST",
      url: "/api/applicants",
      headers: { "x-forwarded-for": "192.0.2.200" },
      payload: applicantFixture(),
    });
    expect(created.statusCode).toBe(201);
    const cookie = created.cookies.find((c) => c.name === "applicant_access")!;
    expect(cookie).toMatchObject({ secure: true, httpOnly: true, path: "/api" });
    expect(cookiesFrom(created)).toContain("applicant_access=");
  });

  it("counts the limit per forwarded client address", async () => {
    const post = (forwarded: string) =>
      t.app.inject({
        method: "POST",
        url: "/api/applicants",
        headers: { "x-forwarded-for": forwarded },
        payload: applicantFixture(),
      });
    for (let i = 1; i <= 10; i++) expect((await post("192.0.2.10")).statusCode, `applicant ${i}`).toBe(201);
    expect((await post("192.0.2.10")).statusCode).toBe(429);
    // A different client behind the same proxy has its own allowance.
    expect((await post("192.0.2.11")).statusCode).toBe(201);
  });
});

describe("headersOf (the security headers, decided once)", () => {
  it("records what the middleware sets and removes, in lower case", () => {
    const headers = headersOf((_req, res, next) => {
      res.setHeader("X-Frame-Options", "SAMEORIGIN");
      res.setHeader("X-Powered-By", "nobody");
      res.removeHeader("X-Powered-By");
      next();
    });
    expect(headers).toEqual({ "x-frame-options": "SAMEORIGIN" });
  });

  it("refuses a middleware whose headers could depend on the request, or that does not finish at once", () => {
    expect(() =>
      headersOf((req, res, next) => {
        res.setHeader("x-seen", String(req.url));
        next();
      }),
    ).toThrow(/must not depend on the request/);
    expect(() => headersOf((_req, _res, next) => void setTimeout(next, 0))).toThrow(/did not finish at once/);
    expect(() => headersOf((_req, _res, next) => next(new Error("bad options")))).toThrow(/bad options/);
  });
});
