import { expect, test } from "@playwright/test";
import { chooseCookies, locale, reachPaymentStep } from "./support";

const network = (language: "en" | "zh" | "fr") =>
  (locale(language, "common") as { errors: { network: string } }).errors.network;

test.describe("an applicant on a bad connection", () => {
  test("the network fails on Proceed: a plain message, nothing lost, and the retry goes through @phone", async ({
    page,
  }) => {
    await page.goto("/");
    await chooseCookies(page, "necessary");
    await reachPaymentStep(page, { email: `network-${Date.now()}@example.com` });
    const terms = page.getByLabel(/I have read and accept/);
    await terms.check();

    // The connection drops while the checkout is being opened.
    let failed = 0;
    await page.route("**/api/create-checkout-session", async (route) => {
      if (failed++ === 0) return route.abort("internetdisconnected");
      return route.continue();
    });
    const proceed = page.getByRole("button", { name: /Proceed to Payment/ });
    await proceed.click();
    await expect(page.getByText(network("en")).first()).toBeVisible();
    await expect(page.getByText("Failed to fetch")).toHaveCount(0);
    // Still on the payment step, with the terms still accepted.
    await expect(page).toHaveURL(/\/en\/apply\/payment$/);
    await expect(terms).toBeChecked();

    await proceed.click();
    await expect(page).toHaveURL(/\/test-payment\?session_id=/);
    expect(failed).toBe(2);
  });
});
