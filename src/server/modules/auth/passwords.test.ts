import { describe, expect, it } from "vitest";
import { passwordLengthIssue } from "../../../shared/schemas/password";
import { passwordPolicyIssue } from "./passwords";

/** Checklist S4: the server refuses exactly what the forms refuse, and common passwords on top. */
describe("the server's password policy", () => {
  it("refuses the same lengths as the forms' rule, with the same message keys", () => {
    for (const password of ["", "seven77", "🔒".repeat(7), "x".repeat(129), "🔒".repeat(129)]) {
      expect(passwordPolicyIssue(password)).toBe(passwordLengthIssue(password));
      expect(passwordPolicyIssue(password)).not.toBeNull();
    }
    for (const password of ["eight888", "admin harbour", "🔒".repeat(8), "x".repeat(128)])
      expect(passwordPolicyIssue(password)).toBeNull();
  });

  it("also refuses a common password of a valid length, which the forms leave to the server", () => {
    expect(passwordLengthIssue("password")).toBeNull();
    expect(passwordPolicyIssue("password")).toBe("errors.passwordCommon");
  });
});
