import { describe, expect, it } from "vitest";
import { contract } from "../../../shared/api/contract";
import { z } from "../../../shared/schemas/zod";
import { type FuzzRequest, problemOf, requestUrl } from "./checks";

const getThing = contract({
  method: "GET",
  path: "/api/things/:id",
  access: "applicant",
  summary: "A thing",
  params: z.object({ id: z.uuid() }),
  query: z.object({ page: z.coerce.number().optional(), tags: z.array(z.string()).optional() }),
  response: z.object({ id: z.uuid(), total: z.number().int() }),
});
const exportThings = contract({
  method: "GET",
  path: "/api/admin/things.csv",
  access: "admin",
  summary: "Things as CSV",
  produces: "text/csv",
});
const request = (over: Partial<FuzzRequest> = {}): FuzzRequest => ({
  caller: "applicant",
  spoiled: "none",
  params: { id: "5b6b4f1e-8f6a-4c1e-9a57-3d7e0c1f2a9b" },
  query: undefined,
  body: undefined,
  ...over,
});
const JSON_TYPE = "application/json; charset=utf-8";

describe("the fuzzer's verdict on an answer", () => {
  it("refuses any 5xx", () => {
    expect(problemOf(getThing, request(), 500, JSON_TYPE, '{"message":"x"}')).toBe("a 500");
    expect(problemOf(getThing, request(), 503, JSON_TYPE, '{"message":"x"}')).toBe("a 503");
  });

  it("checks a 2xx against the response schema", () => {
    const ok = JSON.stringify({ id: "5b6b4f1e-8f6a-4c1e-9a57-3d7e0c1f2a9b", total: 3 });
    expect(problemOf(getThing, request(), 200, JSON_TYPE, ok)).toBeUndefined();
    expect(problemOf(getThing, request(), 200, JSON_TYPE, '{"id":"x","total":1.5}')).toMatch(
      /breaks the contract's response schema: id: .*; total/,
    );
    expect(problemOf(getThing, request(), 200, "text/html", "<p>")).toBe("a 200 whose body is not JSON");
  });

  it("checks the media type of a file", () => {
    const admin = request({ caller: "admin:finance" });
    expect(problemOf(exportThings, admin, 200, "text/csv; charset=utf-8", "a,b")).toBeUndefined();
    expect(problemOf(exportThings, admin, 200, JSON_TYPE, "{}")).toBe(
      "content-type application/json; charset=utf-8, not text/csv",
    );
  });

  it("takes a stored document in any of the types its contract names", () => {
    const proof = contract({
      method: "GET",
      path: "/api/student/things/:id/proof",
      access: "student",
      summary: "A proof",
      params: z.object({ id: z.uuid() }),
      produces: ["application/pdf", "image/jpeg", "image/png"],
    });
    const student = request({ caller: "student" });
    expect(problemOf(proof, student, 200, "application/pdf", "%PDF-1.4")).toBeUndefined();
    expect(problemOf(proof, student, 200, "image/png", "")).toBeUndefined();
    expect(problemOf(proof, student, 200, "text/html", "<p>")).toBe(
      "content-type text/html, not application/pdf or image/jpeg or image/png",
    );
  });

  it("refuses a 2xx without the endpoint's session", () => {
    const ok = JSON.stringify({ id: "5b6b4f1e-8f6a-4c1e-9a57-3d7e0c1f2a9b", total: 3 });
    expect(problemOf(getThing, request({ caller: "none" }), 200, JSON_TYPE, ok)).toMatch(/caller "none"/);
    expect(problemOf(exportThings, request({ caller: "student" }), 200, "text/csv", "")).toMatch(/student/);
  });

  it("wants a 4xx to be JSON { message }", () => {
    expect(problemOf(getThing, request(), 404, JSON_TYPE, '{"message":"Not found"}')).toBeUndefined();
    expect(problemOf(getThing, request(), 400, "text/plain", "Bad Request")).toMatch(
      /not JSON \{ message \}/,
    );
    expect(problemOf(getThing, request(), 400, JSON_TYPE, '{"error":"x"}')).toMatch(/not JSON \{ message \}/);
  });

  it("puts any parameter and query value in the URL", () => {
    expect(
      requestUrl(
        getThing,
        request({ params: { id: "a/b c" }, query: { page: 2, tags: ["x", "y"], no: undefined } }),
      ),
    ).toBe("/api/things/a%2Fb%20c?page=2&tags=x&tags=y");
    expect(requestUrl(getThing, request({ params: { id: { nested: 1 } } }))).toBe(
      `/api/things/${encodeURIComponent('{"nested":1}')}`,
    );
    expect(requestUrl(getThing, request({ params: {} }))).toBe("/api/things/");
    // A lone surrogate has no UTF-8 form: sent as U+FFFD, as a browser does, not an exception.
    expect(requestUrl(getThing, request({ params: { id: "a\uD800" } }))).toBe("/api/things/a%EF%BF%BD");
  });
});
