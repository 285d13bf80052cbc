import { expect } from "@playwright/test";
import { applyCode, chooseCookies, demoQuote, euros, reachPaymentStep, test, uniqueEmail } from "./support";

test("a scholarship student completes the application without paying @phone", async ({ page }) => {
  await page.goto("/");
  await chooseCookies(page, "necessary");
  // August: paid in full when applying (September takes a deposit; its first amount is not the total).
  await reachPaymentStep(page, { email: uniqueEmail("scholar"), school: /— August \d{4}/ });
  // Before the code: the price less the early application discount while it is in effect.
  const quote = demoQuote(304_500);
  await expect(page.getByRole("button", { name: /Proceed to Payment/ })).toContainText(
    euros(quote.totalAmount),
  );
  // The amount struck through is the price before any discount (Standard package, shared room).
  const original = euros(quote.originalAmount);

  await applyCode(page, "FULLSCHOLAR");

  await expect(page.getByRole("heading", { name: "Complete Your Application" })).toBeVisible();
  await expect(page.getByText("100% Discount Applied")).toBeVisible();
  const struck = page.locator("s");
  await expect(struck).toHaveText(original);
  await expect(struck).toHaveCSS("text-decoration-line", "line-through");
  await expect(page.getByText("Total due: €0.00")).toBeVisible();
  await expect(page.getByText("Code applied: FULLSCHOLAR")).toBeVisible();
  await expect(page.getByRole("button", { name: /Proceed to Payment/ })).toHaveCount(0);

  const complete = page.getByRole("button", { name: "Complete Application" });
  await expect(complete).toBeDisabled();
  await page.getByLabel(/I have read and accept/).check();
  await expect(complete).toBeEnabled();
  // The server's answer, with its message when it refuses, so that a failure says which step failed.
  const answered = page.waitForResponse((response) => response.url().endsWith("/api/process-zero-payment"));
  await complete.click();
  const answer = await answered;
  expect(answer.status(), await answer.text()).toBe(200);

  await expect(page.getByRole("heading", { name: "Application Submitted Successfully!" })).toBeVisible();
  await expect(page).toHaveURL(/\/apply(\/payment)?$/);
  // Nothing was paid, and the page does not say otherwise (docs/product/payments.md#zero-payment).
  await expect(page.getByText("No payment due")).toBeVisible();
  await expect(page.getByText("Payment Received")).toHaveCount(0);
  await expect(page.getByText("Original amount")).toBeVisible();
  await expect(page.getByText("Total amount")).toBeVisible();
  // The student never went through a checkout page.
  const visited = await page.evaluate(() => performance.getEntriesByType("navigation").map((e) => e.name));
  expect(visited.join(" ")).not.toContain("test-payment");
});
