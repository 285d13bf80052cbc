import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPaidReadyApplication, createTestApp, type TestApp } from "../../testing/harness";

describe("student pass check (/api/student-pass/:id)", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("shows NOT VALID for an unpaid application, VALID once paid, and only the first name and initial", async () => {
    const { app } = t;
    const { applicationId, cookie } = await createPaidReadyApplication(app, {
      email: "pass.holder@example.com",
    });
    const unpaid = await app.inject({ url: `/api/student-pass/${applicationId}` });
    expect(unpaid.statusCode).toBe(200);
    expect(unpaid.json()).toMatchObject({ valid: false, firstName: "Amara", lastInitial: "O" });

    await app.inject({
      method: "POST",
      url: "/api/validate-code",
      headers: { cookie },
      payload: { code: "FULLSCHOLAR", applicationId },
    });
    const done = await app.inject({
      method: "POST",
      url: "/api/process-zero-payment",
      headers: { cookie },
      payload: { applicationId, termsAccepted: true },
    });
    expect(done.statusCode).toBe(200);

    const paid = await app.inject({ url: `/api/student-pass/${applicationId}` });
    const body = paid.json();
    expect(body).toMatchObject({ valid: true, firstName: "Amara", lastInitial: "O" });
    expect(body.programName).toContain("Summer School");
    expect(JSON.stringify(body)).not.toMatch(/Okafor|pass\.holder|A12345678|passport/i);
    expect(paid.headers["cache-control"]).toBe("no-store");
  });

  it("answers 404 for an unknown or malformed pass id", async () => {
    expect(
      (await t.app.inject({ url: "/api/student-pass/00000000-0000-4000-8000-000000000000" })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: "/api/student-pass/1%20or%201=1" })).statusCode).toBe(404);
  });
});
