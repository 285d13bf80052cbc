import { expect, test } from "@playwright/test";
import { applyCode, chooseCookies, reachPaymentStep, uniqueEmail } from "./support";

test("a student who cancels on the checkout page comes back to the same order; the cancelled checkout can no longer be paid", async ({
  page,
}) => {
  await page.goto("/");
  await chooseCookies(page, "necessary");
  await reachPaymentStep(page, { email: uniqueEmail("cancel"), school: /— August \d{4}/ });
  // WELCOME10 (10 %) is at least the early application discount, so the code's line shows
  // (a smaller code, like SAVE200 while the early discount is on, would leave the price as it was).
  await applyCode(page, "WELCOME10");
  await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
  const proceed = page.getByRole("button", { name: /Proceed to Payment/ });
  const proceedLabel = (await proceed.textContent())?.trim() ?? "";
  const dueNow = /€[\d,]+\.\d\d/.exec(proceedLabel)?.[0] ?? "missing";

  await page.getByLabel(/I have read and accept/).check();
  await proceed.click();
  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  const firstSession = new URL(page.url()).searchParams.get("session_id");
  expect(firstSession).toBeTruthy();
  await expect(page.getByRole("button", { name: `Pay ${dueNow}` })).toBeVisible();

  await page.getByRole("link", { name: "Cancel and return" }).click();

  await expect(page).toHaveURL(/\/apply\/payment$/);
  await expect(page.getByRole("heading", { name: "Payment Summary" })).toBeVisible();
  await expect(page.getByText("Code applied: WELCOME10")).toBeVisible();
  await expect(page.getByText("Discount (WELCOME10)")).toBeVisible();
  await expect(page.getByText("− €304.50")).toBeVisible();
  await expect(proceed).toHaveText(proceedLabel);

  // Terms must be accepted again; Proceed opens a new checkout for the same order, since the
  // cancelled one was ended (its code's hold released, docs/product/security.md#p4-a-code-held-by-an-open-checkout) and cannot be paid.
  await expect(proceed).toBeDisabled();
  await page.getByLabel(/I have read and accept/).check();
  await proceed.click();
  await expect(page).toHaveURL(/\/test-payment\?session_id=/);
  const secondSession = new URL(page.url()).searchParams.get("session_id");
  expect(secondSession).toBeTruthy();
  expect(secondSession).not.toBe(firstSession);
  await expect(page.getByRole("button", { name: `Pay ${dueNow}` })).toBeVisible();

  await page.goto(`/test-payment?session_id=${firstSession}`);
  await expect(page.getByRole("heading", { name: "This checkout session has expired" })).toBeVisible();
});
