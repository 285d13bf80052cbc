import { and, eq, like } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminApplicationDetail, AdminApplicationList } from "../../../shared/admin";
import { balanceSummarySchema } from "../../../shared/schemas/balances";
import { auditLog, emailOutbox } from "../../db/schema";
import { apiOf, expectRouteStatuses, loginRoles, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import { createTestApp, json, type TestApp } from "../../testing/harness";
import { createDepositApplication, createDepositSchool } from "./testing";

/**
 * The back office's balances (docs/product/payments.md#deposit-and-balance): the summary of outstanding and
 * overdue balances, the list filtered by payment state, the CSV's balance columns, and "send
 * reminder now". Today is 1 August 2027 in The Hague (injected clock): the cohort starting on
 * 15 August 2027 is overdue since 18 July; the one starting on 17 October is due on 19 September.
 */

const NOW = new Date("2027-08-01T10:00:00Z");
let t: TestApp;
let cookies: RoleCookies;
const api = apiOf(() => t.app, SAME_ORIGIN);
const ids: Record<string, string> = {};
const schoolIds: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ seed: false, now: () => NOW });
  cookies = (await loginRoles(t.app)).cookies;
  const db = t.database.db;
  const august = await createDepositSchool(db, { startDate: "2027-08-15", name: "August cohort" });
  const october = await createDepositSchool(db, { startDate: "2027-10-17", name: "October cohort" });
  schoolIds.august = august.id;
  schoolIds.october = october.id;
  const add = async (
    name: string,
    school: typeof august,
    input: Parameters<typeof createDepositApplication>[2],
  ) => {
    ids[name] = (await createDepositApplication(db, school, input)).applicationId;
  };
  await add("overdue", august, { language: "fr", firstName: "Awa" });
  await add("due", october, {});
  await add("due2", october, { status: "accepted", amountPaidCents: 200000 });
  await add("paid", october, { paymentStatus: "paid", amountPaidCents: 304500 });
  await add("withdrawn", august, { status: "withdrawn" });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

const summary = async (cookie: string) =>
  balanceSummarySchema.parse(json(await api("GET", "/api/admin/balances/summary", cookie)));

describe("balances in the back office", () => {
  it("sums outstanding and overdue balances by the one rule (withdrawn and paid-in-full owe nothing)", async () => {
    expect(await summary(cookies.owner)).toEqual({
      today: "2027-08-01",
      // 2,131.50 + 2,131.50 + 1,045.00 EUR.
      outstanding: { count: 3, amount: 213150 + 213150 + 104500 },
      overdue: { count: 1, amount: 213150 },
    });
    // The dashboard is for every admin role: admissions and finance see the same figures.
    expect(await summary(cookies.admissions)).toEqual(await summary(cookies.finance));
  });

  it("filters the application list by 'deposit paid, balance due' and 'balance overdue', with the state on each row", async () => {
    const list = async (state: string) =>
      json<AdminApplicationList>(
        await api("GET", `/api/admin/applications?paymentStatus=${state}`, cookies.owner),
      );
    const due = await list("deposit_paid");
    // A withdrawn application that paid only its deposit owes nothing: it is "deposit paid, nothing
    // more due", never "balance due" (docs/product/payments.md#payment-status).
    expect(due.items.map((i) => i.id).sort()).toEqual([ids.due, ids.due2].sort());
    expect((await list("deposit_only")).items).toEqual([
      expect.objectContaining({ id: ids.withdrawn, balanceDue: 0, dueDate: null, amountPaid: 91350 }),
    ]);
    expect(due.items.find((i) => i.id === ids.due2)).toMatchObject({
      paymentStatus: "deposit_paid",
      balanceDue: 104500,
      dueDate: "2027-09-19",
    });
    const overdue = await list("balance_overdue");
    expect(overdue.items.map((i) => i.id)).toEqual([ids.overdue]);
    expect(overdue.items[0]).toMatchObject({
      paymentStatus: "balance_overdue",
      balanceDue: 213150,
      dueDate: "2027-07-18",
    });
    // Nothing owed is never "paid" when a balance is owed, and a paid-in-full row is "paid".
    expect((await list("paid")).items.map((i) => i.id)).toEqual([ids.paid]);
  });

  it("exports the balance due and its due date in the CSV", async () => {
    const res = await api(
      "GET",
      "/api/admin/applications.csv?paymentStatus=balance_overdue",
      cookies.finance,
    );
    expect(res.statusCode).toBe(200);
    const lines = res.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toContain("Payment status");
    expect(lines[0]).toContain("Balance due (EUR),Balance due date");
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(",balance_overdue,");
    expect(lines[1]).toContain(",3045.00,913.50,0.00,2131.50,2027-07-18,");
  });

  it("shows the state and balance on the application detail", async () => {
    const detail = json<AdminApplicationDetail>(
      await api("GET", `/api/admin/applications/${ids.overdue}`, cookies.admissions),
    );
    expect(detail).toMatchObject({
      paymentStatus: "balance_overdue",
      balanceDue: 213150,
      dueDate: "2027-07-18",
    });
  });

  it("sends a reminder now, each press its own e-mail, audited, in the student's language", async () => {
    const url = `/api/admin/applications/${ids.overdue}/balance-reminder`;
    const first = await api("POST", url, cookies.finance);
    expect(first.statusCode).toBe(202);
    expect(json(first)).toEqual({ balanceDue: 213150, dueDate: "2027-07-18", overdue: true });
    expect((await api("POST", url, cookies.owner)).statusCode).toBe(202);
    const queued = await t.database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `balance:${ids.overdue}:manual:%`));
    expect(queued).toHaveLength(2);
    expect(queued[0]!.subject).toBe("Le solde de votre programme Session de septembre est en retard");
    expect(queued[0]!.textBody).toContain("était dû le 18 juillet 2027");
    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "application.balanceReminder"), eq(auditLog.entityId, ids.overdue!)));
    expect(audit).toHaveLength(2);
  });

  it("answers 409 when nothing is owed, 404 for an unknown id", async () => {
    for (const name of ["paid", "withdrawn"]) {
      const res = await api("POST", `/api/admin/applications/${ids[name]}/balance-reminder`, cookies.finance);
      expect(res.statusCode, name).toBe(409);
      expect(json(res).message).toBe("Nothing is owed on this application, so no reminder was sent.");
    }
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect(
      (await api("POST", `/api/admin/applications/${unknown}/balance-reminder`, cookies.finance)).statusCode,
    ).toBe(404);
    expect(
      (await api("POST", "/api/admin/applications/not-a-uuid/balance-reminder", cookies.finance)).statusCode,
    ).toBe(404);
  });

  it("counts deposit-paid applications as taken places, on the dashboard and in the public catalogue", async () => {
    t.app.services.catalogue.invalidate();
    const dashboard = json(await api("GET", "/api/admin/dashboard", cookies.owner));
    const taken = Object.fromEntries(
      (dashboard.cohorts as Array<{ id: string; paid: number }>).map((c) => [c.id, c.paid]),
    );
    // August: the overdue application; the withdrawn one that paid its deposit keeps its money until
    // an admin refunds it, but not its place (docs/product/admissions.md#waiting-list-offers). October: two deposit-paid and one
    // paid in full.
    expect(taken[schoolIds.august!]).toBe(1);
    expect(taken[schoolIds.october!]).toBe(3);
    const schools = json<Array<{ id: string; placesLeft: number }>>(await api("GET", "/api/summer-schools"));
    expect(schools.find((s) => s.id === schoolIds.october)?.placesLeft).toBe(47);
  });

  it("refuses anonymous callers, students, affiliates (401) and the admissions role for the reminder (403)", async () => {
    await expectRouteStatuses(api, cookies, [["GET", "/api/admin/balances/summary"]], {
      anonymous: 401,
      student: 401,
      affiliate: 401,
      admissions: 200,
      finance: 200,
      owner: 200,
    });
    await expectRouteStatuses(
      api,
      cookies,
      [["POST", `/api/admin/applications/${ids.due}/balance-reminder`]],
      {
        anonymous: 401,
        student: 401,
        affiliate: 401,
        admissions: 403,
      },
    );
    const sent = await t.database.db
      .select()
      .from(emailOutbox)
      .where(like(emailOutbox.dedupeKey, `balance:${ids.due}:%`));
    expect(sent).toEqual([]);
  });
});
