/**
 * Dates written for people (glossary, docs/glossary.md): French writes the first of the month
 * «1er» («1er décembre 2027»), in every month, in pages, e-mails and documents alike, and in the
 * ranges they build from two dates («du 1er au 14 juillet»); other days and other languages are as
 * Intl writes them.
 */
import { describe, expect, it } from "vitest";
import { dateFormatFor } from "./date-format";
import { formatDate, formatDayMonth, formatForPeople } from "./dates";

const MONTHS = [
  "janvier",
  "février",
  "mars",
  "avril",
  "mai",
  "juin",
  "juillet",
  "août",
  "septembre",
  "octobre",
  "novembre",
  "décembre",
];

describe("the first of the month in French", () => {
  it.each(MONTHS.map((month, i) => [month, i + 1] as const))("1er %s", (month, number) => {
    const iso = `2027-${String(number).padStart(2, "0")}-01`;
    expect(formatDate(iso, "fr")).toBe(`1er ${month} 2027`);
    expect(formatDayMonth(iso, "fr")).toBe(`1er ${month}`);
  });

  it("leaves every other day as a plain number (11, 21, 31 are not firsts)", () => {
    expect(formatDate("2027-12-11", "fr")).toBe("11 décembre 2027");
    expect(formatDate("2027-12-21", "fr")).toBe("21 décembre 2027");
    expect(formatDate("2027-12-31", "fr")).toBe("31 décembre 2027");
    expect(formatDayMonth("2027-07-02", "fr")).toBe("2 juillet");
  });

  it("writes «1er» at either end of a range made of two dates, as e-mails and pages make them", () => {
    const range = (start: string, end: string) => `${formatDate(start, "fr")} – ${formatDate(end, "fr")}`;
    expect(range("2027-07-01", "2027-07-14")).toBe("1er juillet 2027 – 14 juillet 2027");
    expect(range("2027-06-18", "2027-07-01")).toBe("18 juin 2027 – 1er juillet 2027");
    expect(`du ${formatDayMonth("2027-07-01", "fr")} au ${formatDate("2027-07-14", "fr")}`).toBe(
      "du 1er juillet au 14 juillet 2027",
    );
  });

  it("does the same for a formatter of one's own (with a time of day), not for a numeric date", () => {
    const at = new Date("2027-03-01T09:30:00Z");
    const long = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: "UTC" });
    expect(formatForPeople(long, at, "fr")).toBe("1er mars 2027 à 09:30");
    const numeric = new Intl.DateTimeFormat("fr-FR", { dateStyle: "short", timeZone: "UTC" });
    expect(formatForPeople(numeric, at, "fr")).toBe("01/03/2027");
  });

  it("leaves English and Chinese as they are", () => {
    expect(formatDate("2027-12-01", "en")).toBe("1 December 2027");
    expect(formatDate("2027-12-01", "zh")).toBe("2027年12月1日");
    expect(formatDayMonth("2027-07-01", "en")).toBe("1 July");
    const long = new Intl.DateTimeFormat("en-GB", { dateStyle: "long", timeZone: "UTC" });
    expect(formatForPeople(long, new Date("2027-03-01T00:00:00Z"), "en")).toBe("1 March 2027");
  });

  it("a formatter of a page's own style writes «1er» too (the portal, the offer page, the back office)", () => {
    const at = Date.UTC(2027, 5, 1, 7, 0);
    expect(dateFormatFor("fr", { dateStyle: "medium", timeZone: "Europe/Amsterdam" }).format(at)).toBe(
      "1er juin 2027",
    );
    expect(
      dateFormatFor("fr", { dateStyle: "long", timeStyle: "short", timeZone: "Europe/Amsterdam" }).format(
        new Date(at),
      ),
    ).toBe("1er juin 2027 à 09:00");
    expect(dateFormatFor("en", { dateStyle: "long", timeZone: "Europe/Amsterdam" }).format(at)).toBe(
      "1 June 2027",
    );
  });
});
