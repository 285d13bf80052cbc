import { expect, test } from "@playwright/test";
import { chooseCookies, reachPaymentStep } from "./support";

test("a student applies, uses a discount code and pays on the hosted checkout @phone", async ({ page }) => {
  // No page error on the way, including none from hydrating /payment-success (React error #418).
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && /#418|hydrat/i.test(message.text())) problems.push(message.text());
  });
  await page.goto("/");
  await chooseCookies(page, "necessary");
  await reachPaymentStep(page);

  await page.getByLabel("Discount or referral code").fill("welcome10");
  await page.getByRole("button", { name: "Apply", exact: true }).click();
  await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
  await expect(page.getByText("Discount of €304.50 has been applied.").first()).toBeVisible();

  const proceed = page.getByRole("button", { name: /Proceed to Payment/ });
  await expect(proceed).toBeDisabled();
  await page.getByLabel(/I have read and accept/).check();
  await proceed.click();

  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  await expect(page.getByText("Test checkout")).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();

  await expect(page).toHaveURL(/\/payment-success\?session_id=/);
  await expect(page.getByRole("heading", { name: "Application Submitted Successfully!" })).toBeVisible();
  await expect(page.getByText("Payment Received")).toBeVisible();
  await expect(page.getByText("Amara Okafor")).toBeVisible();
  await expect(page.getByText("Original amount")).toBeVisible();
  await expect(page.getByRole("button", { name: "Print Confirmation" })).toBeVisible();
  expect(problems).toEqual([]);
});

test("after Continue and Back the focus is on the new step, which a screen reader names @phone", async ({
  page,
}) => {
  await page.goto("/apply");
  await chooseCookies(page, "necessary");
  await expect(page.getByRole("button", { name: "Continue to Application" })).toBeEnabled();
  await page.getByRole("button", { name: "Continue to Application" }).click();
  await expect(page.getByRole("region", { name: "Step 2 of 3: Personal Info" })).toBeFocused();
  await page.getByRole("button", { name: "Back", exact: true }).click();
  await expect(page.getByRole("region", { name: "Step 1 of 3: Programme Selection" })).toBeFocused();
});
