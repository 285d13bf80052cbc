import { describe, expect, it } from "vitest";
import { formatDate, formatDayMonth } from "./format";

describe("dates as a visitor reads them (docs/product/catalogue-and-pricing.md#quote, docs/product/languages.md#numbers-dates-and-money)", () => {
  it("writes a start date with the full month in each language, whatever the server's time zone", () => {
    expect(formatDate("2027-07-05", "en")).toBe("5 July 2027");
    expect(formatDate("2027-07-05", "fr")).toBe("5 juillet 2027");
    expect(formatDate("2027-07-05", "zh")).toBe("2027年7月5日");
    expect(formatDate("2027-07-05T23:30:00Z", "en")).toBe("5 July 2027");
  });

  it("writes the day and month of a cohort without the year, and switches language per call", () => {
    expect(formatDayMonth("2027-06-15", "en")).toBe("15 June");
    expect(formatDayMonth("2027-06-15", "fr")).toBe("15 juin");
    expect(formatDayMonth("2027-06-15", "en")).toBe("15 June");
    expect(formatDate("2027-06-15", "en")).toBe("15 June 2027");
  });
});
