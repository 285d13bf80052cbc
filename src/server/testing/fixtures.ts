/**
 * Test data without test-runner imports, shared by the API tests (through harness.ts) and the
 * browser stories (e2e/support.ts).
 */

/** A valid applicant of the shared schema (18-40 today), with overrides. */
export function applicantFixture(overrides: Record<string, unknown> = {}) {
  const year = new Date().getUTCFullYear() - 25;
  return {
    firstName: "Amara",
    lastName: "Okafor",
    email: "amara.okafor@example.com",
    phone: "+234 801 234 5678",
    address: "12 Marina Road",
    city: "Lagos",
    postalCode: "101001",
    countryOfResidence: "NG",
    nationality: "NG",
    dateOfBirth: `${year}-05-14`,
    passportNumber: "A12345678",
    university: "University of Lagos",
    fieldOfStudy: "economics",
    studentStatus: "undergraduate",
    expectations: "Learn how European companies expand abroad.",
    referralSource: "university",
    otherReferralDetail: "",
    ...overrides,
  };
}
