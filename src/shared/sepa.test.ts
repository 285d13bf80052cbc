import { describe, expect, it } from "vitest";
import { easterSunday, isLatinName, isTarget2BusinessDay, nextTarget2BusinessDay, sepaLatin } from "./sepa";

describe("names in the SEPA character set (docs/product/codes-and-partners.md#sepa-file)", () => {
  it.each([
    ["Łukasz Müller-Łasak", "Lukasz Muller-Lasak"],
    ["Jürgen Groß & Söhne", "Jurgen Gross + Sohne"],
    ["Françoise Lefèvre-Œuvray", "Francoise Lefevre-OEuvray"],
    ["Nguyễn Thị Đào", "Nguyen Thi Dao"],
    ["Søren Kierkegaard Æsir", "Soren Kierkegaard AEsir"],
    ["Zhang Wei 张伟", "Zhang Wei"],
    ["O’Brien", "O'Brien"],
  ])("writes %s as %s", (name, latin) => {
    expect(sepaLatin(name)).toBe(latin);
  });

  it("knows a name the bank cannot read: Chinese or Cyrillic only, or a single letter", () => {
    expect(isLatinName("张伟")).toBe(false);
    expect(isLatinName("Иван Петров")).toBe(false);
    expect(isLatinName("X")).toBe(false);
    expect(isLatinName("Łukasz")).toBe(true);
    expect(isLatinName("Zhang Wei")).toBe(true);
  });

  it("cuts a long name to the schema's 70 characters", () => {
    expect(sepaLatin("Ä".repeat(100))).toHaveLength(70);
  });
});

describe("TARGET2 business days", () => {
  it("computes Easter Sunday", () => {
    expect(easterSunday(2026)).toBe("2026-04-05");
    expect(easterSunday(2027)).toBe("2027-03-28");
    expect(easterSunday(2030)).toBe("2030-04-21");
  });

  it("closes on weekends, New Year, Good Friday, Easter Monday, 1 May, 25 and 26 December", () => {
    for (const day of ["2027-01-01", "2027-03-26", "2027-03-29", "2027-05-01", "2026-12-25", "2026-12-26"])
      expect(isTarget2BusinessDay(day), day).toBe(false);
    expect(isTarget2BusinessDay("2027-01-02")).toBe(false);
    expect(isTarget2BusinessDay("2027-01-04")).toBe(true);
    expect(isTarget2BusinessDay("2027-03-25")).toBe(true);
  });

  it("moves a closed day to the next business day", () => {
    expect(nextTarget2BusinessDay("2027-01-01")).toBe("2027-01-04");
    expect(nextTarget2BusinessDay("2026-12-24")).toBe("2026-12-24");
    expect(nextTarget2BusinessDay("2026-12-25")).toBe("2026-12-28");
    expect(nextTarget2BusinessDay("2027-03-26")).toBe("2027-03-30");
  });
});
