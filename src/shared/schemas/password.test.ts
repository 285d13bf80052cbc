import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { newPasswordField, passwordInput, passwordLengthIssue } from "./password";

const srcDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

/** The first message of a failed parse, or null when the value passes. */
function firstMessage(schema: typeof newPasswordField, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** Checklist S4: 8 to 128 characters counted in code points, no composition rules. */
describe("the password length rule", () => {
  it("refuses fewer than 8 and more than 128 code points, and accepts anything between", () => {
    expect(passwordLengthIssue("")).toBe("errors.passwordTooShort");
    expect(passwordLengthIssue("seven77")).toBe("errors.passwordTooShort");
    expect(passwordLengthIssue("eight888")).toBeNull();
    expect(passwordLengthIssue("all lower case words")).toBeNull();
    expect(passwordLengthIssue("x".repeat(128))).toBeNull();
    expect(passwordLengthIssue("x".repeat(129))).toBe("errors.passwordTooLong");
  });

  it("counts an emoji or a Chinese character as one, as a person does", () => {
    expect(passwordLengthIssue("🔒".repeat(7))).toBe("errors.passwordTooShort");
    expect(passwordLengthIssue("🔒".repeat(8))).toBeNull();
    expect(passwordLengthIssue("海牙暑期学校的密码")).toBeNull();
    expect(passwordLengthIssue("🔒".repeat(128))).toBeNull();
  });

  it("gives a form one message per field: required when empty, else the length rule's key", () => {
    expect(firstMessage(newPasswordField, "")).toBe("validation.required");
    expect(newPasswordField.safeParse("").error?.issues).toHaveLength(1);
    expect(firstMessage(newPasswordField, "short")).toBe("errors.passwordTooShort");
    expect(firstMessage(newPasswordField, "y".repeat(129))).toBe("errors.passwordTooLong");
    expect(firstMessage(newPasswordField, "  spaces count  ")).toBeNull();
  });

  it("lets any present password through as sent (an old one still signs in), up to 1024 characters", () => {
    expect(passwordInput.safeParse("short").success).toBe(true);
    expect(passwordInput.safeParse("").success).toBe(false);
    expect(passwordInput.safeParse("z".repeat(1025)).success).toBe(false);
  });

  it("is written once: no other client, server or shared file checks a password's length (an input's maxLength may use the limit)", () => {
    const own = path.join(srcDir, "shared", "schemas", "password.ts");
    const offenders = [
      ...sourceFiles(path.join(srcDir, "client")),
      ...sourceFiles(path.join(srcDir, "server")),
      ...sourceFiles(path.join(srcDir, "shared")),
    ]
      .filter((file) => file !== own)
      .filter((file) =>
        /PASSWORD_MIN_LENGTH|"errors\.passwordToo(?:Short|Long)"/.test(readFileSync(file, "utf8")),
      )
      .map((file) => path.relative(srcDir, file));
    expect(offenders).toEqual([]);
  });
});
