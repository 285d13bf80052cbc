import { expect, type Page, test } from "@playwright/test";
import { chooseCookies } from "./support";

/** Every script the page fetches from now on: its path and its size on the wire (compressed). */
function scriptsOf(page: Page) {
  const scripts: Array<{ path: string; bytes: Promise<number> }> = [];
  page.on("requestfinished", (request) => {
    if (request.resourceType() !== "script") return;
    scripts.push({
      path: new URL(request.url()).pathname,
      bytes: request.sizes().then((sizes) => sizes.responseBodySize),
    });
  });
  return scripts;
}

test.describe("a visitor on a slow phone network (docs/product/portals.md#public-site)", () => {
  test("downloads at most 120 KB of JavaScript for the landing page", async ({ page }) => {
    const scripts = scriptsOf(page);
    await page.goto("/");
    await page.waitForLoadState("networkidle");
    const total = (await Promise.all(scripts.map((s) => s.bytes))).reduce((sum, n) => sum + n, 0);
    expect(scripts.length).toBeGreaterThan(0);
    expect(total, scripts.map((s) => s.path).join("\n")).toBeLessThanOrEqual(120 * 1024);
  });

  test("gets the application's later steps only once they start choosing on /apply @phone", async ({
    page,
  }) => {
    const scripts = scriptsOf(page);
    await page.goto("/apply");
    await page.waitForLoadState("networkidle");
    const later = () => scripts.filter((s) => /\/(PersonalStep|PaymentStep)-[\w-]+\.js$/.test(s.path));
    expect(later()).toEqual([]);

    await chooseCookies(page, "necessary");
    await expect.poll(() => later().length).toBe(2);
    await page.getByRole("button", { name: "Continue to Application" }).click();
    await expect(page.getByRole("heading", { name: "About you" })).toBeVisible();
  });
});
