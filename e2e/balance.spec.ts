import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import {
  chooseCookies,
  demoQuote,
  euros,
  expectNoAxeViolations,
  linkFromOutbox,
  pathOf,
  reachPaymentStep,
  registerStudent,
  uniqueEmail,
} from "./support";

/**
 * See docs/product/payments.md#deposit-and-balance (decision 016): the demo's September cohort takes a 30 %
 * deposit. A student pays the deposit when applying, creates the student account with the same
 * e-mail, confirms it, pays the balance from the portal on the offline provider's checkout and
 * downloads the balance's invoice.
 */

/** September, Standard package, shared room: 3,045.00 EUR less the early discount when in effect; 30 % now. */
const QUOTE = demoQuote(304_500, 30);
const DEPOSIT = euros(QUOTE.depositAmount);
const BALANCE = euros(QUOTE.remainingAmount);
test("a student with a 30 % deposit pays the balance from the portal", async ({ page }) => {
  test.setTimeout(150_000);
  const dataDir = process.env.E2E_DATA_DIR!;
  const email = uniqueEmail("balance");

  await page.goto("/");
  await chooseCookies(page, "necessary");
  await reachPaymentStep(page, { email, school: /— September \d{4}/ });
  await page.getByLabel(/I have read and accept/).check();
  await page.getByRole("button", { name: /Proceed to Payment/ }).click();
  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  await expect(page.getByText(DEPOSIT).first()).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();
  await expect(page.getByText("Payment Received")).toBeVisible();

  // The student account, with the e-mail of the application, confirmed from the e-mail.
  await page.goto("/student/register");
  await registerStudent(page, {
    firstName: "Thandiwe",
    lastName: "Mokoena",
    email,
    password: "tulips along the canal",
  });
  await expect(page).toHaveURL(/\/student\/dashboard$/);
  const verify = await linkFromOutbox(dataDir, email, "/student/verify-email?token=");
  await page.goto(pathOf(verify));
  await expect(page.getByText("Your email address is confirmed")).toBeVisible();
  await page.goto("/student/dashboard");

  // The dashboard says what is owed and by when, and never "Paid".
  const card = page.getByRole("listitem").filter({ hasText: /September \d{4}/ });
  await expect(card.getByText("Deposit paid, balance due")).toBeVisible();
  await expect(
    card.getByText(new RegExp(`Balance of ${BALANCE.replace(".", "\\.")} due by \\d{1,2} August \\d{4}\\.`)),
  ).toBeVisible();
  await expectNoAxeViolations(page, "/student/dashboard");
  await card.getByRole("link", { name: "Pay balance" }).click();

  await expect(page).toHaveURL(/\/student\/payment\?application=/);
  await expect(page.getByRole("heading", { level: 1, name: "Payments and balance" })).toBeVisible();
  await expect(page.getByText(/You paid a deposit of 30% when you applied/)).toBeVisible();
  await expect(page.getByRole("cell", { name: "Deposit" })).toBeVisible();
  await expectNoAxeViolations(page, "/student/payment");
  await page.getByRole("button", { name: `Pay balance: ${BALANCE}` }).click();

  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  await expect(page.getByText(BALANCE).first()).toBeVisible();
  await page.getByRole("button", { name: /^Pay/ }).click();

  await expect(page).toHaveURL(/\/student\/payment-success\?session_id=/);
  await expect(page.getByRole("heading", { level: 1, name: "Payment received" })).toBeVisible();
  await expectNoAxeViolations(page, "/student/payment-success");
  await page.getByRole("link", { name: "See my payments" }).click();
  await expect(page.getByText("Your programme fee is paid in full. Thank you.")).toBeVisible();
  await expect(page.getByRole("cell", { name: "Balance", exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Pay balance/ })).toHaveCount(0);

  // Two invoices, one per payment; the balance's downloads as a PDF that names it.
  const downloads = page.getByRole("link", { name: /^Invoice \d{4}-\d{6}: download the PDF$/ });
  await expect(downloads).toHaveCount(2);
  const [download] = await Promise.all([page.waitForEvent("download"), downloads.last().click()]);
  expect(download.suggestedFilename()).toMatch(/^invoice-\d{4}-\d{6}\.pdf$/);
  const pdf = readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
  const text = execFileSync("pdftotext", ["-layout", "-", "-"], { input: pdf }).toString();
  expect(text).toContain("Amara Okafor");
  expect(text).toContain("12 Marina Road");
  expect(text).toMatch(/Balance/);
  expect(text).toContain(BALANCE.slice(1));
});
