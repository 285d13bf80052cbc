import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import common from "../i18n/locales/en/common.json" with { type: "json" };
import { lookup } from "../i18n/translate";
import { type ApplicantFormValues, applicantInputSchema, emailField } from "./applicant";
import {
  createCheckoutSessionSchema,
  processZeroPaymentSchema,
  programSelectionSchema,
  validateCodeSchema,
} from "./application";
import { V } from "./messages";

/** Today for the age rule (the schema reads the clock). */
const TODAY = "2026-06-15";
beforeAll(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(`${TODAY}T12:00:00Z`));
});
afterAll(() => {
  vi.useRealTimers();
});

const valid: ApplicantFormValues = {
  firstName: "Mei",
  lastName: "Wang",
  email: "Mei.Wang@Example.com",
  phone: "+86 138 0000 0000",
  address: "1 Example Road",
  city: "Shanghai",
  postalCode: "200000",
  countryOfResidence: "CN",
  nationality: "CN",
  dateOfBirth: "2003-04-12",
  passportNumber: "E12345678",
  university: "Fudan University",
  fieldOfStudy: "economics",
  studentStatus: "undergraduate",
  expectations: "",
  referralSource: "",
  otherReferralDetail: "",
};

type Schema = {
  safeParse: (data: unknown) => {
    success: boolean;
    error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
  };
};

/** Messages of the issues of one field (dotted path) after parsing `data`. */
function messagesOf(schema: Schema, data: unknown, field: string): string[] {
  const result = schema.safeParse(data);
  return (result.error?.issues ?? []).filter((i) => i.path.join(".") === field).map((i) => i.message);
}

describe("applicant (docs/product/admissions.md#personal-step)", () => {
  it("accepts a complete applicant, lower-cases the email and defaults the optional fields", () => {
    const result = applicantInputSchema.safeParse({
      ...valid,
      expectations: undefined,
      referralSource: undefined,
      otherReferralDetail: undefined,
    });
    expect(result.success).toBe(true);
    expect(result.data?.email).toBe("mei.wang@example.com");
    expect(result.data?.expectations).toBe("");
    expect(result.data?.referralSource).toBe("");
  });

  const requiredFields = [
    "firstName",
    "lastName",
    "email",
    "phone",
    "address",
    "city",
    "postalCode",
    "countryOfResidence",
    "nationality",
    "passportNumber",
    "dateOfBirth",
    "university",
    "fieldOfStudy",
    "studentStatus",
  ] as const;

  it.each(requiredFields)("requires %s (validation.required)", (field) => {
    const { [field]: _removed, ...withoutField } = valid;
    expect(messagesOf(applicantInputSchema, withoutField, field)).toEqual([V.required]);
    expect(messagesOf(applicantInputSchema, { ...valid, [field]: "" }, field)).toEqual([V.required]);
  });

  it("treats blank text as missing", () => {
    expect(messagesOf(applicantInputSchema, { ...valid, firstName: "   " }, "firstName")).toEqual([
      V.required,
    ]);
  });

  it("refuses an invalid email (validation.invalidEmail)", () => {
    for (const email of ["mei", "mei@", "@example.com", "mei@example", "mei wang@example.com"]) {
      expect(messagesOf(applicantInputSchema, { ...valid, email }, "email"), email).toEqual([V.invalidEmail]);
    }
    expect(emailField.parse("  A@B.CO ")).toBe("a@b.co");
  });

  it("refuses too long text (validation.tooLong)", () => {
    expect(messagesOf(applicantInputSchema, { ...valid, firstName: "a".repeat(101) }, "firstName")).toEqual([
      V.tooLong,
    ]);
    expect(
      messagesOf(applicantInputSchema, { ...valid, expectations: "a".repeat(2001) }, "expectations"),
    ).toEqual([V.tooLong]);
  });

  it("refuses an unknown country, field of study or status", () => {
    expect(messagesOf(applicantInputSchema, { ...valid, nationality: "XX" }, "nationality")).toEqual([
      V.required,
    ]);
    expect(messagesOf(applicantInputSchema, { ...valid, fieldOfStudy: "alchemy" }, "fieldOfStudy")).toEqual([
      V.required,
    ]);
  });

  it("refuses a date of birth that is not a calendar date (validation.invalidDate)", () => {
    for (const dateOfBirth of [
      "12/04/2003",
      "2003-4-12",
      "2003-13-01",
      "2003-02-30",
      "2001-02-29",
      "2003-04-31",
    ]) {
      expect(messagesOf(applicantInputSchema, { ...valid, dateOfBirth }, "dateOfBirth"), dateOfBirth).toEqual(
        [V.invalidDate],
      );
    }
    expect(applicantInputSchema.safeParse({ ...valid, dateOfBirth: "2004-02-29" }).success).toBe(true);
  });

  it("refuses an applicant under 18 (validation.tooYoung)", () => {
    expect(messagesOf(applicantInputSchema, { ...valid, dateOfBirth: "2008-06-16" }, "dateOfBirth")).toEqual([
      V.tooYoung,
    ]);
    expect(applicantInputSchema.safeParse({ ...valid, dateOfBirth: "2008-06-15" }).success).toBe(true);
  });

  it("refuses an applicant of 41 or more (validation.tooOld)", () => {
    expect(messagesOf(applicantInputSchema, { ...valid, dateOfBirth: "1985-06-15" }, "dateOfBirth")).toEqual([
      V.tooOld,
    ]);
    expect(applicantInputSchema.safeParse({ ...valid, dateOfBirth: "1985-06-16" }).success).toBe(true);
  });

  it("requires the detail when the referral source is Other (validation.specifyReferral)", () => {
    const other = { ...valid, referralSource: "other" };
    expect(messagesOf(applicantInputSchema, other, "otherReferralDetail")).toEqual([V.specifyReferral]);
    expect(
      messagesOf(applicantInputSchema, { ...other, otherReferralDetail: "  " }, "otherReferralDetail"),
    ).toEqual([V.specifyReferral]);
    expect(applicantInputSchema.safeParse({ ...other, otherReferralDetail: "A friend's blog" }).success).toBe(
      true,
    );
    expect(applicantInputSchema.safeParse({ ...valid, referralSource: "wechat" }).success).toBe(true);
  });
});

const SCHOOL = "6f1c1d2e-3b4a-4c5d-8e9f-0a1b2c3d4e5f";
const PACKAGE = "7a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d";
const HOUSING = "8b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e";
const APPLICATION = "9c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f";

describe("program selection (docs/product/admissions.md#program-step)", () => {
  const selection = { summerSchoolId: SCHOOL, packageId: PACKAGE, housingOptionId: HOUSING };

  it("accepts school, package and housing; add-ons default to none", () => {
    expect(programSelectionSchema.parse(selection).selectedAddOns).toEqual([]);
  });

  it.each([
    ["summerSchoolId", V.selectSchool],
    ["packageId", V.selectPackage],
    ["housingOptionId", V.selectHousing],
  ] as const)("requires %s (%s)", (field, message) => {
    const { [field]: _removed, ...without } = selection;
    expect(messagesOf(programSelectionSchema, without, field)).toEqual([message]);
    expect(messagesOf(programSelectionSchema, { ...selection, [field]: "" }, field)).toEqual([message]);
    expect(messagesOf(programSelectionSchema, { ...selection, [field]: "1" }, field)).toEqual([message]);
  });
});

describe("payment step (docs/product/catalogue-and-pricing.md#code-discounts)", () => {
  it("requires a code (validation.enterCode)", () => {
    expect(messagesOf(validateCodeSchema, {}, "code")).toEqual([V.enterCode]);
    expect(messagesOf(validateCodeSchema, { code: "" }, "code")).toEqual([V.enterCode]);
    expect(messagesOf(validateCodeSchema, { code: "   " }, "code")).toEqual([V.enterCode]);
    expect(validateCodeSchema.parse({ code: " SUMMER10 " }).code).toBe("SUMMER10");
  });

  it("requires the terms to be accepted before checkout or a zero payment (validation.acceptTerms)", () => {
    for (const schema of [createCheckoutSessionSchema, processZeroPaymentSchema]) {
      expect(messagesOf(schema, { applicationId: APPLICATION }, "termsAccepted")).toEqual([V.acceptTerms]);
      expect(
        messagesOf(schema, { applicationId: APPLICATION, termsAccepted: false }, "termsAccepted"),
      ).toEqual([V.acceptTerms]);
      expect(schema.safeParse({ applicationId: APPLICATION, termsAccepted: true }).success).toBe(true);
    }
  });
});

describe("English wording of the message keys (docs/product/admissions.md#payment-step-views)", () => {
  const english: Record<string, string> = {
    [V.invalidEmail]: "Please enter a valid email address.",
    [V.tooYoung]: "You must be at least 18 years old to apply.",
    [V.tooOld]: "The maximum age for application is 40 years old.",
    [V.specifyReferral]: "Please specify how you heard about us.",
    [V.selectSchool]: "Please select a summer school programme",
    [V.selectPackage]: "Please select a package",
    [V.selectHousing]: "Please select a housing option",
    [V.enterCode]: "Please enter a code",
    [V.acceptTerms]: "Please accept the Terms & Conditions to proceed with payment.",
    [V.passportRequired]: "Please upload your passport document (PDF format).",
    [V.passportPdfOnly]: "Please upload your passport in PDF format only.",
    [V.fileTooLarge]: "Maximum file size is 5MB. Please upload a smaller file.",
    "validation.fillRequired": "Please fill in all required fields.",
    "validation.ageHelp": "You must be between 18 and 40 years old to apply.",
    "validation.missingTitle": "Missing Information",
    "validation.invalidEmailTitle": "Invalid Email",
    "validation.ageTitle": "Age Restriction",
    "validation.passportRequiredTitle": "Passport Required",
    "validation.invalidFileTypeTitle": "Invalid File Type",
    "validation.fileTooLargeTitle": "File Too Large",
    "validation.errorTitle": "Error",
  };

  it.each(Object.entries(english))("%s reads %j", (key, text) => {
    expect(lookup(common, key)).toBe(text);
  });

  it.each(Object.values(V))("%s has an English text", (key) => {
    expect(lookup(common, key)).toEqual(expect.stringMatching(/\S/));
  });
});
