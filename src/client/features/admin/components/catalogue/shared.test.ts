// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import type { AdminPackageDto } from "../../../../../shared/catalogue-admin";
import { adminPackageSchema } from "../../../../../shared/schemas/catalogue-admin";
import { ApiError } from "../../../../lib/api";
import { staleCurrent } from "./shared";

const SCHOOL = "00000000-0000-4000-8000-0000000000a1";

/** A package as `PATCH /api/admin/packages/:id` answers it. */
const PACKAGE: AdminPackageDto = {
  id: "00000000-0000-4000-8000-0000000000b1",
  summerSchoolId: SCHOOL,
  school: { id: SCHOOL, name: { en: "Summer School — August" }, startDate: "2027-08-02", archived: false },
  name: { en: "Standard", zh: "标准" },
  description: { en: "Courses, visits\nand housing." },
  sortOrder: 0,
  archivedAt: null,
  version: 3,
  applications: 2,
  priceCents: 295000,
  includes: [{ en: "All courses" }],
  includedAddOnIds: [],
  urgencyText: null,
  urgencyColor: null,
};

const conflict = (body: Record<string, unknown>) => new ApiError(409, "Someone else changed this.", body);

describe("staleCurrent: the record of a 409 on a stale version", () => {
  it("returns the current record parsed with the record's schema", () => {
    const current = staleCurrent(
      adminPackageSchema,
      conflict({
        error: "errors.catalogue.staleVersion",
        message: "Someone else changed this.",
        current: PACKAGE,
      }),
    );
    expect(current).toEqual(PACKAGE);
  });

  it("is null for a record that does not match the schema, a 409 without one, and any other error", () => {
    const message = "Someone else changed this.";
    expect(staleCurrent(adminPackageSchema, conflict({ message, current: { id: PACKAGE.id } }))).toBeNull();
    expect(
      staleCurrent(adminPackageSchema, conflict({ message, current: { ...PACKAGE, priceCents: "2950.00" } })),
    ).toBeNull();
    expect(
      staleCurrent(adminPackageSchema, conflict({ message, fieldErrors: { slug: "Taken." } })),
    ).toBeNull();
    expect(
      staleCurrent(adminPackageSchema, new ApiError(400, "Bad.", { message, current: PACKAGE })),
    ).toBeNull();
    expect(staleCurrent(adminPackageSchema, new Error("network"))).toBeNull();
  });
});
