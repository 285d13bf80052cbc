import { describe, expect, it } from "vitest";
import {
  acceptInviteFormSchema,
  affiliateRegisterFormSchema,
  newPasswordFormSchema,
  studentRegisterFormSchema,
} from "./schemas";

const valid = {
  firstName: "Li",
  lastName: "Wei",
  name: "Harbour Education",
  email: "li.wei@example.com",
  website: "",
  country: "",
};

/** Checklist S4: sign-up (student, partner), reset and the admin's invitation refuse the same passwords. */
describe("the sign-in pages' password rule", () => {
  const forms = {
    "student sign-up": studentRegisterFormSchema,
    "partner sign-up": affiliateRegisterFormSchema,
    "password reset": newPasswordFormSchema,
    "admin invitation": acceptInviteFormSchema,
  };
  for (const [form, schema] of Object.entries(forms)) {
    it(`${form}: a 7-character password is too short, an 8-character one is fine`, () => {
      const short = schema.safeParse({ ...valid, password: "seven77", confirm: "seven77" });
      expect(short.error?.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
        ["password", "errors.passwordTooShort"],
      ]);
      expect(schema.safeParse({ ...valid, password: "eight888", confirm: "eight888" }).success).toBe(true);
    });
  }
});
