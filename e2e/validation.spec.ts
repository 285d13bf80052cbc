import { expect, type Page } from "@playwright/test";
import {
  applyCode,
  birthDateForAge,
  chooseCookies,
  fillPersonalStep,
  openApplication,
  reachPaymentStep,
  test,
  toastWith,
  uniqueEmail,
} from "./support";

/** Opens step 2 of the wizard with the cookie notice out of the way. */
async function openPersonalStep(page: Page) {
  await page.goto("/");
  await chooseCookies(page, "necessary");
  await openApplication(page);
  await page.getByRole("button", { name: "Continue to Application" }).click();
  await expect(page.getByRole("heading", { name: "About you" })).toBeVisible();
}

const continueToPayment = (page: Page) => page.getByRole("button", { name: "Continue to Payment" }).click();

test.describe("a student who makes mistakes in the application form is told what to fix", () => {
  test("an empty form lists the missing fields @phone", async ({ page }) => {
    await openPersonalStep(page);
    await continueToPayment(page);

    const toast = toastWith(page, "Missing Information");
    await expect(toast).toBeVisible();
    await expect(toast).toContainText("Please fill in all required fields.");
    for (const label of [
      "First name",
      "Last name",
      "Email address",
      "Date of birth",
      "Nationality",
      "City",
      "Student status",
    ]) {
      const field = page.getByLabel(label);
      await expect(field).toHaveAttribute("aria-invalid", "true");
      await expect(field).toHaveAccessibleDescription(/This field is required\./);
    }
    await expect(page.getByLabel("First name")).toBeFocused();
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("a mistyped e-mail address", async ({ page }) => {
    await openPersonalStep(page);
    await fillPersonalStep(page, { email: "amara.okafor@example" });
    await continueToPayment(page);
    await expect(toastWith(page, "Invalid Email")).toContainText("Please enter a valid email address.");
    await expect(page.getByLabel("Email address")).toHaveAccessibleDescription(
      "Please enter a valid email address.",
    );
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("an applicant who is 17", async ({ page }) => {
    await openPersonalStep(page);
    await fillPersonalStep(page, { dateOfBirth: birthDateForAge(17) });
    // Leaving the date field already warns.
    await page.getByLabel("Date of birth").focus();
    await page.getByLabel("Date of birth").blur();
    await expect(toastWith(page, "Age Restriction")).toContainText(
      "You must be at least 18 years old to apply.",
    );
    await continueToPayment(page);
    await expect(page.getByLabel("Date of birth")).toHaveAccessibleDescription(
      /You must be at least 18 years old to apply\./,
    );
    await expect(toastWith(page, "Age Restriction")).toContainText(
      "You must be at least 18 years old to apply.",
    );
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("“Other” as referral source without saying which", async ({ page }) => {
    await openPersonalStep(page);
    await fillPersonalStep(page);
    await page.getByLabel("How did you hear about us?").selectOption("other");
    await expect(page.getByLabel("Please tell us where")).toBeVisible();
    await continueToPayment(page);
    await expect(page.getByLabel("Please tell us where")).toHaveAccessibleDescription(
      "Please specify how you heard about us.",
    );
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("no passport uploaded", async ({ page }) => {
    await openPersonalStep(page);
    await fillPersonalStep(page, { passport: false });
    await continueToPayment(page);
    await expect(toastWith(page, "Passport Required")).toContainText(
      "Please upload your passport document (PDF format).",
    );
    await expect(page.getByLabel("Passport (PDF)")).toHaveAccessibleDescription(
      /Please upload your passport document \(PDF format\)\./,
    );
    await expect(page).toHaveURL(/\/apply$/);
  });

  test("a passport that is not a PDF @phone", async ({ page }) => {
    await openPersonalStep(page);
    await fillPersonalStep(page, { passport: false });
    await page.getByLabel("Passport (PDF)").setInputFiles({
      name: "passport.jpg",
      mimeType: "image/jpeg",
      buffer: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]),
    });
    await expect(toastWith(page, "Invalid File Type")).toContainText(
      "Please upload your passport in PDF format only.",
    );
    await expect(page.getByLabel("Passport (PDF)")).toHaveAccessibleDescription(
      /Please upload your passport in PDF format only\./,
    );
    await continueToPayment(page);
    await expect(toastWith(page, "Passport Required")).toBeVisible();
    await expect(page).toHaveURL(/\/apply$/);
  });
});

test.describe("a student with a code that cannot be used is told why", () => {
  test("expired and used-up codes are refused, an empty code cannot be applied @phone", async ({ page }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    await reachPaymentStep(page, { email: uniqueEmail("codes") });
    const codeField = page.getByLabel("Discount or referral code");
    const apply = page.getByRole("button", { name: "Apply", exact: true });
    const proceed = page.getByRole("button", { name: /Proceed to Payment/ });
    const priceBefore = await proceed.textContent();

    await expect(codeField).toHaveValue("");
    await expect(apply).toBeDisabled();
    await codeField.fill("   ");
    await expect(apply).toBeDisabled();

    await applyCode(page, "SUMMER2024");
    await expect(codeField).toHaveAccessibleDescription("This code has expired.");
    await expect(toastWith(page, "This code has expired.")).toBeVisible();

    await applyCode(page, "ONCEONLY");
    await expect(codeField).toHaveAccessibleDescription(
      "This code has already been used the maximum number of times.",
    );
    await expect(
      toastWith(page, "This code has already been used the maximum number of times."),
    ).toBeVisible();

    await applyCode(page, "NOSUCHCODE");
    await expect(codeField).toHaveAccessibleDescription("This code is not valid");

    await expect(page.getByText(/^Discount \(/)).toHaveCount(0);
    await expect(proceed).toHaveText(priceBefore ?? "");
  });
});
