import { describe, expect, it } from "vitest";
import { ageOn, checkAge, dateOfBirthBounds, dayClock, MAX_AGE, MIN_AGE, todayIso } from "./age";

const TODAY = "2026-06-15";

describe("ageOn", () => {
  it("counts whole years, the birthday included", () => {
    expect(ageOn("2000-06-15", TODAY)).toBe(26);
    expect(ageOn("2000-06-16", TODAY)).toBe(25);
    expect(ageOn("2000-12-31", TODAY)).toBe(25);
    expect(ageOn("2000-01-01", TODAY)).toBe(26);
  });
});

describe("checkAge (docs/product/catalogue-and-pricing.md#applicant-age: 18 to 40 on the day of applying)", () => {
  it("allows an applicant on their 18th birthday", () => {
    expect(checkAge("2008-06-15", TODAY)).toBeNull();
  });

  it("refuses an applicant the day before their 18th birthday", () => {
    expect(checkAge("2008-06-16", TODAY)).toBe("tooYoung");
    expect(checkAge("2008-06-15", "2026-06-14")).toBe("tooYoung");
  });

  it("refuses children and birth dates in the future", () => {
    expect(checkAge("2015-01-01", TODAY)).toBe("tooYoung");
    expect(checkAge("2030-01-01", TODAY)).toBe("tooYoung");
  });

  it("allows ages in between, and 40", () => {
    expect(checkAge("2000-03-01", TODAY)).toBeNull();
    expect(checkAge("1986-06-15", TODAY)).toBeNull(); // 40 today
    expect(checkAge("1986-01-01", TODAY)).toBeNull(); // 40
  });

  it("refuses an applicant on their 41st birthday", () => {
    expect(checkAge("1985-06-15", TODAY)).toBe("tooOld");
    expect(checkAge("1960-01-01", TODAY)).toBe("tooOld");
  });

  it("allows an applicant the day before their 41st birthday", () => {
    expect(checkAge("1985-06-16", TODAY)).toBeNull();
    expect(checkAge("1985-06-15", "2026-06-14")).toBeNull();
  });

  describe("born on 29 February", () => {
    const dob = "2008-02-29";

    it("turns 18 on 1 March in a common year", () => {
      expect(checkAge(dob, "2026-02-28")).toBe("tooYoung");
      expect(checkAge(dob, "2026-03-01")).toBeNull();
    });

    it("is still 17 on 28 February of the year they turn 18 (never a leap year)", () => {
      expect(checkAge("2012-02-29", "2030-02-28")).toBe("tooYoung");
      expect(checkAge("2012-02-29", "2030-03-01")).toBeNull();
      expect(checkAge(dob, "2028-02-29")).toBeNull(); // 20 on their real birthday
    });

    it("turns 41 on 1 March", () => {
      expect(checkAge("1984-02-29", "2025-02-28")).toBeNull();
      expect(checkAge("1984-02-29", "2025-03-01")).toBe("tooOld");
    });

    it("on a 29 February today, 28 February and 1 March births", () => {
      expect(checkAge("1987-02-28", "2028-02-29")).toBe("tooOld");
      expect(checkAge("1987-03-01", "2028-02-29")).toBeNull();
      expect(checkAge("2010-02-28", "2028-02-29")).toBeNull();
      expect(checkAge("2010-03-01", "2028-02-29")).toBe("tooYoung");
    });
  });
});

describe("dateOfBirthBounds (the picker offers exactly the allowed dates)", () => {
  it("gives the 18th and the day after the 41st birthday limits", () => {
    expect(dateOfBirthBounds(TODAY)).toEqual({ min: "1985-06-16", max: "2008-06-15" });
  });

  it("crosses a month and a year boundary for the minimum", () => {
    expect(dateOfBirthBounds("2026-06-30")).toEqual({ min: "1985-07-01", max: "2008-06-30" });
    expect(dateOfBirthBounds("2026-12-31")).toEqual({ min: "1986-01-01", max: "2008-12-31" });
  });

  it("handles a 29 February today", () => {
    // 18 years before 29 Feb 2028 is 28 Feb 2010 (no 29 Feb in 2010); 41 years before is 28 Feb 1987.
    expect(dateOfBirthBounds("2028-02-29")).toEqual({ min: "1987-03-01", max: "2010-02-28" });
  });

  it("agrees with checkAge on both bounds and just outside them", () => {
    const dayAfter = (iso: string, days: number) => {
      const d = new Date(`${iso}T00:00:00Z`);
      d.setUTCDate(d.getUTCDate() + days);
      return d.toISOString().slice(0, 10);
    };
    for (const today of [
      TODAY,
      "2026-01-01",
      "2026-02-28",
      "2026-03-01",
      "2028-02-29",
      "2028-03-01",
      "2026-12-31",
    ]) {
      const { min, max } = dateOfBirthBounds(today);
      expect(checkAge(max, today), `max on ${today}`).toBeNull();
      expect(checkAge(dayAfter(max, 1), today), `day after max on ${today}`).toBe("tooYoung");
      expect(checkAge(min, today), `min on ${today}`).toBeNull();
      expect(checkAge(dayAfter(min, -1), today), `day before min on ${today}`).toBe("tooOld");
    }
  });

  it("uses the constants of the rule", () => {
    expect([MIN_AGE, MAX_AGE]).toEqual([18, 40]);
  });
});

describe("todayIso", () => {
  it("is the UTC calendar date", () => {
    expect(todayIso(new Date("2026-06-15T23:30:00Z"))).toBe("2026-06-15");
    expect(todayIso(new Date("2026-06-15T00:00:00+02:00"))).toBe("2026-06-14");
  });
});

describe("dayClock (the date the public pages are rendered for)", () => {
  it("turns over at midnight UTC, and follows a clock that goes back", () => {
    let now = new Date("2026-06-15T23:59:59.999Z");
    const today = dayClock(() => now);
    expect(today()).toBe("2026-06-15");
    now = new Date("2026-06-16T00:00:00.000Z");
    expect(today()).toBe("2026-06-16");
    now = new Date("2026-06-16T18:00:00.000Z");
    expect(today()).toBe("2026-06-16");
    now = new Date("2026-06-15T12:00:00.000Z");
    expect(today()).toBe("2026-06-15");
    now = new Date("2027-01-01T00:00:00.000Z");
    expect(today()).toBe("2027-01-01");
  });
});
