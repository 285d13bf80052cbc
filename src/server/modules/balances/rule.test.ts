import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceOf, PAYMENT_STATES, takesPlace } from "../../../shared/balance";
import { APPLICATION_STATUSES, PAYMENT_STATUSES } from "../../../shared/schemas/admin";
import { applications, summerSchools } from "../../db/schema";
import { createTestApp, type TestApp } from "../../testing/harness";
import {
  balanceDueSql,
  paidInFullSql,
  paidNetSql,
  paymentStateIs,
  paymentStateSql,
  refundedCentsSql,
  takesPlaceSql,
} from "./rule";
import { addLedger, createDepositApplication, createDepositSchool, type DepositSchool } from "./testing";

/**
 * The SQL filters of the back office follow `balanceOf` exactly (docs/product/payments.md#deposit-and-balance: "SQL that follows
 * balanceOf exactly"): over every application status × payment status × amount × refunds, in a
 * cohort whose balance is overdue, one due today and one due later, the state, the balance, what
 * was paid net of refunds and "paid in full" the SQL gives are those of `balanceOf` (docs/product/payments.md#payment-status).
 */

const TODAY = "2027-07-18";
let t: TestApp;
const schools: DepositSchool[] = [];

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const db = t.database.db;
  // Due dates (start − 28 days): 2027-07-17 (overdue on TODAY), 2027-07-18 (due today), 2027-08-20.
  for (const startDate of ["2027-08-14", "2027-08-15", "2027-09-17"]) {
    schools.push(await createDepositSchool(db, { startDate }));
  }
  const amounts: Array<[number | null, number]> = [
    [null, 0],
    [304500, 0],
    [304500, 91350],
    [304500, 304500],
    [304500, 400000],
  ];
  for (const school of schools) {
    for (const status of APPLICATION_STATUSES) {
      for (const paymentStatus of PAYMENT_STATUSES) {
        for (const [totalAmountCents, amountPaidCents] of amounts) {
          await createDepositApplication(db, school, {
            status,
            paymentStatus,
            totalAmountCents,
            amountPaidCents,
          });
        }
        // Refunds (docs/product/payments.md#payment-status): part of a deposit, part and all of a full payment, a pending
        // refund (not counted) and a refund of a flagged payment (not counted either).
        const refunded: Array<[number, number, Parameters<typeof addLedger>[2]]> = [
          [304500, 91350, { paidCents: 91350, refundCents: [20000] }],
          [304500, 304500, { paidCents: 304500, refundCents: [100000, 113150] }],
          [304500, 304500, { paidCents: 304500, refundCents: [304500] }],
          [304500, 91350, { paidCents: 91350, refundCents: [20000], status: "pending" }],
          [304500, 91350, { paidCents: 91350, refundCents: [91350], flagged: true }],
        ];
        for (const [totalAmountCents, amountPaidCents, ledger] of refunded) {
          const { applicationId } = await createDepositApplication(db, school, {
            status,
            paymentStatus,
            totalAmountCents,
            amountPaidCents,
          });
          await addLedger(db, applicationId, ledger);
        }
      }
    }
  }
}, 120_000);

afterAll(async () => {
  await t?.close();
});

async function rows() {
  return t.database.db
    .select({
      id: applications.id,
      status: applications.status,
      paymentStatus: applications.paymentStatus,
      totalAmountCents: applications.totalAmountCents,
      amountPaidCents: applications.amountPaidCents,
      refundedCents: refundedCentsSql,
      startDate: summerSchools.startDate,
      state: paymentStateSql(TODAY),
      balanceDue: sql<number>`${balanceDueSql}::int`,
      paidNet: sql<number>`${paidNetSql}::int`,
      paidInFull: paidInFullSql,
      takesPlace: takesPlaceSql,
    })
    .from(applications)
    .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId));
}

describe("the SQL balance rule", () => {
  it("gives every row the state and balance balanceOf gives it", async () => {
    const all = await rows();
    expect(all.length).toBe(3 * APPLICATION_STATUSES.length * PAYMENT_STATUSES.length * 10);
    const states = new Set<string>();
    for (const row of all) {
      const expected = balanceOf(row, TODAY);
      expect({
        id: row.id,
        state: row.state,
        balanceDue: Number(row.balanceDue),
        paidNet: Number(row.paidNet),
        paidInFull: row.paidInFull,
      }).toEqual({
        id: row.id,
        state: expected.state,
        balanceDue: expected.balanceDue,
        paidNet: expected.paidNet,
        paidInFull: expected.paidInFull,
      });
      states.add(row.state);
    }
    // The grid reaches every state, so the comparison is not vacuous.
    for (const state of PAYMENT_STATES) expect(states).toContain(state);
  });

  it("filters by each payment state exactly as balanceOf decides", async () => {
    const all = await rows();
    for (const state of PAYMENT_STATES) {
      const filtered = await t.database.db
        .select({ id: applications.id })
        .from(applications)
        .innerJoin(summerSchools, eq(summerSchools.id, applications.summerSchoolId))
        .where(paymentStateIs(state, TODAY));
      const expected = all.filter((r) => balanceOf(r, TODAY).state === state).map((r) => r.id);
      expect(filtered.map((r) => r.id).sort(), state).toEqual(expected.sort());
    }
  });

  it("counts a deposit-paid place as taken, and an unpaid, refunded, withdrawn or cancelled one as free", async () => {
    const all = await rows();
    for (const row of all) {
      expect(row.takesPlace, `${row.status} ${row.paymentStatus}`).toBe(takesPlace(row));
      expect(row.takesPlace, `${row.status} ${row.paymentStatus}`).toBe(
        ["paid", "deposit_paid", "partially_refunded"].includes(row.paymentStatus) &&
          !["withdrawn", "cancelled", "rejected"].includes(row.status),
      );
    }
    // See docs/product/admissions.md#waiting-list-offers: a paid application that was withdrawn frees its place.
    const withdrawnPaid = all.filter((r) => r.status === "withdrawn" && r.paymentStatus === "paid");
    expect(withdrawnPaid.length).toBeGreaterThan(0);
    expect(withdrawnPaid.every((r) => r.takesPlace === false)).toBe(true);
  });
});
