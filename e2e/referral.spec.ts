import { type BrowserContext, expect, type Page } from "@playwright/test";
import {
  chooseCookies,
  demoEarlyDiscountInEffect,
  demoQuote,
  euros,
  reachPaymentStep,
  test,
  toastWith,
  uniqueEmail,
} from "./support";

const THIRTY_DAYS = 30 * 24 * 3600;

async function affiliateCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === "affiliate_code");
}

async function referralStorageKeys(page: Page) {
  return page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith("referral_")));
}

test.describe("a visitor arriving through a partner's referral link (docs/product/security.md#d1-partner-cookie-only-with-consent)", () => {
  test("the code is kept in a cookie only after Accept All, for 30 days, and removed when consent is withdrawn", async ({
    page,
    context,
  }) => {
    await page.goto("/?ref=LINDA2027");
    // Before consent the notice does not promise what a cookie would do (docs/product/privacy.md#cookie-consent).
    await expect(toastWith(page, "Referral code noted")).toBeVisible();
    await expect(toastWith(page, "accept cookies")).toBeVisible();
    await expect(toastWith(page, "type it on the payment step")).toBeVisible();
    await expect(page.getByRole("button", { name: "Accept All" })).toBeVisible();
    expect(await affiliateCookie(context)).toBeUndefined();
    expect(await referralStorageKeys(page)).toEqual([]);

    await chooseCookies(page, "all");
    await expect.poll(async () => (await affiliateCookie(context))?.value).toBe("LINDA2027");
    const cookie = await affiliateCookie(context);
    expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(THIRTY_DAYS - 120);
    expect(cookie!.expires - Date.now() / 1000).toBeLessThan(THIRTY_DAYS + 120);

    // Withdrawing is as easy as giving: "Cookie settings" in the footer removes the choice and the
    // affiliate cookie, and the notice comes back.
    await page.getByRole("button", { name: "Cookie settings" }).click();
    await expect.poll(async () => affiliateCookie(context)).toBeUndefined();
    await chooseCookies(page, "necessary");
    await expect.poll(async () => affiliateCookie(context)).toBeUndefined();
    await page.reload();
    await expect(page.getByRole("button", { name: "Accept All" })).toHaveCount(0);
    expect(await affiliateCookie(context)).toBeUndefined();
  });

  test("with necessary cookies only, the code is never written to a cookie", async ({ page, context }) => {
    await page.goto("/?ref=LINDA2027");
    await expect(toastWith(page, "Referral code noted")).toBeVisible();
    await chooseCookies(page, "necessary");
    await page.getByRole("link", { name: "Programme" }).first().click();
    await expect(page).toHaveURL(/\/program$/);
    await page.reload();
    expect(await affiliateCookie(context)).toBeUndefined();
    expect(await referralStorageKeys(page)).toEqual([]);
  });

  test("with consent, the referral code is applied on the payment step without a discount", async ({
    page,
    context,
  }) => {
    await page.goto("/");
    await chooseCookies(page, "all");
    await page.goto("/?ref=LINDA2027");
    await expect(toastWith(page, "Referral code saved")).toBeVisible();
    await expect(toastWith(page, "within the next 30 days")).toBeVisible();
    await expect.poll(async () => (await affiliateCookie(context))?.value).toBe("LINDA2027");

    // A later visit (full page loads): the cookie carries the code to the payment step.
    await reachPaymentStep(page, { email: uniqueEmail("referred") });
    await expect(page.getByText("Code applied: LINDA2027 (referral)")).toBeVisible();
    await expect(page.getByText(/^Discount \(/)).toHaveCount(0);
    // A referral code gives no discount; the early application discount, while in effect, still
    // applies (decision 030) and is its own line of the quote.
    const quote = demoQuote(304_500);
    if (demoEarlyDiscountInEffect())
      await expect(
        page.getByText(/^Early application discount \(10% before \d{1,2} March \d{4}\)$/),
      ).toBeVisible();
    await expect(
      page.getByRole("button", { name: `Proceed to Payment (${euros(quote.totalAmount)})` }),
    ).toBeVisible();
  });
});
