import { expect } from "@playwright/test";
import {
  applyCode,
  birthDateForAge,
  chooseCookies,
  openApplication,
  reachPaymentStep,
  test,
  uniqueEmail,
} from "./support";

test.describe("a student who reloads the page in the middle of the application", () => {
  test("keeps what was typed on the personal step @phone", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    await openApplication(page);
    await page.getByRole("button", { name: "Continue to Application" }).click();
    const dateOfBirth = birthDateForAge(22);
    await page.getByLabel("First name").fill("Wei");
    await page.getByLabel("Last name").fill("Zhang");
    await page.getByLabel("Date of birth").fill(dateOfBirth);
    await page.getByLabel("Nationality").selectOption("CN");
    await page.getByLabel("Field of study").selectOption("law");
    // The last field is still focused when the student presses reload.
    await page.getByLabel("Email address").fill("wei.zhang@example.com");

    await page.reload();

    await expect(page.getByRole("heading", { name: "About you" })).toBeVisible();
    await expect(page.getByLabel("First name")).toHaveValue("Wei");
    await expect(page.getByLabel("Last name")).toHaveValue("Zhang");
    await expect(page.getByLabel("Date of birth")).toHaveValue(dateOfBirth);
    await expect(page.getByLabel("Nationality")).toHaveValue("CN");
    await expect(page.getByLabel("Field of study")).toHaveValue("law");
    await expect(page.getByLabel("Email address")).toHaveValue("wei.zhang@example.com");
  });

  test("keeps the payment step with its applied code, and the details behind it", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    const email = uniqueEmail("reload");
    await reachPaymentStep(page, { email });
    await applyCode(page, "WELCOME10");
    await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
    const proceedLabel = await page.getByRole("button", { name: /Proceed to Payment/ }).textContent();

    await page.reload();

    await expect(page).toHaveURL(/\/apply\/payment$/);
    await expect(page.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
    await expect(page.getByText("Code applied: WELCOME10")).toBeVisible();
    await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
    await expect(page.getByRole("button", { name: /Proceed to Payment/ })).toHaveText(proceedLabel ?? "");

    await page.getByRole("button", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/apply$/);
    await expect(page.getByLabel("First name")).toHaveValue("Amara");
    await expect(page.getByLabel("Email address")).toHaveValue(email);
    await expect(page.getByText("Uploaded: passport.pdf")).toBeVisible();
    // Without choosing the file again, the student goes on to the same payment step.
    await page.getByRole("button", { name: "Continue to Payment" }).click();
    await expect(page.getByText("Code applied: WELCOME10")).toBeVisible();
  });
});
