import { describe, expect, it } from "vitest";
import { clawbackForRefund, commissionForPayment, commissionStateOf } from "./commissions";

describe("commission rounding (docs/product/codes-and-partners.md#clawbacks: a full refund claws back exactly what was earned)", () => {
  it("a percentage is taken of the amount excluding VAT, rounded half up", () => {
    expect(
      commissionForPayment(
        { type: "percentage", percent: 10 },
        { netPaid: 251_653, paidBefore: 0, paidAfter: 304_500, total: 304_500 },
      ),
    ).toBe(25_165);
    expect(
      commissionForPayment(
        { type: "percentage", percent: 15 },
        { netPaid: 1_003, paidBefore: 0, paidAfter: 1_214, total: 1_214 },
      ),
    ).toBe(150);
  });

  it("a fixed amount is spread over deposit and balance and adds up to exactly the fixed amount", () => {
    const rate = { type: "fixed" as const, fixedCents: 30_001 };
    for (const [total, deposit] of [
      [304_500, 91_350],
      [100_000, 33_333],
      [7, 3],
    ] as const) {
      const first = commissionForPayment(rate, { netPaid: 0, paidBefore: 0, paidAfter: deposit, total });
      const second = commissionForPayment(rate, { netPaid: 0, paidBefore: deposit, paidAfter: total, total });
      expect(first + second).toBe(30_001);
      expect(first).toBeGreaterThan(0);
    }
    // A payment beyond the total (an accepted overpayment) earns nothing more.
    expect(commissionForPayment(rate, { netPaid: 0, paidBefore: 100, paidAfter: 150, total: 100 })).toBe(0);
  });

  it("refunds in any parts claw back exactly the commission of a fully refunded payment", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    for (let round = 0; round < 500; round++) {
      const payment = 1 + Math.floor(random() * 400_000);
      const earned = Math.floor(random() * 50_000);
      let refunded = 0;
      let clawed = 0;
      while (refunded < payment) {
        const part = Math.min(payment - refunded, 1 + Math.floor(random() * payment));
        const c = clawbackForRefund(earned, {
          paymentAmount: payment,
          refundedBefore: refunded,
          refundedAfter: refunded + part,
        });
        expect(c).toBeLessThanOrEqual(0);
        clawed += c;
        refunded += part;
      }
      expect(clawed).toBe(-earned);
    }
  });

  it("a partial refund claws back its share: half of the payment, half of the commission", () => {
    expect(
      clawbackForRefund(25_165, { paymentAmount: 304_500, refundedBefore: 0, refundedAfter: 152_250 }),
    ).toBe(-12_583);
  });
});

describe("commission states", () => {
  const now = new Date("2027-06-01T10:00:00Z");
  it("pending during the hold, approved after it, in payout, then paid", () => {
    const held = { availableAt: "2027-06-10T22:00:00Z", payoutId: null };
    const free = { availableAt: "2027-05-01T22:00:00Z", payoutId: null };
    expect(commissionStateOf(held, null, now)).toBe("pending");
    expect(commissionStateOf(free, null, now)).toBe("approved");
    expect(commissionStateOf({ ...free, payoutId: "p" }, "pending", now)).toBe("in_payout");
    expect(commissionStateOf({ ...free, payoutId: "p" }, "paid", now)).toBe("paid");
    // A cancelled payout gives its entries back.
    expect(commissionStateOf({ ...free, payoutId: "p" }, "cancelled", now)).toBe("approved");
  });
});
