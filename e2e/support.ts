import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Page } from "@playwright/test";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PASSPORT_PDF = path.join(here, "fixtures", "passport.pdf");

/** Accepts the cookie notice with the given choice. */
export async function chooseCookies(page: Page, choice: "all" | "necessary") {
  const name = choice === "all" ? "Accept All" : "Accept only necessary";
  await page.getByRole("button", { name }).click();
}

/** A date of birth that makes the applicant `years` old today (yyyy-mm-dd). */
export function birthDateForAge(years: number): string {
  const d = new Date();
  return `${d.getUTCFullYear() - years}-03-15`;
}

/** Fills step 2 of the wizard with a valid applicant (English labels). */
export async function fillPersonalStep(page: Page, overrides: { email?: string; dateOfBirth?: string } = {}) {
  await page.getByLabel("First name").fill("Amara");
  await page.getByLabel("Last name").fill("Okafor");
  await page.getByLabel("Email address").fill(overrides.email ?? "amara.okafor@example.com");
  await page.getByLabel("Phone number (with country code)").fill("+234 801 234 5678");
  await page.getByLabel("Date of birth").fill(overrides.dateOfBirth ?? birthDateForAge(24));
  await page.getByLabel("Nationality").selectOption("NG");
  await page.getByLabel("Passport number").fill("A12345678");
  await page.getByLabel("Street and number").fill("12 Marina Road");
  await page.getByLabel("City").fill("Lagos");
  await page.getByLabel("Postal code").fill("101001");
  await page.getByLabel("Country of residence").selectOption("NG");
  await page.getByLabel("University or school").fill("University of Lagos");
  await page.getByLabel("Field of study").selectOption("economics");
  await page.getByLabel("Student status").selectOption("undergraduate");
  await page.getByLabel("Passport (PDF)").setInputFiles(PASSPORT_PDF);
}

/** Goes from /apply through steps 1 and 2 to the payment step. */
export async function reachPaymentStep(page: Page, options: { email?: string } = {}) {
  await page.goto("/apply");
  await page.getByRole("button", { name: "Continue to Application" }).click();
  await fillPersonalStep(page, options);
  await page.getByRole("button", { name: "Continue to Payment" }).click();
  await expect(page).toHaveURL(/\/apply\/payment$/);
  await expect(page.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
}
