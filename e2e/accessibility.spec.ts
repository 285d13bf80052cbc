import { expect, type Page } from "@playwright/test";
import {
  applyCode,
  chooseCookies,
  chooseSchool,
  fillPersonalStep,
  locale,
  PUBLIC_ROUTES,
  test,
  uniqueEmail,
  useLanguage,
  wcagViolations,
} from "./support";

/** Opens a page as a first-time visitor (cookie notice shown) and checks it with axe. */
async function expectNoViolations(page: Page, path: string, language: "en" | "zh" | "fr" = "en") {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // The cookie notice appears once the page is interactive; it is checked with the page.
  await expect(page.getByRole("region", { name: locale(language, "common").cookies.title })).toBeVisible();
  // The wizard loads packages and housing in the browser: wait until school, package and housing are chosen.
  if (path === "/apply") await expect(page.getByRole("radio", { checked: true })).toHaveCount(3);
  expect.soft(await wcagViolations(page), `WCAG violations on ${path}`).toEqual([]);
}

// Four groups of public pages, so the two workers share them.
const GROUPS = [0, 1, 2, 3].map((g) => PUBLIC_ROUTES.filter((_, i) => i % 4 === g));

test.describe("a visitor using assistive technology finds no WCAG 2.1 AA barriers", () => {
  for (const group of GROUPS) {
    test(`on the public pages ${group.join(", ")} @phone`, async ({ page }) => {
      for (const path of group) await expectNoViolations(page, path);
    });
  }

  for (const language of ["zh", "fr"] as const) {
    test(`on the home and apply pages in ${language} @phone`, async ({ page, context, baseURL }) => {
      await useLanguage(context, baseURL, language);
      for (const path of ["/", "/apply"]) {
        await expectNoViolations(page, path, language);
        await expect(page.locator("html")).toHaveAttribute("lang", language);
      }
    });
  }

  test("on every step of the application, from programme selection to the confirmation @phone", async ({
    page,
  }) => {
    const en = locale("en", "apply");
    const check = async (step: string) => {
      await page.waitForLoadState("networkidle");
      expect.soft(await wcagViolations(page), `WCAG violations on ${step}`).toEqual([]);
    };
    await page.goto("/");
    await chooseCookies(page, "necessary");
    await page.goto("/apply");
    await chooseSchool(page, /— September \d{4}/);
    await check("step 1, programme selection");

    await page.getByRole("button", { name: en.program.continue }).click();
    await page.getByRole("button", { name: en.personal.continue }).click();
    await expect(page.getByLabel(en.personal.firstName)).toHaveAttribute("aria-invalid", "true");
    await check("step 2 with its errors shown");

    await fillPersonalStep(page, { email: uniqueEmail("a11y") });
    await page.getByRole("button", { name: en.personal.continue }).click();
    await expect(page.getByRole("heading", { name: en.payment.summaryTitle })).toBeVisible();
    await check("step 3, payment");

    await applyCode(page, "FULLSCHOLAR");
    await expect(page.getByRole("heading", { name: en.payment.zeroTitle })).toBeVisible();
    await check("step 3, fully discounted");

    await page.getByLabel(/I have read and accept/).check();
    await page.getByRole("button", { name: en.payment.completeApplication }).click();
    await expect(page.getByRole("heading", { name: en.confirmation.title })).toBeVisible();
    await check("step 4, confirmation");
  });
});
