import { describe, expect, it } from "vitest";
import { canApply, cohortStatus, FEW_SPOTS_THRESHOLD, lengthInDays } from "./catalogue";

const TODAY = "2026-05-01";
const school = {
  startDate: "2026-07-20",
  applicationOpensAt: "2026-01-01",
  applicationDeadline: "2026-06-30",
  capacity: 50,
};

describe("cohortStatus (docs/product/catalogue-and-pricing.md#cohort-status)", () => {
  it("hides a school that has started or is over", () => {
    expect(cohortStatus({ ...school, startDate: TODAY }, 0, TODAY)).toBeNull();
    expect(cohortStatus({ ...school, startDate: "2026-04-30" }, 0, TODAY)).toBeNull();
    expect(cohortStatus({ ...school, startDate: "2025-07-20" }, 50, TODAY)).toBeNull();
  });

  it("is open with places left, the day before the start included", () => {
    expect(cohortStatus(school, 0, TODAY)).toBe("open");
    expect(cohortStatus({ ...school, startDate: "2026-05-02", applicationDeadline: null }, 0, TODAY)).toBe(
      "open",
    );
  });

  it("is full when paid places reach the capacity (or exceed it)", () => {
    expect(cohortStatus(school, 50, TODAY)).toBe("full");
    expect(cohortStatus(school, 53, TODAY)).toBe("full");
    expect(cohortStatus({ ...school, capacity: 0 }, 0, TODAY)).toBe("full");
  });

  it("has few spots left at 5 places left or fewer, and is open at 6", () => {
    expect(FEW_SPOTS_THRESHOLD).toBe(5);
    expect(cohortStatus(school, 44, TODAY)).toBe("open");
    expect(cohortStatus(school, 45, TODAY)).toBe("fewSpotsLeft");
    expect(cohortStatus(school, 49, TODAY)).toBe("fewSpotsLeft");
  });

  it("is opening soon before applications open, and open on the opening day", () => {
    expect(cohortStatus({ ...school, applicationOpensAt: "2026-05-02" }, 0, TODAY)).toBe("openingSoon");
    expect(cohortStatus({ ...school, applicationOpensAt: TODAY }, 0, TODAY)).toBe("open");
    expect(cohortStatus({ ...school, applicationOpensAt: null }, 0, TODAY)).toBe("open");
  });

  it("is closed after the deadline, and open on the deadline day", () => {
    expect(cohortStatus({ ...school, applicationDeadline: "2026-04-30" }, 0, TODAY)).toBe("closed");
    expect(cohortStatus({ ...school, applicationDeadline: TODAY }, 0, TODAY)).toBe("open");
    expect(cohortStatus({ ...school, applicationDeadline: TODAY }, 46, TODAY)).toBe("fewSpotsLeft");
  });

  it("says full before opening soon or closed", () => {
    expect(cohortStatus({ ...school, applicationOpensAt: "2026-06-01" }, 50, TODAY)).toBe("full");
    expect(cohortStatus({ ...school, applicationDeadline: "2026-04-01" }, 50, TODAY)).toBe("full");
  });

  it("lets a visitor apply only when open or few spots left", () => {
    expect(canApply("open")).toBe(true);
    expect(canApply("fewSpotsLeft")).toBe(true);
    expect(canApply("full")).toBe(false);
    expect(canApply("openingSoon")).toBe(false);
    expect(canApply("closed")).toBe(false);
  });
});

describe("lengthInDays (docs/product/catalogue-and-pricing.md#cohort-status: inclusive)", () => {
  it("counts the first and the last day", () => {
    expect(lengthInDays("2026-06-15", "2026-06-28")).toBe(14);
    expect(lengthInDays("2026-07-20", "2026-08-02")).toBe(14);
    expect(lengthInDays("2026-08-17", "2026-08-26")).toBe(10);
    expect(lengthInDays("2026-06-15", "2026-06-15")).toBe(1);
  });

  it("is not affected by summer time or leap days", () => {
    expect(lengthInDays("2026-03-22", "2026-04-04")).toBe(14);
    expect(lengthInDays("2026-10-18", "2026-10-31")).toBe(14);
    expect(lengthInDays("2028-02-20", "2028-03-04")).toBe(14);
  });
});
