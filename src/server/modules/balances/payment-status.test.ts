import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdminApplicationDetail, AdminApplicationList } from "../../../shared/admin";
import { OWING_STATES, PAYMENT_STATES, type PaymentState } from "../../../shared/balance";
import { LANGUAGES } from "../../../shared/i18n/languages";
import { balanceSummarySchema } from "../../../shared/schemas/balances";
import { studentApplicationListSchema, studentPaymentSchema } from "../../../shared/schemas/student-payment";
import { loginAsStudent } from "../../testing/accounts";
import { apiOf, loginRoles, type RoleCookies, SAME_ORIGIN } from "../../testing/admin";
import { createTestApp, json, type TestApp } from "../../testing/harness";
import {
  addLedger,
  createDepositApplication,
  createDepositSchool,
  type DepositApplicationInput,
} from "./testing";

/**
 * See docs/product/payments.md#payment-status: one payment-status rule, used by every screen, filter, count and export. The
 * same applications are read through the student portal (list and payment page), the back office
 * (list, detail, payment filter, CSV) and the dashboard's balance figures, and every one of them
 * must tell the same state, the same amount paid net of refunds (docs/product/payments.md#refunds) and the same
 * balance. Today is 1 August 2027 in The Hague: the August cohort's balance was due on 18 July
 * (overdue), the October cohort's falls due on 19 September. Total 3,045.00 EUR, deposit 30 %.
 */

const NOW = new Date("2027-08-01T10:00:00Z");
const TOTAL = 304_500;
const DEPOSIT = 91_350;

interface Fixture {
  cohort: "august" | "october";
  application: DepositApplicationInput;
  ledger?: Parameters<typeof addLedger>[2];
  /** What every surface must say. */
  expected: { state: PaymentState; paid: number; balanceDue: number };
}

const FIXTURES: Record<string, Fixture> = {
  depositPaid: {
    cohort: "october",
    application: { status: "submitted", paymentStatus: "deposit_paid", amountPaidCents: DEPOSIT },
    ledger: { paidCents: DEPOSIT },
    expected: { state: "deposit_paid", paid: DEPOSIT, balanceDue: TOTAL - DEPOSIT },
  },
  depositOverdue: {
    cohort: "august",
    application: { status: "accepted", paymentStatus: "deposit_paid", amountPaidCents: DEPOSIT },
    ledger: { paidCents: DEPOSIT },
    expected: { state: "balance_overdue", paid: DEPOSIT, balanceDue: TOTAL - DEPOSIT },
  },
  depositThenWithdrawn: {
    cohort: "october",
    application: { status: "withdrawn", paymentStatus: "deposit_paid", amountPaidCents: DEPOSIT },
    ledger: { paidCents: DEPOSIT },
    expected: { state: "deposit_only", paid: DEPOSIT, balanceDue: 0 },
  },
  depositPartlyRefunded: {
    cohort: "october",
    application: { status: "submitted", paymentStatus: "partially_refunded", amountPaidCents: DEPOSIT },
    ledger: { paidCents: DEPOSIT, refundCents: [20_000] },
    // An add-on of 200.00 dropped and refunded from the deposit: charged and paid both net of
    // refunds (docs/product/payments.md#refunds, decision 035), the balance is what is left of the lower charge.
    expected: {
      state: "deposit_paid",
      paid: DEPOSIT - 20_000,
      balanceDue: TOTAL - 20_000 - (DEPOSIT - 20_000),
    },
  },
  paidThenPartlyRefundedCancelled: {
    cohort: "october",
    application: { status: "cancelled", paymentStatus: "partially_refunded", amountPaidCents: TOTAL },
    // The refund policy's 70 %, in two refunds.
    ledger: { paidCents: TOTAL, refundCents: [200_000, 13_150] },
    expected: { state: "partially_refunded", paid: TOTAL - 213_150, balanceDue: 0 },
  },
  paidThenPartlyRefundedOpen: {
    cohort: "october",
    application: { status: "accepted", paymentStatus: "partially_refunded", amountPaidCents: TOTAL },
    ledger: { paidCents: TOTAL, refundCents: [50_000] },
    // Still coming, 500.00 refunded: a refund is never asked back as a balance.
    expected: { state: "partially_refunded", paid: TOTAL - 50_000, balanceDue: 0 },
  },
  fullyRefunded: {
    cohort: "october",
    application: { status: "withdrawn", paymentStatus: "refunded", amountPaidCents: TOTAL },
    ledger: { paidCents: TOTAL, refundCents: [TOTAL] },
    expected: { state: "refunded", paid: 0, balanceDue: 0 },
  },
  scholarship: {
    cohort: "october",
    // A 100 % scholarship code: the quote is 0, completed by the zero-payment path.
    application: { status: "accepted", paymentStatus: "paid", totalAmountCents: 0, amountPaidCents: 0 },
    expected: { state: "paid", paid: 0, balanceDue: 0 },
  },
};

let t: TestApp;
let cookies: RoleCookies;
let studentCookie: string;
const api = apiOf(() => t.app, SAME_ORIGIN);
const ids: Record<string, string> = {};
const nameOf = (id: string) => Object.keys(ids).find((name) => ids[name] === id)!;

beforeAll(async () => {
  t = await createTestApp({ seed: false, now: () => NOW });
  cookies = (await loginRoles(t.app)).cookies;
  const email = `payment-status-${Date.now()}@example.org`;
  studentCookie = (await loginAsStudent(t.app, { email })).cookie;
  const db = t.database.db;
  const cohorts = {
    august: await createDepositSchool(db, { startDate: "2027-08-15", name: "August cohort" }),
    october: await createDepositSchool(db, { startDate: "2027-10-17", name: "October cohort" }),
  };
  for (const [name, f] of Object.entries(FIXTURES)) {
    const { applicationId } = await createDepositApplication(db, cohorts[f.cohort], {
      ...f.application,
      email,
    });
    if (f.ledger) await addLedger(db, applicationId, f.ledger);
    ids[name] = applicationId;
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
});

/** One line of CSV into its cells (quoted cells with commas and doubled quotes). */
function csvCells(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

const euros = (cents: number) => (cents / 100).toFixed(2);

describe("one payment-status rule across the portal, the back office, the dashboard and the CSV", () => {
  it("tells the same state, paid net of refunds and balance everywhere, for every fixture", async () => {
    const expected = Object.fromEntries(Object.entries(FIXTURES).map(([name, f]) => [name, f.expected]));
    const fromEverySurface: Record<string, Record<string, unknown>> = {};
    const seen = (surface: string, id: string, value: Fixture["expected"]) => {
      fromEverySurface[surface] ??= {};
      fromEverySurface[surface]![nameOf(id)] = value;
    };

    // The student portal: the list of applications and each payment page.
    const portal = studentApplicationListSchema.parse(
      json(await t.app.inject({ url: "/api/student/applications", headers: { cookie: studentCookie } })),
    );
    for (const a of portal)
      seen("portal list", a.id, { state: a.paymentState, paid: a.amountPaid, balanceDue: a.balanceDue });
    for (const id of Object.values(ids)) {
      const page = studentPaymentSchema.parse(
        json(
          await t.app.inject({
            url: `/api/student/applications/${id}/payment`,
            headers: { cookie: studentCookie },
          }),
        ),
      );
      seen("portal payment page", id, {
        state: page.state,
        paid: page.paid - page.refunded,
        balanceDue: page.balanceDue,
      });
    }

    // The back office: the list and each application's detail.
    const list = json<AdminApplicationList>(
      await api("GET", "/api/admin/applications?pageSize=100", cookies.owner),
    );
    for (const item of list.items)
      seen("admin list", item.id, {
        state: item.paymentStatus,
        paid: item.amountPaid,
        balanceDue: item.balanceDue,
      });
    for (const id of Object.values(ids)) {
      const detail = json<AdminApplicationDetail>(
        await api("GET", `/api/admin/applications/${id}`, cookies.finance),
      );
      seen("admin detail", id, {
        state: detail.paymentStatus,
        paid: detail.amountPaid,
        balanceDue: detail.balanceDue,
      });
    }

    // The CSV export.
    const csv = await api("GET", "/api/admin/applications.csv", cookies.finance);
    expect(csv.statusCode).toBe(200);
    const [header, ...rows] = csv.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n")
      .map(csvCells);
    const col = (name: string) => {
      const i = header!.indexOf(name);
      expect(i, name).toBeGreaterThanOrEqual(0);
      return i;
    };
    const [idCol, stateCol, paidCol, balanceCol] = [
      col("Application ID"),
      col("Payment status"),
      header!.findIndex((name) => name.startsWith("Paid")),
      col("Balance due (EUR)"),
    ];
    for (const cells of rows)
      seen("CSV", cells[idCol]!, {
        state: cells[stateCol] as PaymentState,
        paid: Math.round(Number(cells[paidCol]) * 100),
        balanceDue: Math.round(Number(cells[balanceCol]) * 100),
      });

    for (const surface of ["portal list", "portal payment page", "admin list", "admin detail", "CSV"])
      expect(fromEverySurface[surface], surface).toEqual(expected);
    // Spelled out, the two cases of the issue: withdrawn is not "balance due", refunds are netted.
    expect(fromEverySurface.CSV!.depositThenWithdrawn).toEqual({
      state: "deposit_only",
      paid: DEPOSIT,
      balanceDue: 0,
    });
    expect(rows.find((c) => c[idCol] === ids.paidThenPartlyRefundedCancelled)![paidCol]).toBe(euros(91_350));
  });

  it("filters by each state exactly the applications shown in it, and the dashboard counts the same ones", async () => {
    const inState = (state: PaymentState) =>
      Object.entries(FIXTURES)
        .filter(([, f]) => f.expected.state === state)
        .map(([name]) => ids[name]!)
        .sort();
    const filtered: Partial<Record<PaymentState, string[]>> = {};
    for (const state of PAYMENT_STATES) {
      const page = json<AdminApplicationList>(
        await api("GET", `/api/admin/applications?paymentStatus=${state}&pageSize=100`, cookies.owner),
      );
      filtered[state] = page.items.map((i) => i.id).sort();
      expect(filtered[state], state).toEqual(inState(state));
      expect(
        page.items.every((i) => i.paymentStatus === state),
        state,
      ).toBe(true);
      // The CSV with the same filter has the same rows.
      const csv = await api("GET", `/api/admin/applications.csv?paymentStatus=${state}`, cookies.owner);
      const csvIds = csv.body
        .replace(/^\uFEFF/, "")
        .trimEnd()
        .split("\r\n")
        .slice(1)
        .map((line) => csvCells(line)[0]!)
        .sort();
      expect(csvIds, `CSV ${state}`).toEqual(filtered[state]);
    }
    // The dashboard's balance figures link to those two filters and count what they list.
    const summary = balanceSummarySchema.parse(
      json(await api("GET", "/api/admin/balances/summary", cookies.owner)),
    );
    const owing = Object.values(FIXTURES).filter((f) => OWING_STATES.includes(f.expected.state));
    expect(summary.outstanding.count - summary.overdue.count).toBe(filtered.deposit_paid!.length);
    expect(summary.overdue.count).toBe(filtered.balance_overdue!.length);
    expect(summary.outstanding).toEqual({
      count: owing.length,
      amount: owing.reduce((sum, f) => sum + f.expected.balanceDue, 0),
    });
    expect(filtered.deposit_paid).not.toContain(ids.depositThenWithdrawn);
  });

  it("names every payment state in English, Chinese and French, for the back office and the portal", () => {
    for (const language of LANGUAGES)
      for (const ns of ["admin", "account"]) {
        const file = join(__dirname, "../../../shared/i18n/locales", language, `${ns}.json`);
        const labels = JSON.parse(readFileSync(file, "utf8")).paymentStatus as Record<string, string>;
        for (const state of PAYMENT_STATES)
          expect(labels[state]?.trim(), `${language}/${ns} ${state}`).toBeTruthy();
      }
  });
});
