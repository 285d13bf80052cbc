import { describe, expect, it } from "vitest";
import { isValidBic, isValidIban, maskEmail, maskIban, maskTail, normalizeIban } from "./payouts";
import { payoutDetailsSchema } from "./schemas/payouts";

/** See docs/product/codes-and-partners.md#payout-runs: payout details validated (IBAN checksum) and shown masked. */
describe("IBAN", () => {
  it("accepts valid IBANs of several countries, typed with spaces or in lower case", () => {
    for (const iban of [
      "NL91ABNA0417164300",
      "nl91 abna 0417 1643 00",
      "DE89 3704 0044 0532 0130 00",
      "FR14 2004 1010 0505 0001 3M02 606",
      "GB29 NWBK 6016 1331 9268 19",
      "BE68 5390 0754 7034",
    ])
      expect(isValidIban(iban), iban).toBe(true);
  });

  it("refuses a wrong checksum, a wrong length for the country, an unknown country and other characters", () => {
    expect(isValidIban("NL92ABNA0417164300")).toBe(false); // one check digit off
    expect(isValidIban("NL91ABNA0417164301")).toBe(false); // one account digit off
    expect(isValidIban("NL91ABNA041716430")).toBe(false); // too short for NL (18)
    expect(isValidIban("DE8937040044053201300")).toBe(false); // too short for DE (22)
    expect(isValidIban("ZZ91ABNA0417164300")).toBe(false);
    expect(isValidIban("NL91ABNA04171643!0")).toBe(false);
    expect(isValidIban("")).toBe(false);
  });

  it("is normalised to its electronic form", () => {
    expect(normalizeIban(" nl91 abna-0417 1643 00 ")).toBe("NL91ABNA0417164300");
  });

  it("is masked to the country and the last 4 characters", () => {
    expect(maskIban("NL91ABNA0417164300")).toBe("NL** **** **** **** 4300");
    expect(maskIban("DE89370400440532013000")).toBe("DE** **** **** **** **** 3000");
    expect(maskIban("NL91ABNA0417164300")).not.toContain("0417");
  });
});

describe("BIC and other masks", () => {
  it("accepts 8 or 11 characters in the ISO 9362 shape", () => {
    expect(isValidBic("ABNANL2A")).toBe(true);
    expect(isValidBic("icbkcnbjxxx")).toBe(true);
    expect(isValidBic("ABNANL2")).toBe(false);
    expect(isValidBic("ABNANL2AXX")).toBe(false);
    expect(isValidBic("1BNANL2A")).toBe(false);
  });

  it("keeps only the last 4 characters of an account number and the first letter of an e-mail", () => {
    expect(maskTail("6222 0212 3456 7890")).toBe("**** 7890");
    expect(maskEmail("amara@example.com")).toBe("a***@example.com");
  });
});

describe("payout details schema", () => {
  it("normalises a SEPA account and refuses a bad IBAN with its message key", () => {
    const ok = payoutDetailsSchema.parse({
      method: "sepa",
      accountHolder: " Li Wei ",
      iban: "nl91 abna 0417 1643 00",
    });
    expect(ok).toMatchObject({ accountHolder: "Li Wei", iban: "NL91ABNA0417164300" });
    const bad = payoutDetailsSchema.safeParse({
      method: "sepa",
      accountHolder: "Li Wei",
      iban: "NL92ABNA0417164300",
    });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe("errors.payouts.invalidIban");
  });

  it("requires what a bank needs for a SWIFT transfer", () => {
    const base = {
      method: "swift",
      accountHolder: "Adaeze Okafor",
      accountNumber: "0123 456 789",
      swiftCode: "FBNINGLA",
      bankName: "First Bank of Nigeria",
      bankAddress: "35 Marina, Lagos",
      country: "ng",
    };
    expect(payoutDetailsSchema.parse(base)).toMatchObject({ accountNumber: "0123456789", country: "NG" });
    expect(payoutDetailsSchema.safeParse({ ...base, bankAddress: "" }).success).toBe(false);
    expect(payoutDetailsSchema.safeParse({ ...base, swiftCode: "FBN" }).success).toBe(false);
    expect(payoutDetailsSchema.safeParse({ method: "paypal", email: "not an e-mail" }).success).toBe(false);
  });
});
